package dev.cairn.bench.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Query of each GET route exactly as the app lists it at {@code /access-patterns} (key condition, index,
 * projection, names, order, limit, consistency), read once at start from the file the benchmark writes
 * ({@code baseline.access-patterns}: [{route, exampleId, request}]). A request only puts its id in the key value.
 */
@Singleton
public class ListedQueries {

    private final Map<String, Listed> byRoute = new HashMap<>();

    public ListedQueries(@ConfigProperty(name = "baseline.access-patterns") String file, ObjectMapper json) throws IOException {
        for (JsonNode pattern : json.readTree(Files.readString(Path.of(file)))) {
            byRoute.put(pattern.get("route").asText(), Listed.of(pattern.get("request"), pattern.get("exampleId").asText()));
        }
    }

    /** The route's Query, made once; {@link Listed#forId} fills in a request's id. */
    public Listed route(String route) {
        Listed listed = byRoute.get(route);
        if (listed == null) {
            throw new IllegalStateException("the app lists no Query for " + route);
        }
        return listed;
    }

    /**
     * One listed Query: everything but the key values, and each key value split around the example id the app listed
     * it for (a value without it is kept as it is).
     */
    public record Listed(QueryRequest template, Map<String, String[]> values, int limit) {

        static Listed of(JsonNode request, String exampleId) {
            var names = new LinkedHashMap<String, String>();
            request.path("ExpressionAttributeNames").fields().forEachRemaining(e -> names.put(e.getKey(), e.getValue().asText()));
            var values = new LinkedHashMap<String, String[]>();
            request.path("ExpressionAttributeValues").fields().forEachRemaining(e -> {
                String text = e.getValue().get("S").asText();
                int at = text.indexOf(exampleId);
                values.put(e.getKey(), at < 0 ? new String[]{text}
                        : new String[]{text.substring(0, at), text.substring(at + exampleId.length())});
            });
            QueryRequest template = QueryRequest.builder().tableName(request.get("TableName").asText())
                    .indexName(request.hasNonNull("IndexName") ? request.get("IndexName").asText() : null)
                    .keyConditionExpression(request.get("KeyConditionExpression").asText())
                    .projectionExpression(request.hasNonNull("ProjectionExpression") ? request.get("ProjectionExpression").asText() : null)
                    .expressionAttributeNames(names)
                    .scanIndexForward(request.path("ScanIndexForward").asBoolean(true))
                    .consistentRead(request.hasNonNull("ConsistentRead") ? request.get("ConsistentRead").asBoolean() : null)
                    .limit(request.hasNonNull("Limit") ? request.get("Limit").asInt() : null)
                    .build();
            return new Listed(template, values, request.hasNonNull("Limit") ? request.get("Limit").asInt() : 0);
        }

        public QueryRequest forId(String id) {
            var key = new HashMap<String, AttributeValue>(4);
            values.forEach((name, parts) -> key.put(name, AttributeValue.fromS(parts.length == 1 ? parts[0] : parts[0] + id + parts[1])));
            return template.toBuilder().expressionAttributeValues(key).build();
        }

        /** A page's size: the app asks for one item more than it answers, to know whether another page follows. */
        public int pageSize() {
            return limit - 1;
        }
    }
}
