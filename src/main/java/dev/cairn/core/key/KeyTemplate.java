package dev.cairn.core.key;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * A typed key layout such as {@code WS#{workspaceId}} or {@code ENROLL#CRS#{courseId}}, parsed once. Segments are
 * literals (upper-case labels) or fields; {@code {name:n}} marks a numeric field, encoded order-preserving.
 * Rendering escapes every field value, so two different argument lists never produce the same key, and a
 * template always starts with a literal label, so keys of different templates never collide either.
 */
public final class KeyTemplate {

    private sealed interface Segment permits Literal, Field {
    }

    private record Literal(String text) implements Segment {
    }

    private record Field(String name, boolean numeric) implements Segment {
    }

    private final String pattern;
    private final List<Segment> segments;
    private final int fieldCount;

    private KeyTemplate(String pattern, List<Segment> segments) {
        this.pattern = pattern;
        this.segments = List.copyOf(segments);
        this.fieldCount = (int) segments.stream().filter(Field.class::isInstance).count();
    }

    public static KeyTemplate of(String pattern) {
        var segments = new ArrayList<Segment>();
        for (String part : pattern.split("#", -1)) {
            if (part.startsWith("{") && part.endsWith("}")) {
                String spec = part.substring(1, part.length() - 1);
                boolean numeric = spec.endsWith(":n");
                String name = numeric ? spec.substring(0, spec.length() - 2) : spec;
                if (name.isEmpty()) {
                    throw new IllegalArgumentException("empty field name in key template " + pattern);
                }
                segments.add(new Field(name, numeric));
            } else if (part.matches("[A-Z][A-Z0-9_]*")) {
                segments.add(new Literal(part));
            } else {
                throw new IllegalArgumentException("bad segment '" + part + "' in key template " + pattern);
            }
        }
        if (!(segments.get(0) instanceof Literal)) {
            throw new IllegalArgumentException("a key template must start with a literal label: " + pattern);
        }
        return new KeyTemplate(pattern, segments);
    }

    public String pattern() {
        return pattern;
    }

    /**
     * The same layout with these fields encoded as numbers ({@code {name:n}}), so that keys sort by their value:
     * 2 before 10, -1 before 0. The others are unchanged.
     */
    public KeyTemplate numeric(java.util.Collection<String> numericFields) {
        var typed = new ArrayList<Segment>();
        var text = new StringBuilder();
        for (Segment segment : segments) {
            Segment next = segment instanceof Field field && numericFields.contains(field.name())
                    ? new Field(field.name(), true) : segment;
            typed.add(next);
            if (!text.isEmpty()) {
                text.append('#');
            }
            text.append(next instanceof Field field ? "{" + field.name() + (field.numeric() ? ":n" : "") + "}"
                    : ((Literal) next).text());
        }
        return typed.equals(segments) ? this : new KeyTemplate(text.toString(), typed);
    }

    public int fieldCount() {
        return fieldCount;
    }

    /** The names of the template's fields, in order. */
    public List<String> fieldNames() {
        return segments.stream().filter(Field.class::isInstance).map(segment -> ((Field) segment).name()).toList();
    }

    /** The key for these field values, in template order. */
    public String render(Object... values) {
        if (values.length != fieldCount) {
            throw new IllegalArgumentException(pattern + " takes " + fieldCount + " values, got " + values.length);
        }
        return renderSegments(segments.size(), values);
    }

    /**
     * A {@code begins_with} prefix covering every key whose first {@code values.length} fields equal these values.
     * It runs through the literals that follow and always ends with the delimiter, so the prefix for value
     * {@code 2024} never matches a key whose value is {@code 2024-25}.
     */
    public String prefix(Object... values) {
        if (values.length >= fieldCount) {
            throw new IllegalArgumentException("a prefix of " + pattern + " takes fewer than " + fieldCount + " values");
        }
        int end = 0;
        int seen = 0;
        while (end < segments.size() && (segments.get(end) instanceof Literal || seen < values.length)) {
            if (segments.get(end) instanceof Field) {
                seen++;
            }
            end++;
        }
        return renderSegments(end, values) + KeyCodec.DELIMITER;
    }

    /** The field values of a key of this template, unescaped (numeric fields as {@link BigDecimal}). */
    public List<Object> decode(String key) {
        String[] parts = key.split("#", -1);
        if (parts.length != segments.size()) {
            throw notOfTemplate(key);
        }
        var values = new ArrayList<>(fieldCount);
        for (int i = 0; i < parts.length; i++) {
            Segment segment = segments.get(i);
            if (segment instanceof Field field) {
                values.add(field.numeric() ? OrderedNumber.decode(parts[i]) : KeyCodec.unescape(parts[i]));
            } else if (!((Literal) segment).text().equals(parts[i])) {
                throw notOfTemplate(key);
            }
        }
        return values;
    }

    public boolean matches(String key) {
        try {
            decode(key);
            return true;
        } catch (CairnException e) {
            return false;
        }
    }

    private String renderSegments(int count, Object[] values) {
        var out = new StringBuilder(32);
        int next = 0;
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                out.append(KeyCodec.DELIMITER);
            }
            Segment segment = segments.get(i);
            out.append(segment instanceof Field field ? encodeField(field, values[next++]) : ((Literal) segment).text());
        }
        return out.toString();
    }

    private String encodeField(Field field, Object value) {
        if (value == null) {
            throw new CairnException(CairnError.ValidationFailed.of(field.name(), "must not be null"));
        }
        if (field.numeric()) {
            BigDecimal number;
            try {
                number = value instanceof BigDecimal d ? d : new BigDecimal(value.toString());
            } catch (NumberFormatException e) {
                throw new CairnException(CairnError.ValidationFailed.of(field.name(), "must be a number"));
            }
            return OrderedNumber.encode(number);
        }
        return KeyCodec.escape(value.toString());
    }

    private CairnException notOfTemplate(String key) {
        return new CairnException(new CairnError.MalformedRequest("key '" + key + "' is not of the form " + pattern));
    }

    @Override
    public String toString() {
        return pattern;
    }
}
