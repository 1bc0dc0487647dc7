package dev.cairn.core.write;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.TableSpec;
import dev.cairn.core.entity.DeleteMark;
import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.expr.Condition;
import dev.cairn.core.expr.Placeholders;
import dev.cairn.core.expr.Update;
import dev.cairn.core.item.ItemSize;
import dev.cairn.core.key.PrimaryKey;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * One conditional write, the same whether it is sent alone or inside a transaction. It knows the condition
 * that protects it ({@link Expectation}) and how to explain a failed condition from the old item DynamoDB
 * returns ({@code ALL_OLD}), so NotFound, Conflict and VersionConflict need no second read.
 */
public record WriteAction(Kind kind, PrimaryKey key, Map<String, AttributeValue> item, Update update,
                          Expectation expectation, Condition extraCondition, String label) {

    public enum Kind { PUT, UPDATE, DELETE, CHECK }

    public WriteAction {
        if (item != null) {
            checkSize(label, key, item);
        }
    }

    private static void checkSize(String label, PrimaryKey key, Map<String, AttributeValue> item) {
        long size = ItemSize.of(item);
        if (size > ItemSize.MAX_ITEM_BYTES) {
            throw new CairnException(new CairnError.ItemTooLarge(subject(label) + " would take "
                    + size + " bytes; DynamoDB stores at most " + ItemSize.MAX_ITEM_BYTES + " per item",
                    size, ItemSize.MAX_ITEM_BYTES));
        }
    }

    /**
     * What must hold before the write. {@code liveAt} (null: no such check) is the instant at which an item past its
     * expiry ({@link TableSpec#EXPIRES_AT}) counts as absent: a create may take its key, any other write meets it as
     * missing.
     */
    public record Expectation(State state, Long version, boolean precondition, Instant liveAt) {
        /**
         * {@code COPIED}: present at the version a copy of it was taken at (the source of an embedded copy);
         * {@code UNIQUE}: a unique value's sentinel, free or the writer's own (its condition is the action's own).
         */
        public enum State { ABSENT, PRESENT, ANY, COPIED, UNIQUE }

        public static final Expectation NONE = new Expectation(State.ANY, null, false);
        public static final Expectation ABSENT = new Expectation(State.ABSENT, null, false);
        public static final Expectation UNIQUE = new Expectation(State.UNIQUE, null, false);

        public Expectation(State state, Long version, boolean precondition) {
            this(state, version, precondition, null);
        }

        public static Expectation present(Long version) {
            return new Expectation(State.PRESENT, version, false);
        }

        /** Present at the version the client stated ({@code If-Match}): a mismatch is a 412. */
        public static Expectation ifMatch(Long version) {
            return new Expectation(State.PRESENT, version, version != null);
        }

        /** A source entity still at the version a write copied it at (see {@link WriteAction#copiedSource}). */
        public static Expectation copiedAt(long version) {
            return new Expectation(State.COPIED, version, false);
        }

        /** Optionally present at a version: {@code version} null means "whatever is there" (no condition). */
        public static Expectation ifVersion(Long version) {
            return version == null ? NONE : present(version);
        }

        /** The same expectation where an item expired at {@code now} counts as absent. */
        public Expectation live(Instant now) {
            return new Expectation(state, version, precondition, now);
        }

        /** Whether this item counts as there: present, and not past its expiry where that is checked. */
        boolean counts(Map<String, AttributeValue> item) {
            return item != null && !item.isEmpty() && (liveAt == null || !EntitySpec.expired(item, liveAt));
        }

        Condition toCondition() {
            Condition versionCheck = version == null ? null
                    : Condition.eq(TableSpec.VERSION, AttributeValue.fromN(Long.toString(version)));
            if (liveAt != null) {
                AttributeValue now = AttributeValue.fromN(Long.toString(liveAt.getEpochSecond()));
                Condition unexpired = Condition.any(Condition.attributeNotExists(TableSpec.EXPIRES_AT),
                        Condition.gt(TableSpec.EXPIRES_AT, now));
                return switch (state) {
                    case ABSENT -> Condition.any(Condition.attributeNotExists(TableSpec.PK), Condition.le(TableSpec.EXPIRES_AT, now));
                    case PRESENT, COPIED -> versionCheck == null ? Condition.attributeExists(TableSpec.PK).and(unexpired)
                            : Condition.attributeExists(TableSpec.PK).and(unexpired).and(versionCheck);
                    // a write of whatever is there: an expired item is replaced as if absent, so nothing to check
                    case ANY -> versionCheck == null ? null : unexpired.and(versionCheck);
                    case UNIQUE -> null;
                };
            }
            return switch (state) {
                case ABSENT -> Condition.attributeNotExists(TableSpec.PK);
                case PRESENT, COPIED -> versionCheck == null ? Condition.attributeExists(TableSpec.PK)
                        : Condition.attributeExists(TableSpec.PK).and(versionCheck);
                case ANY -> versionCheck;
                case UNIQUE -> null;
            };
        }
    }

    // --- raw actions of plans that build their own items and updates (aggregates, leases, jobs) -----------------

    /** Puts {@code item} as given under {@code expectation}. */
    public static WriteAction putItem(PrimaryKey key, Map<String, AttributeValue> item, Expectation expectation,
                                      String label) {
        return new WriteAction(Kind.PUT, key, item, null, expectation, null, label);
    }

    /** Puts {@code item} as given under {@code expectation} and a further condition ({@code also}). */
    public static WriteAction putItem(PrimaryKey key, Map<String, AttributeValue> item, Expectation expectation,
                                      Condition also, String label) {
        return new WriteAction(Kind.PUT, key, item, null, expectation, also, label);
    }

    public static WriteAction updateItem(PrimaryKey key, Update update, Expectation expectation, String label) {
        return new WriteAction(Kind.UPDATE, key, null, update, expectation, null, label);
    }

    public static WriteAction updateItem(PrimaryKey key, Update update, Expectation expectation, Condition also,
                                         String label) {
        return new WriteAction(Kind.UPDATE, key, null, update, expectation, also, label);
    }

    /** Deletes whatever is there (nothing there is no failure). */
    public static WriteAction deleteItem(PrimaryKey key, String label) {
        return new WriteAction(Kind.DELETE, key, null, null, Expectation.NONE, null, label);
    }

    public static WriteAction deleteItem(PrimaryKey key, Expectation expectation, String label) {
        return new WriteAction(Kind.DELETE, key, null, null, expectation, null, label);
    }

    public static WriteAction deleteItem(PrimaryKey key, Expectation expectation, Condition also, String label) {
        return new WriteAction(Kind.DELETE, key, null, null, expectation, also, label);
    }

    /** A condition on an item the transaction does not write. */
    public static WriteAction checkItem(PrimaryKey key, Expectation expectation, Condition also, String label) {
        return new WriteAction(Kind.CHECK, key, null, null, expectation, also, label);
    }

    /** The same write under other conditions. */
    public WriteAction guardedBy(Expectation expectation, Condition also) {
        return new WriteAction(kind, key, item, update, expectation, also, label);
    }

    // --- entity writes ---------------------------------------------------------------------------------------

    /** Create: fails with Conflict when an item with this key exists. */
    public static <T> WriteAction create(EntitySpec<T> spec, T value, Instant now) {
        return create(spec, value, now, Map.of());
    }

    /** Create with extra system attributes (names starting with {@code _}, e.g. copy versions). */
    public static <T> WriteAction create(EntitySpec<T> spec, T value, Instant now, Map<String, AttributeValue> extra) {
        var item = new HashMap<>(spec.toItem(value, 1, now, now));
        item.putAll(systemOnly(extra));
        return new WriteAction(Kind.PUT, spec.keyOf(value), item, null, live(spec, Expectation.ABSENT, now), null, spec.type());
    }

    /** The expectation of a write of {@code spec}'s item: where its items expire, an expired one counts as absent. */
    public static Expectation live(EntitySpec<?> spec, Expectation expectation, Instant now) {
        return spec.expires() ? expectation.live(now) : expectation;
    }

    private static Map<String, AttributeValue> systemOnly(Map<String, AttributeValue> extra) {
        extra.keySet().forEach(name -> {
            if (!name.startsWith("_") || TableSpec.VERSION.equals(name) || TableSpec.TYPE.equals(name)) {
                throw new IllegalArgumentException("not an extra system attribute: " + name);
            }
        });
        return extra;
    }

    /**
     * Writes a whole value (upsert, or replace under an expectation) as ONE UpdateItem: every field is set, fields
     * and index keys the value no longer has are removed, the creation time is kept and the version moves
     * forward by one, all without reading the item first.
     */
    public static <T> WriteAction put(EntitySpec<T> spec, T value, Expectation expectation, Instant now) {
        return put(spec, value, expectation, now, Map.of());
    }

    public static <T> WriteAction put(EntitySpec<T> spec, T value, Expectation expectation, Instant now,
                                      Map<String, AttributeValue> extra) {
        PrimaryKey key = spec.keyOf(value);
        Map<String, AttributeValue> item = new HashMap<>(spec.toItem(value, 1, now, now));
        item.putAll(systemOnly(extra));
        var update = Update.create();
        item.forEach((name, attribute) -> {
            if (!name.equals(TableSpec.PK) && !name.equals(TableSpec.SK) && !name.equals(TableSpec.VERSION)
                    && !name.equals(TableSpec.CREATED_AT)) {
                update.set(name, attribute);
            }
        });
        spec.codec().fieldNames().stream().filter(n -> !item.containsKey(n)).forEach(update::remove);
        spec.indexKeyNames().stream().filter(n -> !item.containsKey(n)).forEach(update::remove);
        if (spec.expires() && !item.containsKey(TableSpec.EXPIRES_AT)) {
            update.remove(TableSpec.EXPIRES_AT);
        }
        update.setIfNotExists(TableSpec.CREATED_AT, AttributeValue.fromS(now.toString()))
                .add(TableSpec.VERSION, AttributeValue.fromN("1"));
        // The item size is checked on the full item, as if it were put.
        checkSize(spec.type(), key, item);
        return new WriteAction(Kind.UPDATE, key, null, update, live(spec, expectation, now), null, spec.type());
    }

    /** Update attributes of an existing item (never creates one); bumps the version and updatedAt. */
    public static WriteAction update(String label, PrimaryKey key, Update update, Long expectedVersion, Instant now) {
        update.set(TableSpec.UPDATED_AT, AttributeValue.fromS(now.toString()))
                .add(TableSpec.VERSION, AttributeValue.fromN("1"));
        return new WriteAction(Kind.UPDATE, key, null, update, Expectation.present(expectedVersion), null, label);
    }

    public static WriteAction delete(String label, PrimaryKey key, Expectation expectation) {
        return new WriteAction(Kind.DELETE, key, null, null, expectation, null, label);
    }

    public static WriteAction check(String label, PrimaryKey key, Expectation expectation) {
        return new WriteAction(Kind.CHECK, key, null, null, expectation, null, label);
    }

    /**
     * The guard of a write that stores copies of {@code entity} {@code id}: a ConditionCheck, in the same transaction,
     * that the source is still at the version the copies were taken at. A source that moved on (or went) since it
     * was read refuses the whole write with RefChanged, so a copy of a superseded version is never committed; the
     * cascade of the newer version cannot miss it, because it was never written. A source held by a delete
     * ({@link DeleteMark}) refuses it too: the delete is looking for copies.
     */
    public static WriteAction copiedSource(String entity, String id, PrimaryKey key, long version, Instant now) {
        return new WriteAction(Kind.CHECK, key, null, null, Expectation.copiedAt(version), DeleteMark.absentOrExpired(now),
                entity + "#" + id);
    }

    /** Whether this writes a unique value's sentinel (see {@link UniqueSentinels}). */
    public boolean isSentinel() {
        return label != null && label.indexOf('|') > 0 && key.pk().startsWith(dev.cairn.core.model.UniqueModel.PREFIX);
    }

    /** The same action with an additional condition ANDed to its expectation. */
    public WriteAction and(Condition condition) {
        return new WriteAction(kind, key, item, update, expectation,
                extraCondition == null ? condition : extraCondition.and(condition), label);
    }

    public Condition condition() {
        Condition base = expectation.toCondition();
        if (extraCondition == null) {
            return base;
        }
        return base == null ? extraCondition : base.and(extraCondition);
    }

    /** Explains a failed condition from the old item (null or empty when there was none). */
    public CairnError explainFailure(Map<String, AttributeValue> oldItem) {
        if (isSentinel()) {
            // Never the other item: not its id, not its values — the constraint and its fields only.
            String[] parts = label.split("\\|", 3);
            var fields = java.util.List.of(parts[2].split(","));
            if (expectation.state() == Expectation.State.UNIQUE) {
                return new CairnError.UniqueViolation("another " + parts[0] + " already has this " + String.join(" + ", fields)
                        + " (unique constraint '" + parts[1] + "')", parts[0], parts[1], fields);
            }
            return new CairnError.Conflict("the value of unique constraint '" + parts[1] + "' this write gives up is held "
                    + "by another " + parts[0]);
        }
        // an item past its expiry is as good as absent (and is never shown in a conflict)
        boolean exists = expectation.counts(oldItem);
        oldItem = exists ? oldItem : null;
        if (expectation.state() == Expectation.State.COPIED) {
            int hash = label.indexOf('#');
            String entity = label.substring(0, hash);
            String id = label.substring(hash + 1);
            String happened = !exists ? "was deleted"
                    : EntitySpec.versionOf(oldItem) == expectation.version() ? "is being deleted"
                    : "changed (version " + EntitySpec.versionOf(oldItem) + ", copied at " + expectation.version() + ")";
            return new CairnError.RefChanged(entity + " '" + id + "' " + happened + " while this write copied it; retry",
                    entity, id);
        }
        String what = subject(label);
        if (expectation.state() == Expectation.State.ABSENT) {
            return new CairnError.Conflict(what + " already exists", false, exists ? oldItem : null);
        }
        if (!exists && (expectation.state() == Expectation.State.PRESENT || expectation.version() != null)) {
            return new CairnError.NotFound(what + " does not exist");
        }
        long actual = EntitySpec.versionOf(oldItem);
        if (expectation.version() != null && actual != expectation.version()) {
            return new CairnError.VersionConflict(what + " is at version " + actual + ", not " + expectation.version(),
                    expectation.version(), actual, expectation.precondition(), oldItem);
        }
        return new CairnError.Conflict(what + " does not meet the write's condition");
    }

    /**
     * What a failure message calls the written item: in the API's words, never its storage key (a client knows
     * ids, not key layouts). A label {@code Entity#id} names the entity and its id; any other label is used as is,
     * so a caller that knows the API's id passes it in the label ("team t1").
     */
    static String subject(String label) {
        return label == null ? null : subjectOf(label);
    }

    /** What this action writes, in the API's words (see {@link #subject(String)}). */
    public String subject() {
        return subject(label);
    }

    private static String subjectOf(String label) {
        int hash = label.indexOf('#');
        return hash < 0 ? label : label.substring(0, hash) + " '" + label.substring(hash + 1) + "'";
    }

    /** An estimate of the bytes this action adds to a request (for the 4 MB transaction limit). */
    public long estimatedSize() {
        long size = key.pk().length() + key.sk().length() + 64L;
        if (update != null) {
            var p = new Placeholders();
            size += update.render(p).length();
            if (p.values() != null) {
                size += p.values().values().stream().mapToLong(ItemSize::of).sum();
            }
        }
        return item == null ? size : size + ItemSize.of(item);
    }

    // --- SDK requests -------------------------------------------------------------------------------------

    public PutItemRequest toPutRequest(String table) {
        var p = new Placeholders();
        String condition = render(p);
        return PutItemRequest.builder().tableName(table).item(item)
                .conditionExpression(condition).expressionAttributeNames(p.names()).expressionAttributeValues(p.values())
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    public UpdateItemRequest toUpdateRequest(String table) {
        var p = new Placeholders();
        String updateExpression = update.render(p);
        String condition = render(p);
        return UpdateItemRequest.builder().tableName(table).key(key.toAttributes())
                .updateExpression(updateExpression)
                .conditionExpression(condition).expressionAttributeNames(p.names()).expressionAttributeValues(p.values())
                .returnValues(ReturnValue.ALL_NEW)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    public DeleteItemRequest toDeleteRequest(String table) {
        var p = new Placeholders();
        String condition = render(p);
        return DeleteItemRequest.builder().tableName(table).key(key.toAttributes())
                .conditionExpression(condition).expressionAttributeNames(p.names()).expressionAttributeValues(p.values())
                .returnValues(ReturnValue.ALL_OLD)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    public TransactWriteItem toTransactItem(String table) {
        var p = new Placeholders();
        var fail = ReturnValuesOnConditionCheckFailure.ALL_OLD;
        return switch (kind) {
            case PUT -> {
                String condition = render(p);
                yield TransactWriteItem.builder().put(Put.builder().tableName(table).item(item)
                        .conditionExpression(condition).expressionAttributeNames(p.names())
                        .expressionAttributeValues(p.values()).returnValuesOnConditionCheckFailure(fail).build()).build();
            }
            case UPDATE -> {
                String updateExpression = update.render(p);
                String condition = render(p);
                yield TransactWriteItem.builder().update(software.amazon.awssdk.services.dynamodb.model.Update.builder()
                        .tableName(table).key(key.toAttributes()).updateExpression(updateExpression)
                        .conditionExpression(condition).expressionAttributeNames(p.names())
                        .expressionAttributeValues(p.values()).returnValuesOnConditionCheckFailure(fail).build()).build();
            }
            case DELETE -> {
                String condition = render(p);
                yield TransactWriteItem.builder().delete(Delete.builder().tableName(table).key(key.toAttributes())
                        .conditionExpression(condition).expressionAttributeNames(p.names())
                        .expressionAttributeValues(p.values()).returnValuesOnConditionCheckFailure(fail).build()).build();
            }
            case CHECK -> {
                String condition = render(p);
                if (condition == null) {
                    throw new IllegalStateException("a condition check needs a condition: " + label + " " + key);
                }
                yield TransactWriteItem.builder().conditionCheck(ConditionCheck.builder().tableName(table)
                        .key(key.toAttributes()).conditionExpression(condition).expressionAttributeNames(p.names())
                        .expressionAttributeValues(p.values()).returnValuesOnConditionCheckFailure(fail).build()).build();
            }
        };
    }

    private String render(Placeholders p) {
        Condition condition = condition();
        return condition == null ? null : condition.render(p);
    }
}
