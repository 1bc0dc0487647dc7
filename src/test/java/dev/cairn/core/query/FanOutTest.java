package dev.cairn.core.query;

import dev.cairn.core.expr.SortCondition;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FanOutTest {

    static FanOut listing(int shards, int limit) {
        return FanOut.of(IntStream.range(0, shards).mapToObj(i -> QuerySpec.table("P#" + i)
                .sort(SortCondition.beginsWith("I#")).descending().limit(limit).build()).toList());
    }

    static Map<String, AttributeValue> item(int shard, String sort) {
        return Map.of("pk", AttributeValue.fromS("P#" + shard), "sk", AttributeValue.fromS(sort));
    }

    /** A fake partition set: each shard's items sorted descending; a "query" answers up to limit after a start key. */
    static FanOut.ShardPage read(List<List<String>> data, int shard, FanOut.Position position, int limit) {
        List<String> all = data.get(shard);
        int from = 0;
        if (position.startKey() != null) {
            from = all.indexOf(position.startKey().get("sk").s()) + 1;
        }
        int to = Math.min(all.size(), from + limit);
        var items = all.subList(from, to).stream().map(sort -> item(shard, sort)).toList();
        // DynamoDB returns a LastEvaluatedKey when it stopped at the limit, even if nothing follows.
        return new FanOut.ShardPage(shard, items, to - from == limit ? item(shard, all.get(to - 1)) : null);
    }

    /** How a shard answers a Query from a position: {@link #read} or {@link #readFiltered}. */
    interface ShardReader {
        FanOut.ShardPage read(List<List<String>> data, int shard, FanOut.Position position, int limit);
    }

    /** Every page of the listing from its start, as a client follows the cursors: the sort keys, in page order. */
    static List<String> pageThrough(FanOut fanOut, List<List<String>> data, ShardReader reader) {
        var listed = new ArrayList<String>();
        Map<String, AttributeValue> cursor = null;
        int pages = 0;
        do {
            List<FanOut.Position> positions = fanOut.positions(cursor);
            var answers = new ArrayList<FanOut.ShardPage>();
            for (int s = 0; s < data.size(); s++) {
                if (!positions.get(s).done()) {
                    answers.add(reader.read(data, s, positions.get(s), fanOut.limit()));
                }
            }
            FanOut.Merged merged = fanOut.merge(positions, answers);
            assertThat(merged.items().size()).isLessThanOrEqualTo(fanOut.limit());
            merged.items().forEach(i -> listed.add(i.get("sk").s()));
            cursor = merged.next();
            if (cursor != null) {
                assertThat(FanOut.shardCount(cursor)).isEqualTo(data.size());
            }
            assertThat(++pages).isLessThan(1000);
        } while (cursor != null);
        return listed;
    }

    @Test
    void pagingThroughRandomShardsReturnsEveryItemOnceInGlobalOrderAndSkipsDoneShards() {
        var random = new Random(7);
        for (int round = 0; round < 200; round++) {
            int shards = 1 + random.nextInt(8);
            int limit = 1 + random.nextInt(6);
            var data = new ArrayList<List<String>>();
            var everything = new TreeMap<String, Integer>(java.util.Comparator.reverseOrder());
            for (int s = 0; s < shards; s++) {
                var sorts = new ArrayList<String>();
                int count = random.nextInt(12);
                for (int i = 0; i < count; i++) {
                    String sort = "I#" + String.format("%06d", random.nextInt(1_000_000)) + "-" + s + "-" + i;
                    sorts.add(sort);
                    everything.put(sort, s);
                }
                sorts.sort(java.util.Comparator.reverseOrder());
                data.add(sorts);
            }
            var listed = pageThrough(listing(shards, limit), data, FanOutTest::read);
            assertThat(listed).as("round %d", round).containsExactlyElementsOf(everything.keySet());
        }
    }

    /**
     * Shards read through a filter: each Query evaluates up to {@code limit} items and returns only those the filter
     * keeps (the hidden ones end in "-x"), with a LastEvaluatedKey whenever it stopped at the limit — so a shard may
     * answer few or no items while it still holds more.
     */
    static FanOut.ShardPage readFiltered(List<List<String>> data, int shard, FanOut.Position position, int limit) {
        FanOut.ShardPage evaluated = read(data, shard, position, limit);
        return new FanOut.ShardPage(shard, evaluated.items().stream().filter(i -> !i.get("sk").s().endsWith("-x")).toList(),
                evaluated.lastEvaluatedKey());
    }

    @Test
    void filteredShardsThatStopEarlyNeverLetAnotherShardsLaterItemsJumpAheadOfTheirUnreadOnes() {
        var random = new Random(11);
        for (int round = 0; round < 300; round++) {
            int shards = 2 + random.nextInt(5);
            int limit = 1 + random.nextInt(5);
            var data = new ArrayList<List<String>>();
            var visible = new TreeMap<String, Integer>(java.util.Comparator.reverseOrder());
            for (int s = 0; s < shards; s++) {
                var sorts = new ArrayList<String>();
                int count = random.nextInt(15);
                for (int i = 0; i < count; i++) {
                    boolean hidden = random.nextInt(3) == 0;
                    String sort = "I#" + String.format("%06d", random.nextInt(1_000_000)) + "-" + s + "-" + i
                            + (hidden ? "-x" : "");
                    sorts.add(sort);
                    if (!hidden) {
                        visible.put(sort, s);
                    }
                }
                sorts.sort(java.util.Comparator.reverseOrder());
                data.add(sorts);
            }
            var listed = pageThrough(listing(shards, limit), data, FanOutTest::readFiltered);
            assertThat(listed).as("round %d", round).containsExactlyElementsOf(visible.keySet());
        }
    }

    @Test
    void aShardThatGaveNothingKeepsItsPositionAndAFinishedShardIsMarkedDone() {
        FanOut fanOut = listing(3, 2);
        var start = fanOut.positions(null);
        var merged = fanOut.merge(start, List.of(
                new FanOut.ShardPage(0, List.of(item(0, "I#9"), item(0, "I#8")), item(0, "I#8")),
                new FanOut.ShardPage(1, List.of(item(1, "I#1")), null),
                new FanOut.ShardPage(2, List.of(), null)));
        assertThat(merged.items()).extracting(i -> i.get("sk").s()).containsExactly("I#9", "I#8");
        var next = fanOut.positions(merged.next());
        assertThat(next.get(0).startKey()).containsEntry("sk", AttributeValue.fromS("I#8"));
        assertThat(next.get(1)).isEqualTo(FanOut.Position.START);
        assertThat(next.get(2).done()).isTrue();
    }

    @Test
    void shardQueriesMustAgreeOnIndexDirectionAndHaveALimit() {
        assertThatThrownBy(() -> FanOut.of(List.of(QuerySpec.table("a").limit(1).build(),
                QuerySpec.table("b").descending().limit(1).build()))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FanOut.of(List.of(QuerySpec.table("a").build()))).isInstanceOf(IllegalArgumentException.class);
        assertThat(listing(1, 1).binding()).isEqualTo(listing(8, 1).binding());
    }
}
