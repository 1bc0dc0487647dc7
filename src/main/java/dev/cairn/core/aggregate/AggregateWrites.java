package dev.cairn.core.aggregate;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.TableSpec;
import dev.cairn.core.aggregate.Aggregate.GroupChange;
import dev.cairn.core.aggregate.Aggregate.Items;
import dev.cairn.core.aggregate.Aggregate.Member;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.write.TransactionPlan;
import dev.cairn.core.write.WriteAction.Expectation;
import dev.cairn.core.write.WriteAction;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Write plans of an aggregate, decided before anything is sent.
 *
 * <p>Every write is guarded by the root item: a create puts the root only if absent, an update or delete
 * touches the root only at the version that was read. When all groups fit in one TransactWriteItems, that one
 * transaction is the whole write: atomic, nothing half-visible. Otherwise groups are packed (never split) into
 * several transactions run under a <em>lease</em> on the root: the lease is taken with the version check, every
 * group transaction re-checks the lease, the last write moves the root to its new version and drops the lease,
 * and readers treat a leased root as "being written" rather than show mixed items. A failed group is undone
 * from the items read before the write (see {@link #inverse}).
 */
public final class AggregateWrites {

    /**
     * Actions that may commit with the root ({@link Plan#alongside}): a write in several transactions commits them
     * beside the root's flip and the removal of its intent.
     */
    public static final int MAX_ALONGSIDE = TransactionPlan.MAX_ACTIONS - 2;

    /** Actions one group may hold: one slot of every transaction is kept for the root's version or lease guard. */
    public static final int MAX_GROUP_ACTIONS = TransactionPlan.MAX_ACTIONS - 1;

    private AggregateWrites() {
    }

    /** One group's actions. The root item's own action is kept apart: it is the guard. */
    public record GroupActions(String group, List<WriteAction> actions) {
    }

    /**
     * A whole write: the root guard action, the groups' member actions, the source guards: one ConditionCheck
     * per source whose copy the write took fresh ({@link WriteAction#copiedSource}), so no copy of a superseded
     * version is committed, and {@code alongside}: what must commit with the root itself (the root's unique values'
     * sentinels). In one transaction they all ride along; a write in several transactions commits the source guards
     * with (or just before) its commit point, after every group, which is as good: a source still at the copied
     * version then was at it when each group was written; {@code alongside} always goes in the commit itself.
     */
    public record Plan(WriteAction root, List<GroupActions> groups, PrimaryKey rootKey, List<WriteAction> sourceGuards,
                       List<WriteAction> alongside) {

        public Plan {
            sourceGuards = List.copyOf(sourceGuards);
            alongside = List.copyOf(alongside);
            if (alongside.size() > MAX_ALONGSIDE) {
                // refused before anything is sent: the commit could never be one transaction
                throw new CairnException(new CairnError.AggregateTransactionOverflow("the write's commit needs "
                        + (alongside.size() + 2) + " actions (its unique values moved, its version kept): one "
                        + "transaction holds at most " + TransactionPlan.MAX_ACTIONS + "; change fewer members' unique "
                        + "values in one write", root.label(), "commit", alongside.size(), MAX_ALONGSIDE));
            }
        }

        Plan(WriteAction root, List<GroupActions> groups, PrimaryKey rootKey) {
            this(root, groups, rootKey, List.of(), List.of());
        }

        /** The same write, guarded by these source checks. */
        public Plan guardedBy(List<WriteAction> guards) {
            return new Plan(root, groups, rootKey, guards, alongside);
        }

        /** The same write, with these actions committed with the root (in its commit transaction). */
        public Plan alongside(List<WriteAction> actions) {
            return new Plan(root, groups, rootKey, sourceGuards, actions);
        }

        /**
         * The same write, its root marked with who writes this version (an aggregate that keeps history: the snapshot
         * that later replaces it names them). A delete's root has nothing to mark.
         */
        public Plan writtenBy(String subject) {
            if (root.kind() != WriteAction.Kind.PUT) {
                return this;
            }
            var item = new java.util.HashMap<>(root.item());
            item.put(dev.cairn.core.write.VersionSnapshots.WRITER, AttributeValue.fromS(subject));
            var marked = new WriteAction(root.kind(), root.key(), item, null, root.expectation(), root.extraCondition(),
                    root.label());
            return new Plan(marked, groups, rootKey, sourceGuards, alongside);
        }

        public int size() {
            return 1 + groups.stream().mapToInt(g -> g.actions().size()).sum() + sourceGuards.size() + alongside.size();
        }

        public long bytes() {
            return root.estimatedSize() + groups.stream().mapToLong(g -> TransactionPlan.sizeOf(g.actions())).sum()
                    + TransactionPlan.sizeOf(sourceGuards) + TransactionPlan.sizeOf(alongside);
        }

        /** True when the whole write fits in ONE transaction. */
        public boolean fitsOneTransaction() {
            return size() <= TransactionPlan.MAX_ACTIONS && bytes() <= TransactionPlan.MAX_BYTES;
        }

        public List<WriteAction> allActions() {
            var all = new ArrayList<WriteAction>();
            all.add(root);
            groups.forEach(g -> all.addAll(g.actions()));
            all.addAll(alongside);
            all.addAll(sourceGuards);
            return all;
        }
    }

    public static Plan create(Aggregate aggregate, Items items) {
        return create(aggregate, items, null);
    }

    /**
     * A create at {@code now}: the root only if absent — or, where the aggregate expires, past its expiry at
     * {@code now} (the id of an expired aggregate may be taken; a live one is never overwritten).
     */
    public static Plan create(Aggregate aggregate, Items items, Instant now) {
        Member root = items.root();
        var rootAction = WriteAction.putItem(key(root), root.item(), live(aggregate, Expectation.ABSENT, now),
                aggregate.name());
        var groups = new ArrayList<GroupActions>();
        for (String group : items.groups()) {
            var actions = items.group(group).stream().filter(m -> m != root)
                    .map(m -> put(m, label(aggregate, m))).toList();
            if (!actions.isEmpty()) {
                groups.add(new GroupActions(group, actions));
            }
        }
        return checked(aggregate, new Plan(rootAction, groups, key(root)));
    }

    /** Writes only the changed groups; the root is always rewritten at {@code expectedVersion + 1}. */
    public static Plan update(Aggregate aggregate, Items before, Items after, long expectedVersion, Instant now) {
        return update(aggregate, after, Aggregate.diff(before, after), expectedVersion, now);
    }

    /** As above, from a diff already computed. */
    public static Plan update(Aggregate aggregate, Items after, List<GroupChange> changes, long expectedVersion,
                              Instant now) {
        Member root = after.root();
        var rootAction = WriteAction.putItem(key(root), root.item(), live(aggregate, Expectation.present(expectedVersion), now),
                AggregateTxn.noWriteInFlight(), aggregate.name());
        var groups = new ArrayList<GroupActions>();
        for (GroupChange change : changes) {
            var actions = new ArrayList<WriteAction>();
            change.puts().stream().filter(m -> !m.sk().equals(root.sk())).forEach(m -> actions.add(put(m, label(aggregate, m))));
            change.deletes().forEach(m -> actions.add(delete(m, label(aggregate, m))));
            if (!actions.isEmpty()) {
                groups.add(new GroupActions(change.group(), actions));
            }
        }
        return checked(aggregate, new Plan(rootAction, groups, key(root)));
    }

    /** Deletes every item; the root only at {@code expectedVersion}. */
    public static Plan delete(Aggregate aggregate, Items items, long expectedVersion, Instant now) {
        Member root = items.root();
        var rootAction = WriteAction.deleteItem(key(root), live(aggregate, Expectation.present(expectedVersion), now),
                AggregateTxn.noWriteInFlight(), aggregate.name());
        var groups = new ArrayList<GroupActions>();
        for (String group : items.groups()) {
            var actions = items.group(group).stream().filter(m -> m != root).map(m -> delete(m, label(aggregate, m))).toList();
            if (!actions.isEmpty()) {
                groups.add(new GroupActions(group, actions));
            }
        }
        return checked(aggregate, new Plan(rootAction, groups, key(root)));
    }

    /**
     * Every write is conditioned on the root: where the aggregate expires, a root past its expiry at {@code now}
     * counts as absent (an update or delete of it fails as NotFound, a create may take its id).
     */
    private static Expectation live(Aggregate aggregate, Expectation expectation, Instant now) {
        return aggregate.expires() && now != null ? expectation.live(now) : expectation;
    }

    /** Rejects, before anything is sent, a group that can never fit in one transaction. */
    private static Plan checked(Aggregate aggregate, Plan plan) {
        for (GroupActions group : plan.groups()) {
            long bytes = TransactionPlan.sizeOf(group.actions());
            if (group.actions().size() > MAX_GROUP_ACTIONS || bytes > TransactionPlan.MAX_BYTES - 64 * 1024) {
                throw new CairnException(new CairnError.AggregateTransactionOverflow(
                        "the group '" + group.group() + "' of " + aggregate.name() + " needs " + group.actions().size()
                                + " writes; a group must fit in one transaction (at most " + MAX_GROUP_ACTIONS
                                + " items and 4 MB)", aggregate.name(), group.group(), group.actions().size(),
                        MAX_GROUP_ACTIONS));
            }
        }
        return plan;
    }

    /**
     * Packs groups into transactions of at most {@code capacity} actions and 4 MB, never splitting a group
     * (first fit, largest groups first).
     */
    public static List<List<WriteAction>> pack(List<GroupActions> groups, int capacity) {
        var sorted = new ArrayList<>(groups);
        sorted.sort((a, b) -> Integer.compare(b.actions().size(), a.actions().size()));
        var bins = new ArrayList<List<WriteAction>>();
        for (GroupActions group : sorted) {
            long bytes = TransactionPlan.sizeOf(group.actions());
            List<WriteAction> target = null;
            for (List<WriteAction> bin : bins) {
                if (bin.size() + group.actions().size() <= capacity
                        && TransactionPlan.sizeOf(bin) + bytes <= TransactionPlan.MAX_BYTES - 64 * 1024) {
                    target = bin;
                    break;
                }
            }
            if (target == null) {
                target = new ArrayList<>();
                bins.add(target);
            }
            target.addAll(group.actions());
        }
        return bins;
    }

    private static WriteAction put(Member member, String label) {
        return WriteAction.putItem(key(member), member.item(), Expectation.NONE, label);
    }

    private static WriteAction delete(Member member, String label) {
        return WriteAction.deleteItem(key(member), label);
    }

    private static String label(Aggregate aggregate, Member member) {
        AttributeValue type = member.item().get(TableSpec.TYPE);
        return aggregate.name() + " " + (type == null ? "item" : type.s());
    }

    private static PrimaryKey key(Member member) {
        return PrimaryKey.from(member.item());
    }
}
