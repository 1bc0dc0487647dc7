package dev.cairn.core.expr.builder;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;

/**
 * One value as typed in the builder: its DynamoDB type, its text and, if the user named it, its placeholder
 * ({@code p} for {@code :p}). Text by type: S as is; N a number; B base64; BOOL {@code true} or {@code false}; NULL
 * nothing; L and M plain JSON (an array, an object; their members take the type JSON gives them: string S, number N,
 * true/false BOOL, null NULL, array L, object M); SS, NS and BS a JSON array of distinct strings, numbers, base64.
 */
public record Operand(String type, String value, String alias) {

    private static final ObjectReader JSON = DynamoJson.mapper().reader()
            .with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    /** DynamoDB numbers: up to 38 significant digits, magnitudes from 1E-130 to below 1E+126. */
    private static final int MAX_DIGITS = 38;

    public static Operand of(String type, String value) {
        return new Operand(type, value, null);
    }

    public AttributeType attributeType() {
        AttributeType t = AttributeType.named(type == null ? null : type.toUpperCase(Locale.ROOT));
        if (t == null) {
            throw new IllegalArgumentException("type must be one of S, N, B, BOOL, NULL, L, M, SS, NS, BS");
        }
        return t;
    }

    /** The value, or IllegalArgumentException saying what is wrong with the text. */
    public AttributeValue attributeValue() {
        String text = value == null ? "" : value;
        return switch (attributeType()) {
            case S -> AttributeValue.fromS(text);
            case N -> AttributeValue.fromN(number(text.trim()));
            case B -> AttributeValue.fromB(binary(text.trim()));
            case BOOL -> switch (text.trim().toLowerCase(Locale.ROOT)) {
                case "true" -> AttributeValue.fromBool(true);
                case "false" -> AttributeValue.fromBool(false);
                default -> throw new IllegalArgumentException("a BOOL is true or false");
            };
            case NULL -> AttributeValue.fromNul(true);
            case L -> {
                JsonNode node = json(text);
                if (!node.isArray()) {
                    throw new IllegalArgumentException("an L is a JSON array, e.g. [\"a\", 1]");
                }
                yield inferred(node);
            }
            case M -> {
                JsonNode node = json(text);
                if (!node.isObject()) {
                    throw new IllegalArgumentException("an M is a JSON object, e.g. {\"a\": 1}");
                }
                yield inferred(node);
            }
            case SS -> AttributeValue.fromSs(set(text, "strings", n -> {
                if (!n.isTextual()) {
                    throw new IllegalArgumentException("an SS holds strings only");
                }
                return n.textValue();
            }));
            case NS -> AttributeValue.fromNs(set(text, "numbers", n -> {
                if (!n.isNumber() && !n.isTextual()) {
                    throw new IllegalArgumentException("an NS holds numbers only");
                }
                return number(n.isNumber() ? n.decimalValue().toPlainString() : n.textValue().trim());
            }));
            case BS -> {
                List<String> texts = set(text, "base64 strings", n -> {
                    if (!n.isTextual()) {
                        throw new IllegalArgumentException("a BS holds base64 strings only");
                    }
                    return n.textValue();
                });
                yield AttributeValue.fromBs(texts.stream().map(Operand::binary).toList());
            }
        };
    }

    /** The text the builder shows for a stored value (L and M as plain JSON). */
    public static String textOf(AttributeValue value) {
        return switch (AttributeType.of(value)) {
            case S -> value.s();
            case N -> value.n();
            case B -> DynamoJson.base64(value.b());
            case BOOL -> value.bool().toString();
            case NULL -> "";
            case L, M -> DynamoJson.write(plain(value));
            case SS -> DynamoJson.write(value.ss());
            case NS -> DynamoJson.write(value.ns().stream().map(BigDecimal::new).toList());
            case BS -> DynamoJson.write(value.bs().stream().map(DynamoJson::base64).toList());
        };
    }

    private static Object plain(AttributeValue value) {
        return switch (AttributeType.of(value)) {
            case S -> value.s();
            case N -> new BigDecimal(value.n());
            case BOOL -> value.bool();
            case NULL -> null;
            case L -> value.l().stream().map(Operand::plain).toList();
            case M -> {
                var out = new LinkedHashMap<String, Object>();
                value.m().forEach((k, v) -> out.put(k, plain(v)));
                yield out;
            }
            case B -> DynamoJson.base64(value.b());
            case SS -> value.ss();
            case NS -> value.ns();
            case BS -> value.bs().stream().map(DynamoJson::base64).toList();
        };
    }

    static String number(String text) {
        BigDecimal n;
        try {
            n = new BigDecimal(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a number: '" + text + "'");
        }
        BigDecimal stripped = n.stripTrailingZeros();
        if (stripped.precision() > MAX_DIGITS) {
            throw new IllegalArgumentException("DynamoDB keeps at most 38 significant digits");
        }
        if (n.signum() != 0) {
            int exponent = stripped.precision() - stripped.scale() - 1;
            if (exponent > 125 || exponent < -130) {
                throw new IllegalArgumentException("DynamoDB numbers lie between 1E-130 and 9.99E+125 in magnitude");
            }
        }
        return text;
    }

    private static SdkBytes binary(String text) {
        try {
            return SdkBytes.fromByteArray(Base64.getDecoder().decode(text));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("a B is base64 text (e.g. aGk= for the bytes of \"hi\")");
        }
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage());
        }
    }

    private static AttributeValue inferred(JsonNode node) {
        if (node.isTextual()) {
            return AttributeValue.fromS(node.textValue());
        }
        if (node.isNumber()) {
            return AttributeValue.fromN(number(node.decimalValue().toPlainString()));
        }
        if (node.isBoolean()) {
            return AttributeValue.fromBool(node.booleanValue());
        }
        if (node.isNull()) {
            return AttributeValue.fromNul(true);
        }
        if (node.isArray()) {
            var members = new ArrayList<AttributeValue>();
            node.forEach(member -> members.add(inferred(member)));
            return AttributeValue.fromL(members);
        }
        var members = new LinkedHashMap<String, AttributeValue>();
        node.fields().forEachRemaining(e -> members.put(e.getKey(), inferred(e.getValue())));
        return AttributeValue.fromM(members);
    }

    private interface Member {
        String of(JsonNode node);
    }

    private static List<String> set(String text, String what, Member member) {
        JsonNode node = json(text);
        if (!node.isArray() || node.isEmpty()) {
            throw new IllegalArgumentException("a set is a non-empty JSON array of " + what);
        }
        var out = new ArrayList<String>();
        var seen = new HashSet<Object>();
        for (JsonNode n : node) {
            String m = member.of(n);
            Object identity = what.equals("numbers") ? new BigDecimal(m).stripTrailingZeros() : m;
            if (!seen.add(identity)) {
                throw new IllegalArgumentException("a set holds each member once: " + m + " is there twice");
            }
            out.add(m);
        }
        return out;
    }

    /** For a typed value in a spec made from a request (an access pattern's). */
    public static Operand of(AttributeValue value, String alias) {
        return new Operand(AttributeType.of(value).name(), textOf(value), alias);
    }
}
