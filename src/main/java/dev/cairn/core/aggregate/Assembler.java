package dev.cairn.core.aggregate;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.TableSpec;
import dev.cairn.core.aggregate.Aggregate.Assembled;
import dev.cairn.core.aggregate.AggregateNode.Edge;
import dev.cairn.core.aggregate.AggregateNode.EdgeKind;
import dev.cairn.core.item.Timestamps;
import dev.cairn.core.key.KeyCodec;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Items back into the view: each place of the graph takes the item at its sort key (list elements are the items
 * under their list's prefix, in stored order). A missing, mistyped or unexpected item fails the whole assembly
 * with AggregateAssemblyError: a partition either forms the aggregate or it is reported.
 */
record Assembler(String name, AggregateNode root, String idField) {

    Assembled assemble(List<Map<String, AttributeValue>> items) {
        // sorted as DynamoDB sorts them (code points), so a list's elements are one range of it (found without a scan
        // of every item) and elements at the same stored position keep the Query's order
        var bySk = new TreeMap<String, Map<String, AttributeValue>>(PartitionRanges::compare);
        items.forEach(item -> bySk.put(item.get(TableSpec.SK).s(), item));
        Map<String, AttributeValue> rootItem = bySk.get(root.label);
        if (rootItem == null) {
            throw broken("the root item " + root.label + " is missing");
        }
        var refVersions = new HashMap<String, Long>();
        Object view = node(Place.root(root), root.label, bySk, refVersions);
        if (!bySk.isEmpty()) {
            throw broken("unexpected items " + bySk.keySet());
        }
        try {
            return new Assembled(Values.asMap(view), Long.parseLong(rootItem.get(TableSpec.VERSION).n()),
                    Timestamps.instant(rootItem.get(TableSpec.CREATED_AT).s()), Timestamps.instant(rootItem.get(TableSpec.UPDATED_AT).s()),
                    refVersions, rootItem);
        } catch (RuntimeException e) {
            throw broken("the root item lacks its version or timestamps");
        }
    }

    /** The value at a place: a copy node's embedded copy, or a map of fields, inline copies and children. */
    private Object node(Place place, String sk, NavigableMap<String, Map<String, AttributeValue>> bySk,
                        Map<String, Long> refVersions) {
        AggregateNode node = place.node();
        Map<String, AttributeValue> item = bySk.remove(sk);
        if (item == null) {
            throw broken("the item " + sk + " (" + node.entityType + ") is missing");
        }
        AttributeValue type = item.get(TableSpec.TYPE);
        if (type == null || !node.entityType.equals(type.s())) {
            throw broken("the item " + sk + " is not a " + node.entityType);
        }
        Map<String, AttributeValue> versions = item.containsKey(CopyVersions.ATTRIBUTE)
                ? item.get(CopyVersions.ATTRIBUTE).m() : Map.of();
        if (node.self != null) {
            if (!item.containsKey(Aggregate.REF)) {
                throw broken("the item " + sk + " has no embedded copy");
            }
            Map<String, Object> copy = JsonAttributes.fromMap(item.get(Aggregate.REF).m());
            rememberVersion(refVersions, node.self, copy, CopyVersions.version(versions, Aggregate.REF));
            return copy;
        }
        var view = new LinkedHashMap<String, Object>();
        if (place.isRoot()) {
            view.put(idField, item.get(idField) == null ? null : item.get(idField).s());
        }
        for (String field : node.fields) {
            AttributeValue value = item.get(field);
            view.put(field, value == null ? null : JsonAttributes.fromAttribute(value));
        }
        node.refs.forEach((field, ref) -> {
            AttributeValue value = item.get(field);
            if (value == null || value.m() == null) {
                throw broken("the item " + sk + " has no embedded " + field);
            }
            Map<String, Object> copy = JsonAttributes.fromMap(value.m());
            rememberVersion(refVersions, ref, copy, CopyVersions.version(versions, field));
            view.put(field, copy);
        });
        for (Edge edge : node.edges) {
            if (edge.optional() && !bySk.containsKey(place.child(edge).sk())) {
                view.put(edge.field(), null); // an optional member that is absent
                continue;
            }
            view.put(edge.field(), edge.kind() == EdgeKind.MANY
                    ? elements(place, edge, bySk, refVersions) : child(place.child(edge), bySk, refVersions));
        }
        return view;
    }

    /** The elements of a list: the items right under its prefix, in their stored positions. */
    private List<Object> elements(Place place, Edge edge, NavigableMap<String, Map<String, AttributeValue>> bySk,
                                  Map<String, Long> refVersions) {
        String prefix = place.elementsPrefix(edge);
        // every key that starts with the prefix, and only those: the prefix ends in the delimiter, the bound after it
        String bound = prefix.substring(0, prefix.length() - 1) + (char) (prefix.charAt(prefix.length() - 1) + 1);
        var under = new ArrayList<Positioned>();
        bySk.subMap(prefix, true, bound, false).forEach((sk, item) -> {
            if (sk.indexOf(KeyCodec.DELIMITER, prefix.length()) < 0) { // an element, not an element's own member
                under.add(new Positioned(sk, position(item))); // parsed once, not per comparison
            }
        });
        under.sort(null);
        var elements = new ArrayList<Object>(under.size());
        for (int i = 0; i < under.size(); i++) {
            String sk = under.get(i).sk();
            String key = KeyCodec.unescape(sk.substring(prefix.length()));
            // The element's sort key is the one read: no need to build it again from the place.
            elements.add(node(place.element(edge, i, key), sk, bySk, refVersions));
        }
        return elements;
    }

    /** An element's sort key and stored position, ordered by position (stable: ties keep DynamoDB's sort-key order). */
    private record Positioned(String sk, long position) implements Comparable<Positioned> {
        @Override
        public int compareTo(Positioned other) {
            return Long.compare(position, other.position);
        }
    }

    private Object child(Place place, NavigableMap<String, Map<String, AttributeValue>> bySk, Map<String, Long> refVersions) {
        return node(place, place.sk(), bySk, refVersions);
    }

    private static long position(Map<String, AttributeValue> item) {
        AttributeValue pos = item.get(Aggregate.POS);
        return pos == null ? Long.MAX_VALUE : Long.parseLong(pos.n());
    }

    private static void rememberVersion(Map<String, Long> refVersions, RefSpec<?> ref, Map<String, Object> copy,
                                        Long version) {
        if (version != null) {
            refVersions.put(Aggregate.refKey(ref, Values.idOf(copy)), version);
        }
    }

    private CairnException broken(String reason) {
        return new CairnException(new CairnError.AggregateAssemblyError(
                "the stored " + name + " cannot be assembled: " + reason + "; a DELETE removes what is stored", name, reason));
    }
}
