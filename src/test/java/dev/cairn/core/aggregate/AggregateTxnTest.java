package dev.cairn.core.aggregate;

import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.lease.Lease;
import dev.cairn.core.write.TransactionPlan;
import dev.cairn.core.write.WriteAction;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class AggregateTxnTest {

    static final String PK = "SHELF#s1";
    static final Instant UNTIL = Instant.parse("2026-11-23T10:00:30Z");

    static Map<String, AttributeValue> item(String sk, String title) {
        var item = new HashMap<String, AttributeValue>();
        item.put("pk", AttributeValue.fromS(PK));
        item.put("sk", AttributeValue.fromS(sk));
        item.put("title", AttributeValue.fromS(title));
        return item;
    }

    static Map<String, AttributeValue> root(String txn, String op) {
        var root = item("SHELF", "root");
        if (txn != null) {
            root.put(AggregateTxn.TXN, AttributeValue.fromS(txn));
            root.put(AggregateTxn.OP, AttributeValue.fromS(op));
            root.putAll(Lease.attributes("writer", UNTIL));
        }
        return root;
    }

    static WriteAction put(Map<String, AttributeValue> item) {
        return new WriteAction(WriteAction.Kind.PUT, PrimaryKey.from(item), item, null, WriteAction.Expectation.NONE, null, "t");
    }

    static WriteAction delete(String sk) {
        return new WriteAction(WriteAction.Kind.DELETE, PrimaryKey.of(PK, sk), null, null, WriteAction.Expectation.NONE, null, "t");
    }

    static List<String> sks(List<Map<String, AttributeValue>> items) {
        return items.stream().map(i -> i.get("sk").s()).toList();
    }

    /** An update that changes B#1, deletes B#2 and creates B#3, written as far as the groups (not committed). */
    static List<Map<String, AttributeValue>> updateInFlight(String txn) {
        var before = Map.of("B#1", item("B#1", "old 1"), "B#2", item("B#2", "old 2"));
        var actions = List.of(put(item("B#1", "new 1")), delete("B#2"), put(item("B#3", "new 3")));
        var undo = AggregateTxn.undoLog(PK, txn, actions, before, "Shelf");
        var partition = new ArrayList<Map<String, AttributeValue>>();
        partition.add(item("A", "untouched"));
        partition.add(item("B#1", "new 1"));
        partition.add(item("B#3", "new 3"));
        partition.add(root(txn, "update"));
        undo.forEach(u -> partition.add(u.item()));
        return partition;
    }

    @Test
    void theUndoLogHoldsTheBeforeImageOfEveryTouchedItemAndMarksCreatedOnes() {
        var undo = AggregateTxn.undoLog(PK, "t1", List.of(put(item("B#1", "new")), put(item("B#9", "new"))),
                Map.of("B#1", item("B#1", "old")), "Shelf");
        assertThat(undo).hasSize(1);
        var entries = undo.get(0).item().get(AggregateTxn.UNDO).m();
        assertThat(entries.get("B#1").m().get("title").s()).isEqualTo("old");
        assertThat(entries.get("B#9").nul()).isTrue();
        assertThat(undo.get(0).key()).isEqualTo(PrimaryKey.of(PK, "~UNDO#t1#0000"));
        assertThat(undo.get(0).expectation().state()).isEqualTo(WriteAction.Expectation.State.ABSENT);
    }

    @Test
    void aLargeUndoLogIsSplitIntoItemsThatFitDynamoDb() {
        String pad = "x".repeat(100 * 1024);
        var actions = new ArrayList<WriteAction>();
        var before = new HashMap<String, Map<String, AttributeValue>>();
        for (int i = 0; i < 7; i++) {
            actions.add(delete("B#" + i));
            before.put("B#" + i, item("B#" + i, pad));
        }
        var undo = AggregateTxn.undoLog(PK, "t1", actions, before, "Shelf");
        assertThat(undo).hasSizeGreaterThan(2);
        assertThat(undo).allSatisfy(u -> assertThat(dev.cairn.core.item.ItemSize.of(u.item())).isLessThan(400 * 1024));
        assertThat(undo.stream().mapToInt(u -> u.item().get(AggregateTxn.UNDO).m().size()).sum()).isEqualTo(7);
    }

    @Test
    void withNoWriteInFlightTheItemsAreCommittedAndOtherWritesUndoItemsAreLeftovers() {
        var partition = new ArrayList<>(updateInFlight("old-txn"));
        partition.replaceAll(i -> i.get("sk").s().equals("SHELF") ? root(null, null) : i);
        var committed = AggregateTxn.committed("SHELF", partition);
        assertThat(committed.inFlight()).isNull();
        assertThat(sks(committed.items())).containsExactly("A", "B#1", "B#3", "SHELF");
        assertThat(committed.leftovers()).containsExactly("~UNDO#old-txn#0000");
    }

    @Test
    void anUpdateInFlightReadsAsTheStateBeforeIt() {
        var committed = AggregateTxn.committed("SHELF", updateInFlight("t1"));
        assertThat(committed.inFlight().txn()).isEqualTo("t1");
        assertThat(committed.inFlight().op()).isEqualTo(AggregateTxn.Op.UPDATE);
        assertThat(committed.inFlight().lease()).isEqualTo(new Lease("writer", UNTIL));
        assertThat(sks(committed.items())).containsExactly("A", "B#1", "B#2", "SHELF");
        var bySk = new HashMap<String, Map<String, AttributeValue>>();
        committed.items().forEach(i -> bySk.put(i.get("sk").s(), i));
        assertThat(bySk.get("B#1").get("title").s()).isEqualTo("old 1");
        assertThat(bySk.get("B#2").get("title").s()).isEqualTo("old 2");
        assertThat(bySk.get("SHELF")).doesNotContainKeys(AggregateTxn.TXN, AggregateTxn.OP, Lease.OWNER, Lease.UNTIL);
        assertThat(committed.leftovers()).isEmpty();
    }

    @Test
    void aCreateInFlightReadsAsAbsent() {
        var committed = AggregateTxn.committed("SHELF", List.of(root("t1", "create"), item("B#1", "new")));
        assertThat(committed.absent()).isTrue();
        assertThat(committed.inFlight().op()).isEqualTo(AggregateTxn.Op.CREATE);
    }

    @Test
    void rollingBackAnUpdatePutsBeforeImagesBackAndDeletesWhatItCreated() {
        var items = updateInFlight("t1");
        var inFlight = AggregateTxn.committed("SHELF", items).inFlight();
        var undo = AggregateTxn.rollback("SHELF", items, inFlight, "Shelf");
        assertThat(undo).extracting(a -> a.kind() + " " + a.key().sk())
                .containsExactlyInAnyOrder("PUT B#1", "PUT B#2", "DELETE B#3");
        assertThat(undo.stream().filter(a -> a.key().sk().equals("B#2")).findFirst().orElseThrow().item().get("title").s())
                .isEqualTo("old 2");
        var finish = AggregateTxn.finishRollback(PrimaryKey.of(PK, "SHELF"), inFlight, "me", "Shelf");
        assertThat(finish.kind()).isEqualTo(WriteAction.Kind.UPDATE);
        assertThat(dev.cairn.core.expr.ReadableConditions.of(finish)).isEqualTo("_lease = 'me'");
    }

    @Test
    void rollingBackACreateDeletesEveryMemberThenTheRoot() {
        var items = List.of(root("t1", "create"), item("B#1", "new"), item("C", "new"));
        var inFlight = AggregateTxn.committed("SHELF", items).inFlight();
        assertThat(AggregateTxn.rollback("SHELF", items, inFlight, "Shelf"))
                .extracting(a -> a.kind() + " " + a.key().sk()).containsExactly("DELETE B#1", "DELETE C");
        assertThat(AggregateTxn.finishRollback(PrimaryKey.of(PK, "SHELF"), inFlight, "me", "Shelf").kind())
                .isEqualTo(WriteAction.Kind.DELETE);
    }

    @Test
    void theUndoLogIsWrittenBeforeAnyMemberAndEveryLaterStepIsGuarded() {
        WriteAction begin = put(root("t1", "update"));
        WriteAction intent = put(item("INTENT", "x"));
        WriteAction guard = Lease.guard("t", PrimaryKey.of(PK, "SHELF"), "writer");
        var undo = new ArrayList<WriteAction>();
        for (int i = 0; i < 120; i++) {
            undo.add(put(item("~UNDO#t1#" + i, "u")));
        }
        var batches = List.of(List.of(put(item("B#1", "n"))), List.of(put(item("C#1", "n"))));
        var steps = AggregateTxn.schedule(List.of(begin, intent), undo, batches, guard);
        assertThat(steps.get(0)).startsWith(begin, intent).hasSize(TransactionPlan.MAX_ACTIONS);
        assertThat(steps).hasSize(4);
        assertThat(steps.get(1)).hasSize(120 - 98 + 1).endsWith(guard);
        assertThat(steps.get(2)).containsExactly(batches.get(0).get(0), guard);
        assertThat(steps.get(3)).containsExactly(batches.get(1).get(0), guard);
    }

    @Test
    void theLastTransactionDeletesTheUndoLogAsFarAsItFits() {
        var last = List.of(put(item("SHELF", "new root")), delete("INTENT"));
        var few = AggregateTxn.finalStep(last, PK, List.of("~UNDO#t1#0000", "~UNDO#t1#0001"), "Shelf");
        assertThat(few.transaction()).extracting(a -> a.kind() + " " + a.key().sk())
                .containsExactly("PUT SHELF", "DELETE INTENT", "DELETE ~UNDO#t1#0000", "DELETE ~UNDO#t1#0001");
        assertThat(few.undoLater()).isEmpty();

        var many = new ArrayList<String>();
        for (int i = 0; i < 120; i++) {
            many.add("~UNDO#t1#" + i);
        }
        var split = AggregateTxn.finalStep(last, PK, many, "Shelf");
        assertThat(split.transaction()).hasSize(TransactionPlan.MAX_ACTIONS);
        assertThat(split.undoLater()).hasSize(120 - 98).startsWith("~UNDO#t1#98");
    }
}
