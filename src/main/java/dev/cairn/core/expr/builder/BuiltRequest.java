package dev.cairn.core.expr.builder;

import dev.cairn.core.CairnError.FieldError;
import dev.cairn.core.expr.Placeholders;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A request the builder composed: its expressions with their placeholder maps, as the SDK request it runs as and as
 * DynamoDB JSON ({@link #request()}, what {@code --cli-input-json} and the snippets take). {@code partition} holds
 * the partition key values it reads or writes (none for a Scan: it reads every partition); {@code valueFields} the
 * fields of the spec each value placeholder stands for (where the user renames it). {@code reserved} lists the
 * names that are DynamoDB reserved words; {@code warnings} say where a value's type differs from the models'.
 */
public record BuiltRequest(Operation operation, String table, String indexName, String keyCondition, String filter,
                           String condition, String update, String projection, Map<String, String> names,
                           Map<String, AttributeValue> values, Map<String, AttributeValue> key, boolean descending,
                           Integer limit, boolean consistent, Map<String, AttributeValue> partition,
                           Map<String, List<String>> valueFields, List<String> reserved, List<FieldError> warnings) {

    public BuiltRequest {
        valueFields = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(valueFields));
        partition = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(partition));
        names = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(names));
        values = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(values));
        key = key == null ? null : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(key));
        reserved = List.copyOf(reserved);
        warnings = List.copyOf(warnings);
    }

    /** The request in the DynamoDB API's JSON form, its members in the order the API documents them. */
    public Map<String, Object> request() {
        var out = new LinkedHashMap<String, Object>();
        out.put("TableName", table);
        if (indexName != null) {
            out.put("IndexName", indexName);
        }
        if (key != null) {
            out.put("Key", DynamoJson.ofValues(key));
        }
        putIf(out, "KeyConditionExpression", keyCondition);
        putIf(out, "FilterExpression", filter);
        putIf(out, "UpdateExpression", update);
        putIf(out, "ConditionExpression", condition);
        putIf(out, "ProjectionExpression", projection);
        if (!names.isEmpty()) {
            out.put("ExpressionAttributeNames", names);
        }
        if (!values.isEmpty()) {
            out.put("ExpressionAttributeValues", DynamoJson.ofValues(values));
        }
        if (operation == Operation.QUERY) {
            out.put("ScanIndexForward", !descending);
        }
        if (limit != null) {
            out.put("Limit", limit);
        }
        if (operation.isRead() && indexName == null) {
            out.put("ConsistentRead", consistent);
        }
        if (operation == Operation.UPDATE_ITEM) {
            out.put("ReturnValues", "ALL_NEW");
        }
        out.put("ReturnConsumedCapacity", "TOTAL");
        return out;
    }

    private static void putIf(Map<String, Object> out, String name, String value) {
        if (value != null) {
            out.put(name, value);
        }
    }

    /** An expression with its placeholders put back, for people to read; never sent. */
    public String readable(String expression) {
        if (expression == null) {
            return null;
        }
        var shown = new LinkedHashMap<String, String>();
        values.forEach((placeholder, value) -> shown.put(placeholder, Operand.textOf(value)));
        return Placeholders.readable(expression, names, shown);
    }

    private Map<String, String> namesOrNull() {
        return names.isEmpty() ? null : names;
    }

    private Map<String, AttributeValue> valuesOrNull() {
        return values.isEmpty() ? null : values;
    }

    public QueryRequest toQuery(Map<String, AttributeValue> exclusiveStartKey) {
        return QueryRequest.builder().tableName(table).indexName(indexName).keyConditionExpression(keyCondition)
                .filterExpression(filter).projectionExpression(projection).expressionAttributeNames(namesOrNull())
                .expressionAttributeValues(valuesOrNull()).scanIndexForward(!descending).limit(limit)
                .consistentRead(indexName == null ? consistent : null).exclusiveStartKey(exclusiveStartKey)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build();
    }

    public ScanRequest toScan(Map<String, AttributeValue> exclusiveStartKey) {
        return ScanRequest.builder().tableName(table).indexName(indexName).filterExpression(filter)
                .projectionExpression(projection).expressionAttributeNames(namesOrNull())
                .expressionAttributeValues(valuesOrNull()).limit(limit)
                .consistentRead(indexName == null ? consistent : null).exclusiveStartKey(exclusiveStartKey)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build();
    }

    public GetItemRequest toGetItem() {
        return GetItemRequest.builder().tableName(table).key(key).projectionExpression(projection)
                .expressionAttributeNames(namesOrNull()).consistentRead(consistent)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build();
    }

    /** The write as it would be sent: the console shows it and never sends it. */
    public UpdateItemRequest toUpdateItem() {
        return UpdateItemRequest.builder().tableName(table).key(key).updateExpression(update)
                .conditionExpression(condition).expressionAttributeNames(namesOrNull())
                .expressionAttributeValues(valuesOrNull()).returnValues(ReturnValue.ALL_NEW)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build();
    }

    /**
     * What this read selects, not its page size: bound into its cursors, so a cursor opens only the read that made it
     * (the same text in every process: both maps sorted).
     */
    public String binding() {
        var shownValues = new TreeMap<String, Object>();
        values.forEach((placeholder, value) -> shownValues.put(placeholder, DynamoJson.of(value)));
        return "builder|" + operation.wire() + "|" + indexName + "|" + keyCondition + "|" + filter + "|" + projection
                + "|" + descending + "|" + consistent + "|" + new TreeMap<>(names) + "|" + DynamoJson.write(shownValues);
    }
}
