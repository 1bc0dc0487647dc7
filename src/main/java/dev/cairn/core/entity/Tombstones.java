package dev.cairn.core.entity;

import dev.cairn.core.TableSpec;
import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.key.PrimaryKey;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * The tombstone a soft delete leaves: the item as it was, kept where no live read reaches it.
 * <ul>
 *   <li>key: {@code ~DELETED#<item pk>} / {@code <item sk>} — a partition of its own, so no Query of a live
 *       partition (begins_with, between, a whole partition, a parent read with its children) can return it;</li>
 *   <li>{@code _type} {@code _Deleted} (a system type, as sentinels have): a Scan that selects an entity's items by
 *       type never takes it for one;</li>
 *   <li>{@code _item}: the item's attributes as a map, without its index keys — nested, so neither an overloaded index
 *       nor a natural index keyed on the entity's own fields holds it;</li>
 *   <li>{@code _deletedBy} (the caller's subject), {@code _deletedAt}; {@code _version} the item's version;</li>
 *   <li>the deleted listing's key on {@link #LISTING}: {@code ~DELETED#<Entity>[#<parent id>]} /
 *       {@code <deleted epoch ms, 15 digits>#<id>}, so a descending Query lists the newest deleted first;</li>
 *   <li>{@code _tenant}: the item's tenant, for the listing's filter.</li>
 * </ul>
 * Pure: the stores write and read these items.
 */
public final class Tombstones {

    public static final String TYPE = "_Deleted";
    public static final String PREFIX = "~DELETED#";
    public static final String ENTITY = "_entity";
    public static final String ITEM = "_item";
    public static final String DELETED_BY = "_deletedBy";
    public static final String DELETED_AT = "_deletedAt";
    public static final String TENANT = "_tenant";
    /** The index the deleted listings are on (a tombstone has none of the item's index keys, so any one is free). */
    public static final Index LISTING = Index.GSI1;

    private Tombstones() {
    }

    /** Where the tombstone of the item at {@code live} is kept. */
    public static PrimaryKey keyOf(PrimaryKey live) {
        return PrimaryKey.of(PREFIX + live.pk(), live.sk());
    }

    /** The deleted listing's partition of an entity, under a scope (a child's parent id; null for none). */
    public static String listing(String entity, String scope) {
        return PREFIX + entity + (scope == null ? "" : "#" + scope);
    }

    /** The tombstone of {@code live} (an item as read), deleted by {@code by} at {@code at}. */
    public static Map<String, AttributeValue> of(Map<String, AttributeValue> live, String entity, String scope, String id,
                                                 String tenant, String by, Instant at) {
        var kept = new HashMap<>(live);
        kept.remove(TableSpec.PK);
        kept.remove(TableSpec.SK);
        for (Index index : Index.globalIndexes()) {
            kept.remove(index.pkName());
            kept.remove(index.skName());
        }
        kept.remove(DeleteMark.ATTRIBUTE);
        var out = new HashMap<String, AttributeValue>(keyOf(PrimaryKey.from(live)).toAttributes());
        out.put(TableSpec.TYPE, AttributeValue.fromS(TYPE));
        out.put(ENTITY, AttributeValue.fromS(entity));
        out.put(ITEM, AttributeValue.fromM(kept));
        out.put(DELETED_BY, AttributeValue.fromS(by));
        out.put(DELETED_AT, AttributeValue.fromS(at.toString()));
        out.put(TableSpec.VERSION, AttributeValue.fromN(Long.toString(EntitySpec.versionOf(live))));
        out.put(TableSpec.CREATED_AT, AttributeValue.fromS(at.toString()));
        out.put(TableSpec.UPDATED_AT, AttributeValue.fromS(at.toString()));
        out.put(LISTING.pkName(), AttributeValue.fromS(listing(entity, scope)));
        out.put(LISTING.skName(), AttributeValue.fromS(sortKey(at, id)));
        if (tenant != null) {
            out.put(TENANT, AttributeValue.fromS(tenant));
        }
        return out;
    }

    /** Epoch milliseconds, zero-padded so the text sorts as the number does, then the id (unique in its listing). */
    public static String sortKey(Instant at, String id) {
        return String.format("%015d", at.toEpochMilli()) + "#" + id;
    }

    public static boolean isTombstone(Map<String, AttributeValue> item) {
        AttributeValue type = item == null ? null : item.get(TableSpec.TYPE);
        return type != null && TYPE.equals(type.s());
    }

    /** The item as it was when deleted (its index keys are the entity's to write again). */
    public static Map<String, AttributeValue> item(Map<String, AttributeValue> tombstone) {
        PrimaryKey key = PrimaryKey.from(tombstone);
        var out = new HashMap<>(tombstone.get(ITEM).m());
        out.put(TableSpec.PK, AttributeValue.fromS(key.pk().substring(PREFIX.length())));
        out.put(TableSpec.SK, AttributeValue.fromS(key.sk()));
        return out;
    }

    /** Who deleted the item, and when. */
    public record Deletion(String by, Instant at) {
    }

    public static Deletion deletion(Map<String, AttributeValue> tombstone) {
        return new Deletion(tombstone.get(DELETED_BY).s(), Instant.parse(tombstone.get(DELETED_AT).s()));
    }
}
