package dev.cairn.core.query;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cairn.core.expr.builder.Operation;
import dev.cairn.core.expr.builder.Snippets;
import dev.cairn.core.key.PrimaryKey;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * One access pattern of a domain, with the exact request it sends for example parameters: documentation and
 * tooling read this instead of guessing what a route costs. {@code snippets} are that request as an AWS CLI command,
 * a Java and a JavaScript program, once an endpoint is known ({@link #withSnippets}).
 */
public record AccessPattern(String name, String route, String operation, Map<String, Object> request, Snippets snippets,
                            @JsonInclude(JsonInclude.Include.NON_NULL)
                            @Schema(description = "What the answer leaves out of what the request reads (absent: nothing)")
                            String filter) {

    /** What a read of items that expire leaves out, after the read. */
    public static final String EXPIRED = "items past their expiry: those whose " + dev.cairn.core.TableSpec.EXPIRES_AT
            + " (epoch seconds) is at or before now are left out after the read (they still cost their read capacity, "
            + "and a page may come back shorter than its Limit)";

    public AccessPattern(String name, String route, String operation, Map<String, Object> request) {
        this(name, route, operation, request, null, null);
    }

    public AccessPattern(String name, String route, String operation, Map<String, Object> request, Snippets snippets) {
        this(name, route, operation, request, snippets, null);
    }

    /** The pattern with its snippets, for requests sent to {@code endpoint}. */
    public AccessPattern withSnippets(Snippets.Endpoint endpoint) {
        return new AccessPattern(name, route, operation, request, Snippets.of(Operation.named(operation), request, endpoint),
                filter);
    }

    /** The same pattern, whose answer leaves out expired items ({@link #EXPIRED}). */
    public AccessPattern hidingExpired() {
        return new AccessPattern(name, route, operation, request, snippets, EXPIRED);
    }

    /** A listed Query, as the store sends it: a paged one asks for one item more than its page ({@link QuerySpec#lookingAhead}). */
    public static AccessPattern query(String name, String route, String table, QuerySpec query) {
        return new AccessPattern(name, route, "Query", explain(query.lookingAhead().toRequest(table, null)));
    }

    public static AccessPattern getItem(String name, String route, String table, PrimaryKey key) {
        GetItemRequest request = GetItemRequest.builder().tableName(table).key(key.toAttributes()).consistentRead(true).build();
        var out = new LinkedHashMap<String, Object>();
        out.put("TableName", request.tableName());
        out.put("Key", plain(request.key()));
        out.put("ConsistentRead", true);
        return new AccessPattern(name, route, "GetItem", out);
    }

    /** The request in the shape of the DynamoDB JSON API (what {@code aws dynamodb query --cli-input-json} takes). */
    public static Map<String, Object> explain(QueryRequest request) {
        var out = new LinkedHashMap<String, Object>();
        out.put("TableName", request.tableName());
        if (request.indexName() != null) {
            out.put("IndexName", request.indexName());
        }
        out.put("KeyConditionExpression", request.keyConditionExpression());
        if (request.filterExpression() != null) {
            out.put("FilterExpression", request.filterExpression());
        }
        if (request.projectionExpression() != null) {
            out.put("ProjectionExpression", request.projectionExpression());
        }
        out.put("ExpressionAttributeNames", new TreeMap<>(request.expressionAttributeNames()));
        out.put("ExpressionAttributeValues", plain(request.expressionAttributeValues()));
        out.put("ScanIndexForward", request.scanIndexForward());
        if (request.limit() != null) {
            out.put("Limit", request.limit());
        }
        if (request.consistentRead() != null) {
            out.put("ConsistentRead", request.consistentRead());
        }
        return out;
    }

    private static Map<String, Object> plain(Map<String, AttributeValue> values) {
        var out = new TreeMap<String, Object>();
        values.forEach((k, v) -> out.put(k, v.s() != null ? Map.of("S", v.s()) : Map.of("N", String.valueOf(v.n()))));
        return out;
    }
}
