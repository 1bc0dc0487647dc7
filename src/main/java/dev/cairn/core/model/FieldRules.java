package dev.cairn.core.model;

import dev.cairn.core.model.FieldModel.Kind;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Checks plain values (as JSON or YAML gives them: strings, numbers, booleans, lists, maps) against declared fields,
 * and gives them back in one canonical form (integers as {@code Long}, other numbers as {@code BigDecimal} without
 * trailing zeros, dates and instants as their ISO text), so two equal values are equal maps. The messages are Bean
 * Validation's, so a declared entity refuses a body in the same words as a hand-written one.
 */
public final class FieldRules {

    /** One refused field, by its path in the body ({@code address.city}, {@code tags[2]}). */
    public record Violation(String field, String message) {
    }

    /** The canonical values and what was refused (empty when the values are valid). */
    public record Result(Map<String, Object> values, List<Violation> violations) {
        public boolean valid() {
            return violations.isEmpty();
        }
    }

    static final int MAX_ID_LENGTH = 128;
    /** ISO dates with a four-digit year only, as the document's {@code format: date} says. */
    private static final Pattern DATE = Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}");
    static final String WRONG_TYPE = "has the wrong type or format";
    /** Each declared pattern compiled once (patterns come only from model files, so this stays small). */
    private static final Map<String, Pattern> PATTERNS = new ConcurrentHashMap<>();

    private FieldRules() {
    }

    /** The violations alone; {@code serverSetAllowed} admits server-set fields (stored items, demo items). */
    public static List<Violation> check(List<FieldModel> fields, Map<String, Object> values, boolean serverSetAllowed) {
        return read(fields, values, serverSetAllowed).violations();
    }

    public static Result read(List<FieldModel> fields, Map<String, Object> values, boolean serverSetAllowed) {
        var violations = new ArrayList<Violation>();
        var out = readObject(fields, values, serverSetAllowed, "", violations);
        return new Result(out, List.copyOf(violations));
    }

    private static Map<String, Object> readObject(List<FieldModel> fields, Map<String, Object> values,
                                                  boolean serverSetAllowed, String prefix, List<Violation> violations) {
        var out = new LinkedHashMap<String, Object>(fields.size() * 4 / 3 + 1);
        for (String name : values.keySet()) {
            FieldModel field = field(fields, name);
            if (field == null || field.serverSet() && !serverSetAllowed) {
                violations.add(new Violation(prefix + name, "unknown field"));
            }
        }
        for (FieldModel field : fields) {
            if (field.serverSet() && !serverSetAllowed) {
                continue;
            }
            Object value = values.get(field.name());
            // a top-level field's path is its name: no new string per field and request
            Object read = value(field, value, prefix.isEmpty() ? field.name() : prefix + field.name(), violations, serverSetAllowed);
            if (read != null) {
                out.put(field.name(), read);
            }
        }
        return out;
    }

    /** The field of this name; a declared object has a handful of fields, so a scan beats building a map per body. */
    private static FieldModel field(List<FieldModel> fields, String name) {
        for (FieldModel field : fields) {
            if (field.name().equals(name)) {
                return field;
            }
        }
        return null;
    }

    private static Object value(FieldModel field, Object value, String path, List<Violation> violations, boolean serverSetAllowed) {
        if (value == null) {
            if (field.required() && !field.serverSet()) {
                violations.add(new Violation(path, switch (field.kind()) {
                    case ID -> idMessage();
                    case STRING -> "must not be blank";
                    default -> "must not be null";
                }));
            }
            return null;
        }
        int before = violations.size();
        Object read = switch (field.kind()) {
            case ID -> id(value, path, violations);
            case STRING -> string(field, value, path, violations);
            case INTEGER, NUMBER -> number(field, value, path, violations);
            case BOOLEAN -> value instanceof Boolean b ? b : wrong(path, violations);
            case DATE -> date(value, path, violations);
            case INSTANT -> instant(value, path, violations);
            case ENUM -> value instanceof String s && field.values().contains(s) ? s
                    : add(violations, path, value instanceof String ? "must be one of " + String.join(", ", field.values()) : WRONG_TYPE);
            case OBJECT -> value instanceof Map<?, ?> map
                    ? readObject(field.fields(), cast(map), serverSetAllowed, path + ".", violations) : wrong(path, violations);
            case LIST -> list(field, value, path, violations, serverSetAllowed);
        };
        return violations.size() > before ? null : read;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Map<?, ?> map) {
        return (Map<String, Object>) map;
    }

    private static String idMessage() {
        return "must be 1 to " + MAX_ID_LENGTH + " characters without control characters, not . or ..";
    }

    private static Object id(Object value, String path, List<Violation> violations) {
        // "." and ".." too: no URL can name them (a path's dot segments are resolved before any route sees it).
        if (!(value instanceof String s) || s.isBlank() || s.length() > MAX_ID_LENGTH || hasControlCharacter(s)
                || hasLoneSurrogate(s) || s.equals(".") || s.equals("..")) {
            return add(violations, path, value instanceof String ? idMessage() : WRONG_TYPE);
        }
        return s;
    }

    /** A character in {@code [\x00-\x1F\x7F-\x9F]}, the ids' pattern refuses (checked without a regex per id). */
    static boolean hasControlCharacter(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= 0x1F || c >= 0x7F && c <= 0x9F) {
                return true;
            }
        }
        return false;
    }

    /**
     * Half of a surrogate pair on its own: not text (no UTF-8 for it; every lone one reads back as the same replacement
     * character, so two such ids would name one item).
     */
    public static boolean hasLoneSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    private static Object string(FieldModel field, Object value, String path, List<Violation> violations) {
        if (!(value instanceof String s)) {
            return wrong(path, violations);
        }
        if (field.required() && s.isBlank()) {
            return add(violations, path, "must not be blank");
        }
        // counted in characters (code points), as the document's minLength and maxLength are (JSON Schema): an emoji is one
        int length = s.codePointCount(0, s.length());
        if (field.minLength() != null && length < field.minLength() || field.maxLength() != null && length > field.maxLength()) {
            return add(violations, path, sizeMessage(field));
        }
        if (field.pattern() != null && !PATTERNS.computeIfAbsent(field.pattern(), Pattern::compile).matcher(s).matches()) {
            return add(violations, path, "must match \"" + field.pattern() + "\"");
        }
        return s;
    }

    private static String sizeMessage(FieldModel field) {
        return "size must be between " + (field.minLength() == null ? 0 : field.minLength()) + " and "
                + (field.maxLength() == null ? Integer.MAX_VALUE : field.maxLength());
    }

    private static Object number(FieldModel field, Object value, String path, List<Violation> violations) {
        BigDecimal number;
        if (value instanceof BigDecimal d) {
            number = d;
        } else if (value instanceof Long || value instanceof Integer) {
            number = BigDecimal.valueOf(((Number) value).longValue());
        } else if (value instanceof Double || value instanceof Float) {
            number = BigDecimal.valueOf(((Number) value).doubleValue());
        } else {
            return wrong(path, violations);
        }
        BigDecimal stripped = number.stripTrailingZeros();
        boolean whole = stripped.scale() <= 0;
        if (field.kind() == Kind.INTEGER && (!whole || stripped.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0)) {
            return wrong(path, violations);
        }
        if (field.min() != null && number.compareTo(field.min()) < 0) {
            return add(violations, path, "must be greater than or equal to " + field.min().toPlainString());
        }
        if (field.max() != null && number.compareTo(field.max()) > 0) {
            return add(violations, path, "must be less than or equal to " + field.max().toPlainString());
        }
        return canonical(stripped);
    }

    /** Whole numbers as Long, others as a BigDecimal without trailing zeros (so 1.50 and 1.5 are one value). */
    static Object canonical(BigDecimal stripped) {
        if (stripped.scale() <= 0 && stripped.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0) {
            return stripped.longValueExact();
        }
        return stripped;
    }

    private static Object date(Object value, String path, List<Violation> violations) {
        try {
            return value instanceof String s && DATE.matcher(s).matches() ? LocalDate.parse(s).toString() : wrong(path, violations);
        } catch (DateTimeParseException e) {
            return wrong(path, violations);
        }
    }

    private static Object instant(Object value, String path, List<Violation> violations) {
        try {
            if (!(value instanceof String s)) {
                return wrong(path, violations);
            }
            Instant instant = Instant.parse(s);
            // RFC 3339 (the contract's date-time): four-digit years and hours to 23, which Instant.parse goes beyond
            if (!RFC_3339_YEAR_AND_HOUR.matcher(s).lookingAt() || instant.isBefore(FIRST) || instant.isAfter(LAST)) {
                return add(violations, path, "must be an RFC 3339 date-time, e.g. 2026-11-27T12:00:00Z (years 0000 to 9999)");
            }
            return instant.toString();
        } catch (DateTimeParseException e) {
            return wrong(path, violations);
        }
    }

    private static final java.util.regex.Pattern RFC_3339_YEAR_AND_HOUR =
            java.util.regex.Pattern.compile("\\d{4}-\\d{2}-\\d{2}[Tt]([01]\\d|2[0-3]):");
    private static final Instant FIRST = Instant.parse("0000-01-01T00:00:00Z");
    private static final Instant LAST = Instant.parse("9999-12-31T23:59:59.999999999Z");

    private static Object list(FieldModel field, Object value, String path, List<Violation> violations, boolean serverSetAllowed) {
        if (!(value instanceof List<?> list)) {
            return wrong(path, violations);
        }
        if (field.minLength() != null && list.size() < field.minLength() || field.maxLength() != null && list.size() > field.maxLength()) {
            return add(violations, path, sizeMessage(field));
        }
        var out = new ArrayList<Object>(list.size());
        for (int i = 0; i < list.size(); i++) {
            FieldModel item = field.items();
            Object element = list.get(i);
            if (element == null) {
                violations.add(new Violation(path + "[" + i + "]", "must not be null"));
                continue;
            }
            out.add(value(item, element, path + "[" + i + "]", violations, serverSetAllowed));
        }
        return out;
    }

    private static Object wrong(String path, List<Violation> violations) {
        return add(violations, path, WRONG_TYPE);
    }

    private static Object add(List<Violation> violations, String path, String message) {
        violations.add(new Violation(path, message));
        return null;
    }
}
