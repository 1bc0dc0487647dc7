package dev.cairn.core.expr.builder;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the user composed in the builder: the operation (Query, Scan, GetItem, UpdateItem), the table or an index,
 * key conditions (a Query's; the item key of a GetItem or UpdateItem, as {@code =} tests), a filter, a projection,
 * order, limit and consistency of a read; a write's condition and update actions; and the placeholder names the
 * user chose for attributes ({@code names}: attribute → alias, e.g. {@code EntityRef → er} for {@code #er}).
 * Values name their own placeholders ({@link Operand#alias}).
 */
public record BuilderSpec(String operation, String index, List<Clause> key, Clause filter, List<String> projection,
                          Boolean descending, Integer limit, Boolean consistent, Clause condition,
                          List<UpdateAction> update, Map<String, String> names) {

    public BuilderSpec {
        key = key == null ? List.of() : List.copyOf(key);
        projection = projection == null ? List.of() : List.copyOf(projection);
        update = update == null ? List.of() : List.copyOf(update);
        names = names == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(names));
        descending = Boolean.TRUE.equals(descending);
        consistent = Boolean.TRUE.equals(consistent);
    }

    public static BuilderSpec query(String index, List<Clause> key) {
        return new BuilderSpec("Query", index, key, null, null, false, 25, false, null, null, null);
    }

    public BuilderSpec withFilter(Clause newFilter) {
        return new BuilderSpec(operation, index, key, newFilter, projection, descending, limit, consistent, condition, update, names);
    }

    public BuilderSpec withProjection(List<String> paths) {
        return new BuilderSpec(operation, index, key, filter, paths, descending, limit, consistent, condition, update, names);
    }

    public BuilderSpec withOrder(boolean newestFirst) {
        return new BuilderSpec(operation, index, key, filter, projection, newestFirst, limit, consistent, condition, update, names);
    }

    public BuilderSpec withLimit(Integer newLimit) {
        return new BuilderSpec(operation, index, key, filter, projection, descending, newLimit, consistent, condition, update, names);
    }

    public BuilderSpec withConsistent(boolean strongly) {
        return new BuilderSpec(operation, index, key, filter, projection, descending, limit, strongly, condition, update, names);
    }

    public BuilderSpec withNames(Map<String, String> aliases) {
        return new BuilderSpec(operation, index, key, filter, projection, descending, limit, consistent, condition, update, aliases);
    }

    public BuilderSpec withOperation(String newOperation) {
        return new BuilderSpec(newOperation, index, key, filter, projection, descending, limit, consistent, condition, update, names);
    }

    /** A write of one item: its key ({@code =} tests), a condition and update actions. */
    public static BuilderSpec update(List<Clause> key, Clause condition, List<UpdateAction> actions) {
        return new BuilderSpec("UpdateItem", null, key, null, null, false, null, false, condition, actions, null);
    }
}
