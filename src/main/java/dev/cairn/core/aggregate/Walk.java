package dev.cairn.core.aggregate;

import dev.cairn.core.aggregate.AggregateNode.Edge;
import dev.cairn.core.aggregate.AggregateNode.EdgeKind;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one traversal of a value along an aggregate's graph, in pre-order: each node's own value is visited, then
 * its edges in declaration order (a list element by element). The dispatch on one / many / sub / copy happens
 * here only; what a walk does at a node is its {@link Step}.
 */
final class Walk {

    /** What is walked. */
    enum Over {
        /** An input: a copy node is named by {@code <field>Id} on its parent, which is the value it is visited with. */
        INPUT,
        /** A view: a copy node's value is the embedded copy. */
        VIEW,
        /** A view on its way to items: as VIEW, and every list element is identified by its key (duplicates refused). */
        ITEMS
    }

    /** What a walk does at each node. */
    @FunctionalInterface
    interface Step<R> {
        /** The node's result from its own value (fields, inline refs); for a copy node, the whole result. */
        R visit(Place place, Map<String, Object> value);

        /** Adds a child's result to its parent's: one result per ONE, SUB or copy edge, a list for a MANY edge. */
        default void attach(R parent, Edge edge, Object child) {
        }
    }

    private Walk() {
    }

    static <R> R fold(Values values, Over over, AggregateNode root, Map<String, Object> value, Step<R> step) {
        return fold(values, over, Place.root(root), value, step);
    }

    private static <R> R fold(Values values, Over over, Place place, Map<String, Object> value, Step<R> step) {
        R result = step.visit(place, value);
        if (place.node().self != null) {
            return result;
        }
        String path = place.path();
        for (Edge edge : place.node().edges) {
            String at = Place.join(path, edge.field());
            Object child = value.get(edge.field());
            if (edge.optional() && absent(over, edge, value, child)) {
                step.attach(result, edge, null); // an optional member left out: no item, null in the view
            } else if (edge.node().self != null) {
                Place copy = place.child(edge);
                step.attach(result, edge, step.visit(copy, over == Over.INPUT ? value : values.map(child, at)));
            } else if (edge.kind() == EdgeKind.MANY) {
                List<Map<String, Object>> elements = values.list(child, at);
                Set<String> seen = over == Over.ITEMS ? new HashSet<>() : null; // keys are only needed for items
                var results = new ArrayList<Object>(elements.size());
                for (int i = 0; i < elements.size(); i++) {
                    String key = over == Over.ITEMS ? values.elementKey(edge.node(), elements.get(i), at + "[" + i + "]", seen) : null;
                    results.add(fold(values, over, place.element(edge, i, key), elements.get(i), step));
                }
                step.attach(result, edge, results);
            } else {
                step.attach(result, edge, fold(values, over, place.child(edge), values.map(child, at), step));
            }
        }
        return result;
    }

    /** Whether an optional member is left out: a copy member's input names no id, any other value is null. */
    private static boolean absent(Over over, Edge edge, Map<String, Object> parent, Object child) {
        return over == Over.INPUT && edge.node().self != null ? parent.get(edge.field() + "Id") == null : child == null;
    }
}
