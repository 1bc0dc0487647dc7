package dev.cairn.core.aggregate;

import dev.cairn.core.TableSpec;
import dev.cairn.core.aggregate.AggregateWrites.Plan;
import dev.cairn.core.expr.Condition;
import dev.cairn.core.expr.Update;
import dev.cairn.core.item.ItemSize;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.lease.Lease;
import dev.cairn.core.write.TransactionPlan;
import dev.cairn.core.write.WriteAction.Expectation;
import dev.cairn.core.write.WriteAction.Kind;
import dev.cairn.core.write.WriteAction;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The protocol of an aggregate write that needs several transactions, with ONE commit point.
 *
 * <ol>
 *   <li><b>Begin</b> (one transaction): the root takes a lease and names the write ({@code _txn}, {@code _txnOp})
 *   while its version is checked; the write's intent is recorded as a job (so a worker finds it if the writer
 *   dies); and the <em>undo log</em> is written: the before-image of every item the write will touch, packed into
 *   a few {@code ~UNDO#<txn>#<n>} items of the same partition (a create needs none: everything it writes is new).</li>
 *   <li><b>Groups</b>: member transactions, each guarded by the root's lease.</li>
 *   <li><b>Commit</b> (one transaction): the root flips to its new state without {@code _txn} (for a delete: it
 *   goes), and the intent is removed. The undo items are garbage from then on and are deleted afterwards.</li>
 * </ol>
 * A reader never waits: {@link #committed} turns one Query's items into the committed state. While a write is in
 * flight that is the old state (current items overlaid with the undo log; nothing for a create in flight), after
 * the commit it is the new one. A write whose writer died is undone by {@link #rollback} (from the undo log) by
 * whoever takes the expired lease over: a reader in the background, the next writer, or the job worker.
 */
public final class AggregateTxn {

    public static final String TXN = "_txn";
    public static final String OP = "_txnOp";
    /** Left on a root by an undo: a root that looks the same before and after a read saw no write begin meanwhile. */
    public static final String LAST_UNDONE = "_lastUndone";
    static final String UNDO = "_undo";
    static final String UNDO_TYPE = "AggregateUndo";
    static final String UNDO_PREFIX = "~UNDO#";
    /** Room per undo item under DynamoDB's 400 KB, for the key and the map's own overhead. */
    static final long UNDO_ITEM_BYTES = 300 * 1024;

    public enum Op {
        CREATE, UPDATE, DELETE;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private AggregateTxn() {
    }

    /** The attributes the root carries while a write is in flight (read by {@link #committed}). */
    public static List<String> rootAttributes() {
        return List.of(TXN, OP, Lease.OWNER, Lease.UNTIL, UNDO, LAST_UNDONE);
    }

    public static Op opOf(Plan plan) {
        WriteAction root = plan.root();
        if (root.kind() == Kind.DELETE) {
            return Op.DELETE;
        }
        return root.expectation().state() == Expectation.State.ABSENT ? Op.CREATE : Op.UPDATE;
    }

    // --- begin and commit ---------------------------------------------------------------------------------

    /**
     * The root's first action: a create puts the root (absent before) already under the lease; an update or a
     * delete takes the lease on the root at the expected version, only if no other write is in flight.
     */
    public static WriteAction begin(Aggregate aggregate, Plan plan, String txn, String owner, Instant until) {
        Op op = opOf(plan);
        var marks = new HashMap<String, AttributeValue>(Lease.attributes(owner, until));
        marks.put(TXN, AttributeValue.fromS(txn));
        marks.put(OP, AttributeValue.fromS(op.wire()));
        if (op == Op.CREATE) {
            var item = new HashMap<>(plan.root().item());
            item.putAll(marks);
            // absent, or (an expiring aggregate) past its expiry: the create's own expectation
            return WriteAction.putItem(plan.rootKey(), item, plan.root().expectation(), aggregate.name());
        }
        var update = Update.create().setAll(marks);
        return WriteAction.updateItem(plan.rootKey(), update, plan.root().expectation(), noWriteInFlight(), aggregate.name());
    }

    /** The commit point: the root's final action, conditioned on our lease; it leaves no write marks behind. */
    public static WriteAction commit(Plan plan, String owner) {
        WriteAction root = plan.root();
        return switch (opOf(plan)) {
            case CREATE -> WriteAction.updateItem(root.key(), clearMarks(Update.create()), Expectation.NONE,
                    Lease.ownedBy(owner), root.label());
            // A put replaces the whole root item, so the marks are gone with it.
            case UPDATE, DELETE -> root.guardedBy(Expectation.NONE, Lease.ownedBy(owner));
        };
    }

    /**
     * The commit transaction as sent at {@code now}: where the aggregate expires, an update's commit also needs the root
     * unexpired then, so an aggregate that expired while its write was in flight is not brought back by it (the write
     * fails as NotFound and is undone). The transaction's first action is the commit's root action.
     */
    public static List<WriteAction> committingAt(List<WriteAction> transaction, Plan plan, Instant now) {
        if (plan.root().expectation().liveAt() == null || opOf(plan) != Op.UPDATE) {
            return transaction;
        }
        var out = new ArrayList<>(transaction);
        WriteAction root = out.get(0);
        out.set(0, root.guardedBy(new Expectation(Expectation.State.PRESENT, null, false, now), root.extraCondition()));
        return out;
    }

    /** A write's last transaction, and the undo items that did not fit in it (deleted right after). */
    public record Final(List<WriteAction> transaction, List<String> undoLater) {
    }

    /**
     * The last transaction of a write or of its undo ({@code last}: the root's step and the intent's removal)
     * with the deletes of the write's undo items when they fit, so that no garbage outlives the write.
     */
    public static Final finalStep(List<WriteAction> last, String pk, List<String> undoSortKeys, String label) {
        var transaction = new ArrayList<>(last);
        int room = TransactionPlan.MAX_ACTIONS - transaction.size();
        undoSortKeys.stream().limit(room)
                .forEach(sk -> transaction.add(WriteAction.deleteItem(PrimaryKey.of(pk, sk), label + " undo log")));
        return new Final(transaction, undoSortKeys.subList(Math.min(room, undoSortKeys.size()), undoSortKeys.size()));
    }

    /** No multi-transaction write is in flight on this root (written or left behind by a dead writer). */
    public static Condition noWriteInFlight() {
        return Condition.attributeNotExists(TXN);
    }

    static Update clearMarks(Update update) {
        return update.remove(TXN).remove(OP).remove(Lease.OWNER).remove(Lease.UNTIL);
    }

    /**
     * The undo log of a write: the before-image of every item its actions touch ({@code before} by sort key), or a
     * "created" mark for an item that did not exist, packed into items of at most {@link #UNDO_ITEM_BYTES}.
     */
    public static List<WriteAction> undoLog(String pk, String txn, List<WriteAction> actions,
                                            Map<String, Map<String, AttributeValue>> before, String label) {
        var undoItems = new ArrayList<WriteAction>();
        var entries = new LinkedHashMap<String, AttributeValue>();
        long bytes = 0;
        for (WriteAction action : actions) {
            String sk = action.key().sk();
            Map<String, AttributeValue> old = before.get(sk);
            AttributeValue entry = old == null ? AttributeValue.fromNul(true) : AttributeValue.fromM(old);
            long size = sk.length() + ItemSize.of(entry) + 8;
            if (!entries.isEmpty() && bytes + size > UNDO_ITEM_BYTES) {
                undoItems.add(undoItem(pk, txn, undoItems.size(), entries, label));
                entries = new LinkedHashMap<>();
                bytes = 0;
            }
            entries.put(sk, entry);
            bytes += size;
        }
        if (!entries.isEmpty()) {
            undoItems.add(undoItem(pk, txn, undoItems.size(), entries, label));
        }
        return undoItems;
    }

    private static WriteAction undoItem(String pk, String txn, int n, Map<String, AttributeValue> entries, String label) {
        PrimaryKey key = PrimaryKey.of(pk, UNDO_PREFIX + txn + "#" + String.format("%04d", n));
        var item = new HashMap<String, AttributeValue>(key.toAttributes());
        item.put(TableSpec.TYPE, AttributeValue.fromS(UNDO_TYPE));
        item.put(TXN, AttributeValue.fromS(txn));
        item.put(UNDO, AttributeValue.fromM(entries));
        return WriteAction.putItem(key, item, Expectation.ABSENT, label + " undo log");
    }

    /**
     * The transactions of a write after its root action: {@code first} holds the begin (root and intent) and as
     * many undo items as fit beside it; the remaining undo items follow under the guard, then the member
     * batches, each with the guard. Undo items always go before any member is touched.
     */
    public static List<List<WriteAction>> schedule(List<WriteAction> first, List<WriteAction> undo,
                                                   List<List<WriteAction>> batches, WriteAction guard) {
        var transactions = new ArrayList<List<WriteAction>>();
        var head = new ArrayList<>(first);
        int i = 0;
        while (i < undo.size() && fits(head, undo.get(i))) {
            head.add(undo.get(i++));
        }
        transactions.add(head);
        var more = new ArrayList<WriteAction>();
        for (; i < undo.size(); i++) {
            if (!more.isEmpty() && !fits(withGuard(more, guard), undo.get(i))) {
                transactions.add(withGuard(more, guard));
                more = new ArrayList<>();
            }
            more.add(undo.get(i));
        }
        if (!more.isEmpty()) {
            transactions.add(withGuard(more, guard));
        }
        batches.forEach(batch -> transactions.add(withGuard(batch, guard)));
        return transactions;
    }

    private static boolean fits(List<WriteAction> transaction, WriteAction next) {
        return transaction.size() + 1 <= TransactionPlan.MAX_ACTIONS
                && TransactionPlan.sizeOf(transaction) + next.estimatedSize() <= TransactionPlan.MAX_BYTES - 64 * 1024;
    }

    private static List<WriteAction> withGuard(List<WriteAction> actions, WriteAction guard) {
        var out = new ArrayList<>(actions);
        out.add(guard);
        return out;
    }

    // --- reading ------------------------------------------------------------------------------------------

    /** A write in flight on a root: its id, kind and the lease of whoever works on it. */
    public record InFlight(String txn, Op op, Lease lease) {
    }

    /**
     * The committed state of a partition: its items as they must be read ({@code items}, without undo items),
     * the write in flight if any (the root's lease tells whether its writer is still alive), and the keys of undo
     * items left behind by writes that are over (garbage to delete).
     */
    public record Committed(List<Map<String, AttributeValue>> items, InFlight inFlight, List<String> leftovers) {
        public boolean absent() {
            return items.isEmpty();
        }
    }

    public static boolean isUndoItem(Map<String, AttributeValue> item) {
        AttributeValue sk = item.get(TableSpec.SK);
        return sk != null && sk.s().startsWith(UNDO_PREFIX);
    }

    /** Turns a partition's items (one Query) into its committed state. Pure. */
    public static Committed committed(String rootSk, List<Map<String, AttributeValue>> items) {
        if (settled(rootSk, items)) {
            return new Committed(List.copyOf(items), null, List.of()); // the common case: nothing to sort out
        }
        var bySk = new LinkedHashMap<String, Map<String, AttributeValue>>();
        var undoItems = new ArrayList<Map<String, AttributeValue>>();
        for (var item : items) {
            if (isUndoItem(item)) {
                undoItems.add(item);
            } else {
                bySk.put(item.get(TableSpec.SK).s(), item);
            }
        }
        Map<String, AttributeValue> root = bySk.get(rootSk);
        InFlight inFlight = root == null ? null : inFlight(root);
        String txn = inFlight == null ? null : inFlight.txn();
        var leftovers = undoItems.stream().filter(u -> !u.get(TXN).s().equals(txn)).map(u -> u.get(TableSpec.SK).s()).toList();
        if (inFlight == null) {
            return new Committed(List.copyOf(bySk.values()), null, leftovers);
        }
        if (inFlight.op() == Op.CREATE) {
            return new Committed(List.of(), inFlight, leftovers);
        }
        for (var undo : undoItems) {
            if (!undo.get(TXN).s().equals(txn)) {
                continue;
            }
            undo.get(UNDO).m().forEach((sk, image) -> {
                if (image.m() != null && image.hasM()) {
                    bySk.put(sk, image.m());
                } else {
                    bySk.remove(sk);
                }
            });
        }
        var oldRoot = new HashMap<>(root);
        rootAttributes().forEach(oldRoot::remove);
        bySk.put(rootSk, oldRoot);
        // Keep the partition's sort order (members deleted by the write come back at their place).
        var ordered = new TreeMap<String, Map<String, AttributeValue>>(bySk);
        return new Committed(List.copyOf(ordered.values()), inFlight, leftovers);
    }

    /** No undo item in the partition and no write in flight on its root: the items are the committed state as read. */
    private static boolean settled(String rootSk, List<Map<String, AttributeValue>> items) {
        for (var item : items) {
            if (isUndoItem(item) || rootSk.equals(item.get(TableSpec.SK).s()) && item.containsKey(TXN)) {
                return false;
            }
        }
        return true;
    }

    private static InFlight inFlight(Map<String, AttributeValue> root) {
        AttributeValue txn = root.get(TXN);
        if (txn == null) {
            return null;
        }
        Lease lease = Lease.of(root);
        return new InFlight(txn.s(), Op.valueOf(root.get(OP).s().toUpperCase(Locale.ROOT)),
                lease == null ? new Lease("", Instant.EPOCH) : lease);
    }

    // --- undo ---------------------------------------------------------------------------------------------

    /**
     * What undoes the write in flight, given the partition's stored items: for an update or a delete, every
     * before-image put back and every created item deleted (from the undo log); for a create, every member
     * deleted. The root's own last step is {@link #finishRollback}.
     */
    public static List<WriteAction> rollback(String rootSk, List<Map<String, AttributeValue>> items, InFlight inFlight,
                                             String label) {
        var actions = new ArrayList<WriteAction>();
        if (inFlight.op() == Op.CREATE) {
            items.stream().filter(item -> !isUndoItem(item) && !rootSk.equals(item.get(TableSpec.SK).s()))
                    .forEach(item -> actions.add(WriteAction.deleteItem(PrimaryKey.from(item), label)));
            return actions;
        }
        String pk = items.get(0).get(TableSpec.PK).s();
        for (var item : items) {
            if (!isUndoItem(item) || !inFlight.txn().equals(item.get(TXN).s())) {
                continue;
            }
            item.get(UNDO).m().forEach((sk, image) -> actions.add(image.hasM()
                    ? WriteAction.putItem(PrimaryKey.of(pk, sk), image.m(), Expectation.NONE, label)
                    : WriteAction.deleteItem(PrimaryKey.of(pk, sk), label)));
        }
        return actions;
    }

    /** The rollback's last step on the root: a create's root goes, any other root just loses the write's marks. */
    public static WriteAction finishRollback(PrimaryKey rootKey, InFlight inFlight, String owner, String label) {
        if (inFlight.op() == Op.CREATE) {
            return WriteAction.deleteItem(rootKey, Expectation.NONE, Lease.ownedBy(owner), label);
        }
        var update = clearMarks(Update.create()).set(LAST_UNDONE, AttributeValue.fromS(inFlight.txn()));
        return WriteAction.updateItem(rootKey, update, Expectation.NONE, Lease.ownedBy(owner), label);
    }

    /** Takes over the lease of the write {@code txn} once it expired (or re-takes our own). */
    public static WriteAction takeOver(PrimaryKey rootKey, String txn, String owner, Instant now, Instant until,
                                       String label) {
        return Lease.claim(label, rootKey, owner, now, until, null)
                .and(Condition.eq(TXN, AttributeValue.fromS(txn)));
    }

    /** The sort keys of the undo items of one write (deleted once the write is over). */
    public static List<String> undoKeys(List<Map<String, AttributeValue>> items, String txn) {
        return items.stream().filter(i -> isUndoItem(i) && txn.equals(i.get(TXN).s()))
                .map(i -> i.get(TableSpec.SK).s()).toList();
    }
}
