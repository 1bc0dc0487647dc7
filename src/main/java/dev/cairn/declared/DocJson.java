package dev.cairn.declared;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.model.Doc;
import dev.cairn.core.model.FieldModel;
import dev.cairn.core.model.FieldRules;
import dev.cairn.platform.MergePatcher;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import jakarta.json.stream.JsonParsingException;

import java.io.StringReader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Declared documents as JSON: a request body read into plain values (JSON-P), checked by {@link FieldRules} with
 * Bean Validation's words and the one problem shape ({@code ValidationFailed} naming every field); a stored document
 * rendered as the API shows it — every declared field in declaration order, null when absent.
 */
final class DocJson {

    /**
     * JSON-P's provider, looked up once: {@code Json.createReader} and the builders run a ServiceLoader lookup (and a
     * new provider with its own buffer pool) on every call.
     */
    private static final JsonProvider JSON = JsonProvider.provider();

    private DocJson() {
    }

    /** The body as a JSON object's plain values; an empty body is {@code {}} when {@code optional}. */
    static Map<String, Object> object(String body, boolean optional) {
        if (body == null || body.isBlank()) {
            if (optional) {
                return Map.of();
            }
            throw new CairnException(new CairnError.MalformedRequest("the request body is missing"));
        }
        JsonValue value;
        try {
            value = JSON.createReader(new StringReader(body)).readValue();
        } catch (JsonParsingException e) {
            throw new CairnException(new CairnError.MalformedRequest("the request body is not valid JSON"));
        } catch (RuntimeException e) {
            // Parsson's own exception for input nested too deeply
            throw new CairnException(new CairnError.MalformedRequest("the request body is not valid JSON"));
        }
        if (optional && value.getValueType() == JsonValue.ValueType.NULL) {
            return Map.of(); // an optional body sent as JSON null, as generated clients do
        }
        if (value.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new CairnException(new CairnError.MalformedRequest("the request body must be a JSON object"));
        }
        return plainObject(value.asJsonObject());
    }

    /** Reads values that must satisfy the fields; a 400 naming every refused field otherwise. */
    static Map<String, Object> valid(List<FieldModel> fields, Map<String, Object> values, boolean serverSetAllowed) {
        FieldRules.Result result = FieldRules.read(fields, values, serverSetAllowed);
        if (!result.valid()) {
            List<CairnError.FieldError> errors = result.violations().stream()
                    .map(v -> new CairnError.FieldError(v.field(), v.message()))
                    .sorted(Comparator.comparing(CairnError.FieldError::field)).toList();
            String detail = errors.stream().map(f -> f.field() + ": " + f.message()).collect(Collectors.joining("; "));
            throw new CairnException(new CairnError.ValidationFailed(detail, errors));
        }
        return result.values();
    }

    /** The document as the API shows it: every field, in declaration order, null when absent. */
    static Map<String, Object> view(List<FieldModel> fields, Doc doc) {
        var out = new LinkedHashMap<String, Object>(fields.size() * 4 / 3 + 1);
        for (FieldModel field : fields) {
            out.put(field.name(), doc.get(field.name()));
        }
        return out;
    }

    /** How a merge patch or a JSON Patch sees a document, and reads the patched one back (server-set fields kept). */
    static MergePatcher.Shape<Doc> shape(List<FieldModel> fields) {
        return new MergePatcher.Shape<>() {
            public JsonObject toJson(Doc value) {
                // Every field, null when absent, as GET shows it: a JSON Patch may replace or test what it sees.
                return json(view(fields, value)).build();
            }

            public Doc read(JsonObject json) {
                return new Doc(valid(fields, plainObject(json), true));
            }
        };
    }

    private static Map<String, Object> plainObject(JsonObject object) {
        var out = new LinkedHashMap<String, Object>();
        object.forEach((k, v) -> out.put(k, plain(v)));
        return out;
    }

    private static Object plain(JsonValue value) {
        return switch (value.getValueType()) {
            case STRING -> ((JsonString) value).getString();
            case NUMBER -> ((JsonNumber) value).bigDecimalValue();
            case TRUE -> Boolean.TRUE;
            case FALSE -> Boolean.FALSE;
            case NULL -> null;
            case OBJECT -> plainObject(value.asJsonObject());
            case ARRAY -> {
                var out = new ArrayList<Object>();
                value.asJsonArray().forEach(element -> out.add(plain(element)));
                yield out;
            }
        };
    }

    @SuppressWarnings("unchecked")
    private static JsonObjectBuilder json(Map<String, Object> values) {
        JsonObjectBuilder builder = JSON.createObjectBuilder();
        values.forEach((k, v) -> {
            if (v == null) {
                builder.addNull(k);
            } else if (v instanceof String s) {
                builder.add(k, s);
            } else if (v instanceof Long n) {
                builder.add(k, n);
            } else if (v instanceof BigDecimal d) {
                builder.add(k, d);
            } else if (v instanceof Boolean b) {
                builder.add(k, b);
            } else if (v instanceof Map<?, ?> m) {
                builder.add(k, json((Map<String, Object>) m));
            } else if (v instanceof List<?> l) {
                builder.add(k, array((List<Object>) l));
            }
        });
        return builder;
    }

    @SuppressWarnings("unchecked")
    private static JsonArrayBuilder array(List<Object> values) {
        JsonArrayBuilder builder = JSON.createArrayBuilder();
        for (Object v : values) {
            if (v instanceof String s) {
                builder.add(s);
            } else if (v instanceof Long n) {
                builder.add(n);
            } else if (v instanceof BigDecimal d) {
                builder.add(d);
            } else if (v instanceof Boolean b) {
                builder.add(b);
            } else if (v instanceof Map<?, ?> m) {
                builder.add(json((Map<String, Object>) m));
            } else if (v instanceof List<?> l) {
                builder.add(array((List<Object>) l));
            }
        }
        return builder;
    }
}
