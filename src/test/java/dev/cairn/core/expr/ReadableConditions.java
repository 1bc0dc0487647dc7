package dev.cairn.core.expr;

import dev.cairn.core.write.WriteAction;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.LinkedHashMap;
import java.util.Map;

/** A write's condition (or update) as DynamoDB receives it, with names and values put back in, for tests to read. */
public final class ReadableConditions {

    private ReadableConditions() {
    }

    public static String of(WriteAction action) {
        var p = new Placeholders();
        return readable(action.condition().render(p), p);
    }

    /** The update expression; a map or list value reads as {@code {…}}. */
    public static String update(WriteAction action) {
        var p = new Placeholders();
        return readable(action.update().render(p), p);
    }

    private static String readable(String text, Placeholders p) {
        var values = new LinkedHashMap<String, String>();
        if (p.values() != null) {
            p.values().forEach((key, v) -> values.put(key, text(v)));
        }
        return Placeholders.readable(text, p.names() == null ? Map.of() : p.names(), values);
    }

    private static String text(AttributeValue v) {
        return v.s() != null ? "'" + v.s() + "'" : v.n() != null ? v.n() : "{…}";
    }
}
