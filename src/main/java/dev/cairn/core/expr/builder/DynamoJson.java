package dev.cairn.core.expr.builder;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Attribute values as DynamoDB JSON — {@code {"S": "x"}}, {@code {"N": "1"}}, {@code {"B": "<base64>"}}, … — the form
 * the DynamoDB API, the AWS CLI and the console show, and JSON text for snippets.
 */
public final class DynamoJson {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper PRETTY = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private DynamoJson() {
    }

    public static Map<String, Object> of(AttributeValue value) {
        return switch (AttributeType.of(value)) {
            case S -> Map.of("S", value.s());
            case N -> Map.of("N", value.n());
            case B -> Map.of("B", base64(value.b()));
            case BOOL -> Map.of("BOOL", value.bool());
            case NULL -> Map.of("NULL", true);
            case L -> Map.of("L", value.l().stream().map(DynamoJson::of).toList());
            case M -> Map.of("M", ofItem(value.m()));
            case SS -> Map.of("SS", value.ss());
            case NS -> Map.of("NS", value.ns());
            case BS -> Map.of("BS", value.bs().stream().map(DynamoJson::base64).toList());
        };
    }

    /** An item (or a key, or a map's members) in DynamoDB JSON, attributes by name. */
    public static Map<String, Object> ofItem(Map<String, AttributeValue> item) {
        var out = new TreeMap<String, Object>();
        item.forEach((name, value) -> out.put(name, of(value)));
        return out;
    }

    /** Placeholder maps keep their order (the order the expression made them). */
    public static Map<String, Object> ofValues(Map<String, AttributeValue> values) {
        var out = new LinkedHashMap<String, Object>();
        values.forEach((name, value) -> out.put(name, of(value)));
        return out;
    }

    /** The value a DynamoDB JSON map stands for. */
    @SuppressWarnings("unchecked")
    public static AttributeValue from(Object typed) {
        if (!(typed instanceof Map<?, ?> map) || map.size() != 1) {
            throw new IllegalArgumentException("a DynamoDB JSON value has exactly one member, its type: " + typed);
        }
        var entry = ((Map<String, Object>) map).entrySet().iterator().next();
        Object v = entry.getValue();
        AttributeType type = AttributeType.named(entry.getKey());
        if (type == null) {
            throw new IllegalArgumentException("not a DynamoDB type: " + entry.getKey());
        }
        return switch (type) {
            case S -> AttributeValue.fromS((String) v);
            case N -> AttributeValue.fromN(String.valueOf(v));
            case B -> AttributeValue.fromB(SdkBytes.fromByteArray(Base64.getDecoder().decode((String) v)));
            case BOOL -> AttributeValue.fromBool((Boolean) v);
            case NULL -> AttributeValue.fromNul(true);
            case L -> AttributeValue.fromL(((List<Object>) v).stream().map(DynamoJson::from).toList());
            case M -> {
                var members = new LinkedHashMap<String, AttributeValue>();
                ((Map<String, Object>) v).forEach((name, member) -> members.put(name, from(member)));
                yield AttributeValue.fromM(members);
            }
            case SS -> AttributeValue.fromSs((List<String>) v);
            case NS -> AttributeValue.fromNs(((List<Object>) v).stream().map(String::valueOf).toList());
            case BS -> AttributeValue.fromBs(((List<String>) v).stream()
                    .map(b -> SdkBytes.fromByteArray(Base64.getDecoder().decode(b))).toList());
        };
    }

    public static String base64(SdkBytes bytes) {
        return Base64.getEncoder().encodeToString(bytes.asByteArrayUnsafe());
    }

    /** Compact JSON text. */
    public static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** Indented JSON text. */
    public static String pretty(Object value) {
        try {
            return PRETTY.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static ObjectMapper mapper() {
        return JSON;
    }
}
