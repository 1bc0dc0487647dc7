package dev.cairn.core.expr;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** A condition or filter expression, rendered with placeholders only. */
public sealed interface Condition {

    String render(Placeholders placeholders);

    static Condition attributeExists(String name) {
        return new Function("attribute_exists", name, List.of());
    }

    static Condition attributeNotExists(String name) {
        return new Function("attribute_not_exists", name, List.of());
    }

    static Condition beginsWith(String name, String prefix) {
        return new Function("begins_with", name, List.of(AttributeValue.fromS(prefix)));
    }

    static Condition contains(String name, AttributeValue operand) {
        return new Function("contains", name, List.of(operand));
    }

    static Condition eq(String name, AttributeValue value) {
        return new Comparison(name, "=", value);
    }

    static Condition ne(String name, AttributeValue value) {
        return new Comparison(name, "<>", value);
    }

    static Condition lt(String name, AttributeValue value) {
        return new Comparison(name, "<", value);
    }

    static Condition le(String name, AttributeValue value) {
        return new Comparison(name, "<=", value);
    }

    static Condition gt(String name, AttributeValue value) {
        return new Comparison(name, ">", value);
    }

    static Condition ge(String name, AttributeValue value) {
        return new Comparison(name, ">=", value);
    }

    static Condition between(String name, AttributeValue low, AttributeValue high) {
        return new Between(name, low, high);
    }

    /** {@code name IN (...)}; DynamoDB takes at most 100 operands per IN, so longer lists become an OR of INs. */
    static Condition in(String name, List<AttributeValue> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("IN needs at least one value");
        }
        var parts = new ArrayList<Condition>();
        for (int from = 0; from < values.size(); from += MAX_IN_OPERANDS) {
            parts.add(new In(name, List.copyOf(values.subList(from, Math.min(values.size(), from + MAX_IN_OPERANDS)))));
        }
        return any(parts.toArray(Condition[]::new));
    }

    int MAX_IN_OPERANDS = 100;

    /** {@code path < value} on a nested document path (each segment is one attribute or map key name). */
    static Condition pathLessThan(List<String> path, AttributeValue value) {
        return new PathComparison(List.copyOf(path), "<", value);
    }

    static Condition pathNotExists(List<String> path) {
        return new PathFunction("attribute_not_exists", List.copyOf(path));
    }

    static Condition all(Condition... conditions) {
        return conditions.length == 1 ? conditions[0] : new Junction("AND", List.of(conditions));
    }

    static Condition any(Condition... conditions) {
        return conditions.length == 1 ? conditions[0] : new Junction("OR", List.of(conditions));
    }

    static Condition not(Condition condition) {
        return new Not(condition);
    }

    default Condition and(Condition other) {
        return all(this, other);
    }

    default Condition or(Condition other) {
        return any(this, other);
    }

    record Comparison(String name, String operator, AttributeValue value) implements Condition {
        public String render(Placeholders p) {
            return p.name(name) + " " + operator + " " + p.value(value);
        }
    }

    record PathComparison(List<String> path, String operator, AttributeValue value) implements Condition {
        public String render(Placeholders p) {
            return p.path(path) + " " + operator + " " + p.value(value);
        }
    }

    record PathFunction(String function, List<String> path) implements Condition {
        public String render(Placeholders p) {
            return function + "(" + p.path(path) + ")";
        }
    }

    record In(String name, List<AttributeValue> values) implements Condition {
        public String render(Placeholders p) {
            return p.name(name) + " IN (" + values.stream().map(p::value).collect(Collectors.joining(", ")) + ")";
        }
    }

    record Between(String name, AttributeValue low, AttributeValue high) implements Condition {
        public String render(Placeholders p) {
            return p.name(name) + " BETWEEN " + p.value(low) + " AND " + p.value(high);
        }
    }

    record Function(String function, String name, List<AttributeValue> operands) implements Condition {
        public String render(Placeholders p) {
            var out = new StringBuilder(function).append('(').append(p.name(name));
            operands.forEach(operand -> out.append(", ").append(p.value(operand)));
            return out.append(')').toString();
        }
    }

    record Junction(String operator, List<Condition> parts) implements Condition {
        public Junction {
            parts = List.copyOf(parts);
        }

        public String render(Placeholders p) {
            return parts.stream().map(c -> "(" + c.render(p) + ")").collect(Collectors.joining(" " + operator + " "));
        }
    }

    record Not(Condition condition) implements Condition {
        public String render(Placeholders p) {
            return "NOT (" + condition.render(p) + ")";
        }
    }
}
