package dev.cairn.core.aggregate;

import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.key.KeyCodec;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.key.WriteShards;
import dev.cairn.core.query.FanOut;
import dev.cairn.core.query.QuerySpec;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.IntStream;

/**
 * One list of an aggregate's roots, newest first: the root item carries its key on an index (a list partition,
 * sort key = creation time and id), so a page of the list is ONE Query per partition, never a read per aggregate.
 * Either one list of all roots, spread over write shards ({@link #all}), or one list per referenced id
 * ({@link #by}): a list keyed by a view path such as {@code venue.id}; a root in it twice (a match lists under
 * both its teams) puts each path on its own index, since an item has one key per index.
 */
public final class Listing {

    /** Where a root is listed: an index, and the view path of the id the list is keyed by (null: the list of all). */
    public record Entry(Index index, String keyPath) {
        public Entry {
            Objects.requireNonNull(index, "index");
            if (index == Index.TABLE) {
                throw new IllegalArgumentException("a listing lives on a global secondary index");
            }
        }

        public static Entry of(Index index, String keyPath) {
            return new Entry(index, keyPath);
        }
    }

    /** Fixed width, so that creation times sort as strings (Instant.toString drops trailing zeros). */
    private static final DateTimeFormatter ORDER = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSS'Z'")
            .withZone(ZoneOffset.UTC);
    public static final int MAX_SHARDS = 32;

    private final String name;
    private final KeyTemplate partition;
    private final List<Entry> entries;
    private final boolean sharded;
    private volatile int shards;

    private Listing(String name, KeyTemplate partition, List<Entry> entries, boolean sharded, int shards) {
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("a listing needs an entry");
        }
        this.name = name;
        this.partition = partition;
        this.entries = List.copyOf(entries);
        this.sharded = sharded;
        shards(shards);
    }

    /** Every root, on {@code index}, in {@code shards} partitions (template field {@code shard}) read in parallel. */
    public static Listing all(String name, KeyTemplate partition, Index index, int shards) {
        return new Listing(name, partition, List.of(Entry.of(index, null)), true, shards);
    }

    /** The roots whose view holds an id at one of the entries' paths, one list per id (template field {@code id}). */
    public static Listing by(String name, KeyTemplate partition, Entry... entries) {
        for (Entry entry : entries) {
            if (entry.keyPath() == null) {
                throw new IllegalArgumentException("a keyed listing names the view path of its key");
            }
        }
        if (List.of(entries).stream().map(Entry::index).distinct().count() != entries.length) {
            throw new IllegalArgumentException("a root has one key per index: each entry needs its own index");
        }
        return new Listing(name, partition, List.of(entries), false, 1);
    }

    public String name() {
        return name;
    }

    public List<Entry> entries() {
        return entries;
    }

    public int shards() {
        return shards;
    }

    /**
     * Sets the write shard count of the list of all (configuration, applied at startup). Raising it is safe for
     * reads: every root is listed under {@code crc32(id) mod count}, and a reader asks every shard; a root moves to
     * its new shard the next time it is written.
     */
    public void shards(int count) {
        if (count < 1 || count > MAX_SHARDS || (!sharded && count != 1)) {
            throw new IllegalArgumentException("a listing has 1 to " + MAX_SHARDS + " shards; a keyed one exactly 1");
        }
        this.shards = count;
    }

    /** The index key attributes this listing puts on a root (none when the view holds no id at a keyed path). */
    Map<String, AttributeValue> keysOf(Map<String, Object> view, String id, Instant createdAt) {
        var keys = new HashMap<String, AttributeValue>();
        AttributeValue sort = AttributeValue.fromS(sortKey(createdAt, id));
        for (Entry entry : entries) {
            String partitionKey;
            if (entry.keyPath() == null) {
                partitionKey = shardPartition(WriteShards.of(id, shards));
            } else {
                Object key = ViewPath.valueAt(view, entry.keyPath());
                if (!(key instanceof String || key instanceof Number)) {
                    continue; // nothing to list it under (an optional ref left out)
                }
                partitionKey = partition.render(key.toString());
            }
            keys.put(entry.index().pkName(), AttributeValue.fromS(partitionKey));
            keys.put(entry.index().skName(), sort);
        }
        return keys;
    }

    /**
     * A page of the list: one Query per shard (the list of all) or per entry (a keyed list), newest first, merged
     * by {@link FanOut}. {@code id} is the list's key; null for the list of all.
     */
    public FanOut fanOut(String id, int shardCount, int limit) {
        var queries = new ArrayList<QuerySpec>();
        if (sharded) {
            IntStream.range(0, shardCount).forEach(shard -> queries.add(query(entries.get(0).index(), shardPartition(shard), limit)));
        } else {
            String key = partition.render(Objects.requireNonNull(id, "id"));
            entries.forEach(entry -> queries.add(query(entry.index(), key, limit)));
        }
        return FanOut.of(queries);
    }

    /** How many Queries a first page costs. */
    public int queriesPerPage() {
        return sharded ? shards : entries.size();
    }

    private static QuerySpec query(Index index, String partitionKey, int limit) {
        return QuerySpec.on(index, partitionKey).descending().limit(limit).build();
    }

    private String shardPartition(int shard) {
        return partition.render(shard < 10 ? "0" + shard : Integer.toString(shard));
    }

    /** Creation time first (fixed width), then the id: newest first when read descending, ties by id. */
    static String sortKey(Instant createdAt, String id) {
        return ORDER.format(createdAt) + KeyCodec.DELIMITER + KeyCodec.escape(id);
    }
}
