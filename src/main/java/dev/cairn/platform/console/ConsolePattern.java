package dev.cairn.platform.console;

import dev.cairn.core.expr.Placeholders;
import dev.cairn.core.expr.builder.BuilderSpec;
import dev.cairn.core.expr.builder.ExpressionBuilder;
import dev.cairn.core.expr.builder.ExpressionParser;
import dev.cairn.core.expr.builder.Snippets;
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
 * its placeholders put back for reading) and placeholder maps, the SDK request as JSON, its snippets (AWS CLI, Java,
 * JavaScript), the spec that opens it in the expression builder, and the route's parameters if the console may run it
 * (GET only).
 */
public record ConsolePattern(String name, String route, String operation, String table, String index,
                             String keyCondition, String readableKeyCondition, Map<String, Object> names,
                             Map<String, Object> values, Map<String, Object> request, Snippets snippets,
                             BuilderSpec builder, boolean runnable, List<String> parameters) {

    private static final Pattern PARAMETER = Pattern.compile("\\{([A-Za-z]+)}");

    @SuppressWarnings("unchecked")
    static ConsolePattern of(AccessPattern pattern, Snippets.Endpoint endpoint) {
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
                request, pattern.withSnippets(endpoint).snippets(), builderSpec(pattern), pattern.route().startsWith("GET "),
                parameters);
    }

    /** The pattern as the builder composes it; one reading more than a console page opens with the console's page. */
    private static BuilderSpec builderSpec(AccessPattern pattern) {
        BuilderSpec spec = ExpressionParser.spec(pattern.operation(), pattern.request());
        return spec.limit() == null ? spec : spec.withLimit(Math.min(spec.limit(), ExpressionBuilder.MAX_LIMIT));
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

}
