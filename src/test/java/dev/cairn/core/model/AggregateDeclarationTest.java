package dev.cairn.core.model;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.TableSpec;
import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.aggregate.Aggregate.GroupChange;
import dev.cairn.core.aggregate.Aggregate.Items;
import dev.cairn.core.aggregate.Aggregate.Member;
import dev.cairn.core.aggregate.Aggregate.RefCopy;
import dev.cairn.core.aggregate.JsonAttributes;
import dev.cairn.core.cascade.CascadePlanner;
import dev.cairn.core.cascade.CascadeSource;
import dev.cairn.core.write.WriteAction;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What an aggregate declaration can say beyond the cricket match, proven through the engine built from a model file:
 * optional members, parts bound by role, a member's own fields changed, and a cascade limited to some item types.
 */
class AggregateDeclarationTest {

    static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");

    /** A fixture: an optional venue copy, a required referee copy (a snapshot), notes, and two sides bound by role. */
    static String league(String playerCopies) {
        return """
                domain: League
                entities:
                  Player:
                    key: { pk: "PLAYER#{id}", sk: PLAYER }
                    path: /players/{id}
                    copies: %s
                    fields:
                      id: id
                      name: { type: string, required: true, maxLength: 100 }
                  Venue:
                    key: { pk: "VENUE#{id}", sk: VENUE }
                    path: /venues/{id}
                    copies: { index: gsi2 }
                    fields:
                      id: id
                      name: { type: string, required: true, maxLength: 100 }
                aggregates:
                  Fixture:
                    partition: "FIXTURE#{id}"
                    path: /fixtures/{id}
                    label: HEAD
                    fields:
                      id: id
                      title: { type: string, required: true, maxLength: 100 }
                      venue: { copy: Venue, type: FixtureVenue, label: VENUE, optional: true }
                      referee: { copy: Player, type: FixtureReferee, label: REFEREE }
                      notes:
                        optional: true
                        one: { type: FixtureNotes, label: NOTES, fields: { text: { type: string, maxLength: 200 } } }
                      home: { part: Side, bind: { side: home } }
                      away: { part: Side, bind: { side: away } }
                    parts:
                      Side:
                        type: FixtureSide
                        label: SIDE
                        fields:
                          colours: { type: string, required: true, maxLength: 20 }
                          kit: { one: { type: FixtureKit, label: KIT, fields: { shirt: { type: string, maxLength: 20 } } } }
                          players:
                            many: { type: FixturePlayer, label: PLAYER, key: player, fields: { player: { ref: Player } } }
                """.formatted(playerCopies);
    }

    static final String TARGETED = "{ index: gsi1, targets: [FixturePlayer] }";
    static final String EVERY_COPY = "{ index: gsi1 }";

    static DomainPlan plan(String playerCopies) {
        return DomainPlan.of(List.of(ModelReader.read("models/league.yaml", league(playerCopies))));
    }

    static final DomainPlan PLAN = plan(TARGETED);
    static final DeclaredAggregate FIXTURE = PLAN.aggregate("Fixture");
    static final Aggregate ENGINE = FIXTURE.aggregate();

    static Map<String, Object> side(String colours, String shirt, String... players) {
        var side = new LinkedHashMap<String, Object>();
        side.put("colours", colours);
        side.put("kit", new LinkedHashMap<>(Map.of("shirt", shirt)));
        side.put("players", List.of(players).stream().map(p -> (Object) Map.of("playerId", p)).toList());
        return side;
    }

    /** A fixture's input: the venue and notes only when given. */
    static Map<String, Object> input(String venueId, String notes) {
        var in = new LinkedHashMap<String, Object>();
        in.put("id", "f-1");
        in.put("title", "Opening day");
        if (venueId != null) {
            in.put("venueId", venueId);
        }
        in.put("refereeId", "p9");
        if (notes != null) {
            in.put("notes", new LinkedHashMap<>(Map.of("text", notes)));
        }
        in.put("home", side("red", "plain", "p1", "p2"));
        in.put("away", side("blue", "striped", "p3"));
        return in;
    }

    /** Every ref of an input resolved, as a read of the sources would: id and name, at version 1. */
    static Map<String, RefCopy> resolved(Map<String, Object> input) {
        var copies = new HashMap<String, RefCopy>();
        ENGINE.refs(input).forEach(use -> copies.put(Aggregate.refKey(use.ref(), use.id()),
                new RefCopy(Map.of("id", use.id(), "name", "Name " + use.id()), 1)));
        return copies;
    }

    static Items items(Map<String, Object> input) {
        var copies = resolved(input);
        var versions = new HashMap<String, Long>();
        copies.forEach((key, copy) -> versions.put(key, copy.version()));
        return ENGINE.decompose(ENGINE.hydrate(input, copies), versions, 1, T0, T0);
    }

    static List<Map<String, AttributeValue>> stored(Items items) {
        return items.bySk().values().stream().map(Member::item).toList();
    }

    static Map<String, AttributeValue> item(Items items, String sk) {
        return items.bySk().get(sk).item();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> at(Map<String, Object> view, String field) {
        return (Map<String, Object>) view.get(field);
    }

    // --- (a) optional members -----------------------------------------------------------------------------------

    @Test
    void anOptionalCopyMemberLeftOutIsNoItemAndAssemblesBackAsAbsent() {
        var input = input(null, "bring umbrellas");
        assertThat(FieldRules.check(FIXTURE.inputFields(), input, false)).isEmpty();
        assertThat(ENGINE.refs(input)).extracting(Aggregate.RefUse::path).doesNotContain("venue");

        Items items = items(input);
        assertThat(items.bySk()).doesNotContainKey("VENUE");
        assertThat(stored(items)).noneMatch(i -> i.get(TableSpec.TYPE).s().equals("FixtureVenue"));

        var view = ENGINE.assemble(stored(items)).view();
        assertThat(view).containsEntry("venue", null);
        assertThat(ENGINE.toInput(view)).containsEntry("venueId", null).containsEntry("refereeId", "p9");
    }

    @Test
    void anOptionalCopyMemberGivenIsItsOwnItemHoldingTheWholeCopy() {
        Items items = items(input("v1", "bring umbrellas"));
        var venue = item(items, "VENUE");
        assertThat(venue.get(TableSpec.TYPE).s()).isEqualTo("FixtureVenue");
        assertThat(venue.get(Index.GSI2.pkName()).s()).isEqualTo("VENUE#v1");
        assertThat(items.bySk().get("VENUE").group()).isEqualTo(Aggregate.ROOT_GROUP);

        var view = ENGINE.assemble(stored(items)).view();
        assertThat(at(view, "venue")).containsEntry("id", "v1").containsEntry("name", "Name v1");
        assertThat(ENGINE.toInput(view)).containsEntry("venueId", "v1");
    }

    @Test
    void anOptionalOneMemberLeftOutIsNoItemAndAssemblesBackAsAbsent() {
        Items without = items(input("v1", null));
        assertThat(without.bySk()).doesNotContainKey("NOTES");
        assertThat(ENGINE.assemble(stored(without)).view()).containsEntry("notes", null);

        Items with = items(input("v1", "bring umbrellas"));
        assertThat(item(with, "NOTES").get("text").s()).isEqualTo("bring umbrellas");
        assertThat(at(ENGINE.assemble(stored(with)).view(), "notes")).containsEntry("text", "bring umbrellas");
    }

    @Test
    void aRequiredCopyMemberLeftOutIsRefusedByTheInputRulesAndByTheEngine() {
        var input = input("v1", null);
        input.remove("refereeId");
        assertThat(FieldRules.check(FIXTURE.inputFields(), input, false))
                .extracting(FieldRules.Violation::field).containsExactly("refereeId");
        assertThatThrownBy(() -> ENGINE.refs(input)).isInstanceOfSatisfying(CairnException.class, e ->
                assertThat(e.error()).isInstanceOfSatisfying(CairnError.AggregateDecompositionError.class, error -> {
                    assertThat(error.member()).isEqualTo("refereeId");
                    assertThat(error.detail()).isEqualTo("refereeId is missing");
                }));
    }

    @Test
    void aRequiredOneMemberLeftOutIsRefusedByTheInputRulesAndByTheEngine() {
        var input = input("v1", null);
        ((Map<?, ?>) input.get("home")).remove("kit");
        assertThat(FieldRules.check(FIXTURE.inputFields(), input, false))
                .extracting(FieldRules.Violation::field).containsExactly("home.kit");
        assertThatThrownBy(() -> items(input)).isInstanceOfSatisfying(CairnException.class, e ->
                assertThat(e.error()).isInstanceOfSatisfying(CairnError.AggregateDecompositionError.class,
                        error -> assertThat(error.member()).isEqualTo("home.kit")));
    }

    // --- (b) parts bound by role ----------------------------------------------------------------------------------

    @Test
    void partsBoundByRoleCarryTheRoleInTheirSortKeysDiscriminatorsAndGroups() {
        Items items = items(input("v1", null));
        assertThat(items.bySk().keySet()).contains("SIDE#home", "SIDE#home#KIT", "SIDE#home#PLAYER#p1",
                "SIDE#home#PLAYER#p2", "SIDE#away", "SIDE#away#KIT", "SIDE#away#PLAYER#p3");
        for (String sk : List.of("SIDE#home", "SIDE#home#KIT", "SIDE#home#PLAYER#p2")) {
            assertThat(JsonAttributes.fromMap(item(items, sk).get("_disc").m())).as(sk).isEqualTo(Map.of("side", "home"));
            assertThat(items.bySk().get(sk).group()).as(sk).isEqualTo("home");
        }
        assertThat(JsonAttributes.fromMap(item(items, "SIDE#away#PLAYER#p3").get("_disc").m()))
                .isEqualTo(Map.of("side", "away"));
        assertThat(items.groups()).containsExactly(Aggregate.ROOT_GROUP, "home", "away");
        items.bySk().values().forEach(m -> assertThat(ENGINE.groupOf(m.sk())).as(m.sk()).isEqualTo(m.group()));
    }

    @Test
    void partsBoundByRoleAssembleBackIntoTheirOwnFields() {
        var view = ENGINE.assemble(stored(items(input("v1", null)))).view();
        var home = at(view, "home");
        var away = at(view, "away");
        assertThat(home).containsEntry("colours", "red");
        assertThat(at(home, "kit")).containsEntry("shirt", "plain");
        assertThat(away).containsEntry("colours", "blue");
        assertThat(at(away, "kit")).containsEntry("shirt", "striped");
        var expected = input("v1", null);
        expected.put("notes", null);
        assertThat(ENGINE.toInput(view)).isEqualTo(expected);
    }

    // --- (c) a one member's own fields changed --------------------------------------------------------------------

    /** The update path: the stored view back to its input, changed, hydrated with the copies it holds, diffed. */
    static List<GroupChange> diffAfter(java.util.function.Consumer<Map<String, Object>> change) {
        Items before = items(input("v1", "bring umbrellas"));
        var assembled = ENGINE.assemble(stored(before));
        var changed = ENGINE.toInput(assembled.view());
        change.accept(changed);
        var after = ENGINE.decompose(ENGINE.hydrate(changed, ENGINE.copies(assembled.view(), assembled.refVersions())),
                assembled.refVersions(), 2, T0, T0.plusSeconds(1));
        return Aggregate.diff(before, after);
    }

    @Test
    void aOneMemberOfAPartChangedRewritesOnlyItsItemInThatPartsGroup() {
        var changes = diffAfter(in -> at(at(in, "away"), "kit").put("shirt", "hooped"));
        assertThat(changes).extracting(GroupChange::group).containsExactly("away");
        assertThat(changes.get(0).puts()).extracting(Member::sk).containsExactly("SIDE#away#KIT");
        assertThat(changes.get(0).deletes()).isEmpty();
        assertThat(changes.get(0).puts().get(0).item().get("shirt").s()).isEqualTo("hooped");
    }

    @Test
    void aOneMemberOfTheRootChangedRewritesOnlyItsItemInTheRootGroup() {
        var changes = diffAfter(in -> at(in, "notes").put("text", "sun cream"));
        assertThat(changes).extracting(GroupChange::group).containsExactly(Aggregate.ROOT_GROUP);
        assertThat(changes.get(0).puts()).extracting(Member::sk).containsExactly("NOTES");
        assertThat(changes.get(0).deletes()).isEmpty();
    }

    @Test
    void anOptionalMemberRemovedIsDeletedFromItsGroupAlone() {
        var changes = diffAfter(in -> {
            in.put("venueId", null);
            in.put("notes", null);
        });
        assertThat(changes).extracting(GroupChange::group).containsExactly(Aggregate.ROOT_GROUP);
        assertThat(changes.get(0).puts()).isEmpty();
        assertThat(changes.get(0).deletes()).extracting(Member::sk).containsExactlyInAnyOrder("VENUE", "NOTES");
    }

    // --- (d) a cascade limited to some member types ---------------------------------------------------------------

    /** The items the cascade's Query of the player's copies finds: those keyed PLAYER#<id> on gsi1. */
    static List<Map<String, AttributeValue>> copiesOf(Items items, String playerId) {
        return stored(items).stream().filter(i -> i.containsKey(Index.GSI1.pkName())
                && i.get(Index.GSI1.pkName()).s().equals("PLAYER#" + playerId)).toList();
    }

    static List<String> rewritten(DomainPlan plan, Items items, String playerId) {
        CascadePlanner planner = plan.cascade("Player").planner();
        var source = new CascadeSource("Player", playerId, 5,
                Map.of("id", AttributeValue.fromS(playerId), "name", AttributeValue.fromS("Renamed")));
        return planner.plan(copiesOf(items, playerId), source, T0.plusSeconds(60)).stream()
                .flatMap(unit -> unit.actions().stream()).map(WriteAction::key).map(k -> k.sk()).toList();
    }

    @Test
    void aCascadeWithTargetsRewritesOnlyTheTargetedMemberTypes() {
        // p1 plays for home and referees too: both copies are found, only the player's follows the rename
        var in = input("v1", null);
        in.put("refereeId", "p1");
        Items items = items(in);
        assertThat(copiesOf(items, "p1")).extracting(i -> i.get(TableSpec.TYPE).s())
                .containsExactlyInAnyOrder("FixtureReferee", "FixturePlayer");

        CascadePlanner planner = PLAN.cascade("Player").planner();
        assertThat(planner.follows(item(items, "SIDE#home#PLAYER#p1"))).isTrue();
        assertThat(planner.follows(item(items, "REFEREE"))).isFalse();
        // the root's version moves with the copy it keeps current; the referee keeps the copy it took
        assertThat(rewritten(PLAN, items, "p1")).containsExactly("HEAD", "SIDE#home#PLAYER#p1");
    }

    @Test
    void aCascadeWithoutTargetsRewritesEveryCopy() {
        var in = input("v1", null);
        in.put("refereeId", "p1");
        DomainPlan everyCopy = plan(EVERY_COPY);
        assertThat(rewritten(everyCopy, items(in), "p1")).containsExactlyInAnyOrder("HEAD", "REFEREE", "SIDE#home#PLAYER#p1");
    }

    @Test
    void aCascadeTargetThatHoldsNoCopyIsRefusedAtItsLine() {
        // a misspelt target would leave every copy a snapshot, silently
        for (String target : List.of("FixturePlayr", "FixtureVenue")) {
            assertThatThrownBy(() -> plan("{ index: gsi1, targets: [" + target + "] }"))
                    .isInstanceOf(ModelException.class)
                    .hasMessageStartingWith("models/league.yaml:6: entities.Player.copies.targets:")
                    .hasMessageContaining("'" + target + "' holds no copy of Player")
                    .hasMessageContaining("FixtureReferee, FixturePlayer");
        }
    }
}
