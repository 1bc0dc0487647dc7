package dev.cairn.core.expr;

import dev.cairn.core.write.WriteAction;

/** A write's condition as DynamoDB receives it, with names and values put back in, for tests to read. */
public final class ReadableConditions {

    private ReadableConditions() {
    }

    public static String of(WriteAction action) {
        var p = new Placeholders();
        String text = action.condition().render(p);
        var values = new java.util.LinkedHashMap<String, String>();
        if (p.values() != null) {
            p.values().forEach((key, v) -> values.put(key, v.s() != null ? "'" + v.s() + "'" : v.n()));
        }
        return Placeholders.readable(text, p.names() == null ? java.util.Map.of() : p.names(), values);
    }
}
