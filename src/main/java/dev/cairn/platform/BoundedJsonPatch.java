package dev.cairn.platform;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * RFC 6902 applied in place, at a cost it counts. Jakarta JSON-P's own patch rebuilds every structure on the way to
 * the changed value for each operation, so a thousand moves inside a long list cost a thousand copies of it (half a
 * minute of CPU for a 530 KB patch). Here the document is a tree of mutable containers made only where an operation
 * changes something ({@link #open}): a container is copied out of the immutable JSON-P tree the first time a change
 * passes through it, once, and everything else stays shared. Every operation pays in work units what it really
 * does — a container opened counts its members, an array insert or removal the elements it shifts, a {@code copy}
 * the members it freezes, a {@code test} the values it compares, plus one per pointer token — and the operation that
 * would pass {@code maxWork} is refused before it runs.
 */
final class BoundedJsonPatch {

    /** A JSON object being changed: members are either JSON-P values (untouched) or other open containers. */
    private static final class OpenObject extends LinkedHashMap<String, Object> {
        OpenObject(int size) {
            super(Math.max(16, size * 2));
        }
    }

    /** A JSON array being changed. */
    private static final class OpenArray extends ArrayList<Object> {
        OpenArray(int size) {
            super(Math.max(10, size));
        }
    }

    /** What the caller is told when the work budget is spent. */
    interface OverBudget {
        CairnException at(int operation, String op);
    }

    private final long maxWork;
    private final OverBudget overBudget;
    private Object root;
    private long work;
    /** Sizes of JSON-P structures measured whole (identity: two equal structures are two values). */
    private final Map<Object, Long> sizes = new IdentityHashMap<>();
    private Object lastMeasured;
    private long lastMeasuredSize;
    private int operation;
    private String op = "?";

    private BoundedJsonPatch(JsonValue target, long maxWork, OverBudget overBudget) {
        this.root = target;
        this.maxWork = maxWork;
        this.overBudget = overBudget;
    }

    static BoundedJsonPatch on(JsonValue target, long maxWork, OverBudget overBudget) {
        return new BoundedJsonPatch(target, maxWork, overBudget);
    }

    /**
     * An upper bound of {@code node}'s size in bytes (compact JSON, UTF-8), some number above {@code limit} as soon as
     * it passes it; each value walked counts as work. A JSON-P structure measured whole (they never change) is
     * remembered, and so is the copy a {@code copy} makes of a value just measured: copies of copies are not walked
     * again, so a copy bomb meets the size cap, not the work budget.
     */
    long measure(Object node, long limit) {
        long size = sizeOf(node, limit);
        lastMeasured = size <= limit ? node : null;
        lastMeasuredSize = size;
        return size;
    }

    private long sizeOf(Object node, long limit) {
        if (node instanceof JsonValue value && (value instanceof JsonObject || value instanceof JsonArray)) {
            Long known = sizes.get(value);
            if (known != null) {
                return known;
            }
        }
        spend(1);
        long total;
        if (node instanceof Map<?, ?> object) {
            total = 2 + Math.max(0, object.size() - 1);
            for (var member : object.entrySet()) {
                total += PatchLimits.stringBytes((String) member.getKey()) + 1;
                if (total > limit) {
                    return total;
                }
                total += sizeOf(member.getValue(), limit - total);
                if (total > limit) {
                    return total;
                }
            }
        } else if (node instanceof List<?> array) {
            total = 2 + Math.max(0, array.size() - 1);
            for (Object element : array) {
                total += sizeOf(element, limit - total);
                if (total > limit) {
                    return total;
                }
            }
        } else {
            return PatchLimits.size(node, limit);
        }
        if (node instanceof JsonObject || node instanceof JsonArray) {
            sizes.put(node, total);
        }
        return total;
    }

    /** The work done so far, in units. */
    long work() {
        return work;
    }

    /** The document as it stands, read at {@code pointer} without opening anything; null when nothing is there. */
    Object at(String pointer) {
        try {
            return find(tokens(pointer));
        } catch (CairnException e) {
            if (e.error() instanceof CairnError.MalformedRequest) {
                return null; // applying the operation says why
            }
            throw e;
        }
    }

    /** Names the operation the work done next belongs to (what a refusal says). */
    void begin(int index, JsonValue operation) {
        this.operation = index;
        this.op = operation instanceof JsonObject object && object.get("op") instanceof JsonString name
                ? name.getString() : "?";
    }

    /** Applies operation number {@code index} of the patch. */
    void apply(int index, JsonValue operation) {
        begin(index, operation);
        if (!(operation instanceof JsonObject object)) {
            throw malformed("an operation must be a JSON object");
        }
        String path = pointer(object, "path");
        switch (op) {
            case "add" -> add(tokens(path), value(object));
            case "remove" -> remove(tokens(path));
            case "replace" -> replace(tokens(path), value(object));
            case "move" -> move(pointer(object, "from"), path);
            case "copy" -> {
                Object source = existing(tokens(pointer(object, "from")));
                JsonValue copy = freeze(source);
                if (source == lastMeasured && (copy instanceof JsonObject || copy instanceof JsonArray)) {
                    sizes.put(copy, lastMeasuredSize);
                }
                add(tokens(path), copy);
            }
            case "test" -> test(tokens(path), value(object));
            default -> throw malformed(object.containsKey("op") ? "unknown op " + object.get("op") : "no op");
        }
    }

    /** The patched document, as an immutable JSON-P value (the unchanged parts are the target's own). */
    JsonValue result() {
        return freezeAll(root);
    }

    // --- operations ------------------------------------------------------------------------------------------

    private void add(List<String> path, Object value) {
        if (path.isEmpty()) {
            root = value;
            return;
        }
        Object parent = open(path.subList(0, path.size() - 1));
        String last = path.get(path.size() - 1);
        if (parent instanceof OpenObject object) {
            object.put(last, value);
        } else if (parent instanceof OpenArray array) {
            if ("-".equals(last)) {
                array.add(value);
                return;
            }
            int at = index(last, array.size() + 1);
            spend(moved(array.size() - at));
            array.add(at, value);
        } else {
            throw malformed("the parent of " + pointerOf(path) + " is not an object or an array");
        }
    }

    private Object remove(List<String> path) {
        if (path.isEmpty()) {
            throw malformed("the whole document cannot be removed");
        }
        Object parent = open(path.subList(0, path.size() - 1));
        String last = path.get(path.size() - 1);
        if (parent instanceof OpenObject object) {
            if (!object.containsKey(last)) {
                throw malformed("nothing at " + pointerOf(path));
            }
            return object.remove(last);
        }
        if (parent instanceof OpenArray array) {
            int at = index(last, array.size());
            spend(moved(array.size() - at));
            return array.remove(at);
        }
        throw malformed("nothing at " + pointerOf(path));
    }

    private void replace(List<String> path, Object value) {
        if (path.isEmpty()) {
            root = value;
            return;
        }
        Object parent = open(path.subList(0, path.size() - 1));
        String last = path.get(path.size() - 1);
        if (parent instanceof OpenObject object && object.containsKey(last)) {
            object.put(last, value);
        } else if (parent instanceof OpenArray array) {
            array.set(index(last, array.size()), value);
        } else {
            throw malformed("nothing at " + pointerOf(path));
        }
    }

    private void move(String from, String path) {
        List<String> source = tokens(from);
        existing(source);
        if (from.equals(path)) {
            return;
        }
        if (path.startsWith(from + "/")) {
            throw malformed("a value cannot be moved into itself (" + from + " to " + path + ")");
        }
        add(tokens(path), remove(source));
    }

    private void test(List<String> path, JsonValue expected) {
        if (!equal(existing(path), expected)) {
            throw malformed("the value at " + pointerOf(path) + " is not the one the test expects");
        }
    }

    // --- the tree ----------------------------------------------------------------------------------------------

    /** The container at {@code path}, opened (made changeable) along the way: each opening counts its members. */
    private Object open(List<String> path) {
        root = opened(root);
        Object node = root;
        for (String token : path) {
            spend(1);
            if (node instanceof OpenObject object) {
                Object child = object.get(token);
                if (child == null) {
                    throw malformed("nothing at " + pointerOf(path));
                }
                Object open = opened(child);
                if (open != child) {
                    object.put(token, open);
                }
                node = open;
            } else if (node instanceof OpenArray array) {
                int at = index(token, array.size());
                Object child = array.get(at);
                Object open = opened(child);
                if (open != child) {
                    array.set(at, open);
                }
                node = open;
            } else {
                throw malformed("nothing at " + pointerOf(path));
            }
        }
        return node;
    }

    /** A changeable copy of a JSON-P container (its members stay shared), or the node itself. */
    private Object opened(Object node) {
        if (node instanceof JsonObject object) {
            spend(object.size());
            var open = new OpenObject(object.size());
            open.putAll(object);
            return open;
        }
        if (node instanceof JsonArray array) {
            // its references are copied as a block, but each is built into the result again at the end
            spend((array.size() + 3) / 4);
            var open = new OpenArray(array.size());
            open.addAll(array);
            return open;
        }
        return node;
    }

    /** The value at {@code path}, opening nothing; a malformed request when there is none. */
    private Object existing(List<String> path) {
        Object found = find(path);
        if (found == null) {
            throw malformed("nothing at " + pointerOf(path));
        }
        return found;
    }

    private Object find(List<String> path) {
        Object node = root;
        for (String token : path) {
            spend(1);
            if (node instanceof Map<?, ?> object) {
                node = object.get(token);
            } else if (node instanceof List<?> array) {
                if ("-".equals(token)) {
                    return null;
                }
                node = array.get(index(token, array.size()));
            } else {
                return null;
            }
            if (node == null) {
                return null;
            }
        }
        return node;
    }

    /** An immutable copy of {@code node} for a {@code copy}: what was opened is copied (and counted), the rest shared. */
    private JsonValue freeze(Object node) {
        if (node instanceof OpenObject object) {
            spend(2L * object.size()); // a member goes into the builder's map and then into the built object's
            JsonObjectBuilder builder = Json.createObjectBuilder();
            object.forEach((name, value) -> builder.add(name, freeze(value)));
            return builder.build();
        }
        if (node instanceof OpenArray array) {
            spend(array.size());
            JsonArrayBuilder builder = Json.createArrayBuilder();
            array.forEach(value -> builder.add(freeze(value)));
            return builder.build();
        }
        return (JsonValue) node;
    }

    /** The final document: as {@link #freeze}, but not charged (it costs no more than the openings already paid). */
    private static JsonValue freezeAll(Object node) {
        if (node instanceof OpenObject object) {
            JsonObjectBuilder builder = Json.createObjectBuilder();
            object.forEach((name, value) -> builder.add(name, freezeAll(value)));
            return builder.build();
        }
        if (node instanceof OpenArray array) {
            JsonArrayBuilder builder = Json.createArrayBuilder();
            array.forEach(value -> builder.add(freezeAll(value)));
            return builder.build();
        }
        return (JsonValue) node;
    }

    /** RFC 6902 equality (numbers by value), counting every value compared. */
    private boolean equal(Object actual, JsonValue expected) {
        spend(2); // JSON-P compares numbers as BigDecimals it makes on the spot
        if (actual instanceof Map<?, ?> object) {
            if (!(expected instanceof JsonObject other) || other.size() != object.size()) {
                return false;
            }
            for (var member : other.entrySet()) {
                Object mine = object.get(member.getKey());
                if (mine == null || !equal(mine, member.getValue())) {
                    return false;
                }
            }
            return true;
        }
        if (actual instanceof List<?> array) {
            if (!(expected instanceof JsonArray other) || other.size() != array.size()) {
                return false;
            }
            for (int i = 0; i < array.size(); i++) {
                if (!equal(array.get(i), other.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (actual instanceof JsonNumber number) {
            return expected instanceof JsonNumber other && (number.equals(other)
                    || number.bigDecimalValue().compareTo(other.bigDecimalValue()) == 0);
        }
        return actual.equals(expected);
    }

    // --- pointers and budget ------------------------------------------------------------------------------------

    /**
     * Array elements copied or shifted as a block (an array copy of references) cost a unit per
     * {@value #ELEMENTS_PER_UNIT}: a few hundred times less, each, than a member put into a map or a value compared.
     */
    private static long moved(int elements) {
        return (elements + ELEMENTS_PER_UNIT - 1) / ELEMENTS_PER_UNIT;
    }

    private static final int ELEMENTS_PER_UNIT = 16;

    private void spend(long units) {
        work += units;
        if (work > maxWork) {
            throw overBudget.at(operation, op);
        }
    }

    private String pointer(JsonObject operation, String member) {
        if (!(operation.get(member) instanceof JsonString pointer)) {
            throw malformed("no " + member);
        }
        return pointer.getString();
    }

    private JsonValue value(JsonObject operation) {
        JsonValue value = operation.get("value");
        if (value == null) {
            throw malformed("no value");
        }
        return value;
    }

    /** RFC 6901: "" is the whole document; otherwise "/"-separated tokens, with ~1 for "/" and ~0 for "~". */
    private List<String> tokens(String pointer) {
        if (pointer.isEmpty()) {
            return List.of();
        }
        if (pointer.charAt(0) != '/') {
            throw malformed("the pointer " + pointer + " does not start with /");
        }
        var tokens = new ArrayList<String>();
        var token = new StringBuilder();
        for (int i = 1; i < pointer.length(); i++) {
            char c = pointer.charAt(i);
            if (c == '/') {
                tokens.add(token.toString());
                token.setLength(0);
            } else if (c == '~') {
                char next = i + 1 < pointer.length() ? pointer.charAt(++i) : ' ';
                if (next != '0' && next != '1') {
                    throw malformed("the pointer " + pointer + " has a ~ not followed by 0 or 1");
                }
                token.append(next == '0' ? '~' : '/');
            } else {
                token.append(c);
            }
        }
        tokens.add(token.toString());
        spend(tokens.size());
        return tokens;
    }

    /** An array index: digits without a leading zero, below {@code bound}. */
    private int index(String token, int bound) {
        boolean digits = !token.isEmpty() && token.length() <= 10 && token.chars().allMatch(Character::isDigit)
                && (token.length() == 1 || token.charAt(0) != '0');
        long at = digits ? Long.parseLong(token) : -1;
        if (at < 0 || at >= bound) {
            throw malformed("the array index " + token + " is not one of the array's");
        }
        return (int) at;
    }

    private static String pointerOf(List<String> tokens) {
        var out = new StringBuilder();
        tokens.forEach(t -> out.append('/').append(t.replace("~", "~0").replace("/", "~1")));
        return out.toString();
    }

    private CairnException malformed(String why) {
        return new CairnException(new CairnError.MalformedRequest("the JSON Patch cannot be applied: operation "
                + operation + " (" + op + "): " + why));
    }
}
