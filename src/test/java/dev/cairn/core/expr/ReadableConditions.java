package dev.cairn.core.expr;

import dev.cairn.core.write.WriteAction;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A write's condition as DynamoDB receives it, with names and values put back in, for tests to read. */
public final class ReadableConditions {

    private ReadableConditions() {
    }

    public static String of(WriteAction action) {
        var p = new Placeholders();
        String text = action.condition().render(p);
        if (p.names() != null) {
            for (var e : p.names().entrySet()) {
                text = text.replace(e.getKey(), e.getValue());
            }
        }
        if (p.values() != null) {
            for (var e : p.values().entrySet()) {
                AttributeValue v = e.getValue();
                text = text.replace(e.getKey(), v.s() != null ? "'" + v.s() + "'" : v.n());
            }
        }
        return text;
    }
}
