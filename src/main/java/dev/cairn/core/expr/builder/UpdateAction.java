package dev.cairn.core.expr.builder;

import java.util.Locale;

/**
 * One action of an update expression: {@code SET} a path to a value — as it is, or through {@code if_not_exists}
 * (only if absent), {@code list_append} (at the end), {@code list_prepend} ({@code list_append(:v, path)}),
 * {@code plus} / {@code minus} (arithmetic) —; {@code REMOVE} a path; {@code ADD} a number or set members;
 * {@code DELETE} set members.
 */
public record UpdateAction(String action, String path, String function, Operand value) {

    public UpdateAction {
        action = action == null ? null : action.trim().toUpperCase(Locale.ROOT);
        function = function == null || function.isBlank() ? null : function.trim().toLowerCase(Locale.ROOT);
    }

    public static UpdateAction set(String path, Operand value) {
        return new UpdateAction("SET", path, null, value);
    }

    public static UpdateAction set(String path, String function, Operand value) {
        return new UpdateAction("SET", path, function, value);
    }

    public static UpdateAction remove(String path) {
        return new UpdateAction("REMOVE", path, null, null);
    }

    public static UpdateAction add(String path, Operand value) {
        return new UpdateAction("ADD", path, null, value);
    }

    public static UpdateAction delete(String path, Operand value) {
        return new UpdateAction("DELETE", path, null, value);
    }
}
