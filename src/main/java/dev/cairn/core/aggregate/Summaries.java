package dev.cairn.core.aggregate;

import dev.cairn.core.TableSpec;
import dev.cairn.core.aggregate.Aggregate.SummaryCopy;
import dev.cairn.core.aggregate.AggregateNode.Edge;
import dev.cairn.core.aggregate.AggregateNode.EdgeKind;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What makes an aggregate findable through lists: the summary its root carries ({@code _s_<field>}, from view
 * paths) and each listing's index keys; and, for cascades, which summary fields show which embedded copy.
 */
final class Summaries {

    /** The prefix of the root attributes holding the summary (top level, so a cascade can set one alone). */
    static final String PREFIX = "_s_";

    private final String name;
    private final String idField;
    private final Map<String, String> summary;
    private final List<Listing> listings;
    /** "sk|copy attribute" → the summary fields copied from that embedded copy. */
    private final Map<String, List<SummaryCopy>> copies;

    Summaries(String name, AggregateNode root, String idField, Map<String, String> summary, List<Listing> listings) {
        this.name = name;
        this.idField = idField;
        this.summary = summary;
        this.listings = listings;
        this.copies = sources(root);
    }

    Map<String, String> summary() {
        return summary;
    }

    /** The root attributes that list it: summary fields and every listing's index keys. */
    Map<String, AttributeValue> listed(Map<String, Object> view, String id, Instant createdAt) {
        var out = new HashMap<String, AttributeValue>();
        summary.forEach((field, path) -> {
            Object value = ViewPath.valueAt(view, path);
            if (value != null) {
                out.put(PREFIX + field, JsonAttributes.toAttribute(value));
            }
        });
        listings.forEach(listing -> out.putAll(listing.keysOf(view, id, createdAt)));
        return out;
    }

    /** Of a root item, the attributes {@link #listed} manages (for a backfill to compare and set). */
    Map<String, AttributeValue> listedAttributes(Map<String, AttributeValue> rootItem) {
        var out = new HashMap<String, AttributeValue>();
        rootItem.forEach((attribute, value) -> {
            if (isListedAttribute(attribute)) {
                out.put(attribute, value);
            }
        });
        return out;
    }

    private boolean isListedAttribute(String attribute) {
        if (attribute.startsWith(PREFIX)) {
            return true;
        }
        return listings.stream().flatMap(l -> l.entries().stream())
                .anyMatch(e -> attribute.equals(e.index().pkName()) || attribute.equals(e.index().skName()));
    }

    /** The summary of a listed root item; null for a root still being created by a multi-transaction write. */
    Map<String, Object> summaryOf(Map<String, AttributeValue> rootItem) {
        AttributeValue op = rootItem.get(AggregateTxn.OP);
        if (op != null && AggregateTxn.Op.CREATE.wire().equals(op.s())) {
            return null;
        }
        var out = new LinkedHashMap<String, Object>();
        out.put(idField, rootItem.get(idField) == null ? null : rootItem.get(idField).s());
        summary.keySet().forEach(field -> {
            AttributeValue value = rootItem.get(PREFIX + field);
            out.put(field, value == null ? null : JsonAttributes.fromAttribute(value));
        });
        out.put("createdAt", text(rootItem.get(TableSpec.CREATED_AT)));
        out.put("updatedAt", text(rootItem.get(TableSpec.UPDATED_AT)));
        AttributeValue version = rootItem.get(TableSpec.VERSION);
        out.put("version", version == null ? null : Long.parseLong(version.n()));
        return out;
    }

    /** The summary fields that show the copy held in {@code attribute} of the member at {@code sk}. */
    List<SummaryCopy> copiesShown(String sk, String attribute) {
        return copies.getOrDefault(sk + "|" + attribute, List.of());
    }

    /**
     * Where each summary path reads an embedded copy: walks the graph along the path (one/sub edges and refs;
     * never into a list) to the member's sort key and copy attribute. Paths to plain fields need no cascade.
     */
    private Map<String, List<SummaryCopy>> sources(AggregateNode root) {
        var out = new LinkedHashMap<String, List<SummaryCopy>>();
        summary.forEach((field, path) -> {
            String[] steps = path.split("\\.");
            Place place = Place.root(root);
            for (int i = 0; i < steps.length; i++) {
                String step = steps[i];
                AggregateNode node = place.node();
                boolean last = i == steps.length - 1;
                if (last && (node.fields.contains(step) || (place.isRoot() && step.equals(idField)))) {
                    return;
                }
                if (node.refs.containsKey(step) && i == steps.length - 2) {
                    out.computeIfAbsent(place.sk() + "|" + step, k -> new ArrayList<>()).add(new SummaryCopy(field, steps[i + 1]));
                    return;
                }
                Edge edge = node.edges.stream().filter(e -> e.field().equals(step)).findFirst().orElse(null);
                if (edge == null || edge.kind() == EdgeKind.MANY) {
                    throw new IllegalArgumentException(name + ": summary path " + path + " does not lead to one value");
                }
                place = place.child(edge);
                if (place.node().self != null) {
                    if (i != steps.length - 2) {
                        throw new IllegalArgumentException(name + ": summary path " + path + " must name one field of the copy");
                    }
                    out.computeIfAbsent(place.sk() + "|" + Aggregate.REF, k -> new ArrayList<>())
                            .add(new SummaryCopy(field, steps[i + 1]));
                    return;
                }
            }
            throw new IllegalArgumentException(name + ": summary path " + path + " does not lead to one value");
        });
        out.replaceAll((k, v) -> List.copyOf(v));
        return Map.copyOf(out);
    }

    private static String text(AttributeValue value) {
        return value == null ? null : value.s();
    }
}
