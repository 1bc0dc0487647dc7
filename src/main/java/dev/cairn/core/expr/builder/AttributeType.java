package dev.cairn.core.expr.builder;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The DynamoDB data types a value in the builder may have. */
public enum AttributeType {
    S, N, B, BOOL, NULL, L, M, SS, NS, BS;

    /** The type of a stored value. */
    public static AttributeType of(AttributeValue value) {
        return switch (value.type()) {
            case S -> S;
            case N -> N;
            case B -> B;
            case BOOL -> BOOL;
            case NUL -> NULL;
            case L -> L;
            case M -> M;
            case SS -> SS;
            case NS -> NS;
            case BS -> BS;
            default -> throw new IllegalArgumentException("an attribute value without a type");
        };
    }

    /** The type named by {@code text}, or null. */
    public static AttributeType named(String text) {
        for (AttributeType type : values()) {
            if (type.name().equals(text)) {
                return type;
            }
        }
        return null;
    }

    /** Whether {@code <}, {@code BETWEEN} and the like compare values of this type (strings, numbers, binaries). */
    public boolean ordered() {
        return this == S || this == N || this == B;
    }

    public boolean isSet() {
        return this == SS || this == NS || this == BS;
    }
}
