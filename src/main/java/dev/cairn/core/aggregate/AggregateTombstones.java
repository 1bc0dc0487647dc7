package dev.cairn.core.aggregate;

import dev.cairn.core.TableSpec;
import dev.cairn.core.aggregate.Aggregate.Assembled;
import dev.cairn.core.entity.Tombstones;
import dev.cairn.core.key.PrimaryKey;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * The tombstone of a soft-deleted aggregate ({@code softDelete: true} on an aggregate): ONE item holding the whole
 * aggregate as it was (its view, JSON text under {@link AggregateVersions#JSON}, which its restore reads back as the
 * input of a create), who deleted it and when, the version deleted and its creation time. It lives beside the
 * entities' tombstones, at {@link Tombstones#keyOf} its root's key ({@code ~DELETED#<partition>} / the root's sort key),
 * outside the aggregate's partition: a new aggregate may take the id meanwhile (a restore is then refused), and on
 * the deleted listing's index ({@link Tombstones#LISTING}) under {@code ~DELETED#<Aggregate>}, newest deleted first.
 * It has none of the aggregate's index keys, so no list, appearance or cascade finds a deleted aggregate.
 */
public final class AggregateTombstones {

    private AggregateTombstones() {
    }

    /** The tombstone of {@code deleted} (the aggregate as read) of id {@code id}, deleted by {@code by} at {@code at}. */
    public static Map<String, AttributeValue> of(String aggregate, PrimaryKey root, String id, Assembled deleted,
                                                 String tenant, String by, Instant at) {
        var out = new HashMap<String, AttributeValue>(Tombstones.keyOf(root).toAttributes());
        out.put(TableSpec.TYPE, AttributeValue.fromS(Tombstones.TYPE));
        out.put(Tombstones.ENTITY, AttributeValue.fromS(aggregate));
        out.put(AggregateVersions.JSON, AttributeValue.fromS(AggregateVersions.json(deleted.view())));
        out.put(Tombstones.DELETED_BY, AttributeValue.fromS(by));
        out.put(Tombstones.DELETED_AT, AttributeValue.fromS(at.toString()));
        out.put(TableSpec.VERSION, AttributeValue.fromN(Long.toString(deleted.version())));
        out.put(TableSpec.CREATED_AT, AttributeValue.fromS(deleted.createdAt().toString()));
        out.put(TableSpec.UPDATED_AT, AttributeValue.fromS(deleted.updatedAt().toString()));
        out.put(Tombstones.LISTING.pkName(), AttributeValue.fromS(Tombstones.listing(aggregate, null)));
        out.put(Tombstones.LISTING.skName(), AttributeValue.fromS(Tombstones.sortKey(at, id)));
        if (tenant != null) {
            out.put(Tombstones.TENANT, AttributeValue.fromS(tenant));
        }
        return out;
    }

    /** Whether an item is the tombstone of a deleted {@code aggregate}. */
    public static boolean isTombstoneOf(Map<String, AttributeValue> item, String aggregate) {
        return Tombstones.isTombstone(item) && item.containsKey(AggregateVersions.JSON)
                && aggregate.equals(item.get(Tombstones.ENTITY).s());
    }

    /** The aggregate's view as it was deleted (its fields in their order). */
    public static Map<String, Object> viewOf(Map<String, AttributeValue> tombstone) {
        return AggregateVersions.parse(tombstone.get(AggregateVersions.JSON).s());
    }

    public static long versionOf(Map<String, AttributeValue> tombstone) {
        return Long.parseLong(tombstone.get(TableSpec.VERSION).n());
    }

    public static Instant createdAt(Map<String, AttributeValue> tombstone) {
        return Instant.parse(tombstone.get(TableSpec.CREATED_AT).s());
    }

    public static Instant updatedAt(Map<String, AttributeValue> tombstone) {
        return Instant.parse(tombstone.get(TableSpec.UPDATED_AT).s());
    }
}
