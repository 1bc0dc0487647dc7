package dev.cairn.core.expr;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code #name} / {@code :value} placeholder maps of ONE request. Every expression of the request (key
 * condition, filter, condition, update, projection) renders into the same instance, so placeholders never
 * collide, and neither values nor user-supplied names are ever concatenated into expression text: reserved
 * words and names with dots, spaces or {@code #} need no special care.
 */
public final class Placeholders {

    private final Map<String, String> names = new LinkedHashMap<>();
    private final Map<String, String> placeholderByName = new LinkedHashMap<>();
    private final Map<String, AttributeValue> values = new LinkedHashMap<>();

    /** The placeholder for an attribute name; the same name always gets the same placeholder. */
    public String name(String attributeName) {
        return placeholderByName.computeIfAbsent(attributeName, n -> {
            String placeholder = "#n" + names.size();
            names.put(placeholder, n);
            return placeholder;
        });
    }

    /** A document path ({@code _refv.title.v}) with every segment a name placeholder. */
    public String path(List<String> segments) {
        return String.join(".", segments.stream().map(this::name).toList());
    }

    /** A fresh placeholder for a value. */
    public String value(AttributeValue value) {
        String placeholder = ":v" + values.size();
        values.put(placeholder, value);
        return placeholder;
    }

    /**
     * The names map in the order the placeholders were made, or null when empty (DynamoDB rejects an empty map). Not
     * {@code Map.copyOf}: its iteration order changes from one JVM to the next, and a request should read the same
     * in every process.
     */
    public Map<String, String> names() {
        return names.isEmpty() ? null : Collections.unmodifiableMap(new LinkedHashMap<>(names));
    }

    /** The values map in the order the placeholders were made, or null when empty. */
    public Map<String, AttributeValue> values() {
        return values.isEmpty() ? null : Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /**
     * An expression with its placeholders put back ({@code #n0 = :v0} → {@code pk = CRS#math204}), for people to
     * read; never sent. Longer placeholders first, so {@code :v10} is not read as {@code :v1} followed by 0.
     */
    public static String readable(String expression, Map<String, String> names, Map<String, String> values) {
        String text = expression;
        for (Map<String, String> map : List.of(names, values)) {
            var keys = new ArrayList<>(map.keySet());
            keys.sort(Comparator.comparingInt(String::length).reversed());
            for (String key : keys) {
                text = text.replace(key, map.get(key));
            }
        }
        return text;
    }
}
