package dev.cairn.core.query;

import dev.cairn.core.TableSpec.Index;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * One listing read from several partitions (write shards) in parallel and merged in sort-key order, so a sharded
 * listing pages exactly like an unsharded one: same order, no duplicates, no gaps. The partitions may lie on
 * different indexes whose sort keys share one format (a team's matches: its home side on one, its away side on another).
 *
 * <p>Each page asks every shard that is not exhausted for up to {@code limit} items (any one shard may hold the
 * whole next page), merges them k-way, and keeps the first {@code limit}. The cursor holds one position per shard:
 * the key of the last item this page took from it (or its LastEvaluatedKey when all it returned was taken), "done"
 * once a shard has no more, absent while nothing was taken from it. Pure: no I/O.
 */
public final class FanOut {

    private static final String DONE = "done";
    private static final String SHARD_COUNT = "n";

    private final List<QuerySpec> shards;

    private FanOut(List<QuerySpec> shards) {
        if (shards.isEmpty() || shards.size() > 64) {
            throw new IllegalArgumentException("a fan-out reads 1 to 64 shards");
        }
        boolean descending = shards.get(0).descending();
        for (QuerySpec shard : shards) {
            if (shard.descending() != descending || shard.limit() == null) {
                throw new IllegalArgumentException("every shard query needs the same direction and a limit");
            }
        }
        this.shards = List.copyOf(shards);
    }

    public static FanOut of(List<QuerySpec> shards) {
        return new FanOut(shards);
    }

    public List<QuerySpec> shards() {
        return shards;
    }

    public int limit() {
        return shards.get(0).limit();
    }

    /**
     * What every cursor of this listing is bound to: its first shard's query. The shard count is not part of it
     * but travels, signed, inside the cursor ({@link #shardCount}), so pages started before the count grew go on
     * over the shards they started with (every newer shard only holds projects newer than the whole listing).
     */
    public String binding() {
        return "fanout|" + shards.get(0).binding();
    }

    /** The shard count a verified cursor was taken with. */
    public static int shardCount(Map<String, AttributeValue> cursor) {
        AttributeValue n = cursor.get(SHARD_COUNT);
        if (n == null || n.s() == null || !n.s().matches("[1-9][0-9]?")) {
            throw new IllegalArgumentException("the cursor has no shard count");
        }
        return Integer.parseInt(n.s());
    }

    /** Where each shard stands: absent = from its start, {@link Position#done()} = nothing left. */
    public record Position(Map<String, AttributeValue> startKey, boolean done) {
        public static final Position START = new Position(null, false);
        public static final Position DONE_POSITION = new Position(null, true);

        static Position at(Map<String, AttributeValue> key) {
            return new Position(Map.copyOf(key), false);
        }
    }

    /** The positions a (verified) cursor map stands for; all at their start for the first page. */
    public List<Position> positions(Map<String, AttributeValue> cursor) {
        var positions = new ArrayList<Position>();
        for (int i = 0; i < shards.size(); i++) {
            positions.add(Position.START);
        }
        if (cursor == null) {
            return positions;
        }
        var keys = new TreeMap<Integer, Map<String, AttributeValue>>();
        cursor.forEach((name, value) -> {
            if (name.equals(SHARD_COUNT)) {
                return;
            }
            int dot = name.indexOf('.');
            int shard = Integer.parseInt(dot < 0 ? name : name.substring(0, dot));
            if (shard < 0 || shard >= shards.size()) {
                throw new IllegalArgumentException("no such shard " + shard);
            }
            if (dot < 0) {
                if (!DONE.equals(value.s())) {
                    throw new IllegalArgumentException("bad shard state");
                }
                positions.set(shard, Position.DONE_POSITION);
            } else {
                keys.computeIfAbsent(shard, s -> new LinkedHashMap<>()).put(name.substring(dot + 1), value);
            }
        });
        keys.forEach((shard, key) -> positions.set(shard, Position.at(key)));
        return positions;
    }

    /**
     * One shard's answer: its items in its own sort order, and DynamoDB's LastEvaluatedKey (null at the end). Read
     * with {@link QuerySpec#lookingAhead}, so a shard that returned all it has is known to be done.
     */
    public record ShardPage(int shard, List<Map<String, AttributeValue>> items, Map<String, AttributeValue> lastEvaluatedKey) {
        public ShardPage {
            items = List.copyOf(items);
            lastEvaluatedKey = lastEvaluatedKey == null || lastEvaluatedKey.isEmpty() ? null : lastEvaluatedKey;
        }
    }

    /** The merged page and the positions the next page starts from ({@code null} when every shard is done). */
    public record Merged(List<Map<String, AttributeValue>> items, Map<String, AttributeValue> next) {
    }

    /**
     * Merges the answers of the shards that were read (the others keep their position): newest (or first) first
     * by the index sort key, ties broken by shard number, at most {@code limit} items.
     */
    public Merged merge(List<Position> before, List<ShardPage> pages) {
        Comparator<String> order = shards.get(0).descending() ? Comparator.reverseOrder() : Comparator.naturalOrder();
        record Head(int shard, int offset, String sort) {
        }
        Comparator<Head> heads = Comparator.comparing(Head::sort, order).thenComparingInt(Head::shard);
        var byShard = new ShardPage[shards.size()];
        var queue = new PriorityQueue<Head>(heads);
        for (ShardPage page : pages) {
            byShard[page.shard()] = page;
            if (!page.items().isEmpty()) {
                queue.add(new Head(page.shard(), 0, sortOf(page.items().get(0), sortKeyOf(page.shard()))));
            }
        }
        // A shard that stopped before its end (a filter dropped items, or its 1 MB was full) may hold unread items
        // right after its LastEvaluatedKey: nothing of another shard that sorts past that frontier is taken before
        // them. The page may come out short (even empty), never out of order.
        String frontier = null;
        for (ShardPage page : pages) {
            if (page.lastEvaluatedKey() != null) {
                String stop = sortOf(page.lastEvaluatedKey(), sortKeyOf(page.shard()));
                frontier = frontier == null || order.compare(stop, frontier) < 0 ? stop : frontier;
            }
        }
        int[] taken = new int[shards.size()];
        var items = new ArrayList<Map<String, AttributeValue>>();
        while (items.size() < limit() && !queue.isEmpty()) {
            if (frontier != null && order.compare(queue.peek().sort(), frontier) > 0) {
                break;
            }
            Head head = queue.poll();
            List<Map<String, AttributeValue>> list = byShard[head.shard()].items();
            items.add(list.get(head.offset()));
            taken[head.shard()]++;
            if (head.offset() + 1 < list.size()) {
                queue.add(new Head(head.shard(), head.offset() + 1, sortOf(list.get(head.offset() + 1), sortKeyOf(head.shard()))));
            }
        }
        var after = new ArrayList<>(before);
        for (ShardPage page : pages) {
            int shard = page.shard();
            int count = taken[shard];
            if (count == page.items().size()) {
                after.set(shard, page.lastEvaluatedKey() == null ? Position.DONE_POSITION : Position.at(page.lastEvaluatedKey()));
            } else if (count > 0) {
                after.set(shard, Position.at(keyOf(page.items().get(count - 1), shards.get(shard).index())));
            }
        }
        return new Merged(items, encode(after));
    }

    private Map<String, AttributeValue> encode(List<Position> positions) {
        if (positions.stream().allMatch(Position::done)) {
            return null;
        }
        var out = new LinkedHashMap<String, AttributeValue>();
        out.put(SHARD_COUNT, AttributeValue.fromS(Integer.toString(positions.size())));
        for (int i = 0; i < positions.size(); i++) {
            Position position = positions.get(i);
            if (position.done()) {
                out.put(Integer.toString(i), AttributeValue.fromS(DONE));
            } else if (position.startKey() != null) {
                int shard = i;
                position.startKey().forEach((name, value) -> out.put(shard + "." + name, value));
            }
        }
        return out;
    }

    private String sortKeyOf(int shard) {
        return shards.get(shard).index().skName();
    }

    static Map<String, AttributeValue> keyOf(Map<String, AttributeValue> item, Index index) {
        return QuerySpec.startKeyOf(item, index);
    }

    private static String sortOf(Map<String, AttributeValue> item, String sortKey) {
        AttributeValue value = item.get(sortKey);
        return value == null || value.s() == null ? "" : value.s();
    }
}
