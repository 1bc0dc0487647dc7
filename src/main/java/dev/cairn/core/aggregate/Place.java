package dev.cairn.core.aggregate;

import dev.cairn.core.aggregate.AggregateNode.Edge;
import dev.cairn.core.aggregate.AggregateNode.EdgeKind;
import dev.cairn.core.key.KeyCodec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a walk of an aggregate's graph stands: the node, the edge that led to it (null at the root), its path in
 * the value ({@code team1.players[3]}) and its parent's, its sort-key segments, its transaction group, the
 * discriminators it inherits, and its position in a list. Every walk (decomposition, assembly, groups, summaries)
 * derives child places here, so the rules that turn a place in the graph into a sort key and a group live once.
 *
 * @param parent   the place this one is under (null at the root): paths are made from it when asked, which a read's
 *                 assembly never does
 * @param segments null for a list element walked without its key (inputs: only decomposition needs keys)
 */
record Place(AggregateNode node, Edge edge, Place parent, Integer position, List<String> segments, String group,
             Map<String, Object> disc) {

    static Place root(AggregateNode root) {
        return new Place(root, null, null, null, List.of(), Aggregate.ROOT_GROUP, Map.of());
    }

    boolean isRoot() {
        return edge == null;
    }

    /** The path in the value, made when asked (assembly never asks): {@code team1.players[3]}. */
    String path() {
        return isRoot() ? "" : join(parent.path(), edge.field()) + (position == null ? "" : "[" + position + "]");
    }

    /** The path of the place this one is under ({@code team1} for {@code team1.players[3]}; empty at the root). */
    String parentPath() {
        return parent == null ? "" : parent.path();
    }

    /** The sort key: the root's label; a member's segments, escaped and joined. */
    String sk() {
        return isRoot() ? node.label : skOf(segments);
    }

    /** The place behind a ONE or SUB edge. A SUB edge adds its discriminator and, below the root group, starts a group. */
    Place child(Edge to) {
        var childSegments = append(segments, to.node().label);
        if (to.kind() != EdgeKind.SUB) {
            return new Place(to.node(), to, this, null, childSegments, group, disc);
        }
        to.discriminator().values().forEach(d -> childSegments.add(String.valueOf(d)));
        var childDisc = new LinkedHashMap<>(disc);
        childDisc.putAll(to.discriminator());
        String childGroup = group.equals(Aggregate.ROOT_GROUP) ? join(path(), to.field()) : group;
        return new Place(to.node(), to, this, null, childSegments, childGroup, childDisc);
    }

    /**
     * The place of one element of a MANY edge: at list {@code index} (null when unknown) and identified by
     * {@code key} (null when the walk needs no sort keys).
     */
    Place element(Edge of, Integer index, String key) {
        List<String> elementSegments = key == null ? null : append(append(segments, of.node().label), key);
        return new Place(of.node(), of, this, index, elementSegments, group, disc);
    }

    /** The sort-key prefix every element of a MANY edge starts with. */
    String elementsPrefix(Edge of) {
        return skOf(append(segments, of.node().label)) + KeyCodec.DELIMITER;
    }

    static String skOf(List<String> segments) {
        var out = new StringBuilder();
        for (int i = 0; i < segments.size(); i++) {
            if (i > 0) {
                out.append(KeyCodec.DELIMITER);
            }
            // Labels are upper-case words and never need escaping; element keys and discriminators may.
            out.append(KeyCodec.escape(segments.get(i)));
        }
        return out.toString();
    }

    static String join(String path, String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    private static List<String> append(List<String> segments, String segment) {
        var out = new ArrayList<>(segments);
        out.add(segment);
        return out;
    }
}
