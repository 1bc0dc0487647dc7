package dev.cairn.core.aggregate;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.TableSpec;
import dev.cairn.core.aggregate.Aggregate.Items;
import dev.cairn.core.aggregate.Aggregate.Member;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.model.UniqueModel;
import dev.cairn.core.write.UniqueSentinels;
import dev.cairn.core.write.WriteAction;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sentinels of an aggregate's members' unique values ({@code unique:} on a one or many member), for one write of
 * the whole aggregate: each value is owned by the member's item (its key), and every move goes in the write's commit
 * with the root, so the values an aggregate holds change exactly when its version does (a write in several
 * transactions takes none before its commit point, and an undone one took none). Pure.
 *
 * <p>Values are compared by their sentinel key across the whole write, not member by member: a value one member gives
 * up while another takes it (two parcels swapping barcodes) is ONE put that passes it on, since a transaction touches
 * an item once; two members taking the same value is a violation of the write itself.
 */
public final class MemberSentinels {

    private MemberSentinels() {
    }

    /** One value a member holds: its constraint, its sentinel's key, the member's key (the owner) and its values. */
    record Hold(String type, UniqueModel constraint, PrimaryKey key, PrimaryKey owner, Map<String, Object> values) {
    }

    /**
     * The moves from {@code before} (null: a create) to {@code after} (null: a delete): takes of new values, puts that
     * pass a value from one member to another, releases of values no member holds any more; nothing for a value kept.
     */
    public static List<WriteAction> moved(Map<String, List<UniqueModel>> byType, Items before, Items after, Instant now) {
        if (byType.isEmpty()) {
            return List.of();
        }
        // the state written must hold each value once; the state read may not (values stored before the constraint was
        // declared, or folded otherwise since): it is only given up or passed on, by whichever of its holders owns it
        Map<PrimaryKey, List<Hold>> was = byKeyAll(holds(byType, before));
        Map<PrimaryKey, List<Hold>> next = byKeyAll(holds(byType, after));
        var out = new ArrayList<WriteAction>();
        for (List<Hold> holders : next.values()) {
            Hold hold = holders.get(0);
            List<Hold> old = was.get(hold.key());
            if (holders.size() > 1) {
                // two members holding one value: the write's own violation, unless it leaves a twin stored before as it was
                if (old == null || !owners(old).containsAll(owners(holders))) {
                    throw violation(hold);
                }
                continue;
            }
            if (old != null && old.size() == 1 && old.get(0).owner().equals(hold.owner())) {
                continue;
            }
            UniqueSentinels.requireComparable(hold.constraint(), hold.values());
            out.add(old == null ? UniqueSentinels.take(hold.type(), hold.constraint(), hold.key(), hold.owner(), now)
                    : UniqueSentinels.transfer(hold.type(), hold.constraint(), hold.key(), owners(old), hold.owner(), now));
        }
        for (List<Hold> old : was.values()) {
            Hold first = old.get(0);
            if (!next.containsKey(first.key())) {
                out.add(UniqueSentinels.release(first.type(), first.constraint(), first.key(), owners(old)));
            }
        }
        return out;
    }

    /** A soft delete: each value released or passed to the tombstone, as its constraint declares. */
    public static List<WriteAction> softDeleted(Map<String, List<UniqueModel>> byType, Items items, PrimaryKey tombstone,
                                                Instant now) {
        var out = new ArrayList<WriteAction>();
        for (List<Hold> holders : byKeyAll(holds(byType, items)).values()) {
            Hold hold = holders.get(0);
            out.add(hold.constraint().softDelete() == UniqueModel.SoftDelete.RELEASE
                    ? UniqueSentinels.release(hold.type(), hold.constraint(), hold.key(), owners(holders))
                    : UniqueSentinels.transfer(hold.type(), hold.constraint(), hold.key(), owners(holders), tombstone, now));
        }
        return out;
    }

    /** A restore: each value taken again by its member (free, kept by the tombstone, or its own already). */
    public static List<WriteAction> restored(Map<String, List<UniqueModel>> byType, Items items, PrimaryKey tombstone,
                                             Instant now) {
        var out = new ArrayList<WriteAction>();
        for (Hold hold : byKey(holds(byType, items)).values()) {
            out.addAll(UniqueSentinels.restored(hold.type(), List.of(hold.constraint()), hold.owner(), tombstone,
                    hold.values(), now));
        }
        return out;
    }

    /** A purge of the tombstone: the values it kept given up. */
    public static List<WriteAction> purged(Map<String, List<UniqueModel>> byType, Items items, PrimaryKey tombstone) {
        var out = new ArrayList<WriteAction>();
        for (List<Hold> holders : byKeyAll(holds(byType, items)).values()) {
            Hold hold = holders.get(0);
            out.addAll(UniqueSentinels.purged(hold.type(), List.of(hold.constraint()), tombstone, hold.values()));
        }
        return out;
    }

    /**
     * The releases of the values the items of a partition hold, each alone (a partition that does not form the
     * aggregate: nothing else would ever free them, and one another item holds is not this one's to give up).
     */
    public static List<WriteAction> released(Map<String, List<UniqueModel>> byType, List<Map<String, AttributeValue>> items,
                                             PrimaryKey rootKey) {
        var root = items.stream().filter(i -> rootKey.sk().equals(i.get(TableSpec.SK).s())).findFirst()
                .map(MemberSentinels::scalars).orElse(null);
        var out = new ArrayList<WriteAction>();
        for (Map<String, AttributeValue> item : items) {
            if (item.get(TableSpec.SK).s().equals(rootKey.sk())) {
                continue;
            }
            for (Hold hold : holdsOf(byType, PrimaryKey.from(item), item, root)) {
                out.add(UniqueSentinels.release(hold.type(), hold.constraint(), hold.key(), hold.owner()));
            }
        }
        return out;
    }

    /**
     * Every value the members of {@code items} hold (none for null). A scope field a member lacks is the root's (null:
     * the root is gone, and a value scoped by it is passed by: its key cannot be known).
     */
    static List<Hold> holds(Map<String, List<UniqueModel>> byType, Items items) {
        if (items == null || byType.isEmpty()) {
            return List.of();
        }
        Member root = items.root();
        Map<String, Object> rootValues = scalars(root.item());
        var out = new ArrayList<Hold>();
        for (Member member : items.bySk().values()) {
            if (member != root) {
                out.addAll(holdsOf(byType, PrimaryKey.of(items.pk(), member.sk()), member.item(), rootValues));
            }
        }
        return out;
    }

    private static List<Hold> holdsOf(Map<String, List<UniqueModel>> byType, PrimaryKey owner,
                                      Map<String, AttributeValue> item, Map<String, Object> root) {
        AttributeValue type = item.get(TableSpec.TYPE);
        List<UniqueModel> constraints = type == null ? null : byType.get(type.s());
        if (constraints == null) {
            return List.of();
        }
        var out = new ArrayList<Hold>();
        for (UniqueModel constraint : constraints) {
            Map<String, Object> values = new HashMap<>();
            for (String field : constraint.allFields()) {
                AttributeValue value = item.get(field);
                if (value != null) {
                    values.put(field, JsonAttributes.fromAttribute(value));
                } else if (constraint.scope().contains(field) && root == null) {
                    // the root is gone (a broken partition): the scope, and so the sentinel's key, is unknown
                    values = null;
                    break;
                } else if (constraint.scope().contains(field) && root.get(field) != null) {
                    values.put(field, root.get(field));
                }
            }
            if (values == null) {
                continue;
            }
            Map<String, Object> held = values;
            constraint.sentinel(type.s(), held)
                    .ifPresent(key -> out.add(new Hold(type.s(), constraint, key, owner, held)));
        }
        return out;
    }

    /** The root's plain values (a scope field a member lacks is read there). */
    private static Map<String, Object> scalars(Map<String, AttributeValue> item) {
        var out = new HashMap<String, Object>();
        item.forEach((name, value) -> {
            if (value.type() == AttributeValue.Type.S || value.type() == AttributeValue.Type.N
                    || value.type() == AttributeValue.Type.BOOL) {
                out.put(name, JsonAttributes.fromAttribute(value));
            }
        });
        return out;
    }

    /** Every value the members of {@code items} hold, counted once (a value two members hold is one sentinel). */
    public static int held(Map<String, List<UniqueModel>> byType, Items items) {
        return byKeyAll(holds(byType, items)).size();
    }

    /** Refuses (422) a state whose members hold more values than {@code limit}: its delete could not move them at once. */
    public static void requireHoldable(String aggregate, Map<String, List<UniqueModel>> byType, Items items, int limit) {
        int held = held(byType, items);
        if (held > limit) {
            throw new CairnException(new CairnError.AggregateTransactionOverflow("the " + aggregate + "'s members would "
                    + "hold " + held + " unique values; one holds at most " + limit + ", as many as its delete gives up or "
                    + "keeps in one transaction", aggregate, "unique values", held, limit));
        }
    }

    private static List<PrimaryKey> owners(List<Hold> holds) {
        return holds.stream().map(Hold::owner).distinct().toList();
    }

    private static Map<PrimaryKey, List<Hold>> byKeyAll(List<Hold> holds) {
        var out = new LinkedHashMap<PrimaryKey, List<Hold>>();
        holds.forEach(hold -> out.computeIfAbsent(hold.key(), key -> new ArrayList<>()).add(hold));
        return out;
    }

    /** The holds by sentinel key: two members of one aggregate holding one value is the write's own violation. */
    private static Map<PrimaryKey, Hold> byKey(List<Hold> holds) {
        var out = new LinkedHashMap<PrimaryKey, Hold>();
        for (Hold hold : holds) {
            Hold other = out.putIfAbsent(hold.key(), hold);
            if (other != null && !other.owner().equals(hold.owner())) {
                throw violation(hold);
            }
        }
        return out;
    }

    private static CairnException violation(Hold hold) {
        var fields = hold.constraint().allFields();
        return new CairnException(new CairnError.UniqueViolation("two " + hold.type() + " members of this aggregate have "
                + "the same " + String.join(" + ", fields) + ": it is unique", hold.type(), hold.constraint().name(), fields));
    }
}
