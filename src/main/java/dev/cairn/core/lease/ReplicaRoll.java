package dev.cairn.core.lease;

import dev.cairn.core.TableSpec;
import dev.cairn.core.key.KeyCodec;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.core.write.WriteAction;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The roll of replicas alive, kept in the table: one item per replica ({@code REPLICAS} / {@code REPLICA#<owner>})
 * that it writes again at every heartbeat with the time until which it counts as alive (three heartbeats on), read
 * back with one Query of the partition. An item whose time passed is a replica that stopped; DynamoDB's TTL removes it
 * later. Pure: a plan and a count.
 */
public final class ReplicaRoll {

    public static final String TYPE = "Replica";
    static final String PARTITION = "REPLICAS";
    static final String ALIVE_UNTIL = "aliveUntil";
    /** Heartbeats a replica may miss before it no longer counts. */
    static final int MISSED = 3;
    /** The most replicas a roll reads (one Query page); a bigger cluster counts as this many. */
    public static final int MAX_REPLICAS = 1000;

    private ReplicaRoll() {
    }

    public static PrimaryKey key(String owner) {
        return PrimaryKey.of(PARTITION, "REPLICA" + KeyCodec.DELIMITER + KeyCodec.escape(owner));
    }

    /** This replica alive until three heartbeats from now: a plain put, the item is its own. */
    public static WriteAction heartbeat(String owner, Instant now, Duration every) {
        Instant until = now.plus(every.multipliedBy(MISSED));
        var item = new HashMap<String, AttributeValue>(key(owner).toAttributes());
        item.put(TableSpec.TYPE, AttributeValue.fromS(TYPE));
        item.put("owner", AttributeValue.fromS(owner));
        item.put(ALIVE_UNTIL, AttributeValue.fromN(Long.toString(until.toEpochMilli())));
        item.put(TableSpec.EXPIRES_AT, AttributeValue.fromN(Long.toString(until.plus(Duration.ofHours(1)).getEpochSecond())));
        return WriteAction.putItem(key(owner), item, WriteAction.Expectation.NONE, TYPE);
    }

    /** This replica off the roll (a graceful stop). */
    public static WriteAction leave(String owner) {
        return WriteAction.deleteItem(key(owner), TYPE);
    }

    /** The roll: every replica's item (strongly consistent, one page). */
    public static QuerySpec roll() {
        return QuerySpec.table(PARTITION).consistent().limit(MAX_REPLICAS).build();
    }

    /** Replicas alive at {@code now} on the roll, at least 1 (this one). */
    public static int alive(List<Map<String, AttributeValue>> items, Instant now) {
        long alive = items.stream().filter(item -> {
            AttributeValue until = item.get(ALIVE_UNTIL);
            return until != null && until.n() != null && Long.parseLong(until.n()) > now.toEpochMilli();
        }).count();
        return (int) Math.max(1, alive);
    }
}
