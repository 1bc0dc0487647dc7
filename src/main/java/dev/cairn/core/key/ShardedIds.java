package dev.cairn.core.key;

import java.util.regex.Pattern;

/**
 * Write shards of a parent's children: a hot parent spreads its children over {@code shards} partitions — shard 0 is
 * the parent's own partition, shard k ≥ 1 that partition's key followed by {@code #NN} — and a child's server-made id
 * names its shard ({@code <time-ordered id>_NN}), so reading a child by id never needs the shard count, and growing the
 * count never moves a child. Pure.
 */
public final class ShardedIds {

    /** The most write shards a parent may have: two digits, and a fan-out read of them stays one round. */
    public static final int MAX_SHARDS = 32;
    private static final Pattern SHARDED_ID = Pattern.compile(".*_(\\d{2})");

    private ShardedIds() {
    }

    /** The id of a new child of a parent with {@code shards} write shards: the id itself when unsharded. */
    public static String idFor(String timeOrderedId, int shards) {
        return shards <= 1 ? timeOrderedId : timeOrderedId + "_" + twoDigits(WriteShards.of(timeOrderedId, shards));
    }

    /** The write shard a child's id names; 0 for unsharded ids (and anything that is not a shard suffix). */
    public static int shardOfId(String id) {
        var matcher = SHARDED_ID.matcher(id);
        if (!matcher.matches()) {
            return 0;
        }
        int shard = Integer.parseInt(matcher.group(1));
        return shard < MAX_SHARDS ? shard : 0;
    }

    /** The partition of shard {@code shard} of a parent whose own partition is {@code partition}. */
    public static String partition(String partition, int shard) {
        return shard == 0 ? partition : partition + KeyCodec.DELIMITER + twoDigits(shard);
    }

    public static String twoDigits(int shard) {
        return shard < 10 ? "0" + shard : Integer.toString(shard);
    }
}
