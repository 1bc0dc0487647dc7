package dev.cairn.core.expr.builder;

import java.util.List;
import java.util.Locale;

/**
 * One node of a filter, a condition or a key condition as the builder composes it:
 * <ul>
 *   <li>{@code and}, {@code or} over {@code clauses}; {@code not} over one clause (grouping is the tree);</li>
 *   <li>a comparison of {@code path} (or, with {@code size}, of {@code size(path)}) with {@code values}:
 *       {@code = <> < <= > >=} one value, {@code between} two, {@code in} one to a hundred;</li>
 *   <li>a function of {@code path}: {@code attribute_exists}, {@code attribute_not_exists} (no value),
 *       {@code attribute_type} (the type's name as an S value), {@code begins_with}, {@code contains} (one value).</li>
 * </ul>
 */
public record Clause(String op, String path, List<Operand> values, Boolean size, List<Clause> clauses) {

    public static final List<String> COMPARISONS = List.of("=", "<>", "<", "<=", ">", ">=");
    public static final List<String> FUNCTIONS = List.of("attribute_exists", "attribute_not_exists", "attribute_type",
            "begins_with", "contains");

    public Clause {
        op = op == null ? null : op.trim().toLowerCase(Locale.ROOT);
        values = values == null ? List.of() : List.copyOf(values);
        clauses = clauses == null ? List.of() : List.copyOf(clauses);
        size = Boolean.TRUE.equals(size);
    }

    public static Clause test(String path, String op, Operand... values) {
        return new Clause(op, path, List.of(values), false, List.of());
    }

    public static Clause size(String path, String op, Operand... values) {
        return new Clause(op, path, List.of(values), true, List.of());
    }

    public static Clause and(Clause... clauses) {
        return new Clause("and", null, List.of(), false, List.of(clauses));
    }

    public static Clause or(Clause... clauses) {
        return new Clause("or", null, List.of(), false, List.of(clauses));
    }

    public static Clause not(Clause clause) {
        return new Clause("not", null, List.of(), false, List.of(clause));
    }

    public boolean grouping() {
        return "and".equals(op) || "or".equals(op) || "not".equals(op);
    }

    public boolean function() {
        return FUNCTIONS.contains(op);
    }
}
