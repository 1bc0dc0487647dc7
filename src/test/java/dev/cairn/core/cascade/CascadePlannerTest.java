package dev.cairn.core.cascade;

import dev.cairn.core.TableSpec;
import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.aggregate.Aggregate.Items;
import dev.cairn.core.aggregate.Aggregate.Member;
import dev.cairn.core.aggregate.Aggregate.RefCopy;
import dev.cairn.core.aggregate.AggregateNode;
import dev.cairn.core.aggregate.AggregateTxn;
import dev.cairn.core.aggregate.CopyVersions;
import dev.cairn.core.aggregate.RefSpec;
import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.expr.ReadableConditions;
import dev.cairn.core.item.RecordCodec;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.write.WriteAction;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cascade plan: which copies a source's new state rewrites, under which conditions, and how they are grouped
 * (an aggregate's copies with its root bump in one unit, every other item on its own).
 */
class CascadePlannerTest {

    record Person(String id, String name) {
    }

    static final EntitySpec<Person> PERSON = EntitySpec.builder("Person", RecordCodec.<Person>builder()
                    .string("id", Person::id).string("name", Person::name)
                    .build(f -> new Person(f.string("id"), f.string("name"))))
            .key(p -> PrimaryKey.of("PERSON#" + p.id(), "PERSON")).build();
    static final RefSpec<Person> PERSON_REF = RefSpec.of(PERSON, id -> PrimaryKey.of("PERSON#" + id, "PERSON"), Index.GSI1, "PERSON");

    /** A trip led by a person, with legs each driven by a person: copies at the root and in members. */
    static final Aggregate TRIP = Aggregate.of("Trip", KeyTemplate.of("TRIP#{id}"), "id",
            AggregateNode.builder("Trip", "JOURNEY")
                    .field("title")
                    .ref("lead", PERSON_REF)
                    .many("legs", AggregateNode.builder("TripLeg", "LEG").ref("driver", PERSON_REF).field("km")
                            .keyedBy("driver").build())
                    .build(),
            List.of());

    static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");
    static final CascadeSource ANN_RENAMED = new CascadeSource("Person", "ann", 5,
            Map.of("id", AttributeValue.fromS("ann"), "name", AttributeValue.fromS("Ann Lee")));

    static Items trip(String id, String lead, long copiedAt, String... drivers) {
        var in = new LinkedHashMap<String, Object>();
        in.put("id", id);
        in.put("title", "t");
        in.put("leadId", lead);
        in.put("legs", Arrays.stream(drivers).map(d -> Map.<String, Object>of("driverId", d, "km", 3)).toList());
        var resolved = new HashMap<String, RefCopy>();
        var versions = new HashMap<String, Long>();
        for (String person : List.of("ann", "bob")) {
            String key = Aggregate.refKey(PERSON_REF, person);
            resolved.put(key, new RefCopy(Map.of("id", person, "name", person.toUpperCase(Locale.ROOT)), copiedAt));
            versions.put(key, copiedAt);
        }
        return TRIP.decompose(TRIP.hydrate(in, resolved), versions, 7, NOW, NOW);
    }

    /** A stand-alone item (a squad entry) holding a whole copy of a person at {@code copiedAt}. */
    static Map<String, AttributeValue> entry(String id, String person, long copiedAt) {
        var item = new HashMap<String, AttributeValue>();
        item.put(TableSpec.PK, AttributeValue.fromS("SQUAD#" + id));
        item.put(TableSpec.SK, AttributeValue.fromS("ENTRY"));
        item.put(TableSpec.TYPE, AttributeValue.fromS("SquadEntry"));
        item.put(TableSpec.VERSION, AttributeValue.fromN("3"));
        item.put("player", AttributeValue.fromM(Map.of("id", AttributeValue.fromS(person), "name", AttributeValue.fromS("Ann"))));
        item.put(CopyVersions.ATTRIBUTE, CopyVersions.of(Map.of("player", Map.entry("Person", copiedAt))));
        return item;
    }

    static List<Map<String, AttributeValue>> items(Items items) {
        return items.bySk().values().stream().map(Member::item).toList();
    }

    final CascadePlanner planner = new CascadePlanner(Map.of(), List.of(TRIP));

    @Test
    void aStandAloneCopyIsRewrittenWithItsOwnVersionBumpedOnlyIfItExistsAndItsCopyIsOlder() {
        List<CascadePlanner.Unit> units = planner.plan(List.of(entry("s1", "ann", 4)), ANN_RENAMED, NOW);

        assertThat(units).hasSize(1);
        CascadePlanner.Unit unit = units.get(0);
        assertThat(unit.aggregate()).isFalse();
        assertThat(unit.partition()).isEqualTo("SQUAD#s1");
        assertThat(unit.copies()).isEqualTo(1);
        WriteAction write = unit.actions().get(0);
        assertThat(write.kind()).isEqualTo(WriteAction.Kind.UPDATE);
        assertThat(write.label()).isEqualTo("SquadEntry");
        assertThat(ReadableConditions.update(write)).contains("player = {…}", "_refv.player = {…}", "ADD " + TableSpec.VERSION + " 1",
                TableSpec.UPDATED_AT + " = '" + NOW + "'");
        // Never resurrects a deleted item, never overwrites a newer copy.
        assertThat(ReadableConditions.of(write)).isEqualTo("(attribute_exists(pk)) AND (_refv.player.v < 5)");
    }

    @Test
    void copiesAlreadyAtTheSourcesVersionOrNewerAreSkippedSoARepeatedCascadeWritesNothing() {
        assertThat(planner.plan(List.of(entry("s1", "ann", 5), entry("s2", "ann", 6)), ANN_RENAMED, NOW)).isEmpty();
        assertThat(planner.copyUpdate(entry("s1", "ann", 5), ANN_RENAMED, NOW)).isEmpty();
        assertThat(planner.plan(items(trip("t1", "ann", 5, "ann")), ANN_RENAMED, NOW)).isEmpty();
    }

    @Test
    void anAggregatesCopiesAreOneUnitLedByTheRootBumpThatWaitsForAnyWriteInFlight() {
        Items trip = trip("t1", "bob", 2, "ann", "bob");
        List<CascadePlanner.Unit> units = planner.plan(items(trip), ANN_RENAMED, NOW);

        assertThat(units).hasSize(1);
        CascadePlanner.Unit unit = units.get(0);
        assertThat(unit.aggregate()).isTrue();
        assertThat(unit.partition()).isEqualTo("TRIP#t1");
        assertThat(unit.copies()).as("only ann's leg holds her copy").isEqualTo(1);
        assertThat(unit.actions()).hasSize(2);
        WriteAction bump = unit.actions().get(0);
        assertThat(bump.key()).isEqualTo(TRIP.rootKey("t1"));
        assertThat(ReadableConditions.update(bump)).contains("ADD " + TableSpec.VERSION + " 1").doesNotContain("lead");
        assertThat(ReadableConditions.of(bump)).isEqualTo("(attribute_exists(pk)) AND (attribute_not_exists("
                + AggregateTxn.TXN + "))");
        WriteAction leg = unit.actions().get(1);
        assertThat(leg.key().pk()).isEqualTo("TRIP#t1");
        assertThat(leg.key().sk()).startsWith("LEG");
        // A member's own version does not move: the root's version is the aggregate's.
        assertThat(ReadableConditions.update(leg)).contains("driver = {…}").doesNotContain("version");
        assertThat(ReadableConditions.of(leg)).isEqualTo("(attribute_exists(pk)) AND (_refv.driver.v < 5)");
    }

    @Test
    void aCopyAtTheRootIsWrittenByTheRootBumpItselfWithBothConditions() {
        List<CascadePlanner.Unit> units = planner.plan(items(trip("t2", "ann", 2, "ann")), ANN_RENAMED, NOW);

        assertThat(units).hasSize(1);
        CascadePlanner.Unit unit = units.get(0);
        assertThat(unit.copies()).isEqualTo(2);
        assertThat(unit.actions()).hasSize(2).extracting(WriteAction::key).doesNotHaveDuplicates();
        WriteAction bump = unit.actions().get(0);
        assertThat(bump.key()).isEqualTo(TRIP.rootKey("t2"));
        assertThat(ReadableConditions.update(bump)).contains("lead = {…}", "ADD " + TableSpec.VERSION + " 1");
        assertThat(ReadableConditions.of(bump)).isEqualTo("(attribute_exists(pk)) AND ((attribute_not_exists("
                + AggregateTxn.TXN + ")) AND (_refv.lead.v < 5))");
    }

    @Test
    void itemsOfSeveralPartitionsMakeOneUnitPerAggregateAndOnePerStandAloneItem() {
        var found = new ArrayList<Map<String, AttributeValue>>();
        found.addAll(items(trip("t1", "bob", 1, "ann")));
        found.add(entry("s1", "ann", 1));
        found.addAll(items(trip("t2", "ann", 1, "bob")));
        found.add(entry("s2", "ann", 1));

        List<CascadePlanner.Unit> units = planner.plan(found, ANN_RENAMED, NOW);

        assertThat(units).extracting(CascadePlanner.Unit::partition)
                .containsExactlyInAnyOrder("TRIP#t1", "TRIP#t2", "SQUAD#s1", "SQUAD#s2");
        assertThat(units).filteredOn(CascadePlanner.Unit::aggregate).allSatisfy(unit -> {
            assertThat(unit.actions().get(0).key().sk()).isEqualTo("JOURNEY");
            assertThat(unit.actions()).extracting(a -> a.key().pk()).containsOnly(unit.partition());
            assertThat(unit.actions()).hasSize(unit.partition().equals("TRIP#t1") ? 2 : 1);
        });
    }

    @Test
    void aDisplayFieldCopyIsRenderedByItsRuleAndAWholeCopyOfAnotherIdIsLeftAlone() {
        var titled = new HashMap<>(entry("s3", "ann", 1));
        titled.put("leadName", AttributeValue.fromS("Ann"));
        titled.put(CopyVersions.ATTRIBUTE, CopyVersions.of(Map.of("leadName", Map.entry("Person", 1L),
                "player", Map.entry("Person", 1L))));
        titled.put("player", AttributeValue.fromM(Map.of("id", AttributeValue.fromS("bob"))));
        var byField = new CascadePlanner(Map.of("leadName", CopyRule.field("name")), List.of(TRIP));

        WriteAction write = byField.copyUpdate(titled, ANN_RENAMED, NOW).orElseThrow();

        assertThat(ReadableConditions.update(write)).contains("leadName = 'Ann Lee'").doesNotContain("player =");
        assertThat(ReadableConditions.of(write)).isEqualTo("(attribute_exists(pk)) AND (_refv.leadName.v < 5)");
    }

    @Test
    void aCascadeIntoAnAggregateThatKeepsHistoryIsCheckedAtTheVersionReadAndKeepsThatVersion() {
        Aggregate trip = TRIP;
        var planner = new CascadePlanner(Map.of(), List.of(trip), null, Map.of(),
                Map.of("Trip", new CascadePlanner.AggregateHistory(new dev.cairn.core.model.HistoryModel(2, null, 1), false)));
        Items items = trip("t1", "bob", 2, "ann", "bob");
        var units = planner.plan(items.bySk().values().stream().map(Member::item).toList(), ANN_RENAMED,
                NOW);
        assertThat(units).hasSize(1);
        var unit = units.get(0);
        assertThat(planner.keepingHistory(unit)).isSameAs(trip);
        assertThat(ReadableConditions.of(unit.actions().get(0))).doesNotContain("_version =");
        Aggregate.Assembled read = trip.assemble(items.bySk().values().stream().map(Member::item).toList());
        var kept = planner.keptAt(unit, read, ANN_RENAMED, NOW);
        // the unit's own actions keep their places, the root first: checked at the version read, marked as the cascade's
        assertThat(kept.actions().subList(1, unit.actions().size())).isEqualTo(unit.actions().subList(1, unit.actions().size()));
        WriteAction bump = kept.actions().get(0);
        assertThat(ReadableConditions.of(bump)).contains("_version = 7");
        assertThat(ReadableConditions.update(bump)).contains(dev.cairn.core.write.VersionSnapshots.WRITER);
        var snapshot = kept.actions().get(unit.actions().size());
        assertThat(snapshot.key()).isEqualTo(dev.cairn.core.aggregate.AggregateVersions.key("TRIP#t1", 7));
        // the view as its answer wrote it (JSON numbers read back as the smallest type that holds them)
        assertThat(dev.cairn.core.aggregate.AggregateVersions.shownOf(snapshot.item()).toString())
                .isEqualTo(read.view().toString());
        assertThat(kept.actions().get(unit.actions().size() + 1).key()).isEqualTo(dev.cairn.core.aggregate.AggregateVersions.key("TRIP#t1", 5));
        // an aggregate that keeps none is written as before
        assertThat(new CascadePlanner(Map.of(), List.of(trip)).keepingHistory(unit)).isNull();
    }
}
