package dev.cairn.core.model;

import java.math.BigDecimal;
import java.util.List;

/**
 * One declared field: its kind and constraints, as a model file states them. A required string must also be
 * non-blank; an {@code id} is a required string of 1 to 128 characters without control characters, as every id in
 * Cairn. {@code serverSet} fields (ids a server generates, copied display fields, parent ids from the path) are
 * answered but never taken from a body. {@code schema} names an enum's values as a schema of their own in the API
 * document ({@code Role}), where clients generate one type for them; null states them in place.
 */
public record FieldModel(String name, Kind kind, boolean required, Integer minLength, Integer maxLength,
                         BigDecimal min, BigDecimal max, String pattern, List<String> values, List<FieldModel> fields,
                         FieldModel items, String defaultValue, String description, String example, boolean serverSet, int line,
                         String schema) {

    /** A field whose values (an enum's) are not a named schema of the API document. */
    public FieldModel(String name, Kind kind, boolean required, Integer minLength, Integer maxLength,
                      BigDecimal min, BigDecimal max, String pattern, List<String> values, List<FieldModel> fields,
                      FieldModel items, String defaultValue, String description, String example, boolean serverSet, int line) {
        this(name, kind, required, minLength, maxLength, min, max, pattern, values, fields, items, defaultValue,
                description, example, serverSet, line, null);
    }

    public enum Kind {
        ID("id"), STRING("string"), INTEGER("integer"), NUMBER("number"), BOOLEAN("boolean"), DATE("date"),
        INSTANT("instant"), ENUM("enum"), OBJECT("object"), LIST("list");

        private final String word;

        Kind(String word) {
            this.word = word;
        }

        public String word() {
            return word;
        }

        public static Kind of(String word) {
            for (Kind kind : values()) {
                if (kind.word.equals(word)) {
                    return kind;
                }
            }
            return null;
        }
    }

    public FieldModel {
        values = values == null ? null : List.copyOf(values);
        fields = fields == null ? null : List.copyOf(fields);
    }

    /** A server-set string field (a copy of another entity's field, or an id taken from the path). */
    public static FieldModel serverString(String name, int line) {
        return new FieldModel(name, Kind.STRING, false, null, null, null, null, null, null, null, null, null, null, null, true, line);
    }

    public FieldModel asServerSet() {
        return new FieldModel(name, kind, required, minLength, maxLength, min, max, pattern, values, fields, items,
                defaultValue, description, example, true, line, schema);
    }

    public FieldModel optional() {
        return new FieldModel(name, kind, false, minLength, maxLength, min, max, pattern, values, fields, items,
                defaultValue, description, example, serverSet, line, schema);
    }

    public FieldModel described(String text) {
        return new FieldModel(name, kind, required, minLength, maxLength, min, max, pattern, values, fields, items,
                defaultValue, text, example, serverSet, line, schema);
    }

    /** The kinds stored as a DynamoDB string. */
    public boolean isText() {
        return switch (kind) {
            case ID, STRING, DATE, INSTANT, ENUM -> true;
            default -> false;
        };
    }
}
