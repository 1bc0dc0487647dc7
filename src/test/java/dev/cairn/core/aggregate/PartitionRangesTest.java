package dev.cairn.core.aggregate;

import dev.cairn.core.expr.Placeholders;
import dev.cairn.core.query.QuerySpec;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** Where a large partition is cut, and the range Queries that read what a first page left. */
class PartitionRangesTest {

    static Map<String, AttributeValue> item(String sk, int padBytes) {
        return Map.of("pk", AttributeValue.fromS("P#1"), "sk", AttributeValue.fromS(sk), "pad", AttributeValue.fromS("x".repeat(padBytes)));
    }

    static List<Map<String, AttributeValue>> items(int count, int padBytes) {
        var out = new ArrayList<Map<String, AttributeValue>>();
        for (int i = count - 1; i >= 0; i--) { // any order: fences follow key order
            out.add(item(String.format("M#%05d", i), padBytes));
        }
        return out;
    }

    @Test
    void fencesCutEveryFiveHundredItemsOrQuarterMegabyteInKeyOrder() {
        assertThat(PartitionRanges.fencesOf(items(499, 10))).isEmpty();
        assertThat(PartitionRanges.fencesOf(items(1200, 10))).containsExactly("M#00499", "M#00999");
        // 8 KB items: a fence every 32 items or so, long before 500.
        List<String> big = PartitionRanges.fencesOf(items(100, 8 * 1024));
        assertThat(big).hasSize(3).allMatch(f -> f.startsWith("M#000"));
        assertThat(new TreeSet<>(big)).containsExactlyElementsOf(big);
    }

    @Test
    void keysCompareInDynamoDbsUtf8OrderNotJavasUtf16Order() {
        String supplementary = new String(Character.toChars(0x1F600)); // a surrogate pair in UTF-16
        String bmpHigh = "\uFF01";
        assertThat(supplementary.compareTo(bmpHigh)).as("Java's order").isNegative();
        assertThat(PartitionRanges.compare(supplementary, bmpHigh)).as("UTF-8 byte order").isPositive();
        assertThat(PartitionRanges.compare("TEAM#1", "TEAM#1#COACH")).isNegative();
        assertThat(PartitionRanges.compare("a", "a")).isZero();
    }

    @Test
    void theRestAfterAFirstPageIsOneRangePerFenceBeyondItDisjointAndOpenEnded() {
        QuerySpec base = QuerySpec.table("P#1").consistent().limit(PartitionRanges.FIRST_PAGE_ITEMS).project("sk", "n").build();
        var ranges = PartitionRanges.after(base, "M#01023", List.of("M#00499", "M#00999", "M#01499", "M#01999"));
        assertThat(ranges).extracting(r -> readable(r.query()) + " after " + r.startAfter()).containsExactly(
                "sk BETWEEN M#01023 AND M#01499 after M#01023",
                "sk BETWEEN M#01499 AND M#01999 after M#01499",
                "sk > M#01999 after null");
        assertThat(ranges).allSatisfy(r -> {
            assertThat(r.query().consistent()).isTrue();
            assertThat(r.query().limit()).as("each range pages on its own, by 1 MB").isNull();
            assertThat(r.query().projection()).containsExactly("sk", "n");
        });
        assertThat(ranges.get(0).startKey()).isEqualTo(Map.of("pk", AttributeValue.fromS("P#1"), "sk", AttributeValue.fromS("M#01023")));
        assertThat(ranges.get(2).startKey()).isNull();
        // No fences (a root written before them, or a small aggregate): the rest in one range, page by page.
        assertThat(PartitionRanges.after(base, "M#01023", List.of())).extracting(r -> readable(r.query()))
                .containsExactly("sk > M#01023");
    }

    @Test
    void aDecomposedAggregateCarriesItsFencesOnTheRootOnlyWhenLarge() {
        var small = AggregateTest.items(AggregateTest.input("n", List.of(AggregateTest.line("p1", 1))), 1);
        assertThat(small.root().item()).doesNotContainKey(PartitionRanges.FENCES);
        var node = AggregateNode.builder("Bin", "BIN").many("things", AggregateNode.builder("Thing", "THING").field("n").keyedBy("n").build()).build();
        var aggregate = Aggregate.of("Big", dev.cairn.core.key.KeyTemplate.of("BIG#{id}"), "id",
                AggregateNode.builder("Big", "ABOVE").sub("bin", node, Map.of("b", 1)).build(), List.of());
        var things = new ArrayList<Map<String, Object>>();
        for (int i = 0; i < 1100; i++) {
            things.add(Map.of("n", "t" + i));
        }
        var view = new java.util.LinkedHashMap<String, Object>();
        view.put("id", "b1");
        view.put("bin", Map.of("things", things));
        var items = aggregate.decompose(view, Map.of(), 1, AggregateTest.T0, AggregateTest.T0);
        assertThat(PartitionRanges.fencesOf(items.root().item())).hasSize(2)
                .isEqualTo(PartitionRanges.fencesOf(items.bySk().values().stream().map(Aggregate.Member::item).toList()));
        assertThat(aggregate.viewQuery("b1").projection()).contains(PartitionRanges.FENCES);
        assertThat(aggregate.viewQuery("b1").limit()).isEqualTo(PartitionRanges.FIRST_PAGE_ITEMS);
    }

    @Test
    void aRootLabelThatWouldNotSortFirstIsRefused() {
        var member = AggregateNode.builder("M", "AAA").field("x").build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Aggregate.of("Late", dev.cairn.core.key.KeyTemplate.of("LATE#{id}"), "id",
                        AggregateNode.builder("Late", "ZED").one("m", member).build(), List.of()))
                .hasMessageContaining("must sort before every member label");
    }

    private static String readable(QuerySpec query) {
        var request = query.toRequest("t", null);
        var values = new java.util.HashMap<String, String>();
        request.expressionAttributeValues().forEach((k, v) -> values.put(k, v.s()));
        String condition = Placeholders.readable(request.keyConditionExpression(), request.expressionAttributeNames(), values);
        return condition.substring(condition.indexOf(" AND ") + 5);
    }
}
