package dev.cairn.bench.rest;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestPath;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/** A course's roster: ONE Query of the inverted index (the enrollment edges), one page. */
@Path("/courses/{id}/students")
public class RosterResource {

    private static final List<String> KEY = List.of("gsi1pk", "gsi1sk", "pk", "sk");

    private final DynamoDbAsyncClient dynamo;
    private final ListedQueries.Listed query;

    public RosterResource(DynamoDbAsyncClient dynamo, ListedQueries queries) {
        this.dynamo = dynamo;
        this.query = queries.route("GET /courses/{cid}/students");
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public CompletionStage<Map<String, Object>> roster(@RestPath String id) {
        return dynamo.query(query.forId(id)).thenApply(response -> {
            List<Map<String, AttributeValue>> items = response.items();
            int size = Math.min(items.size(), query.pageSize());
            var students = new ArrayList<Map<String, Object>>(size);
            for (int i = 0; i < size; i++) {
                Map<String, AttributeValue> item = items.get(i);
                var enrollment = new LinkedHashMap<String, Object>();
                enrollment.put("studentId", Attributes.string(item, "studentId"));
                enrollment.put("courseId", Attributes.string(item, "courseId"));
                enrollment.put("enrolledOn", Attributes.string(item, "enrolledOn"));
                enrollment.put("grade", Attributes.string(item, "grade"));
                enrollment.put("studentName", Attributes.string(item, "studentName"));
                enrollment.put("courseTitle", Attributes.string(item, "courseTitle"));
                students.add(enrollment);
            }
            return Attributes.page(students, Attributes.cursor(items, query.pageSize(), KEY));
        });
    }
}
