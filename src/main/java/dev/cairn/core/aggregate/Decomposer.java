package dev.cairn.core.aggregate;

import dev.cairn.core.TableSpec;
import dev.cairn.core.aggregate.Aggregate.Items;
import dev.cairn.core.aggregate.Aggregate.Member;
import dev.cairn.core.aggregate.Walk.Over;
import dev.cairn.core.key.KeyCodec;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A view into items: one item per node of the value at its place's sort key, in its place's transaction group.
 * The root carries the bookkeeping (id, version, timestamps), the lists' keys and summary, and the fences;
 * members carry the root's context, their discriminators and their list position.
 */
record Decomposer(Aggregate aggregate, AggregateNode root, List<String> context, Values values) {

    Items decompose(Map<String, Object> view, Map<String, Long> refVersions, long version, Instant createdAt,
                    Instant updatedAt) {
        String id = string(view.get(aggregate.idField()), aggregate.idField());
        String pk = aggregate.partitionOf(id);
        var ctx = new LinkedHashMap<String, Object>();
        context.forEach(field -> ctx.put(field, view.get(field)));
        var bookkeeping = new HashMap<String, AttributeValue>();
        bookkeeping.put(aggregate.idField(), AttributeValue.fromS(id));
        bookkeeping.put(TableSpec.VERSION, AttributeValue.fromN(Long.toString(version)));
        bookkeeping.put(TableSpec.CREATED_AT, AttributeValue.fromS(createdAt.toString()));
        bookkeeping.put(TableSpec.UPDATED_AT, AttributeValue.fromS(updatedAt.toString()));
        bookkeeping.putAll(aggregate.summaries().listed(view, id, createdAt));
        var items = new LinkedHashMap<String, Member>();
        Walk.<Void>fold(values, Over.ITEMS, root, view, (place, value) -> {
            String sk = place.sk();
            var item = new HashMap<String, AttributeValue>(place.isRoot() ? bookkeeping : Map.of());
            fill(item, place, sk, value, pk, ctx, refVersions);
            items.put(sk, new Member(place.group(), sk, item));
            return null;
        });
        expire(view, items);
        // Where a reader may cut the partition into ranges read in parallel (the root is rewritten by every write).
        List<String> fences = PartitionRanges.fencesOf(items.values().stream().map(Member::item).toList());
        if (!fences.isEmpty()) {
            items.get(root.label).item().put(PartitionRanges.FENCES,
                    AttributeValue.fromL(fences.stream().map(AttributeValue::fromS).toList()));
        }
        return new Items(pk, items);
    }

    /**
     * An expiring aggregate: its root's expiry is not stored under its name but as the table's TTL attribute (epoch
     * seconds) of EVERY item, root and members, so each read hides them all at once and DynamoDB deletes them all.
     */
    private void expire(Map<String, Object> view, Map<String, Member> items) {
        String expiry = aggregate.expiry();
        if (expiry == null) {
            return;
        }
        items.get(root.label).item().remove(expiry);
        if (view.get(expiry) instanceof String at) {
            AttributeValue epoch = AttributeValue.fromN(Long.toString(Instant.parse(at).getEpochSecond()));
            items.values().forEach(member -> member.item().put(TableSpec.EXPIRES_AT, epoch));
        }
    }

    private void fill(Map<String, AttributeValue> item, Place place, String sk, Map<String, Object> value, String pk,
                      Map<String, Object> ctx, Map<String, Long> refVersions) {
        AggregateNode node = place.node();
        item.put(TableSpec.PK, AttributeValue.fromS(pk));
        item.put(TableSpec.SK, AttributeValue.fromS(sk));
        item.put(TableSpec.TYPE, AttributeValue.fromS(node.entityType));
        if (!place.isRoot()) {
            if (!ctx.isEmpty()) {
                item.put(Aggregate.CTX, JsonAttributes.toAttribute(ctx));
            }
            if (!place.disc().isEmpty()) {
                item.put(Aggregate.DISC, JsonAttributes.toAttribute(place.disc()));
            }
            if (place.position() != null) {
                item.put(Aggregate.POS, AttributeValue.fromN(place.position().toString()));
            }
        }
        var versions = new TreeMap<String, AttributeValue>();
        if (node.self != null) {
            item.put(Aggregate.REF, JsonAttributes.toAttribute(value));
            indexCopy(item, node.self, Values.idOf(value), pk, sk);
            versions.put(Aggregate.REF, version(refVersions, node.self, Values.idOf(value)));
        } else {
            node.fields.forEach(field -> {
                if (value.get(field) != null) {
                    item.put(field, JsonAttributes.toAttribute(value.get(field)));
                }
            });
            node.refs.forEach((field, ref) -> {
                Map<String, Object> copy = values.map(value.get(field), Place.join(place.path(), field));
                item.put(field, JsonAttributes.toAttribute(copy));
                indexCopy(item, ref, Values.idOf(copy), pk, sk);
                versions.put(field, version(refVersions, ref, Values.idOf(copy)));
            });
        }
        if (!versions.isEmpty()) {
            item.put(CopyVersions.ATTRIBUTE, AttributeValue.fromM(versions));
        }
    }

    /** The ref-index key of an embedded copy: its source's ref partition, sorted by where the copy lives. */
    private static void indexCopy(Map<String, AttributeValue> item, RefSpec<?> ref, String id, String pk, String sk) {
        item.put(ref.index().pkName(), AttributeValue.fromS(ref.refPartition(id)));
        item.put(ref.index().skName(), AttributeValue.fromS(pk + KeyCodec.DELIMITER + sk));
    }

    private static AttributeValue version(Map<String, Long> refVersions, RefSpec<?> ref, String id) {
        Long v = refVersions.get(Aggregate.refKey(ref, id));
        return CopyVersions.of(ref.entity(), v == null ? 0 : v);
    }

    private static String string(Object value, String field) {
        if (value instanceof String s) {
            return s;
        }
        throw new IllegalArgumentException(field + " must be a string");
    }
}
