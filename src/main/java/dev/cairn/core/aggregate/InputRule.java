package dev.cairn.core.aggregate;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A structural rule of an aggregate's input that no single field can state, checked before any call: the values
 * at {@code paths} must all differ — within each of {@code scopes} separately (e.g. a batting position once per team
 * sheet), or across the whole input when the only scope is the root ({@code ""}). A path is dotted and may step into
 * every element of a list with {@code []} ({@code players[].playerId}); two different teams are
 * {@code [team1.teamId, team2.teamId]}, a player once per match {@code [team1.players[].playerId,
 * team2.players[].playerId]}. A repeated value fails with AggregateDecompositionError naming the concrete path of the
 * repeat ({@code team2.players[0].playerId}); absent values are not compared.
 *
 * @param message what a repeat means, with {@code {value}} (the repeated value) and {@code {scope}} (the scope's
 *                path, e.g. {@code team1}) filled in
 */
public record InputRule(List<String> paths, List<String> scopes, String message) {

    public InputRule {
        paths = List.copyOf(paths);
        scopes = scopes.isEmpty() ? List.of("") : List.copyOf(scopes);
        if (paths.isEmpty()) {
            throw new IllegalArgumentException("a rule names the paths whose values must differ");
        }
    }

    /** Checks an input; the first repeat (in input order, scope by scope) is refused. */
    public void check(String aggregate, Map<String, Object> input) {
        for (String scope : scopes) {
            Object base = scope.isEmpty() ? input : at(input, scope);
            if (!(base instanceof Map<?, ?> scoped)) {
                continue;
            }
            var seen = new HashMap<Object, String>();
            for (String path : paths) {
                var found = new ArrayList<Map.Entry<String, Object>>();
                collect(scoped, List.of(path.split("\\.")), 0, scope, found);
                for (var value : found) {
                    Object key = normal(value.getValue());
                    if (seen.putIfAbsent(key, value.getKey()) != null) {
                        String detail = message.replace("{value}", String.valueOf(value.getValue())).replace("{scope}", scope);
                        throw new CairnException(new CairnError.AggregateDecompositionError(detail, aggregate, value.getKey()));
                    }
                }
            }
        }
    }

    /** The value at a dotted path of plain steps (no lists), or null. */
    private static Object at(Map<String, Object> input, String path) {
        Object at = input;
        for (String step : path.split("\\.")) {
            if (!(at instanceof Map<?, ?> map)) {
                return null;
            }
            at = map.get(step);
        }
        return at;
    }

    private static void collect(Object at, List<String> steps, int i, String path, List<Map.Entry<String, Object>> out) {
        if (at == null) {
            return;
        }
        if (i == steps.size()) {
            out.add(Map.entry(path, at));
            return;
        }
        String step = steps.get(i);
        boolean each = step.endsWith("[]");
        String name = each ? step.substring(0, step.length() - 2) : step;
        if (!(at instanceof Map<?, ?> map)) {
            return;
        }
        Object next = map.get(name);
        String nextPath = path.isEmpty() ? name : path + "." + name;
        if (!each) {
            collect(next, steps, i + 1, nextPath, out);
        } else if (next instanceof List<?> list) {
            for (int e = 0; e < list.size(); e++) {
                collect(list.get(e), steps, i + 1, nextPath + "[" + e + "]", out);
            }
        }
    }

    /** Numbers compare by value (1 and 1.0 are one batting position), everything else as given. */
    private static Object normal(Object value) {
        if (value instanceof Number n) {
            return new java.math.BigDecimal(n.toString()).stripTrailingZeros();
        }
        return value;
    }
}
