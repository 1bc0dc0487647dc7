package dev.cairn.core.write;

import dev.cairn.core.TableSpec;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.model.HistoryModel;
import dev.cairn.core.write.WriteAction.Expectation;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The snapshot items of an entity's version history. A snapshot lives in its item's partition under the sort key
 * {@code ~VERSION#<item sk>#<version, 19 digits>}: {@code ~} sorts after every sort key a declared entity has, and
 * no listing of the engine's reads it (a child listing asks {@code begins_with} its own prefix, a read of a parent
 * with its children stops before {@code ~}). The version's whole item is kept under {@link #DOC}, a map, so none of
 * its attributes is a top-level one an index is keyed on: no index ever holds a snapshot. Pure: the caller adds the
 * actions to the write's own transaction, whose version check decides whether any of it is stored.
 */
public final class VersionSnapshots {

    /** What every snapshot's sort key starts with (no declared sort key may). */
    public static final String PREFIX = "~VERSION#";
    /** On a live item of an entity with history: who wrote this version (the caller's subject). */
    public static final String WRITER = "_writer";
    /** On a snapshot: the version's item (its key and index attributes left out). */
    public static final String DOC = "_doc";
    /** On the snapshot a delete stores: who deleted the item, and when. */
    public static final String DELETED_BY = "_deletedBy";
    public static final String DELETED_AT = "_deletedAt";
    /** A snapshot's {@code _type}: its entity's, with this suffix (no entity name holds a {@code ~}). */
    public static final String TYPE_SUFFIX = "~version";

    private VersionSnapshots() {
    }

    /** The sort-key prefix of every snapshot of the item at {@code itemSk}. */
    public static String prefix(String itemSk) {
        return PREFIX + itemSk + "#";
    }

    /** The key of the item's snapshot of {@code version}: zero-padded, so the versions sort by number. */
    public static PrimaryKey key(PrimaryKey item, long version) {
        return PrimaryKey.of(item.pk(), prefix(item.sk()) + String.format("%019d", version));
    }

    /** The writer attribute a write of an entity with history sets on its item. */
    public static Map<String, AttributeValue> writer(String subject) {
        return Map.of(WRITER, AttributeValue.fromS(subject));
    }

    /**
     * The writes that keep {@code previous} (the item as read, at the version the write is conditioned on) as a
     * snapshot: a Put of it, and with {@code keep: N} the Delete of the version that falls out of the window; with
     * {@code for}, the snapshot carries the table's TTL attribute. {@code deletedBy} (null for a change) marks the
     * snapshot a delete stores.
     */
    public static List<WriteAction> snapshot(HistoryModel history, String entity, Map<String, AttributeValue> previous,
                                             Instant now, String deletedBy) {
        PrimaryKey item = PrimaryKey.from(previous);
        long version = Long.parseLong(previous.get(TableSpec.VERSION).n());
        PrimaryKey key = key(item, version);
        var doc = new HashMap<String, AttributeValue>();
        previous.forEach((name, value) -> {
            // the key and index keys stay out (no index may hold a snapshot), as does a delete's mark
            if (!TableSpec.RESERVED.contains(name) && !name.equals(TableSpec.EXPIRES_AT)
                    && !name.equals(dev.cairn.core.entity.DeleteMark.ATTRIBUTE)) {
                doc.put(name, value);
            }
        });
        var snapshot = new HashMap<String, AttributeValue>(key.toAttributes());
        snapshot.put(TableSpec.TYPE, AttributeValue.fromS(entity + TYPE_SUFFIX));
        snapshot.put(TableSpec.VERSION, AttributeValue.fromN(Long.toString(version)));
        snapshot.put(DOC, AttributeValue.fromM(doc));
        if (deletedBy != null) {
            snapshot.put(DELETED_BY, AttributeValue.fromS(deletedBy));
            snapshot.put(DELETED_AT, AttributeValue.fromS(now.toString()));
        }
        if (history.retain() != null) {
            snapshot.put(TableSpec.EXPIRES_AT, AttributeValue.fromN(Long.toString(now.plus(history.retain()).getEpochSecond())));
        }
        var out = new ArrayList<WriteAction>(2);
        // Unconditional: the write it goes with is version-checked, and a snapshot of this version already there
        // (a write run again after its answer was lost) is the same version.
        out.add(WriteAction.putItem(key, snapshot, Expectation.NONE, entity + " version " + version));
        if (history.keep() != null && version - history.keep() >= 1) {
            out.add(WriteAction.deleteItem(key(item, version - history.keep()), Expectation.NONE,
                    entity + " version " + (version - history.keep())));
        }
        return out;
    }

    /**
     * The version's item as stored when it was live ({@link #DOC} with the key put back): what the entity's codec
     * reads.
     */
    public static Map<String, AttributeValue> itemOf(Map<String, AttributeValue> snapshot) {
        var item = new LinkedHashMap<String, AttributeValue>(snapshot.get(DOC).m());
        String sk = snapshot.get(TableSpec.SK).s();
        String itemSk = sk.substring(PREFIX.length(), sk.lastIndexOf('#'));
        item.put(TableSpec.PK, snapshot.get(TableSpec.PK));
        item.put(TableSpec.SK, AttributeValue.fromS(itemSk));
        return item;
    }

    /** Whether an item is a snapshot (its sort key says so). */
    public static boolean isSnapshot(Map<String, AttributeValue> item) {
        AttributeValue sk = item.get(TableSpec.SK);
        return sk != null && sk.s() != null && sk.s().startsWith(PREFIX);
    }
}
