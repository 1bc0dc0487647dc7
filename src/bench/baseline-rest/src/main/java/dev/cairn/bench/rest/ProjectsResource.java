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

/** A workspace's projects, newest first: ONE Query of its partition, one page. */
@Path("/workspaces/{id}/projects")
public class ProjectsResource {

    private static final List<String> KEY = List.of("pk", "sk");

    private final DynamoDbAsyncClient dynamo;
    private final ListedQueries.Listed query;

    public ProjectsResource(DynamoDbAsyncClient dynamo, ListedQueries queries) {
        this.dynamo = dynamo;
        this.query = queries.route("GET /workspaces/{id}/projects");
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public CompletionStage<Map<String, Object>> list(@RestPath String id) {
        return dynamo.query(query.forId(id)).thenApply(response -> {
            List<Map<String, AttributeValue>> items = response.items();
            int size = Math.min(items.size(), query.pageSize());
            var projects = new ArrayList<Map<String, Object>>(size);
            for (int i = 0; i < size; i++) {
                Map<String, AttributeValue> item = items.get(i);
                var project = new LinkedHashMap<String, Object>();
                project.put("workspaceId", Attributes.string(item, "workspaceId"));
                project.put("id", Attributes.string(item, "id"));
                project.put("title", Attributes.string(item, "title"));
                project.put("status", Attributes.string(item, "status"));
                project.put("createdBy", Attributes.string(item, "createdBy"));
                project.put("createdAt", Attributes.string(item, "_createdAt"));
                project.put("updatedAt", Attributes.string(item, "_updatedAt"));
                projects.add(project);
            }
            return Attributes.page(projects, Attributes.cursor(items, query.pageSize(), KEY));
        });
    }
}
