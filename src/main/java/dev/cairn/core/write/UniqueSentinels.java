package dev.cairn.core.write;

import dev.cairn.core.TableSpec;
import dev.cairn.core.expr.Condition;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.model.UniqueModel;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The sentinel writes that keep an entity's unique values, for one write of one item: a put of each value it takes
 * (refused when another item holds it), a delete of each value it gives up (only its own), nothing for a value
 * unchanged. Pure: the caller adds the actions to the item's own transaction.
 */
public final class UniqueSentinels {

    /** The item a sentinel belongs to (its key), so only that item moves or removes it. */
    public static final String OWNER_PK = "_ownerPk";
    public static final String OWNER_SK = "_ownerSk";

    private UniqueSentinels() {
    }

    /**
     * The actions that move {@code entity}'s sentinels from {@code before} (null: a create) to {@code after} (null: a
     * delete) for the item at {@code owner}.
     */
    public static List<WriteAction> actions(String entity, List<UniqueModel> constraints, PrimaryKey owner,
                                            Map<String, Object> before, Map<String, Object> after, Instant now) {
        var out = new ArrayList<WriteAction>();
        for (UniqueModel constraint : constraints) {
            Optional<PrimaryKey> was = before == null ? Optional.empty() : constraint.sentinel(entity, before);
            Optional<PrimaryKey> next = after == null ? Optional.empty() : constraint.sentinel(entity, after);
            if (was.equals(next)) {
                continue;
            }
            if (next.isPresent()) {
                requireComparable(constraint, after);
            }
            was.ifPresent(key -> out.add(release(entity, constraint, key, owner)));
            next.ifPresent(key -> out.add(take(entity, constraint, key, owner, now)));
        }
        return out;
    }

    /**
     * A text a write makes unique must be one a reader can tell apart: no control characters (stored as given, they
     * would make values that look alike distinct), and not blank once compared (under {@code insensitive} white space
     * around it and invisible format characters are ignored, so " " and a zero-width space would all be one value).
     * A 400 naming the field; checked only for a value the write takes, so an item stored before is not held back.
     */
    public static void requireComparable(UniqueModel constraint, Map<String, Object> values) {
        for (String field : constraint.fields()) {
            if (values.get(field) instanceof String text) {
                String problem = text.codePoints().anyMatch(Character::isISOControl)
                        ? "must not contain control characters: it is a unique value"
                        : constraint.normalise(text).isBlank()
                        ? "must hold a visible character: it is a unique value, and white space and invisible characters alone are no value"
                        : null;
                if (problem != null) {
                    throw new dev.cairn.core.CairnException(dev.cairn.core.CairnError.ValidationFailed.of(field, problem));
                }
            }
        }
    }

    /**
     * A soft delete of the item at {@code live}, kept as a tombstone at {@code tombstone}: a value its constraint
     * releases ({@code softDelete: release}) is given up; a value it keeps passes to the tombstone (it becomes the
     * sentinel's owner), so no other item can take it, not even a new item under the same id.
     */
    public static List<WriteAction> softDeleted(String entity, List<UniqueModel> constraints, PrimaryKey live,
                                                PrimaryKey tombstone, Map<String, Object> values, Instant now) {
        var out = new ArrayList<WriteAction>();
        for (UniqueModel constraint : constraints) {
            constraint.sentinel(entity, values).ifPresent(key -> out.add(
                    constraint.softDelete() == UniqueModel.SoftDelete.RELEASE ? release(entity, constraint, key, live)
                            : take(entity, constraint, key, tombstone, now).guardedBy(WriteAction.Expectation.UNIQUE,
                            freeOrOwn(live))));
        }
        return out;
    }

    /**
     * A restore: every value taken again by the item at {@code live} — free, or held by its own tombstone (kept), or
     * already its own (a restore run again); held by any other item it is a UniqueViolation.
     */
    public static List<WriteAction> restored(String entity, List<UniqueModel> constraints, PrimaryKey live,
                                             PrimaryKey tombstone, Map<String, Object> values, Instant now) {
        var out = new ArrayList<WriteAction>();
        for (UniqueModel constraint : constraints) {
            constraint.sentinel(entity, values).ifPresent(key -> out.add(take(entity, constraint, key, live, now)
                    .guardedBy(WriteAction.Expectation.UNIQUE, freeOrOwn(live).or(ownedBy(tombstone)))));
        }
        return out;
    }

    /** A purge of the tombstone: the values it kept are given up (only where it still holds them). */
    public static List<WriteAction> purged(String entity, List<UniqueModel> constraints, PrimaryKey tombstone,
                                           Map<String, Object> values) {
        var out = new ArrayList<WriteAction>();
        for (UniqueModel constraint : constraints) {
            if (constraint.softDelete() == UniqueModel.SoftDelete.KEEP) {
                constraint.sentinel(entity, values).ifPresent(key -> out.add(WriteAction.deleteItem(key,
                        WriteAction.Expectation.NONE, freeOrOwn(tombstone), label(entity, constraint))));
            }
        }
        return out;
    }

    private static Condition ownedBy(PrimaryKey owner) {
        return Condition.eq(OWNER_PK, AttributeValue.fromS(owner.pk())).and(Condition.eq(OWNER_SK, AttributeValue.fromS(owner.sk())));
    }

    /** The sentinel is absent, or already this item's (a write run again after its answer was lost). */
    private static Condition freeOrOwn(PrimaryKey owner) {
        return Condition.attributeNotExists(TableSpec.PK).or(Condition.eq(OWNER_PK, AttributeValue.fromS(owner.pk()))
                .and(Condition.eq(OWNER_SK, AttributeValue.fromS(owner.sk()))));
    }

    /**
     * A value passed from one item to another in one write (an aggregate's member gives it up as another takes it):
     * ONE put, since a transaction touches an item once; refused only when neither holds it and another does.
     */
    public static WriteAction transfer(String entity, UniqueModel constraint, PrimaryKey key, PrimaryKey from,
                                       PrimaryKey to, Instant now) {
        return transfer(entity, constraint, key, List.of(from), to, now);
    }

    /** As above, from whichever of {@code from} holds it. */
    public static WriteAction transfer(String entity, UniqueModel constraint, PrimaryKey key, List<PrimaryKey> from,
                                       PrimaryKey to, Instant now) {
        Condition held = freeOrOwn(to);
        for (PrimaryKey owner : from) {
            held = held.or(ownedBy(owner));
        }
        return take(entity, constraint, key, to, now).guardedBy(WriteAction.Expectation.UNIQUE, held);
    }

    /** A release by whichever of {@code owners} holds the value (absent: nothing to release). */
    public static WriteAction release(String entity, UniqueModel constraint, PrimaryKey key, List<PrimaryKey> owners) {
        if (owners.size() == 1) {
            return release(entity, constraint, key, owners.get(0));
        }
        Condition held = freeOrOwn(owners.get(0));
        for (PrimaryKey owner : owners.subList(1, owners.size())) {
            held = held.or(ownedBy(owner));
        }
        return WriteAction.deleteItem(key, WriteAction.Expectation.NONE, held, label(entity, constraint));
    }

    public static WriteAction take(String entity, UniqueModel constraint, PrimaryKey key, PrimaryKey owner, Instant now) {
        var item = new java.util.HashMap<String, AttributeValue>();
        item.putAll(key.toAttributes());
        item.put(TableSpec.TYPE, AttributeValue.fromS(UniqueModel.SENTINEL_TYPE));
        item.put(OWNER_PK, AttributeValue.fromS(owner.pk()));
        item.put(OWNER_SK, AttributeValue.fromS(owner.sk()));
        item.put(TableSpec.CREATED_AT, AttributeValue.fromS(now.toString()));
        return WriteAction.putItem(key, item, WriteAction.Expectation.UNIQUE, freeOrOwn(owner), label(entity, constraint));
    }

    public static WriteAction release(String entity, UniqueModel constraint, PrimaryKey key, PrimaryKey owner) {
        // absent already (written before the constraint was declared): nothing to release, and no failure
        return WriteAction.deleteItem(key, WriteAction.Expectation.NONE, freeOrOwn(owner), label(entity, constraint));
    }

    /** "Member|email|email": what a refused take is explained with (see {@link WriteAction#explainFailure}). */
    static String label(String entity, UniqueModel constraint) {
        return entity + "|" + constraint.name() + "|" + String.join(",", constraint.allFields());
    }

    /** Whether an item read from the table is a sentinel (never an entity: listings and scans pass it by). */
    public static boolean isSentinel(Map<String, AttributeValue> item) {
        AttributeValue type = item.get(TableSpec.TYPE);
        return type != null && UniqueModel.SENTINEL_TYPE.equals(type.s());
    }
}
