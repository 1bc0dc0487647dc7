package dev.cairn.core.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The value of a declared entity: its fields in declaration order, in {@link FieldRules}' canonical form (so equal
 * documents are equal, and a patch that changes nothing is seen to change nothing).
 */
public record Doc(Map<String, Object> values) {

    public Doc {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    public Object get(String field) {
        return values.get(field);
    }

    public String text(String field) {
        Object value = values.get(field);
        return value == null ? null : value.toString();
    }

    public Doc with(String field, Object value) {
        var next = new LinkedHashMap<>(values);
        if (value == null) {
            next.remove(field);
        } else {
            next.put(field, value);
        }
        return new Doc(next);
    }
}
