package dev.cairn.core.item;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * DynamoDB's item size rules: attribute names plus values in UTF-8, numbers by significant digits, and a few
 * bytes of overhead per list or map element. Used to reject an item over 400 KB before it is sent.
 */
public final class ItemSize {

    public static final long MAX_ITEM_BYTES = 400 * 1024;

    private ItemSize() {
    }

    public static long of(Map<String, AttributeValue> item) {
        long total = 0;
        for (var entry : item.entrySet()) {
            total += utf8(entry.getKey()) + of(entry.getValue());
        }
        return total;
    }

    public static long of(AttributeValue value) {
        return switch (value.type()) {
            case S -> utf8(value.s());
            case N -> 1 + (digits(value.n()) + 1) / 2;
            case B -> value.b().asByteArray().length;
            case BOOL, NUL -> 1;
            case SS -> value.ss().stream().mapToLong(ItemSize::utf8).sum();
            case NS -> value.ns().stream().mapToLong(n -> 1 + (n.length() + 1) / 2).sum();
            case BS -> value.bs().stream().mapToLong(b -> b.asByteArray().length).sum();
            case L -> 3 + value.l().stream().mapToLong(v -> 1 + of(v)).sum();
            case M -> 3 + value.m().entrySet().stream().mapToLong(e -> 1 + utf8(e.getKey()) + of(e.getValue())).sum();
            default -> 0;
        };
    }

    /** The decimal digits of a number's text (every write sizes its numbers: no regex per attribute). */
    private static int digits(String number) {
        int digits = 0;
        for (int i = 0; i < number.length(); i++) {
            char c = number.charAt(i);
            if (c >= '0' && c <= '9') {
                digits++;
            }
        }
        return digits;
    }

    private static long utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }
}
