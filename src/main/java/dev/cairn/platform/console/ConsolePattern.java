package dev.cairn.platform.console;

import dev.cairn.core.expr.Placeholders;
import dev.cairn.core.query.AccessPattern;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An access pattern as the console shows it: where it reads (table or index), its key condition (as sent, and with
 * its placeholders put back for reading) and placeholder maps, the SDK request as JSON and as Java, and the route's parameters if the console may run it (GET only).
 */
public record ConsolePattern(String name, String route, String operation, String table, String index,
                             String keyCondition, String readableKeyCondition, Map<String, Object> names,
                             Map<String, Object> values,
                             Map<String, Object> request, String java, boolean runnable, List<String> parameters) {

    private static final Pattern PARAMETER = Pattern.compile("\\{([A-Za-z]+)}");

    @SuppressWarnings("unchecked")
    static ConsolePattern of(AccessPattern pattern) {
        Map<String, Object> request = pattern.request();
        String index = (String) request.get("IndexName");
        var parameters = new ArrayList<String>();
        Matcher m = PARAMETER.matcher(pattern.route());
        while (m.find()) {
            parameters.add(m.group(1));
        }
        var names = (Map<String, Object>) request.getOrDefault("ExpressionAttributeNames", Map.of());
        var values = (Map<String, Object>) request.getOrDefault("ExpressionAttributeValues", Map.of());
        boolean get = pattern.operation().equals("GetItem");
        String keyCondition = get ? "Key = " + request.get("Key") : (String) request.get("KeyConditionExpression");
        String readable = get ? readableKey((Map<String, Object>) request.get("Key"))
                : Placeholders.readable(keyCondition, strings(names), scalars(values));
        return new ConsolePattern(pattern.name(), pattern.route(), pattern.operation(),
                (String) request.get("TableName"), index == null ? "table" : index, keyCondition, readable, names, values,
                request, java(pattern.operation(), request), pattern.route().startsWith("GET "), parameters);
    }

    /** {@code {pk: {S: X}, sk: {S: Y}}} → {@code pk = X AND sk = Y}. */
    private static String readableKey(Map<String, Object> key) {
        var parts = new ArrayList<String>();
        scalars(key).forEach((name, value) -> parts.add(name + " = " + value));
        return String.join(" AND ", parts);
    }

    private static Map<String, String> strings(Map<String, Object> names) {
        var out = new LinkedHashMap<String, String>();
        names.forEach((k, v) -> out.put(k, String.valueOf(v)));
        return out;
    }

    /** {@code {":v0": {"S": "CRS#math204"}}} → {@code {":v0": "CRS#math204"}}. */
    @SuppressWarnings("unchecked")
    private static Map<String, String> scalars(Map<String, Object> typed) {
        var out = new TreeMap<String, String>();
        typed.forEach((k, v) -> out.put(k, v instanceof Map<?, ?> m && !m.isEmpty()
                ? String.valueOf(((Map<String, Object>) m).values().iterator().next()) : String.valueOf(v)));
        return out;
    }

    /** The same request written with the AWS SDK v2 builders. */
    @SuppressWarnings("unchecked")
    static String java(String operation, Map<String, Object> request) {
        var out = new StringBuilder(operation).append("Request request = ").append(operation).append("Request.builder()\n")
                .append("        .tableName(").append(quote(request.get("TableName"))).append(")\n");
        if (operation.equals("GetItem")) {
            out.append("        .key(").append(attributeMap((Map<String, Object>) request.get("Key"))).append(")\n")
                    .append("        .consistentRead(true)\n");
        } else {
            if (request.get("IndexName") != null) {
                out.append("        .indexName(").append(quote(request.get("IndexName"))).append(")\n");
            }
            out.append("        .keyConditionExpression(").append(quote(request.get("KeyConditionExpression"))).append(")\n");
            if (request.get("FilterExpression") != null) {
                out.append("        .filterExpression(").append(quote(request.get("FilterExpression"))).append(")\n");
            }
            var names = new StringBuilder();
            ((Map<String, Object>) request.getOrDefault("ExpressionAttributeNames", Map.of())).forEach((k, v) ->
                    names.append(names.isEmpty() ? "" : ", ").append(quote(k)).append(", ").append(quote(v)));
            out.append("        .expressionAttributeNames(Map.of(").append(names).append("))\n");
            out.append("        .expressionAttributeValues(")
                    .append(attributeMap((Map<String, Object>) request.getOrDefault("ExpressionAttributeValues", Map.of())))
                    .append(")\n");
            out.append("        .scanIndexForward(").append(request.get("ScanIndexForward")).append(")\n");
            if (request.get("Limit") != null) {
                out.append("        .limit(").append(request.get("Limit")).append(")\n");
            }
            if (request.get("ConsistentRead") != null) {
                out.append("        .consistentRead(").append(request.get("ConsistentRead")).append(")\n");
            }
        }
        return out.append("        .build();").toString();
    }

    @SuppressWarnings("unchecked")
    private static String attributeMap(Map<String, Object> values) {
        var out = new StringBuilder("Map.of(");
        boolean first = true;
        for (var entry : values.entrySet()) {
            var typed = (Map<String, Object>) entry.getValue();
            String type = typed.keySet().iterator().next();
            out.append(first ? "" : ", ").append(quote(entry.getKey())).append(", AttributeValue.from").append(type)
                    .append('(').append(quote(typed.get(type))).append(')');
            first = false;
        }
        return out.append(')').toString();
    }

    private static String quote(Object value) {
        return '"' + String.valueOf(value).replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
