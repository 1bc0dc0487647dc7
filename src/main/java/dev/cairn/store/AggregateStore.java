package dev.cairn.store;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.TableSpec;
import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.aggregate.Aggregate.Assembled;
import dev.cairn.core.aggregate.Aggregate.RefCopy;
import dev.cairn.core.aggregate.Aggregate.RefUse;
import dev.cairn.core.aggregate.AggregateWrites;
import dev.cairn.core.aggregate.AggregateWrites.Plan;
import dev.cairn.core.aggregate.JsonAttributes;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.write.TransactionPlan;
import dev.cairn.core.write.WriteAction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Reads and writes aggregates: ONE strongly consistent Query per read, ONE BatchGetItem for every ref of a
 * write, and ONE TransactWriteItems whenever the write fits; larger writes run their groups in parallel
 * under a lease on the root (see {@link AggregateWrites}) and undo committed groups if another fails.
 */
@ApplicationScoped
public class AggregateStore {

    private static final Logger LOG = Logger.getLogger(AggregateStore.class);
    static final Duration LEASE_TIME = Duration.ofSeconds(30);
    static final int BUSY_RETRIES = 5;
    static final Duration BUSY_PAUSE = Duration.ofMillis(100);
    static final Duration REPAIR_FIRST_DELAY = Duration.ofMillis(200);
    static final Duration REPAIR_MAX_DELAY = Duration.ofSeconds(2);
    static final Duration REPAIR_FOR = LEASE_TIME.plusSeconds(60);

    private final EntityStore store;
    private final DynamoGateway gateway;
    private final StoreMetrics metrics;

    public AggregateStore(EntityStore store, DynamoGateway gateway, StoreMetrics metrics) {
        this.store = store;
        this.gateway = gateway;
        this.metrics = metrics;
    }

    /** The raw items of an aggregate's partition (empty when absent). */
    public record Snapshot(List<Map<String, AttributeValue>> items, Assembled assembled) {
        public Map<String, Map<String, AttributeValue>> bySk() {
            var bySk = new LinkedHashMap<String, Map<String, AttributeValue>>();
            items.forEach(item -> bySk.put(item.get(TableSpec.SK).s(), item));
            return bySk;
        }
    }

    /**
     * The assembled aggregate, or null when absent. A root under a live lease is being written: the read
     * waits briefly for it, then answers AggregateBusy rather than show a mix of old and new items. The items are
     * those of {@link Aggregate#viewQuery} (projected): good for showing, not for writing back.
     */
    public Uni<Snapshot> read(Aggregate aggregate, String id) {
        return waitingRead(aggregate, id, true, 1);
    }

    /** The read before a write: an expired lease (an interrupted write) may be taken over and repaired. */
    public Uni<Snapshot> readForWrite(Aggregate aggregate, String id) {
        return waitingRead(aggregate, id, false, 1);
    }

    private Uni<Snapshot> waitingRead(Aggregate aggregate, String id, boolean strict, int attempt) {
        return readOnce(aggregate, id, strict).onFailure(AggregateStore::isBusyNow).recoverWithUni(e -> attempt >= BUSY_RETRIES
                ? Uni.createFrom().failure(new CairnException(new CairnError.AggregateBusy(
                        aggregate.name() + " " + id + " is being written; retry shortly", 1)))
                : gateway.pause(BUSY_PAUSE).chain(() -> waitingRead(aggregate, id, strict, attempt + 1)));
    }

    private Uni<Snapshot> readOnce(Aggregate aggregate, String id, boolean strict) {
        PrimaryKey rootKey = aggregate.rootKey(id);
        return store.queryAll(strict ? aggregate.viewQuery(id) : aggregate.itemsQuery(id)).map(items -> {
            if (items.isEmpty()) {
                return null;
            }
            Map<String, AttributeValue> root = items.stream()
                    .filter(item -> rootKey.sk().equals(item.get(TableSpec.SK).s())).findFirst().orElse(null);
            if (root != null && AggregateWrites.leased(root)) {
                if (!AggregateWrites.leaseExpired(root, store.now())) {
                    throw new CairnException(new CairnError.AggregateBusy(aggregate.name() + " " + id + " is being written", 0));
                }
                if (strict) {
                    throw new CairnException(new CairnError.AggregateBusy(aggregate.name() + " " + id
                            + " was left locked by an interrupted write; a PUT of the whole " + aggregate.name()
                            + " repairs it", 1));
                }
            }
            if (root == null && strict) {
                return null;
            }
            metrics.aggregateRead(aggregate.name(), items.size());
            return new Snapshot(items, aggregate.assemble(items));
        });
    }

    /** A live lease (Retry-After 0) is waited for before it becomes an AggregateBusy answer. */
    private static boolean isBusyNow(Throwable failure) {
        return failure instanceof CairnException e && e.error() instanceof CairnError.AggregateBusy busy
                && busy.retryAfterSeconds() == 0;
    }

    /**
     * Resolves every ref with ONE BatchGetItem (chunks of 100 in parallel); copies already known (unchanged refs
     * of an update) are not read again. A missing ref is a RefNotFound naming the first input path that uses it.
     */
    public Uni<Map<String, RefCopy>> resolve(List<RefUse> uses, Map<String, RefCopy> known) {
        var wanted = new LinkedHashMap<String, RefUse>();
        uses.forEach(use -> {
            String key = Aggregate.refKey(use.ref(), use.id());
            if (!known.containsKey(key)) {
                wanted.putIfAbsent(key, use);
            }
        });
        if (wanted.isEmpty()) {
            return Uni.createFrom().item(known);
        }
        List<RefUse> lookups = List.copyOf(wanted.values());
        return store.batchGet(lookups.stream().map(use -> use.ref().keyOf().apply(use.id())).toList(), true)
                .map(found -> {
                    var resolved = new HashMap<>(known);
                    var missing = new ArrayList<RefUse>();
                    for (int i = 0; i < lookups.size(); i++) {
                        RefUse use = lookups.get(i);
                        Map<String, AttributeValue> item = found.get(i);
                        if (item == null || !use.ref().spec().isTypeOf(item)) {
                            missing.add(use);
                        } else {
                            resolved.put(Aggregate.refKey(use.ref(), use.id()), copyOf(use, item));
                        }
                    }
                    if (!missing.isEmpty()) {
                        throw refNotFound(uses, missing);
                    }
                    return resolved;
                });
    }

    private static <T> RefCopy copyOf(RefUse use, Map<String, AttributeValue> item) {
        @SuppressWarnings("unchecked")
        var spec = (dev.cairn.core.entity.EntitySpec<T>) use.ref().spec();
        var stored = spec.fromItem(item);
        return new RefCopy(JsonAttributes.fromMap(spec.codec().encode(stored.value())), stored.version());
    }

    private static CairnException refNotFound(List<RefUse> uses, List<RefUse> missing) {
        var missingKeys = missing.stream().map(m -> Aggregate.refKey(m.ref(), m.id())).toList();
        RefUse first = uses.stream().filter(u -> missingKeys.contains(Aggregate.refKey(u.ref(), u.id()))).findFirst()
                .orElse(missing.get(0));
        var all = missing.stream().map(m -> Map.of("refEntity", m.ref().entity(), "refId", m.id())).toList();
        return new CairnException(new CairnError.RefNotFound(first.ref().entity() + " '" + first.id()
                + "' referenced by " + first.path() + " does not exist", first.path(), first.id(), first.ref().entity(), all));
    }

    /**
     * Executes a write plan. {@code before} holds the partition's items as read (empty for a create), so a
     * multi-transaction write can undo the groups it committed if another group fails.
     */
    public Uni<Void> write(Aggregate aggregate, Plan plan, Map<String, Map<String, AttributeValue>> before) {
        if (plan.fitsOneTransaction()) {
            return store.transact(TransactionPlan.of(plan.allActions()));
        }
        return writeLeased(aggregate, plan, before);
    }

    private Uni<Void> writeLeased(Aggregate aggregate, Plan plan, Map<String, Map<String, AttributeValue>> before) {
        String token = UUID.randomUUID().toString();
        Instant now = store.now();
        boolean create = plan.root().kind() == WriteAction.Kind.PUT
                && plan.root().expectation().state() == WriteAction.Expectation.State.ABSENT;
        WriteAction acquire = create
                ? AggregateWrites.createLeased(aggregate, plan, token, now.plus(LEASE_TIME))
                : AggregateWrites.acquireLease(aggregate, plan.rootKey(), plan.root().expectation().version(), token, now,
                now.plus(LEASE_TIME));
        WriteAction guard = AggregateWrites.leaseCheck(aggregate, plan.rootKey(), token);
        List<List<WriteAction>> batches = AggregateWrites.pack(plan.groups(), AggregateWrites.MAX_GROUP_ACTIONS);
        return store.transact(TransactionPlan.of(List.of(acquire)))
                .chain(() -> runAll(batches, guard))
                .chain(outcomes -> {
                    var failure = outcomes.stream().filter(o -> o.failure() != null).findFirst();
                    if (failure.isEmpty()) {
                        return store.transact(TransactionPlan.of(List.of(AggregateWrites.finishUnderLease(plan, token))))
                                .onFailure().call(e -> undo(aggregate, plan, before, batches, guard, token, create));
                    }
                    return undo(aggregate, plan, before, batches, guard, token, create)
                            .chain(() -> Uni.createFrom().failure(failure.get().failure()));
                });
    }

    private record Outcome(List<WriteAction> actions, Throwable failure) {
    }

    private Uni<List<Outcome>> runAll(List<List<WriteAction>> batches, WriteAction guard) {
        List<Uni<Outcome>> runs = batches.stream().map(batch -> {
            var actions = new ArrayList<WriteAction>(batch);
            actions.add(guard);
            return store.transact(TransactionPlan.of(actions))
                    .map(done -> new Outcome(batch, null))
                    .onFailure().recoverWithItem(e -> new Outcome(batch, e));
        }).toList();
        return Uni.join().all(runs).andFailFast();
    }

    /**
     * Puts every item of the plan back as it was and drops the lease, so the old aggregate is visible again. ALL
     * groups are reverted, not only those known committed: a group whose answer was lost (a reset connection) may
     * have committed too, and reverting an uncommitted group rewrites the same old items. Every step is guarded by
     * the lease, so nothing is touched once another writer holds it (or the finish did commit and dropped it).
     * If DynamoDB cannot be reached now, the repair goes on in the background with backoff until it succeeds or
     * the lease is gone, so the aggregate reads again, and the same request can be retried, as soon as the fault clears.
     */
    private Uni<Void> undo(Aggregate aggregate, Plan plan, Map<String, Map<String, AttributeValue>> before,
                           List<List<WriteAction>> batches, WriteAction guard, String token, boolean create) {
        WriteAction release = create
                ? new WriteAction(WriteAction.Kind.DELETE, plan.rootKey(), null, null, WriteAction.Expectation.NONE,
                dev.cairn.core.expr.Condition.eq(Aggregate.LEASE, AttributeValue.fromS(token)), aggregate.name())
                : AggregateWrites.releaseLease(aggregate, plan.rootKey(), token);
        Uni<Void> repair = Uni.createFrom().deferred(() -> {
            List<Uni<Void>> reverts = batches.stream().map(actions -> {
                var undo = new ArrayList<>(AggregateWrites.inverse(actions, before));
                undo.add(guard);
                return store.transact(TransactionPlan.of(undo));
            }).toList();
            return Uni.join().all(reverts).andFailFast().replaceWithVoid()
                    .chain(() -> store.transact(TransactionPlan.of(List.of(release))));
        });
        return repair.onFailure(AggregateStore::isTransient).recoverWithUni(e -> {
            LOG.warnf("could not undo a failed write of %s %s now (%s); repairing in the background",
                    aggregate.name(), plan.rootKey(), e.getMessage());
            repair.onFailure(AggregateStore::isTransient).retry()
                    .withBackOff(REPAIR_FIRST_DELAY, REPAIR_MAX_DELAY).expireIn(REPAIR_FOR.toMillis())
                    .subscribe().with(
                            done -> LOG.infof("repaired the interrupted write of %s %s", aggregate.name(), plan.rootKey()),
                            failure -> {
                                if (isTransient(failure)) {
                                    LOG.errorf("could not repair the interrupted write of %s %s; its lease expires and "
                                            + "a PUT repairs it: %s", aggregate.name(), plan.rootKey(), failure.getMessage());
                                } else {
                                    LOG.infof("left %s %s to the lease holder: %s", aggregate.name(), plan.rootKey(),
                                            failure.getMessage());
                                }
                            });
            return Uni.createFrom().voidItem();
        }).onFailure().recoverWithUni(e -> {
            // A refused guard: the lease is no longer ours (another writer, or our finish did commit). Leave it be.
            LOG.infof("left %s %s to the lease holder: %s", aggregate.name(), plan.rootKey(), e.getMessage());
            return Uni.createFrom().voidItem();
        });
    }

    /** DynamoDB unreachable, throttling or timing out: worth trying again. Condition failures are not. */
    private static boolean isTransient(Throwable failure) {
        return failure instanceof CairnException e && e.error() instanceof CairnError.ServiceUnavailable;
    }
}
