package dev.cairn.platform;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.Validator;

import java.io.StringReader;
import java.util.Objects;
import java.util.Set;

/**
 * Applies an RFC 7396 JSON merge patch (Jakarta JSON-P) to a record's JSON view, then reads the result back as
 * the record (unknown fields and wrong types rejected by Jackson) and validates it (Hibernate Validator).
 * Fields listed as immutable may appear in the patch only with their current value. Every patch is held to
 * {@link PatchLimits} while it is applied, before its result is serialised or read.
 */
@ApplicationScoped
public class MergePatcher {

    private final ObjectMapper json;
    private final Validator validator;
    private final PatchLimits limits;

    public MergePatcher(ObjectMapper json, Validator validator, CairnConfig config) {
        this.json = json;
        this.validator = validator;
        this.limits = PatchLimits.of(config.patch());
    }

    public static final String JSON_PATCH = "application/json-patch+json";

    /**
     * How a value is seen as a JSON object and read back from one: a record through Jackson and Bean Validation, a
     * declared document through its fields' rules. Reading refuses an invalid value with a 400 naming its fields.
     */
    public interface Shape<T> {
        JsonObject toJson(T value);

        T read(JsonObject json);
    }

    /** A record's shape: its Jackson view, read back by Jackson (unknown fields and wrong types refused) and validated. */
    public <T> Shape<T> shapeOf(Class<T> type) {
        return new Shape<>() {
            public JsonObject toJson(T value) {
                try {
                    return Json.createReader(new StringReader(json.writeValueAsString(value))).readObject();
                } catch (JsonProcessingException e) {
                    throw new PatchRejected(e);
                }
            }

            public T read(JsonObject patched) {
                try {
                    return valid(json.readValue(patched.toString(), type));
                } catch (JsonProcessingException e) {
                    throw new PatchRejected(e);
                }
            }
        };
    }

    /** Applies a merge patch or, for {@code application/json-patch+json}, an RFC 6902 JSON Patch. */
    public <T> T apply(T current, Class<T> type, String patchBody, Set<String> immutable, String contentType) {
        return apply(current, shapeOf(type), patchBody, immutable, contentType);
    }

    public <T> T apply(T current, Shape<T> shape, String patchBody, Set<String> immutable, String contentType) {
        if (contentType != null && contentType.startsWith(JSON_PATCH)) {
            return applyJsonPatch(current, shape, patchBody, immutable);
        }
        return apply(current, shape, patchBody, immutable);
    }

    /** Applies an RFC 6902 JSON Patch to the record's JSON view, then reads and validates the result. */
    public <T> T applyJsonPatch(T current, Class<T> type, String patchBody, Set<String> immutable) {
        return applyJsonPatch(current, shapeOf(type), patchBody, immutable);
    }

    private <T> T applyJsonPatch(T current, Shape<T> shape, String patchBody, Set<String> immutable) {
        JsonValue patch = parse(patchBody);
        if (patch.getValueType() != JsonValue.ValueType.ARRAY) {
            throw new CairnException(new CairnError.MalformedRequest("a JSON Patch must be a JSON array of operations"));
        }
        JsonObject target = shape.toJson(current);
        JsonValue patched = limits.applyJsonPatch(target, patch.asJsonArray());
        if (patched.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new CairnException(new CairnError.MalformedRequest("a JSON Patch must leave an object"));
        }
        for (String field : immutable) {
            if (!Objects.equals(patched.asJsonObject().get(field), target.get(field))) {
                throw Http.invalid(field, "cannot be changed");
            }
        }
        return shape.read(patched.asJsonObject());
    }

    /** The value itself when Bean Validation accepts it; a 400 naming every violated field otherwise. */
    public <T> T valid(T value) {
        var violations = validator.validate(value);
        if (!violations.isEmpty()) {
            throw new ConstraintViolationException(violations);
        }
        return value;
    }

    public <T> T apply(T current, Class<T> type, String patchBody, Set<String> immutable) {
        return apply(current, shapeOf(type), patchBody, immutable);
    }

    public <T> T apply(T current, Shape<T> shape, String patchBody, Set<String> immutable) {
        JsonValue patch = parse(patchBody);
        if (patch.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new CairnException(new CairnError.MalformedRequest("a merge patch must be a JSON object"));
        }
        JsonObject target = shape.toJson(current);
        for (String field : immutable) {
            JsonValue requested = patch.asJsonObject().get(field);
            if (requested != null && !Objects.equals(requested, target.get(field))) {
                throw Http.invalid(field, "cannot be changed");
            }
        }
        JsonValue merged = limits.checkMerged(target, Json.createMergePatch(patch).apply(target));
        return shape.read(merged.asJsonObject());
    }

    private static JsonValue parse(String body) {
        if (body == null || body.isBlank()) {
            throw new CairnException(new CairnError.MalformedRequest("the merge patch body is empty"));
        }
        try {
            return Json.createReader(new StringReader(body)).readValue();
        } catch (RuntimeException e) {
            // JsonException, and Parsson's own RuntimeException for input nested too deeply
            throw new CairnException(new CairnError.MalformedRequest("the patch is not valid JSON"));
        }
    }

    /** Carries Jackson's complaint about the patched document to the one mapper, which names the field. */
    public static final class PatchRejected extends RuntimeException {
        public PatchRejected(JsonProcessingException cause) {
            super(cause.getOriginalMessage(), cause, false, false);
        }
    }
}
