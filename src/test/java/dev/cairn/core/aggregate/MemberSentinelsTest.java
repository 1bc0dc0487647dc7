package dev.cairn.core.aggregate;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.aggregate.Aggregate.Items;
import dev.cairn.core.aggregate.Aggregate.Member;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.model.UniqueModel;
import dev.cairn.core.write.UniqueSentinels;
import dev.cairn.core.write.WriteAction;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MemberSentinelsTest {

    static final Instant NOW = Instant.parse("2026-12-07T00:00:00Z");
    static final UniqueModel BARCODE = new UniqueModel("barcode", List.of("barcode"), List.of("workspaceId"), true,
            UniqueModel.SoftDelete.KEEP, 1);
    static final Map<String, List<UniqueModel>> BY_TYPE = Map.of("OrderParcel", List.of(BARCODE));

    /** An order in workspace {@code ws} with one parcel per barcode (null: a parcel without one). */
    static Items order(String ws, String... barcodes) {
        var bySk = new LinkedHashMap<String, Member>();
        bySk.put("HEAD", new Member("root", "HEAD", Map.of("pk", s("ORDER#o1"), "sk", s("HEAD"), "_type", s("Order"),
                "workspaceId", s(ws))));
        for (int i = 0; i < barcodes.length; i++) {
            var item = new LinkedHashMap<String, AttributeValue>(Map.of("pk", s("ORDER#o1"), "sk", s("PARCEL#" + i),
                    "_type", s("OrderParcel"), "no", AttributeValue.fromN(String.valueOf(i))));
            if (barcodes[i] != null) {
                item.put("barcode", s(barcodes[i]));
            }
            bySk.put("PARCEL#" + i, new Member("root", "PARCEL#" + i, item));
        }
        return new Items("ORDER#o1", bySk);
    }

    static AttributeValue s(String text) {
        return AttributeValue.fromS(text);
    }

    static String sentinel(String ws, String barcode) {
        return "UNIQUE#OrderParcel#barcode#" + ws + "#" + barcode;
    }

    static String owner(WriteAction action) {
        return action.item().get(UniqueSentinels.OWNER_SK).s();
    }

    @Test
    void aCreateTakesEachValueForItsOwnParcelScopedByTheRootsWorkspaceAndADeleteGivesEachUp() {
        List<WriteAction> created = MemberSentinels.moved(BY_TYPE, null, order("acme", "AB-1", "ab-2", null), NOW);
        assertThat(created).extracting(a -> a.kind() + " " + a.key().pk() + " " + owner(a)).containsExactly(
                "PUT " + sentinel("acme", "ab-1") + " PARCEL#0", "PUT " + sentinel("acme", "ab-2") + " PARCEL#1");
        assertThat(created).allSatisfy(a -> assertThat(a.item().get(UniqueSentinels.OWNER_PK).s()).isEqualTo("ORDER#o1"));
        List<WriteAction> deleted = MemberSentinels.moved(BY_TYPE, order("acme", "AB-1", "ab-2", null), null, NOW);
        assertThat(deleted).extracting(a -> a.kind() + " " + a.key().pk()).containsExactly(
                "DELETE " + sentinel("acme", "ab-1"), "DELETE " + sentinel("acme", "ab-2"));
        // nothing declared, nothing moved
        assertThat(MemberSentinels.moved(Map.of(), null, order("acme", "AB-1"), NOW)).isEmpty();
    }

    @Test
    void anUpdateMovesOnlyWhatChangedAndASwapPassesEachValueOnInOnePut() {
        assertThat(MemberSentinels.moved(BY_TYPE, order("acme", "a", "b"), order("acme", "A", "b"), NOW))
                .as("the same value in another case is unchanged").isEmpty();
        List<WriteAction> moved = MemberSentinels.moved(BY_TYPE, order("acme", "a", "b"), order("acme", "c", "b"), NOW);
        assertThat(moved).extracting(a -> a.kind() + " " + a.key().pk()).containsExactly(
                "PUT " + sentinel("acme", "c"), "DELETE " + sentinel("acme", "a"));
        List<WriteAction> swapped = MemberSentinels.moved(BY_TYPE, order("acme", "a", "b"), order("acme", "b", "a"), NOW);
        // one action per sentinel: a transaction touches an item once
        assertThat(swapped).extracting(a -> a.kind() + " " + a.key().pk() + " " + owner(a)).containsExactly(
                "PUT " + sentinel("acme", "b") + " PARCEL#0", "PUT " + sentinel("acme", "a") + " PARCEL#1");
        assertThat(swapped.get(0).extraCondition().toString()).contains(UniqueSentinels.OWNER_SK);
        // a parcel removed gives its value up; another workspace is another scope
        assertThat(MemberSentinels.moved(BY_TYPE, order("acme", "a", "b"), order("acme", "a"), NOW))
                .extracting(a -> a.kind() + " " + a.key().pk()).containsExactly("DELETE " + sentinel("acme", "b"));
        assertThat(MemberSentinels.moved(BY_TYPE, order("acme", "a"), order("other", "a"), NOW))
                .extracting(a -> a.kind() + " " + a.key().pk()).containsExactly(
                        "PUT " + sentinel("other", "a"), "DELETE " + sentinel("acme", "a"));
    }

    @Test
    void twoParcelsOfOneWriteHoldingOneValueAreItsOwnViolationAndAnInvisibleValueIsRefused() {
        assertThatThrownBy(() -> MemberSentinels.moved(BY_TYPE, null, order("acme", "dup", "DUP"), NOW))
                .isInstanceOfSatisfying(CairnException.class, e -> assertThat(e.error())
                        .isInstanceOfSatisfying(CairnError.UniqueViolation.class, v -> {
                            assertThat(v.constraint()).isEqualTo("barcode");
                            assertThat(v.fields()).containsExactly("barcode", "workspaceId");
                        }));
        assertThatThrownBy(() -> MemberSentinels.moved(BY_TYPE, null, order("acme", "\u200b "), NOW))
                .isInstanceOfSatisfying(CairnException.class, e -> assertThat(e.error())
                        .isInstanceOf(CairnError.ValidationFailed.class));
    }

    @Test
    void aTwinStoredBeforeStaysAsItWasIsPassedOnOrGivenUpButNeverSpreads() {
        // two parcels holding one value as stored (before the constraint, or folded otherwise since)
        assertThat(MemberSentinels.moved(BY_TYPE, order("acme", "a", "A"), order("acme", "a", "A"), NOW)).isEmpty();
        List<WriteAction> kept = MemberSentinels.moved(BY_TYPE, order("acme", "a", "A"), order("acme", "a", "b"), NOW);
        // the value stays with the first, passed on from whichever held it; the second takes its new one
        assertThat(kept).extracting(a -> a.kind() + " " + a.key().pk()).containsExactly(
                "PUT " + sentinel("acme", "a"), "PUT " + sentinel("acme", "b"));
        assertThat(kept.get(0).extraCondition().toString()).contains("PARCEL#1");
        assertThat(MemberSentinels.moved(BY_TYPE, order("acme", "a", "A"), null, NOW))
                .extracting(a -> a.kind() + " " + a.key().pk()).containsExactly("DELETE " + sentinel("acme", "a"));
        assertThatThrownBy(() -> MemberSentinels.moved(BY_TYPE, order("acme", "a", "A"), order("acme", "a", "A", "a"), NOW))
                .isInstanceOf(CairnException.class);
    }

    @Test
    void aSoftDeleteKeepsOrReleasesAsDeclaredARestoreTakesBackAndAPurgeGivesUpWhatTheTombstoneKept() {
        PrimaryKey tombstone = PrimaryKey.of("~DELETED#ORDER#o1", "HEAD");
        assertThat(MemberSentinels.softDeleted(BY_TYPE, order("acme", "a"), tombstone, NOW))
                .singleElement().satisfies(a -> {
                    assertThat(a.kind()).isEqualTo(WriteAction.Kind.PUT);
                    assertThat(a.item().get(UniqueSentinels.OWNER_PK).s()).isEqualTo(tombstone.pk());
                });
        var released = Map.of("OrderParcel", List.of(new UniqueModel("barcode", List.of("barcode"), List.of(), false,
                UniqueModel.SoftDelete.RELEASE, 1)));
        assertThat(MemberSentinels.softDeleted(released, order("acme", "a"), tombstone, NOW))
                .extracting(WriteAction::kind).containsExactly(WriteAction.Kind.DELETE);
        assertThat(MemberSentinels.restored(BY_TYPE, order("acme", "a"), tombstone, NOW)).singleElement()
                .satisfies(a -> assertThat(owner(a)).isEqualTo("PARCEL#0"));
        assertThat(MemberSentinels.purged(BY_TYPE, order("acme", "a"), tombstone)).extracting(WriteAction::kind)
                .containsExactly(WriteAction.Kind.DELETE);
        assertThat(MemberSentinels.purged(released, order("acme", "a"), tombstone)).isEmpty();
    }

    @Test
    void theItemsOfABrokenPartitionGiveUpTheirValuesScopedByTheRootWhereItIsLeft() {
        var items = new ArrayList<Map<String, AttributeValue>>();
        order("acme", "a", "b").bySk().values().forEach(m -> items.add(m.item()));
        assertThat(MemberSentinels.released(BY_TYPE, items, PrimaryKey.of("ORDER#o1", "HEAD")))
                .extracting(a -> a.kind() + " " + a.key().pk()).containsExactly(
                        "DELETE " + sentinel("acme", "a"), "DELETE " + sentinel("acme", "b"));
        // without its root, a value scoped by the root's field has no key to give up (no release of a wrong one)
        assertThat(MemberSentinels.released(BY_TYPE, items.subList(1, 3), PrimaryKey.of("ORDER#o1", "HEAD"))).isEmpty();
    }

    @Test
    void aCommitThatCouldNeverBeOneTransactionIsRefusedBeforeAnythingIsSent() {
        PrimaryKey root = PrimaryKey.of("ORDER#o1", "HEAD");
        var plan = new AggregateWrites.Plan(WriteAction.deleteItem(root, "Order"), List.of(), root, List.of(), List.of());
        var many = new ArrayList<WriteAction>();
        for (int i = 0; i < AggregateWrites.MAX_ALONGSIDE + 1; i++) {
            many.add(WriteAction.deleteItem(PrimaryKey.of("UNIQUE#x" + i, "UNIQUE"), "x"));
        }
        assertThat(plan.alongside(many.subList(0, AggregateWrites.MAX_ALONGSIDE)).alongside()).hasSize(98);
        assertThatThrownBy(() -> plan.alongside(many)).isInstanceOfSatisfying(CairnException.class,
                e -> assertThat(e.error()).isInstanceOfSatisfying(CairnError.AggregateTransactionOverflow.class,
                        overflow -> assertThat(overflow.group()).isEqualTo("commit")));
    }
}
