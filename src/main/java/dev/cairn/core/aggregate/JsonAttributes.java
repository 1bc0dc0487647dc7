package dev.cairn.core.aggregate;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** JSON-like values (String, Number, Boolean, List, Map, null) to DynamoDB attributes and back. */
public final class JsonAttributes {

    private JsonAttributes() {
    }

    public static AttributeValue toAttribute(Object value) {
        if (value == null) {
            return AttributeValue.fromNul(true);
        }
        if (value instanceof String s) {
            return AttributeValue.fromS(s);
        }
        if (value instanceof Boolean b) {
            return AttributeValue.fromBool(b);
        }
        if (value instanceof BigDecimal d) {
            return AttributeValue.fromN(d.stripTrailingZeros().toPlainString());
        }
        if (value instanceof Number n) {
            return AttributeValue.fromN(new BigDecimal(n.toString()).stripTrailingZeros().toPlainString());
        }
        if (value instanceof List<?> list) {
            return AttributeValue.fromL(list.stream().map(JsonAttributes::toAttribute).toList());
        }
        if (value instanceof Map<?, ?> map) {
            var out = new LinkedHashMap<String, AttributeValue>();
            map.forEach((k, v) -> out.put((String) k, toAttribute(v)));
            return AttributeValue.fromM(out);
        }
        throw new IllegalArgumentException("not a JSON-like value: " + value.getClass().getSimpleName());
    }

    public static Object fromAttribute(AttributeValue value) {
        return switch (value.type()) {
            case S -> value.s();
            case N -> number(value.n());
            case BOOL -> value.bool();
            case NUL -> null;
            case L -> value.l().stream().map(JsonAttributes::fromAttribute).toList();
            case M -> fromMap(value.m());
            default -> throw new IllegalArgumentException("unsupported attribute type " + value.type());
        };
    }

    public static Map<String, Object> fromMap(Map<String, AttributeValue> attributes) {
        var out = new LinkedHashMap<String, Object>();
        attributes.forEach((k, v) -> out.put(k, fromAttribute(v)));
        return out;
    }

    /** Integral numbers come back as Long, others as BigDecimal, so equal values compare equal. */
    static Object number(String text) {
        if (isSmallInteger(text)) {
            return Long.parseLong(text); // the common case, without a BigDecimal (it showed in the GET profile)
        }
        BigDecimal d = new BigDecimal(text);
        try {
            return d.longValueExact();
        } catch (ArithmeticException e) {
            return d;
        }
    }

    private static boolean isSmallInteger(String text) {
        int start = text.startsWith("-") ? 1 : 0;
        if (text.length() <= start || text.length() - start > 18) {
            return false;
        }
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** Normalizes a JSON-like value so that equal content compares equal (numbers as Long/BigDecimal). */
    public static Object normalize(Object value) {
        return value == null ? null : fromAttribute(toAttribute(value));
    }
}
