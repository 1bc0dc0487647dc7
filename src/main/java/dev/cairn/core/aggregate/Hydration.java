package dev.cairn.core.aggregate;

import dev.cairn.core.aggregate.Aggregate.RefCopy;
import dev.cairn.core.aggregate.Aggregate.RefUse;
import dev.cairn.core.aggregate.AggregateNode.Edge;
import dev.cairn.core.aggregate.Walk.Over;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Between an input (refs by id, {@code <field>Id}) and a view (refs as embedded copies): which refs an input
 * needs, the view an input makes once they are resolved, and back from a view to its copies and its input.
 */
record Hydration(AggregateNode root, String idField, Values values) {

    /** Every ref of an input, in input order. */
    List<RefUse> refs(Map<String, Object> input) {
        var uses = new ArrayList<RefUse>();
        Walk.<Void>fold(values, Over.INPUT, root, input, (place, value) -> {
            AggregateNode node = place.node();
            if (node.self != null) {
                uses.add(new RefUse(place.path(), node.self, values.refId(value, place.edge().field(), place.parentPath())));
            } else {
                node.refs.forEach((field, ref) -> uses.add(new RefUse(Place.join(place.path(), field), ref,
                        values.refId(value, field, place.path()))));
            }
            return null;
        });
        return uses;
    }

    /** The view of an input, every ref replaced by its resolved copy. */
    Map<String, Object> hydrate(Map<String, Object> input, Map<String, RefCopy> resolved) {
        return Values.asMap(Walk.fold(values, Over.INPUT, root, input, new ViewBuilder() {
            @Override
            public Object visit(Place place, Map<String, Object> value) {
                AggregateNode node = place.node();
                if (node.self != null) {
                    return copy(node.self, values.refId(value, place.edge().field(), place.parentPath()), resolved);
                }
                var view = new LinkedHashMap<String, Object>();
                if (place.isRoot()) {
                    view.put(idField, value.get(idField));
                }
                node.fields.forEach(field -> view.put(field, JsonAttributes.normalize(value.get(field))));
                node.refs.forEach((field, ref) -> view.put(field, copy(ref, values.refId(value, field, place.path()), resolved)));
                return view;
            }
        }));
    }

    /** The embedded copies of a view by {@link Aggregate#refKey}, with the source versions they were taken at. */
    Map<String, RefCopy> copies(Map<String, Object> view, Map<String, Long> refVersions) {
        var copies = new HashMap<String, RefCopy>();
        Walk.<Void>fold(values, Over.VIEW, root, view, (place, value) -> {
            AggregateNode node = place.node();
            if (node.self != null) {
                remember(node.self, value, refVersions, copies);
            } else {
                node.refs.forEach((field, ref) -> remember(ref, Values.asMap(value.get(field)), refVersions, copies));
            }
            return null;
        });
        return copies;
    }

    /** The input shape of a view: every embedded copy replaced by its id ({@code <field>Id}). */
    Map<String, Object> toInput(Map<String, Object> view) {
        return Values.asMap(Walk.fold(values, Over.VIEW, root, view, new ViewBuilder() {
            @Override
            public Object visit(Place place, Map<String, Object> value) {
                AggregateNode node = place.node();
                if (node.self != null) {
                    return Values.idOf(value);
                }
                var input = new LinkedHashMap<String, Object>();
                if (place.isRoot()) {
                    input.put(idField, value.get(idField));
                }
                node.fields.forEach(field -> input.put(field, value.get(field)));
                node.refs.keySet().forEach(field -> input.put(field + "Id", Values.idOf(value.get(field))));
                return input;
            }

            @Override
            public void attach(Object parent, Edge edge, Object child) {
                Values.asMap(parent).put(edge.node().self != null ? edge.field() + "Id" : edge.field(), child);
            }
        }));
    }

    /** Builds a tree of maps: each child's result goes under its edge's field. */
    private abstract static class ViewBuilder implements Walk.Step<Object> {
        @Override
        public void attach(Object parent, Edge edge, Object child) {
            Values.asMap(parent).put(edge.field(), child);
        }
    }

    private static Map<String, Object> copy(RefSpec<?> ref, String id, Map<String, RefCopy> resolved) {
        RefCopy copy = resolved.get(Aggregate.refKey(ref, id));
        if (copy == null) {
            throw new IllegalStateException("ref " + Aggregate.refKey(ref, id) + " was not resolved");
        }
        return copy.fields();
    }

    private static void remember(RefSpec<?> ref, Map<String, Object> copy, Map<String, Long> refVersions,
                                 Map<String, RefCopy> copies) {
        String key = Aggregate.refKey(ref, Values.idOf(copy));
        copies.put(key, new RefCopy(copy, refVersions.getOrDefault(key, 0L)));
    }
}
