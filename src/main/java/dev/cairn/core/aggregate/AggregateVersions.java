package dev.cairn.core.aggregate;

import dev.cairn.core.TableSpec;
import dev.cairn.core.aggregate.Aggregate.Assembled;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.model.HistoryModel;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.core.write.VersionSnapshots;
import dev.cairn.core.write.WriteAction;
import dev.cairn.core.write.WriteAction.Expectation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The snapshot items of an aggregate's version history ({@code history:} on an aggregate). Each is one whole version
 * of the aggregate in ONE item: its GET's answer then, as JSON text under {@link #JSON} (so its fields keep their
 * order, and no index is ever keyed on a snapshot), the root's timestamps, who wrote that version, and — for a
 * delete's — who deleted it and when. Snapshots live in a partition of their own, {@code ~VERSION#<the aggregate's partition>}, sort
 * key the version (19 digits): the aggregate's ONE Query, its create's "the partition is empty" check, its recovery
 * and its purge never meet one, and the versions outlive the aggregate. Pure: the caller adds the actions to the
 * write's commit transaction, whose version check on the root decides whether any of it is stored.
 */
public final class AggregateVersions {

    /** On a snapshot: the aggregate as its GET answered that version, JSON text. */
    public static final String JSON = "_json";

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            // as the answers write an instant: its ISO-8601 text
            .registerModule(new SimpleModule("instants").addSerializer(Instant.class, new ToStringSerializer(Instant.class)));

    private AggregateVersions() {
    }

    /** What a GET shows of an aggregate: its view and, where declared, the root's timestamps after it. */
    public static Map<String, Object> shown(Map<String, Object> view, boolean timestamps, Instant createdAt,
                                            Instant updatedAt) {
        if (!timestamps) {
            return view;
        }
        var out = new LinkedHashMap<>(view);
        out.put("createdAt", createdAt);
        out.put("updatedAt", updatedAt);
        return out;
    }

    /** The partition of an aggregate's snapshots. */
    public static String partition(String aggregatePk) {
        return VersionSnapshots.PREFIX + aggregatePk;
    }

    /** The key of the snapshot of {@code version}: zero-padded, so the versions sort by number. */
    public static PrimaryKey key(String aggregatePk, long version) {
        return PrimaryKey.of(partition(aggregatePk), String.format("%019d", version));
    }

    /** The snapshots, newest first: 1 strongly consistent Query of their sort keys (the 19-digit versions). */
    public static QuerySpec listing(String aggregatePk, Integer limit) {
        return QuerySpec.table(partition(aggregatePk))
                .sort(dev.cairn.core.expr.SortCondition.between(String.format("%019d", 0), String.format("%019d", Long.MAX_VALUE)))
                .descending().limit(limit).consistent().build();
    }

    /**
     * The sort key of the tail: the item a delete leaves in the snapshots' partition, naming the version deleted and the
     * tenant it was deleted in. It sorts after every version, so the newest two items of the partition (1 Query,
     * descending, limit 2) are the tail and the newest snapshot.
     */
    public static final String TAIL = "~TAIL";

    /** Where the tail of an aggregate's versions is. */
    public static PrimaryKey tailKey(String aggregatePk) {
        return PrimaryKey.of(partition(aggregatePk), TAIL);
    }

    /** What a create reads before it numbers its first version: the tail and the newest snapshot (1 Query). */
    public static QuerySpec newest(String aggregatePk) {
        return QuerySpec.table(partition(aggregatePk)).descending().limit(2).consistent().build();
    }

    /**
     * What the newest items of an aggregate's versions' partition say: the version a new aggregate of the id starts
     * after, the tail as read (null: none), and the tenant of the newest retained version (null: none, or no tenant).
     */
    public record Newest(long last, Map<String, AttributeValue> tail, String tenant) {

        public static Newest of(List<Map<String, AttributeValue>> items, String tenantField) {
            Map<String, AttributeValue> tail = null;
            Map<String, AttributeValue> snapshot = null;
            for (var item : items) {
                if (TAIL.equals(item.get(TableSpec.SK).s())) {
                    tail = item;
                } else if (snapshot == null) {
                    snapshot = item;
                }
            }
            long last = Math.max(tail == null ? 0 : versionOf(tail), snapshot == null ? 0 : versionOf(snapshot));
            String tenant = null;
            if (tenantField != null) {
                if (tail != null && tail.get(dev.cairn.core.entity.Tombstones.TENANT) != null) {
                    tenant = tail.get(dev.cairn.core.entity.Tombstones.TENANT).s();
                } else if (snapshot != null && shownOf(snapshot).get(tenantField) instanceof String t) {
                    tenant = t;
                }
            }
            return new Newest(last, tail, tenant);
        }

        /**
         * The check a create commits with: the tail still as read (absent, or at its version), so a delete that
         * committed after the read makes the create read again and number after it.
         */
        public WriteAction unchanged(String aggregatePk, String what) {
            return WriteAction.checkItem(tailKey(aggregatePk), tail == null ? Expectation.ABSENT
                    : Expectation.present(versionOf(tail)), null, "the retained versions of " + what);
        }
    }

    /**
     * The tail a delete leaves (in its commit): the version deleted and the tenant it was deleted in; with a
     * {@code for} history it expires with that version's snapshot.
     */
    public static WriteAction tail(HistoryModel history, String aggregate, String aggregatePk, long version, String tenant,
                                   Instant now) {
        var item = new HashMap<String, AttributeValue>(tailKey(aggregatePk).toAttributes());
        item.put(TableSpec.TYPE, AttributeValue.fromS(aggregate + VersionSnapshots.TYPE_SUFFIX + "s"));
        item.put(TableSpec.VERSION, AttributeValue.fromN(Long.toString(version)));
        if (tenant != null) {
            item.put(dev.cairn.core.entity.Tombstones.TENANT, AttributeValue.fromS(tenant));
        }
        if (history.retain() != null) {
            item.put(TableSpec.EXPIRES_AT, AttributeValue.fromN(Long.toString(now.plus(history.retain()).getEpochSecond())));
        }
        return WriteAction.putItem(tailKey(aggregatePk), item, Expectation.NONE, aggregate + " versions");
    }

    /** The version a snapshot holds. */
    public static long versionOf(Map<String, AttributeValue> snapshot) {
        return Long.parseLong(snapshot.get(TableSpec.VERSION).n());
    }

    /** The aggregate as its GET answered that version (its fields in their order). */
    public static Map<String, Object> shownOf(Map<String, AttributeValue> snapshot) {
        return parse(snapshot.get(JSON).s());
    }

    /** JSON text of an object, as the answers write it (instants as their ISO-8601 text). */
    static String json(Map<String, Object> value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an aggregate's view that is no JSON", e);
        }
    }

    /** A JSON object, its fields in their order, decimals as BigDecimal. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> parse(String json) {
        try {
            return MAPPER.readValue(json, LinkedHashMap.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an aggregate's stored JSON is no object", e);
        }
    }

    /** When the version was written (the root's updatedAt then). */
    public static Instant writtenAt(Map<String, AttributeValue> snapshot) {
        return Instant.parse(snapshot.get(TableSpec.UPDATED_AT).s());
    }

    /** Who wrote the version (null for one written before the aggregate kept history). */
    public static String writtenBy(Map<String, AttributeValue> snapshotOrRoot) {
        AttributeValue by = snapshotOrRoot.get(VersionSnapshots.WRITER);
        return by == null ? null : by.s();
    }

    /**
     * The writes that keep {@code previous} (the aggregate as read, at the version the write is conditioned on) as a
     * snapshot: a Put of it, and with {@code keep: N} the Delete of the version that falls out of the window; with
     * {@code for}, the snapshot carries the table's TTL attribute. {@code deletedBy} (null for a change) marks the
     * snapshot a delete stores.
     */
    public static List<WriteAction> snapshot(HistoryModel history, String aggregate, boolean timestamps,
                                             String aggregatePk, Assembled previous, Instant now, String deletedBy) {
        long version = previous.version();
        var item = item(aggregate, aggregatePk, shown(previous.view(), timestamps, previous.createdAt(),
                previous.updatedAt()), version, previous.createdAt(), previous.updatedAt(), writtenBy(previous.rootItem()));
        if (deletedBy != null) {
            item.put(VersionSnapshots.DELETED_BY, AttributeValue.fromS(deletedBy));
            item.put(VersionSnapshots.DELETED_AT, AttributeValue.fromS(now.toString()));
        }
        if (history.retain() != null) {
            item.put(TableSpec.EXPIRES_AT, AttributeValue.fromN(Long.toString(now.plus(history.retain()).getEpochSecond())));
        }
        var out = new ArrayList<WriteAction>(2);
        // Unconditional: the write it goes with is version-checked, and a snapshot of this version already there
        // (a write run again after its answer was lost) is the same version.
        out.add(WriteAction.putItem(key(aggregatePk, version), item, Expectation.NONE, aggregate + " version " + version));
        if (history.keep() != null && version - history.keep() >= 1) {
            out.add(WriteAction.deleteItem(key(aggregatePk, version - history.keep()), Expectation.NONE,
                    aggregate + " version " + (version - history.keep())));
        }
        return out;
    }

    /**
     * Refuses (413 ItemTooLarge, before anything is sent) a version that could not be kept as a snapshot when it is
     * replaced: otherwise an aggregate could grow into a state no later write or delete could leave.
     */
    public static void requireKeepable(String aggregate, boolean timestamps, String aggregatePk, Map<String, Object> view,
                                       long version, Instant createdAt, Instant updatedAt, String writer) {
        var item = item(aggregate, aggregatePk, shown(view, timestamps, createdAt, updatedAt), version, createdAt,
                updatedAt, writer);
        item.put(VersionSnapshots.DELETED_BY, AttributeValue.fromS(writer));
        item.put(VersionSnapshots.DELETED_AT, AttributeValue.fromS(updatedAt.toString()));
        item.put(TableSpec.EXPIRES_AT, AttributeValue.fromN(Long.toString(updatedAt.getEpochSecond())));
        // the action checks the item's size as it is made
        WriteAction.putItem(key(aggregatePk, version), item, Expectation.NONE, aggregate + " version " + version
                + " (as history would keep it)");
    }

    private static Map<String, AttributeValue> item(String aggregate, String aggregatePk, Map<String, Object> shown,
                                                    long version, Instant createdAt, Instant updatedAt, String writer) {
        String json = json(shown);
        var item = new HashMap<String, AttributeValue>(key(aggregatePk, version).toAttributes());
        item.put(TableSpec.TYPE, AttributeValue.fromS(aggregate + VersionSnapshots.TYPE_SUFFIX));
        item.put(TableSpec.VERSION, AttributeValue.fromN(Long.toString(version)));
        item.put(TableSpec.CREATED_AT, AttributeValue.fromS(createdAt.toString()));
        item.put(TableSpec.UPDATED_AT, AttributeValue.fromS(updatedAt.toString()));
        item.put(JSON, AttributeValue.fromS(json));
        if (writer != null) {
            item.put(VersionSnapshots.WRITER, AttributeValue.fromS(writer));
        }
        return item;
    }
}
