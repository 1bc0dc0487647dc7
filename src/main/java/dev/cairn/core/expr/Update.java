package dev.cairn.core.expr;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** An update expression (SET / REMOVE / ADD clauses) rendered with placeholders only. */
public final class Update {

    private final Map<String, AttributeValue> sets = new LinkedHashMap<>();
    private final Map<String, AttributeValue> setIfAbsent = new LinkedHashMap<>();
    private final Map<String, AttributeValue> adds = new LinkedHashMap<>();
    private final List<String> removes = new ArrayList<>();
    private final Map<List<String>, AttributeValue> pathSets = new LinkedHashMap<>();

    public static Update create() {
        return new Update();
    }

    public Update set(String name, AttributeValue value) {
        sets.put(name, value);
        return this;
    }

    public Update setAll(Map<String, AttributeValue> values) {
        sets.putAll(values);
        return this;
    }

    /** Sets a nested document path ({@code _refv.player}); its parent map must exist. */
    public Update setPath(List<String> path, AttributeValue value) {
        pathSets.put(List.copyOf(path), value);
        return this;
    }

    /** Sets the attribute only when the item does not have it yet ({@code if_not_exists}). */
    public Update setIfNotExists(String name, AttributeValue value) {
        setIfAbsent.put(name, value);
        return this;
    }

    public Update add(String name, AttributeValue number) {
        adds.put(name, number);
        return this;
    }

    public Update remove(String name) {
        removes.add(name);
        return this;
    }

    public boolean isEmpty() {
        return sets.isEmpty() && setIfAbsent.isEmpty() && pathSets.isEmpty() && adds.isEmpty() && removes.isEmpty();
    }

    public String render(Placeholders p) {
        var clauses = new ArrayList<String>(3);
        if (!sets.isEmpty() || !setIfAbsent.isEmpty() || !pathSets.isEmpty()) {
            var parts = new ArrayList<String>();
            sets.forEach((name, value) -> parts.add(p.name(name) + " = " + p.value(value)));
            pathSets.forEach((path, value) -> parts.add(p.path(path) + " = " + p.value(value)));
            setIfAbsent.forEach((name, value) -> {
                String n = p.name(name);
                parts.add(n + " = if_not_exists(" + n + ", " + p.value(value) + ")");
            });
            clauses.add("SET " + String.join(", ", parts));
        }
        if (!removes.isEmpty()) {
            clauses.add("REMOVE " + String.join(", ", removes.stream().map(p::name).toList()));
        }
        if (!adds.isEmpty()) {
            var parts = new ArrayList<String>();
            adds.forEach((name, value) -> parts.add(p.name(name) + " " + p.value(value)));
            clauses.add("ADD " + String.join(", ", parts));
        }
        return String.join(" ", clauses);
    }
}
