package dev.cairn.platform;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;

import java.util.ArrayDeque;

/**
 * Applies patches without ever building more than {@code maxDocumentBytes}. A JSON Patch runs one operation at a
 * time under a running upper bound of the document's size (compact JSON, UTF-8 bytes): {@code add} grows it by
 * its value, {@code copy} by the copied value, {@code replace} by what its value is larger than the one it
 * replaces, {@code move} by its new member name, {@code remove} and {@code test} not at all. An operation that
 * would pass the cap is refused before it runs. The bound never shrinks, so the values measured to keep it add up
 * to at most the cap plus the request: the check costs no more than the largest document it allows.
 */
public record PatchLimits(int maxOperations, long maxDocumentBytes) {

    /** The colon and comma that come with a member name an operation adds (its quotes count with the name). */
    private static final int MEMBER_OVERHEAD = 2;

    public static PatchLimits of(CairnConfig.Patch config) {
        return new PatchLimits(config.maxOperations(), config.maxDocumentBytes());
    }

    /**
     * The RFC 6902 patch applied to {@code target}, all or nothing; a 413 naming the limit when it has too many
     * operations or an operation would make the document too large, a 400 when an operation cannot be applied.
     */
    public JsonStructure applyJsonPatch(JsonStructure target, JsonArray operations) {
        if (operations.size() > maxOperations) {
            throw new CairnException(CairnError.PayloadTooLarge.operations("the JSON Patch has " + operations.size()
                    + " operations; at most " + maxOperations + " are accepted", maxOperations));
        }
        JsonStructure document = target;
        long bound = size(target, maxDocumentBytes);
        for (int i = 0; i < operations.size(); i++) {
            JsonValue operation = operations.get(i);
            long growth = growth(operation, document, maxDocumentBytes - bound);
            // An operation that does not grow the document is never refused, even on one already past the cap.
            if (growth > 0 && bound + growth > maxDocumentBytes) {
                throw new CairnException(CairnError.PayloadTooLarge.bytes("operation " + i + " ("
                        + name(operation) + ") would make the document larger than " + maxDocumentBytes
                        + " bytes, the most a patch may build; nothing was changed", maxDocumentBytes));
            }
            bound += Math.max(0, growth);
            document = applyOne(operation, document);
        }
        return document;
    }

    /**
     * The result of a merge patch, unless it is larger than the cap (and larger than the target: a patch may still
     * shrink a document that is already too large). A merge patch adds only what its body holds, so the result
     * exists already and is measured, stopping at the cap.
     */
    public JsonValue checkMerged(JsonValue target, JsonValue merged) {
        long size = size(merged, maxDocumentBytes);
        if (size > maxDocumentBytes && size > size(target, size)) {
            throw new CairnException(CairnError.PayloadTooLarge.bytes("the merge patch would make the document larger than "
                    + maxDocumentBytes + " bytes, the most a patch may build; nothing was changed", maxDocumentBytes));
        }
        return merged;
    }

    private static JsonStructure applyOne(JsonValue operation, JsonStructure document) {
        try {
            return Json.createPatch(Json.createArrayBuilder().add(operation).build()).apply(document);
        } catch (RuntimeException e) { // Parsson fails with JsonException, but also NPE or ClassCastException on malformed operations
            throw new CairnException(new CairnError.MalformedRequest("the JSON Patch cannot be applied"
                    + (e instanceof JsonException ? ": " + e.getMessage() : ": malformed operation")));
        }
    }

    /**
     * How much {@code operation} can grow the document at most; above {@code room} as soon as it is known to pass
     * it (the measuring stops there). A malformed operation counts 0: applying it fails.
     */
    static long growth(JsonValue operation, JsonStructure document, long room) {
        if (!(operation instanceof JsonObject op) || !(op.get("op") instanceof JsonString name)) {
            return 0;
        }
        JsonValue value = op.get("value");
        // A value is part of the request, so measuring it whole costs no more than reading the request did.
        long added = value == null ? 0 : size(value, Long.MAX_VALUE);
        return switch (name.getString()) {
            case "add" -> value == null ? 0 : member(op) + added;
            case "copy" -> {
                JsonValue from = at(document, op.get("from"));
                yield from == null ? 0 : member(op) + size(from, room);
            }
            case "replace" -> {
                if (value == null) {
                    yield 0;
                }
                JsonValue old = at(document, op.get("path"));
                // Only what the new value is larger than the old one; the old one is measured no further than that.
                yield old == null ? added : Math.max(0, added - size(old, added));
            }
            case "move" -> member(op);
            default -> 0;
        };
    }

    /** The value a pointer names, or null when it names none (applying the operation then fails). */
    private static JsonValue at(JsonStructure document, JsonValue pointer) {
        if (!(pointer instanceof JsonString path)) {
            return null;
        }
        try {
            return Json.createPointer(path.getString()).getValue(document);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The member name an operation may add (the last token of its path), with its quotes, colon and comma. */
    private static long member(JsonObject op) {
        if (!(op.get("path") instanceof JsonString path)) {
            return 0;
        }
        String pointer = path.getString();
        return MEMBER_OVERHEAD + stringBytes(pointer.substring(pointer.lastIndexOf('/') + 1));
    }

    /**
     * An upper bound of the value's compact JSON size in UTF-8 bytes, computed without serialising it; the walk
     * stops as soon as the count passes {@code limit} (the answer is then some number above it).
     */
    static long size(JsonValue value, long limit) {
        long total = 0;
        var pending = new ArrayDeque<JsonValue>();
        pending.push(value);
        while (!pending.isEmpty() && total <= limit) {
            JsonValue next = pending.pop();
            switch (next.getValueType()) {
                case OBJECT -> {
                    JsonObject object = next.asJsonObject();
                    total += 2 + Math.max(0, object.size() - 1);
                    for (var member : object.entrySet()) {
                        total += stringBytes(member.getKey()) + 1;
                        pending.push(member.getValue());
                    }
                }
                case ARRAY -> {
                    JsonArray array = next.asJsonArray();
                    total += 2 + Math.max(0, array.size() - 1);
                    array.forEach(pending::push);
                }
                case STRING -> total += stringBytes(((JsonString) next).getString());
                case TRUE, NULL -> total += 4;
                case FALSE -> total += 5;
                case NUMBER -> total += next.toString().length();
            }
        }
        return total;
    }

    /** A string with its quotes, escaped: at most 6 bytes per control character, 3 per other UTF-16 unit. */
    private static long stringBytes(String s) {
        long bytes = 2;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            bytes += c < 0x20 ? 6 : c == '"' || c == '\\' ? 2 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
        }
        return bytes;
    }

    private static String name(JsonValue operation) {
        return operation instanceof JsonObject op && op.get("op") instanceof JsonString name ? name.getString() : "?";
    }
}
