package dev.cairn.core.aggregate;

import dev.cairn.core.TableSpec;
import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.aggregate.Aggregate.Items;
import dev.cairn.core.cascade.CascadePlanner;
import dev.cairn.core.cascade.CascadeSource;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.query.FanOut;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.core.write.WriteAction;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.cairn.core.aggregate.AggregateTest.CUSTOMER_REF;
import static dev.cairn.core.aggregate.AggregateTest.ORDER;
import static dev.cairn.core.aggregate.AggregateTest.T0;
import static dev.cairn.core.aggregate.AggregateTest.input;
import static dev.cairn.core.aggregate.AggregateTest.line;
import static dev.cairn.core.aggregate.AggregateTest.resolved;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Lists of aggregate roots: the keys and summary a root carries, the list queries, and cascades into summaries. */
class ListingTest {

    static final Listing ALL = Listing.all("all", KeyTemplate.of("ORDERS#ALL#{shard}"), Index.GSI1, 4);
    /** Keyed by two paths, so one list partition is spread over two indexes (as a team's home and away sides). */
    static final Listing BY_PLACE = Listing.by("place", KeyTemplate.of("ORDERS#PLACE#{id}"),
            Listing.Entry.of(Index.GSI3, "first.carrier"), Listing.Entry.of(Index.GSI4, "shipping.city"));

    static final Aggregate LISTED = ORDER.listed(summary(), List.of(ALL, BY_PLACE));

    private static Map<String, String> summary() {
        var fields = new LinkedHashMap<String, String>();
        fields.put("note", "note");
        fields.put("customerName", "customer.name");
        fields.put("city", "shipping.city");
        fields.put("carrier", "first.carrier");
        return fields;
    }

    static Items items(Aggregate aggregate, Instant createdAt) {
        var view = aggregate.hydrate(input("n", List.of(line("p1", 2))), resolved());
        var versions = new HashMap<String, Long>();
        resolved().forEach((k, v) -> versions.put(k, v.version()));
        return aggregate.decompose(view, versions, 3, createdAt, createdAt);
    }

    @Test
    void theRootCarriesItsSummaryAndAKeyOnEachListingsIndexOnlyTheRoot() {
        Items items = items(LISTED, T0);
        var root = items.root().item();
        assertThat(root.get("_s_note").s()).isEqualTo("n");
        assertThat(root.get("_s_customerName").s()).isEqualTo("Ann");
        assertThat(root.get("_s_city").s()).isEqualTo("Leeds");
        assertThat(root.get("_s_carrier").s()).isEqualTo("UPS");
        assertThat(root.get("gsi1pk").s()).matches("ORDERS#ALL#0[0-3]");
        assertThat(root.get("gsi1sk").s()).isEqualTo("2026-11-22T10:00:00.000000000Z#o%231");
        assertThat(root.get("gsi3pk").s()).isEqualTo("ORDERS#PLACE#UPS");
        assertThat(root.get("gsi4pk").s()).isEqualTo("ORDERS#PLACE#Leeds");
        assertThat(root.get("gsi4sk")).isEqualTo(root.get("gsi1sk"));
        assertThat(root.get("gsi2pk").s()).as("the root's own ref key stays").isEqualTo("CUST#c1");
        items.bySk().values().stream().filter(m -> m != items.root()).forEach(member ->
                assertThat(member.item().keySet()).noneMatch(k -> k.startsWith("_s_") || k.startsWith("gsi3") || k.startsWith("gsi4")));
        // Nothing of the view changes: assembly and the view's projection ignore the list attributes.
        assertThat(LISTED.assemble(new ArrayList<>(items.bySk().values().stream().map(Aggregate.Member::item).toList())).view())
                .isEqualTo(ORDER.assemble(new ArrayList<>(items(ORDER, T0).bySk().values().stream().map(Aggregate.Member::item).toList())).view());
        assertThat(LISTED.viewQuery("x").projection()).noneMatch(a -> a.startsWith("_s_") || a.startsWith("gsi"));
    }

    @Test
    void creationTimesSortAsStringsWhateverTheirPrecision() {
        Instant whole = Instant.parse("2026-11-22T10:00:47Z");
        Instant tenth = Instant.parse("2026-11-22T10:00:47.100Z");
        Instant nano = Instant.parse("2026-11-22T10:00:47.000000001Z");
        // Instant.toString would sort "47.1Z" before "47Z".
        assertThat(Listing.sortKey(whole, "b")).isLessThan(Listing.sortKey(nano, "c"));
        assertThat(Listing.sortKey(nano, "c")).isLessThan(Listing.sortKey(tenth, "a"));
        assertThat(Listing.sortKey(whole, "a#b")).isEqualTo("2026-11-22T10:00:47.000000000Z#a%23b");
    }

    @Test
    void theListOfAllIsOneQueryPerShardAndAKeyedListOneQueryPerEntryIndexNewestFirst() {
        FanOut all = ALL.fanOut(null, 4, 7);
        assertThat(all.shards()).extracting(QuerySpec::partition)
                .containsExactly("ORDERS#ALL#00", "ORDERS#ALL#01", "ORDERS#ALL#02", "ORDERS#ALL#03");
        assertThat(all.shards()).allMatch(q -> q.index() == Index.GSI1 && q.descending() && q.limit() == 7);
        FanOut keyed = BY_PLACE.fanOut("Leeds", 1, 5);
        assertThat(keyed.shards()).extracting(q -> q.index() + " " + q.partition())
                .containsExactly("GSI3 ORDERS#PLACE#Leeds", "GSI4 ORDERS#PLACE#Leeds");
        assertThat(BY_PLACE.queriesPerPage()).isEqualTo(2);
        assertThat(ALL.queriesPerPage()).isEqualTo(4);
    }

    @Test
    void aListingMayNotReuseAnIndexTheRootAlreadyHasAKeyOnNorShardAKeyedList() {
        Listing onCustomersIndex = Listing.all("all", KeyTemplate.of("ORDERS#{shard}"), Index.GSI2, 1);
        assertThatThrownBy(() -> ORDER.listed(Map.of(), List.of(onCustomersIndex)))
                .hasMessageContaining("already has a key on GSI2");
        assertThatThrownBy(() -> BY_PLACE.shards(2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Listing.by("x", KeyTemplate.of("X#{id}"), Listing.Entry.of(Index.GSI3, "a"),
                Listing.Entry.of(Index.GSI3, "b"))).hasMessageContaining("own index");
        assertThatThrownBy(() -> ORDER.listed(Map.of("lines", "first.lines.quantity"), List.of()))
                .hasMessageContaining("does not lead to one value");
    }

    @Test
    void theSummaryOfARootShowsItsFieldsTimesAndVersionButNotARootStillBeingCreated() {
        var root = new HashMap<>(items(LISTED, T0).root().item());
        assertThat(LISTED.summaryOf(root)).containsExactly(Map.entry("id", "o#1"), Map.entry("note", "n"),
                Map.entry("customerName", "Ann"), Map.entry("city", "Leeds"), Map.entry("carrier", "UPS"),
                Map.entry("createdAt", "2026-11-22T10:00:00Z"), Map.entry("updatedAt", "2026-11-22T10:00:00Z"),
                Map.entry("version", 3L));
        root.put(AggregateTxn.OP, AttributeValue.fromS("create"));
        assertThat(LISTED.summaryOf(root)).isNull();
        root.put(AggregateTxn.OP, AttributeValue.fromS("update"));
        assertThat(LISTED.summaryOf(root)).isNotNull();
    }

    @Test
    void aCascadeRewritesTheSummaryFieldsThatShowTheCopyItUpdatesInTheRootBump() {
        assertThat(LISTED.summaryCopies("ORDER", "customer")).extracting(Aggregate.SummaryCopy::attribute)
                .containsExactly("_s_customerName");
        assertThat(LISTED.summaryCopies("SHIP", "street")).isEmpty();
        var planner = new CascadePlanner(Map.of(), List.of(LISTED));
        var root = items(LISTED, T0).root().item();
        var source = new CascadeSource("Customer", "c1", 9, Map.of("id", AttributeValue.fromS("c1"),
                "name", AttributeValue.fromS("Ann Lee")));
        List<CascadePlanner.Unit> units = planner.plan(List.of(root), source, T0.plusSeconds(5));
        assertThat(units).hasSize(1);
        assertThat(units.get(0).aggregate()).isTrue();
        WriteAction bump = units.get(0).actions().get(0);
        assertThat(bump.key().sk()).isEqualTo("ORDER");
        var rendered = new dev.cairn.core.expr.Placeholders();
        String expression = bump.update().render(rendered);
        assertThat(rendered.values().values()).contains(AttributeValue.fromS("Ann Lee"));
        assertThat(expression).contains("SET");
        assertThat(rendered.names().values()).contains("_s_customerName", "customer", TableSpec.VERSION);
        // A source the summary does not show leaves the summary alone.
        var unlisted = new CascadePlanner(Map.of(), List.of(ORDER)).plan(List.of(root), source, T0);
        var plain = new dev.cairn.core.expr.Placeholders();
        unlisted.get(0).actions().get(0).update().render(plain);
        assertThat(plain.names().values()).doesNotContain("_s_customerName");
    }
}
