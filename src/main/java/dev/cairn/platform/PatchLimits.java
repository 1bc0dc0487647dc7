package dev.cairn.platform;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Applies patches without ever building more than {@code maxDocumentBytes} or doing more than {@code maxWork} units of
 * work. A JSON Patch runs one operation at a time, in place ({@link BoundedJsonPatch}), under two running bounds:
 * <ul>
 * <li>the document's size (compact JSON, UTF-8 bytes): {@code add} grows it by its value, {@code copy} by the copied
 * value, {@code replace} by what its value is larger than the one it replaces, {@code move} by its new member name,
 * {@code remove} and {@code test} not at all. The bound never shrinks, so the values measured to keep it add up to at
 * most the cap plus the request: the check costs no more than the largest document it allows;</li>
 * <li>the work done: members copied when a container is first changed, array elements shifted by an insert or a
 * removal, values frozen by a copy or compared by a test, pointer tokens followed. A thousand moves at the head of
 * a long list cost what they shift, not a thousand copies of the list, and the patch that would shift more than the
 * budget is refused at that operation.</li>
 * </ul>
 * An operation that would pass either is refused before it runs, and nothing is written.
 */
public record PatchLimits(int maxOperations, long maxDocumentBytes, long maxWork) {

    /** The colon and comma that come with a member name an operation adds (its quotes count with the name). */
    private static final int MEMBER_OVERHEAD = 2;

    /** The default work budget: see {@code cairn.patch.max-work}. */
    public static final long DEFAULT_MAX_WORK = 50_000;

    public PatchLimits(int maxOperations, long maxDocumentBytes) {
        this(maxOperations, maxDocumentBytes, DEFAULT_MAX_WORK);
    }

    public static PatchLimits of(CairnConfig.Patch config) {
        return new PatchLimits(config.maxOperations(), config.maxDocumentBytes(), config.maxWork());
    }

    /**
     * The RFC 6902 patch applied to {@code target}, all or nothing; a 413 naming the limit when it has too many
     * operations or an operation would make the document too large or spend too much work, a 400 when an operation
     * cannot be applied.
     */
    public JsonStructure applyJsonPatch(JsonStructure target, JsonArray operations) {
        if (operations.size() > maxOperations) {
            throw new CairnException(CairnError.PayloadTooLarge.operations("the JSON Patch has " + operations.size()
                    + " operations; at most " + maxOperations + " are accepted", maxOperations));
        }
        var patch = BoundedJsonPatch.on(target, maxWork, (i, op) -> new CairnException(CairnError.PayloadTooLarge.work(
                "operation " + i + " (" + op + ") would take the JSON Patch past " + maxWork + " units of work (values "
                        + "copied, shifted or compared), the most one patch may do; nothing was changed", maxWork)));
        long bound = size(target, maxDocumentBytes);
        for (int i = 0; i < operations.size(); i++) {
            JsonValue operation = operations.get(i);
            patch.begin(i, operation);
            long growth = growth(operation, patch, maxDocumentBytes - bound);
            // An operation that does not grow the document is never refused, even on one already past the cap.
            if (growth > 0 && bound + growth > maxDocumentBytes) {
                throw new CairnException(CairnError.PayloadTooLarge.bytes("operation " + i + " ("
                        + name(operation) + ") would make the document larger than " + maxDocumentBytes
                        + " bytes, the most a patch may build; nothing was changed", maxDocumentBytes));
            }
            bound += Math.max(0, growth);
            patch.apply(i, operation);
        }
        if (!(patch.result() instanceof JsonStructure result)) {
            throw new CairnException(new CairnError.MalformedRequest("a JSON Patch must leave an object"));
        }
        return result;
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

    /**
     * How much {@code operation} can grow the document at most; above {@code room} as soon as it is known to pass
     * it (the measuring stops there). A malformed operation counts 0: applying it fails.
     */
    static long growth(JsonValue operation, BoundedJsonPatch document, long room) {
        if (!(operation instanceof JsonObject op) || !(op.get("op") instanceof JsonString name)) {
            return 0;
        }
        JsonValue value = op.get("value");
        // A value is part of the request, so measuring it whole costs no more than reading the request did.
        long added = value == null ? 0 : size(value, Long.MAX_VALUE);
        return switch (name.getString()) {
            case "add" -> value == null ? 0 : member(op) + added;
            case "copy" -> {
                Object from = at(document, op.get("from"));
                yield from == null ? 0 : member(op) + document.measure(from, room);
            }
            case "replace" -> {
                if (value == null) {
                    yield 0;
                }
                Object old = at(document, op.get("path"));
                // Only what the new value is larger than the old one; the old one is measured no further than that.
                yield old == null ? added : Math.max(0, added - document.measure(old, added));
            }
            case "move" -> member(op);
            default -> 0;
        };
    }

    /** The value a pointer names, or null when it names none (applying the operation then fails). */
    private static Object at(BoundedJsonPatch document, JsonValue pointer) {
        return pointer instanceof JsonString path ? document.at(path.getString()) : null;
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
     * stops as soon as the count passes {@code limit} (the answer is then some number above it). The value is a
     * JSON-P value or a container a patch opened (a map or a list of them).
     */
    static long size(Object value, long limit) {
        long total = 0;
        // Containers are walked through iterators, so a huge one is not queued whole before the limit stops the walk.
        var pending = new ArrayDeque<Iterator<?>>();
        pending.push(List.of(value).iterator());
        while (!pending.isEmpty() && total <= limit) {
            Iterator<?> members = pending.peek();
            if (!members.hasNext()) {
                pending.pop();
                continue;
            }
            Object next = members.next();
            if (next instanceof Map.Entry<?, ?> member) {
                total += stringBytes((String) member.getKey()) + 1;
                next = member.getValue();
            }
            if (next instanceof Map<?, ?> object) {
                total += 2 + Math.max(0, object.size() - 1);
                pending.push(object.entrySet().iterator());
            } else if (next instanceof List<?> array) {
                total += 2 + Math.max(0, array.size() - 1);
                pending.push(array.iterator());
            } else {
                JsonValue leaf = (JsonValue) next;
                switch (leaf.getValueType()) {
                    case STRING -> total += stringBytes(((JsonString) leaf).getString());
                    case TRUE, NULL -> total += 4;
                    case FALSE -> total += 5;
                    default -> total += leaf.toString().length();
                }
            }
        }
        return total;
    }

    /** A string with its quotes, escaped: at most 6 bytes per control character, 3 per other UTF-16 unit. */
    static long stringBytes(String s) {
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
