package dev.cairn.core.expr;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The sort-key part of a key condition: the operators DynamoDB allows on a sort key. */
public sealed interface SortCondition {

    /** Renders against the sort-key attribute name of the table or index being queried. */
    String render(String sortKeyName, Placeholders placeholders);

    static SortCondition eq(String value) {
        return new Compare("=", value);
    }

    static SortCondition lt(String value) {
        return new Compare("<", value);
    }

    static SortCondition le(String value) {
        return new Compare("<=", value);
    }

    static SortCondition gt(String value) {
        return new Compare(">", value);
    }

    static SortCondition ge(String value) {
        return new Compare(">=", value);
    }

    static SortCondition beginsWith(String prefix) {
        if (prefix.isEmpty()) {
            throw new IllegalArgumentException("begins_with needs a non-empty prefix");
        }
        return new BeginsWith(prefix);
    }

    public static SortCondition between(String low, String high) {
        return new Between(low, high);
    }

    record Compare(String operator, String value) implements SortCondition {
        public String render(String sk, Placeholders p) {
            return p.name(sk) + " " + operator + " " + p.value(AttributeValue.fromS(value));
        }
    }

    record BeginsWith(String prefix) implements SortCondition {
        public String render(String sk, Placeholders p) {
            return "begins_with(" + p.name(sk) + ", " + p.value(AttributeValue.fromS(prefix)) + ")";
        }
    }

    record Between(String low, String high) implements SortCondition {
        public String render(String sk, Placeholders p) {
            return p.name(sk) + " BETWEEN " + p.value(AttributeValue.fromS(low)) + " AND " + p.value(AttributeValue.fromS(high));
        }
    }
}
