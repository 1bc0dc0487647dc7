package dev.cairn.bench.rest;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Stored values as JSON-ready Java values, and a page cursor: what any service over the SDK writes once. */
final class Attributes {

    private Attributes() {
    }

    static Object value(AttributeValue value) {
        if (value == null) {
            return null;
        }
        return switch (value.type()) {
            case S -> value.s();
            case N -> number(value.n());
            case BOOL -> value.bool();
            case NUL -> null;
            case M -> map(value.m());
            case L -> {
                var list = new ArrayList<Object>(value.l().size());
                for (AttributeValue element : value.l()) {
                    list.add(value(element));
                }
                yield list;
            }
            default -> throw new IllegalArgumentException("unsupported attribute type " + value.type());
        };
    }

    static Map<String, Object> map(Map<String, AttributeValue> attributes) {
        var map = new LinkedHashMap<String, Object>();
        attributes.forEach((name, value) -> map.put(name, value(value)));
        return map;
    }

    static String string(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null ? null : value.s();
    }

    static Object number(String text) {
        if (text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0 && text.length() < 19) {
            return Long.parseLong(text);
        }
        return new BigDecimal(text);
    }

    /** The next page's cursor: the last answered item's key, as JSON in base64url (null on the last page). */
    static String cursor(List<Map<String, AttributeValue>> items, int pageSize, List<String> keyNames) {
        if (items.size() <= pageSize) {
            return null;
        }
        Map<String, AttributeValue> last = items.get(pageSize - 1);
        var json = new StringBuilder("{");
        for (String name : keyNames) {
            json.append(json.length() == 1 ? "" : ",").append('"').append(name).append("\":\"").append(last.get(name).s()).append('"');
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.append('}').toString().getBytes(StandardCharsets.UTF_8));
    }

    /** A page as the app answers it: {"items": […], "next": cursor or null}. */
    static Map<String, Object> page(List<Map<String, Object>> items, String next) {
        var page = new LinkedHashMap<String, Object>();
        page.put("items", items);
        page.put("next", next);
        return page;
    }
}
