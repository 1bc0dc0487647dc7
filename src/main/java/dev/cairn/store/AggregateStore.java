package dev.cairn.store;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.TableSpec;
import dev.cairn.core.aggregate.Aggregate.Assembled;
import dev.cairn.core.aggregate.Aggregate.RefCopy;
import dev.cairn.core.aggregate.Aggregate.RefUse;
import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.aggregate.AggregateTxn.Committed;
import dev.cairn.core.aggregate.AggregateTxn;
import dev.cairn.core.aggregate.AggregateWrites.Plan;
import dev.cairn.core.aggregate.AggregateWrites;
import dev.cairn.core.aggregate.JsonAttributes;
import dev.cairn.core.aggregate.Listing;
import dev.cairn.core.aggregate.PartitionRanges;
import dev.cairn.core.aggregate.RefSpec;
import dev.cairn.core.entity.DeleteMark;
import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.expr.Condition;
import dev.cairn.core.expr.Update;
import dev.cairn.core.job.Job;
import dev.cairn.core.job.JobTable;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.lease.Lease;
import dev.cairn.core.query.FanOut;
import dev.cairn.core.query.Page;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.core.write.TransactionPlan;
import dev.cairn.core.write.WriteAction.Expectation;
import dev.cairn.core.write.WriteAction;
import io.smallrye.mutiny.CompositeException;
import io.smallrye.mutiny.Multi;
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
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * Reads and writes aggregates: ONE strongly consistent Query per read, ONE BatchGetItem for every ref of a
 * write, and ONE TransactWriteItems whenever the write fits. Larger writes follow {@link AggregateTxn}: an undo
 * log and a lease, the groups in parallel, ONE commit point. Readers never wait for a write: they assemble the
 * committed state. A write whose writer died (or failed) is undone from its undo log by the writer itself, by a
 * reader in the background, by the next writer, or by the job worker that finds its intent.
 */
@ApplicationScoped
public class AggregateStore {

    private static final Logger LOG = Logger.getLogger(AggregateStore.class);

    private final EntityStore store;
    private final DynamoGateway gateway;
    private final StoreMetrics metrics;
    private final Leases leases;
    private final JobSettings settings;
    private final JobTable jobs;
    /** Partitions this process is repairing or cleaning now: one background repair per partition at a time. */
    private final Set<String> repairing = ConcurrentHashMap.newKeySet();

    public AggregateStore(EntityStore store, DynamoGateway gateway, StoreMetrics metrics, Leases leases,
                          JobSettings settings) {
        this.store = store;
        this.gateway = gateway;
        this.metrics = metrics;
        this.leases = leases;
        this.settings = settings;
        this.jobs = new JobTable(settings.shards(), settings.retention());
    }

    /** The committed items of an aggregate's partition and their assembly. */
    public record Snapshot(List<Map<String, AttributeValue>> items, Assembled assembled) {
        public Map<String, Map<String, AttributeValue>> bySk() {
            var bySk = new LinkedHashMap<String, Map<String, AttributeValue>>();
            items.forEach(item -> bySk.put(item.get(TableSpec.SK).s(), item));
            return bySk;
        }
    }

    /**
     * The assembled aggregate as last committed, or null when absent. It never waits: while a multi-transaction
     * write is in flight it shows the state before it; a write left behind by a dead writer is repaired in the
     * background. The items are those of {@link Aggregate#viewQuery} (projected): good for showing, not for
     * writing back.
     */
    public Uni<Snapshot> read(Aggregate aggregate, String id) {
        return read(aggregate, id, ReadMode.PARALLEL);
    }

    /** As {@link #read(Aggregate, String)}, reading a large partition's rest as {@code mode} says. */
    public Uni<Snapshot> read(Aggregate aggregate, String id, ReadMode mode) {
        PrimaryKey rootKey = aggregate.rootKey(id);
        return consistentCut(aggregate.viewQuery(id), rootKey, mode, 1).map(items -> {
            if (items.isEmpty()) {
                return null;
            }
            Committed committed = AggregateTxn.committed(rootKey.sk(), items);
            if (committed.inFlight() != null && committed.inFlight().lease().expiredAt(store.now())) {
                inBackground(aggregate, id, () -> recover(aggregate, id).replaceWithVoid());
            } else if (committed.inFlight() == null && !committed.leftovers().isEmpty()) {
                inBackground(aggregate, id, () -> deleteUndo(rootKey.pk(), committed.leftovers()));
            }
            if (committed.absent()) {
                return null;
            }
            // Members without their root are no aggregate: assembly names what is wrong (409), never a 404.
            metrics.aggregateRead(aggregate.name(), committed.items().size());
            return new Snapshot(committed.items(), aggregate.assemble(committed.items()));
        });
    }

    /**
     * The read before a write: whole items. A write in flight is waited for briefly (then AggregateBusy); one
     * whose writer died is undone first, here, so the new write starts from a committed state.
     */
    public Uni<Snapshot> readForWrite(Aggregate aggregate, String id) {
        return readForWrite(aggregate, id, 1);
    }

    private Uni<Snapshot> readForWrite(Aggregate aggregate, String id, int attempt) {
        PrimaryKey rootKey = aggregate.rootKey(id);
        return consistentCut(aggregate.itemsQuery(id), rootKey, 1).chain(items -> {
            if (items.isEmpty()) {
                return Uni.createFrom().nullItem();
            }
            Committed committed = AggregateTxn.committed(rootKey.sk(), items);
            if (committed.inFlight() != null) {
                if (attempt >= retries().busyAttempts()) {
                    return Uni.createFrom().failure(new CairnException(new CairnError.AggregateBusy(
                            aggregate.name() + " " + id + " is being written; retry shortly", 1)));
                }
                Uni<Void> wait = committed.inFlight().lease().expiredAt(store.now())
                        ? recover(aggregate, id).replaceWithVoid() : gateway.pause(retries().busyPause());
                return wait.chain(() -> readForWrite(aggregate, id, attempt + 1));
            }
            if (!committed.leftovers().isEmpty()) {
                inBackground(aggregate, id, () -> deleteUndo(rootKey.pk(), committed.leftovers()));
            }
            metrics.aggregateRead(aggregate.name(), committed.items().size());
            return Uni.createFrom().item(new Snapshot(committed.items(), aggregate.assemble(committed.items())));
        });
    }

    /** How a partition past its first page is read: its ranges all at once, or page after page. */
    public enum ReadMode { PARALLEL, SEQUENTIAL }

    /**
     * The partition's items as of ONE instant. The first page (the aggregate's query: up to
     * {@link PartitionRanges#FIRST_PAGE_ITEMS} items) holds the common aggregate whole, and then one Query is all.
     * Past it, the rest is read as one Query per range the root's fences make, all at once ({@link ReadMode#PARALLEL};
     * SEQUENTIAL reads 1 MB pages one after another). Those reads happen at different instants, so the root is
     * read again at the end (1 GetItem): every write moves the root (a new version, the marks of a write in flight,
     * the trace of an undo), so a root that is the same as in the first read proves that no write began or ended
     * in between; otherwise the whole read is repeated.
     */
    private Uni<List<Map<String, AttributeValue>>> consistentCut(QuerySpec query, PrimaryKey rootKey, int attempt) {
        return consistentCut(query, rootKey, ReadMode.PARALLEL, attempt);
    }

    private Uni<List<Map<String, AttributeValue>>> consistentCut(QuerySpec query, PrimaryKey rootKey, ReadMode mode,
                                                                 int attempt) {
        QuerySpec first = mode == ReadMode.PARALLEL ? query : query.withLimit(null);
        return store.rawPage(first, null).chain(page -> {
            if (page.lastKey() == null) {
                return Uni.createFrom().item(page.items());
            }
            Map<String, AttributeValue> rootSeen = rootOf(page.items(), rootKey);
            List<Uni<EntityStore.AllPages>> rest = mode == ReadMode.SEQUENTIAL
                    ? List.of(store.queryAllPages(first, page.lastKey()))
                    : PartitionRanges.after(first, page.lastKey().get(TableSpec.SK).s(), PartitionRanges.fencesOf(rootSeen))
                    .stream().map(range -> store.queryAllPages(range.query(), range.startKey())).toList();
            return Uni.join().all(rest).andFailFast().chain(parts -> {
                var items = new ArrayList<>(page.items());
                parts.forEach(part -> items.addAll(part.items()));
                // The root sorts first (Aggregate checks its labels), so the first page holds it unless it is absent.
                return store.getItem(rootKey, true).chain(now -> {
                    if (Objects.equals(rootSeen, projected(now, query))) {
                        return Uni.createFrom().item((List<Map<String, AttributeValue>>) items);
                    }
                    if (attempt >= retries().readAttempts()) {
                        return Uni.createFrom().failure(new CairnException(new CairnError.AggregateBusy(
                                "the aggregate changed during every one of " + attempt + " reads; retry shortly", 1)));
                    }
                    // A short, jittered pause: the next read starts between two writes rather than in step with them.
                    long pause = ThreadLocalRandom.current().nextLong(10, 20L * attempt + 30);
                    return gateway.pause(Duration.ofMillis(pause)).chain(() -> consistentCut(query, rootKey, mode, attempt + 1));
                });
            });
        });
    }

    private StoreSettings.Retries retries() {
        return store.settings().retries();
    }

    private static Map<String, AttributeValue> rootOf(List<Map<String, AttributeValue>> items, PrimaryKey rootKey) {
        return items.stream().filter(i -> rootKey.sk().equals(i.get(TableSpec.SK).s())).findFirst().orElse(null);
    }

    /** An item as a projected Query returns it: only the projected attributes. */
    private static Map<String, AttributeValue> projected(Map<String, AttributeValue> item, QuerySpec query) {
        if (item == null || query.projection().isEmpty()) {
            return item;
        }
        var out = new HashMap<String, AttributeValue>();
        query.projection().forEach(name -> {
            if (item.containsKey(name)) {
                out.put(name, item.get(name));
            }
        });
        return out;
    }

    /**
     * Resolved refs: the copies by {@link Aggregate#refKey}, and the source guards of the copies read now (refs
     * already known were not read, so they need none: their items' own version checks protect them).
     */
    public record Resolved(Map<String, RefCopy> copies, List<WriteAction> sourceGuards) {
        public Resolved {
            copies = Map.copyOf(copies);
            sourceGuards = List.copyOf(sourceGuards);
        }

        public RefCopy copy(RefSpec<?> ref, String id) {
            return copies.get(Aggregate.refKey(ref, id));
        }
    }

    /**
     * Resolves every ref with ONE BatchGetItem (chunks of 100 in parallel); copies already known (unchanged refs
     * of an update) are not read again. A missing ref is a RefNotFound naming the first input path that uses it.
     * Each copy read now comes with its source guard ({@link WriteAction#copiedSource}), for the write to carry.
     */
    public Uni<Resolved> resolve(List<RefUse> uses, Map<String, RefCopy> known) {
        var wanted = new LinkedHashMap<String, RefUse>();
        uses.forEach(use -> {
            String key = Aggregate.refKey(use.ref(), use.id());
            if (!known.containsKey(key)) {
                wanted.putIfAbsent(key, use);
            }
        });
        if (wanted.isEmpty()) {
            return Uni.createFrom().item(new Resolved(known, List.of()));
        }
        List<RefUse> lookups = List.copyOf(wanted.values());
        return store.batchGet(lookups.stream().map(use -> use.ref().keyOf().apply(use.id())).toList(), true)
                .map(found -> {
                    Instant now = store.now();
                    var resolved = new HashMap<>(known);
                    var guards = new ArrayList<WriteAction>();
                    var missing = new ArrayList<RefUse>();
                    for (int i = 0; i < lookups.size(); i++) {
                        RefUse use = lookups.get(i);
                        Map<String, AttributeValue> item = found.get(i);
                        if (item == null || !use.ref().spec().isTypeOf(item) || DeleteMark.live(item, now)) {
                            missing.add(use);
                        } else {
                            RefCopy copy = copyOf(use, item);
                            resolved.put(Aggregate.refKey(use.ref(), use.id()), copy);
                            guards.add(WriteAction.copiedSource(use.ref().entity(), use.id(),
                                    use.ref().keyOf().apply(use.id()), copy.version(), now));
                        }
                    }
                    if (!missing.isEmpty()) {
                        throw refNotFound(uses, missing);
                    }
                    return new Resolved(resolved, guards);
                });
    }

    private static <T> RefCopy copyOf(RefUse use, Map<String, AttributeValue> item) {
        @SuppressWarnings("unchecked")
        var spec = (EntitySpec<T>) use.ref().spec();
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
     * Executes a write plan. {@code before} holds the partition's items as read (empty for a create): the undo log
     * of a multi-transaction write is made of them. A write in several transactions runs to its commit or its undo
     * whether or not its client still waits ({@link Detached}): a client that goes away leaves no lease behind.
     */
    public Uni<Void> write(Aggregate aggregate, Plan plan, Map<String, Map<String, AttributeValue>> before) {
        if (plan.fitsOneTransaction()) {
            return store.transact(TransactionPlan.of(plan.allActions()));
        }
        return Detached.run(() -> writeInSteps(aggregate, plan, before));
    }

    private Uni<Void> writeInSteps(Aggregate aggregate, Plan plan, Map<String, Map<String, AttributeValue>> before) {
        Instant now = store.now();
        String txn = JobTable.newId(now);
        String owner = settings.owner() + "/" + txn;
        Instant until = now.plus(settings.aggregateLease());
        PrimaryKey rootKey = plan.rootKey();
        String id = idOf(aggregate, plan, before);
        WriteAction begin = AggregateTxn.begin(aggregate, plan, txn, owner, until);
        WriteAction intent = jobs.create(Job.AGGREGATE_WRITE, txn, intentOf(aggregate, id), owner, now, until);
        WriteAction guard = Lease.guard(aggregate.name(), rootKey, owner);
        List<List<WriteAction>> batches = AggregateWrites.pack(plan.groups(), AggregateWrites.MAX_GROUP_ACTIONS);
        List<WriteAction> touched = batches.stream().flatMap(List::stream).toList();
        List<WriteAction> undo = AggregateTxn.opOf(plan) == AggregateTxn.Op.CREATE ? List.of()
                : AggregateTxn.undoLog(rootKey.pk(), txn, touched, before, aggregate.name());
        List<List<WriteAction>> steps = AggregateTxn.schedule(List.of(begin, intent), undo, batches, guard);
        int prepare = steps.size() - batches.size();
        // The commit point: the root flips, the intent goes, the source guards are checked (as many as fit; the
        // rest just before, after every group), and the undo log goes with them (as far as it fits).
        // What goes with the root (its unique values) is always in the commit itself.
        List<WriteAction> sourceGuards = plan.sourceGuards();
        int guardsInCommit = Math.min(sourceGuards.size(), TransactionPlan.MAX_ACTIONS - 2 - plan.alongside().size());
        var last = new ArrayList<>(List.of(AggregateTxn.commit(plan, owner), jobs.delete(txn, owner)));
        last.addAll(plan.alongside());
        last.addAll(sourceGuards.subList(0, guardsInCommit));
        List<List<WriteAction>> guardSteps = chunks(sourceGuards.subList(guardsInCommit, sourceGuards.size())).stream()
                .map(chunk -> {
                    var actions = new ArrayList<>(chunk);
                    actions.add(guard);
                    return (List<WriteAction>) actions;
                }).toList();
        AggregateTxn.Final commit = AggregateTxn.finalStep(last,
                rootKey.pk(), undo.stream().map(u -> u.key().sk()).toList(), aggregate.name());
        Uni<Void> prepared = Uni.createFrom().voidItem();
        for (List<WriteAction> step : steps.subList(1, prepare)) {
            prepared = prepared.chain(() -> store.transact(TransactionPlan.of(step)));
        }
        Uni<Void> afterBegin = prepared
                .chain(() -> Uni.join().all(steps.subList(prepare, steps.size()).stream()
                                .map(step -> store.transact(TransactionPlan.of(step))).toList())
                        .andCollectFailures().replaceWithVoid()
                        .onFailure().transform(AggregateStore::firstFailure))
                .chain(() -> guardSteps.isEmpty() ? Uni.createFrom().voidItem()
                        : Uni.join().all(guardSteps.stream().map(step -> store.transact(TransactionPlan.of(step))).toList())
                        .andCollectFailures().replaceWithVoid().onFailure().transform(AggregateStore::firstFailure))
                .chain(() -> store.transact(TransactionPlan.of(AggregateTxn.committingAt(commit.transaction(), plan,
                        store.now()))))
                .onFailure().call(failure -> undoOwn(aggregate, id, owner));
        // A refused begin (version, existence) wrote nothing: its failure is the answer, with nothing to undo.
        return store.transact(TransactionPlan.of(steps.get(0))).chain(() -> afterBegin)
                .invoke(() -> {
                    if (!commit.undoLater().isEmpty()) {
                        inBackground(aggregate, id, () -> deleteUndo(rootKey.pk(), commit.undoLater()));
                    }
                });
    }

    private static Throwable firstFailure(Throwable failure) {
        if (failure instanceof CompositeException composite && !composite.getCauses().isEmpty()) {
            return composite.getCauses().get(0);
        }
        return failure;
    }

    /**
     * Undoes our own failed write at once (so the same request can be retried right away); if DynamoDB cannot be
     * reached, the repair goes on in the background with backoff while our lease lasts, after which any reader,
     * writer or the job worker takes it over.
     */
    private Uni<Void> undoOwn(Aggregate aggregate, String id, String owner) {
        Uni<Void> repair = Uni.createFrom().deferred(() -> rollback(aggregate, id, owner)).replaceWithVoid();
        return repair.onFailure(CairnException::retryable).recoverWithUni(e -> {
            LOG.warnf("could not undo a failed write of %s %s now (%s); repairing in the background",
                    aggregate.name(), id, e.getMessage());
            repair.onFailure(CairnException::retryable).retry().withBackOff(retries().backoff(), retries().maxBackoff())
                    .expireIn(settings.aggregateLease().toMillis())
                    .subscribe().with(done -> LOG.infof("repaired the interrupted write of %s %s", aggregate.name(), id),
                            failure -> LOG.warnf("left the interrupted write of %s %s to recovery: %s", aggregate.name(), id,
                                    failure.getMessage()));
            return Uni.createFrom().voidItem();
        }).onFailure().recoverWithUni(e -> {
            LOG.infof("left %s %s to the lease holder: %s", aggregate.name(), id, e.getMessage());
            return Uni.createFrom().voidItem();
        });
    }

    /**
     * Undoes a write whose writer is gone (its lease expired), or answers at once when there is none or its
     * writer is alive. Safe to run anywhere, any number of times: the takeover of the lease is conditional, and
     * every step after it is guarded by the lease.
     */
    public Uni<Boolean> recover(Aggregate aggregate, String id) {
        return rollback(aggregate, id, null);
    }

    /**
     * Rolls back the write in flight: as its owner ({@code owner}) or, with null, by taking an expired lease over.
     * Answers whether the partition is settled (no write in flight any more); false when a live writer holds it.
     */
    private Uni<Boolean> rollback(Aggregate aggregate, String id, String owner) {
        PrimaryKey rootKey = aggregate.rootKey(id);
        // Every item as stored, those past their expiry too: a write in flight on a root that expired meanwhile is
        // undone all the same (its root, now hidden from reads, still holds the write's marks and lease).
        Uni<List<Map<String, AttributeValue>>> stored = aggregate.expires()
                ? store.queryAllIncludingExpired(aggregate.itemsQuery(id)) : store.queryAll(aggregate.itemsQuery(id));
        return stored.chain(items -> {
            if (items.isEmpty()) {
                return Uni.createFrom().item(true);
            }
            Committed committed = AggregateTxn.committed(rootKey.sk(), items);
            AggregateTxn.InFlight inFlight = committed.inFlight();
            if (inFlight == null) {
                return deleteUndo(rootKey.pk(), committed.leftovers()).replaceWith(true);
            }
            String label = aggregate.name();
            Uni<String> holder;
            if (owner != null) {
                holder = Uni.createFrom().item(inFlight.lease().heldBy(owner) ? owner : null);
            } else if (!inFlight.lease().expiredAt(store.now())) {
                holder = Uni.createFrom().nullItem();
            } else {
                Instant now = store.now();
                String me = settings.owner() + "/undo-" + JobTable.newId(now);
                holder = leases.attempt(AggregateTxn.takeOver(rootKey, inFlight.txn(), me, now,
                        now.plus(settings.aggregateLease()), label)).map(taken -> taken ? me : null);
            }
            return holder.chain(me -> {
                if (me == null) {
                    return Uni.createFrom().item(false);
                }
                LOG.infof("undoing the interrupted %s of %s %s (write %s)", inFlight.op().wire(), label, id, inFlight.txn());
                WriteAction guard = Lease.guard(label, rootKey, me);
                List<WriteAction> undo = AggregateTxn.rollback(rootKey.sk(), items, inFlight, label);
                List<Uni<Void>> steps = chunks(undo).stream()
                        .map(chunk -> {
                            var actions = new ArrayList<>(chunk);
                            actions.add(guard);
                            return store.transact(TransactionPlan.of(actions));
                        }).toList();
                Uni<Void> reverted = steps.isEmpty() ? Uni.createFrom().voidItem()
                        : Uni.join().all(steps).andFailFast().replaceWithVoid();
                AggregateTxn.Final last = AggregateTxn.finalStep(List.of(
                                AggregateTxn.finishRollback(rootKey, inFlight, me, label),
                                WriteAction.deleteItem(JobTable.key(inFlight.txn()), JobTable.TYPE)),
                        rootKey.pk(), AggregateTxn.undoKeys(items, inFlight.txn()), label);
                return reverted
                        .chain(() -> store.transact(TransactionPlan.of(last.transaction())))
                        .invoke(() -> metrics.aggregateRepaired(aggregate.name()))
                        .chain(() -> deleteUndo(rootKey.pk(), last.undoLater()))
                        .replaceWith(true);
            });
        });
    }

    /** Undo actions in transactions of at most 99 (one slot for the guard) and under 4 MB. */
    private static List<List<WriteAction>> chunks(List<WriteAction> actions) {
        var chunks = new ArrayList<List<WriteAction>>();
        var current = new ArrayList<WriteAction>();
        long bytes = 0;
        for (WriteAction action : actions) {
            long size = action.estimatedSize();
            if (!current.isEmpty() && (current.size() >= AggregateWrites.MAX_GROUP_ACTIONS
                    || bytes + size > TransactionPlan.MAX_BYTES - 64 * 1024)) {
                chunks.add(current);
                current = new ArrayList<>();
                bytes = 0;
            }
            current.add(action);
            bytes += size;
        }
        if (!current.isEmpty()) {
            chunks.add(current);
        }
        return chunks;
    }

    private Uni<Void> deleteUndo(String pk, List<String> sortKeys) {
        return sortKeys.isEmpty() ? Uni.createFrom().voidItem()
                : store.batchDelete(sortKeys.stream().map(sk -> PrimaryKey.of(pk, sk)).toList());
    }

    /**
     * Refuses a create into a partition that holds anything: the aggregate itself (409 Conflict), or items left
     * without their root, which a create would otherwise adopt (409 naming them; a DELETE removes them).
     */
    public Uni<Void> requireEmpty(Aggregate aggregate, String id) {
        return requireEmpty(aggregate, id, aggregate.occupantsQuery(id), null);
    }

    private Uni<Void> requireEmpty(Aggregate aggregate, String id, QuerySpec query, Map<String, AttributeValue> from) {
        PrimaryKey rootKey = aggregate.rootKey(id);
        return store.rawPage(query, from).chain(page -> {
            List<String> sks = page.items().stream().map(i -> i.get(TableSpec.SK).s()).toList();
            if (sks.isEmpty() && page.lastKey() != null) {
                // every item read had expired (an expired aggregate's, which DynamoDB has not removed yet): read on,
                // in whole pages, for anything live behind them
                return requireEmpty(aggregate, id, query.withLimit(null), page.lastKey());
            }
            if (sks.isEmpty()) {
                return Uni.createFrom().voidItem();
            }
            if (sks.contains(rootKey.sk())) {
                throw new CairnException(new CairnError.Conflict(aggregate.name() + " " + id + " already exists"));
            }
            throw new CairnException(new CairnError.Conflict("the partition of " + aggregate.name() + " " + id
                    + " holds items left without their root (" + String.join(", ", sks) + (page.lastKey() == null ? "" : ", …")
                    + "); a create never adopts them, a DELETE of " + aggregate.name() + " " + id + " removes them"));
        });
    }

    /**
     * Removes everything stored in a partition that does not form the aggregate (its root gone, or members that do
     * not fit). Every transaction of deletes carries a guard on the root as it was read (still absent, or still at
     * its version), so a concurrent create or write is never cut into; the root, if any, goes last. False when the
     * partition is empty. Begun, it goes on to its end whether or not its client still waits ({@link Detached}).
     */
    public Uni<Boolean> purge(Aggregate aggregate, String id) {
        PrimaryKey rootKey = aggregate.rootKey(id);
        return Detached.run(() -> store.queryAll(aggregate.itemsQuery(id)).chain(items -> {
            if (items.isEmpty()) {
                return Uni.createFrom().item(false);
            }
            var root = items.stream().filter(i -> rootKey.sk().equals(i.get(TableSpec.SK).s())).findFirst().orElse(null);
            WriteAction guard = root == null
                    ? WriteAction.check(aggregate.name(), rootKey, WriteAction.Expectation.ABSENT)
                    : WriteAction.check(aggregate.name(), rootKey,
                    WriteAction.Expectation.present(EntitySpec.versionOf(root)));
            List<WriteAction> deletes = items.stream().filter(i -> i != root)
                    .map(i -> WriteAction.deleteItem(PrimaryKey.from(i), aggregate.name())).toList();
            LOG.infof("removing %d item(s) of %s %s that do not form a %s", items.size(), aggregate.name(), id, aggregate.name());
            Uni<Void> all = deletes.isEmpty() ? Uni.createFrom().voidItem()
                    : Uni.join().all(chunks(deletes).stream().map(chunk -> {
                        var actions = new ArrayList<>(chunk);
                        actions.add(guard);
                        return store.transact(TransactionPlan.of(actions));
                    }).toList()).andFailFast().replaceWithVoid();
            return all.chain(() -> root == null ? Uni.createFrom().voidItem()
                            : store.transact(TransactionPlan.of(List.of(
                                    WriteAction.deleteItem(rootKey, guard.expectation(), aggregate.name())))))
                    .replaceWith(true);
        }));
    }

    /**
     * One page of a list of an aggregate's roots, newest first: one Query per partition of the list (shards, or
     * the indexes of a keyed list) in parallel, merged, each root shown as its summary. {@code key} is the id the
     * list is keyed by (null for the list of all); {@code filter}, if any, keeps the roots it holds for.
     */
    public Uni<Page<Map<String, Object>>> list(Aggregate aggregate, Listing listing, String key, int limit, String cursor,
                                               Condition filter) {
        return store.fanOutPage(count -> filter == null ? listing.fanOut(key, count, limit)
                                : FanOut.of(listing.fanOut(key, count, limit).shards().stream().map(q -> q.filtered(filter)).toList()),
                        listing.queriesPerPage(), cursor)
                .map(page -> new Page<>(page.items().stream().map(aggregate::summaryOf).filter(Objects::nonNull)
                        .toList(), page.next()));
    }

    /** What one page of a list backfill did, and where the next page starts (null at the end of the table). */
    public record RelistPage(int roots, int updated, int current, int skipped, Map<String, AttributeValue> lastKey) {
    }

    /**
     * One page of the backfill that lists roots written before their lists existed: a Scan page of root items from
     * {@code start}, and for each root whose list keys or summary differ from what its committed state gives, ONE
     * conditional UpdateItem of exactly those attributes at the version read (no new version: the aggregate did
     * not change). Safe to repeat and to run beside live writes: a root written or busy meanwhile is skipped and
     * listed correctly by its own write; a repeated page finds nothing to do.
     */
    public Uni<RelistPage> relistPage(Aggregate aggregate, Map<String, AttributeValue> start, int limit) {
        PrimaryKey anyRoot = aggregate.rootKey("x");
        return store.scanPage(aggregate.rootType(), anyRoot.sk(), limit, start).chain(page -> {
            List<String> ids = page.items().stream().filter(item -> aggregate.holdsPartition(item.get(TableSpec.PK).s()))
                    .map(item -> item.get(aggregate.idField()).s()).toList();
            if (ids.isEmpty()) {
                return Uni.createFrom().item(new RelistPage(0, 0, 0, 0, page.lastKey()));
            }
            return Multi.createFrom().iterable(ids).onItem().transformToUni(id -> relist(aggregate, id)).merge(4)
                    .collect().asList().map(outcomes -> new RelistPage(ids.size(), count(outcomes, Relisted.UPDATED),
                            count(outcomes, Relisted.CURRENT), count(outcomes, Relisted.SKIPPED), page.lastKey()));
        });
    }

    private enum Relisted { UPDATED, CURRENT, SKIPPED }

    private static int count(List<Relisted> outcomes, Relisted kind) {
        return (int) outcomes.stream().filter(kind::equals).count();
    }

    private Uni<Relisted> relist(Aggregate aggregate, String id) {
        return readForWrite(aggregate, id).chain(snapshot -> {
            if (snapshot == null || snapshot.assembled() == null) {
                return Uni.createFrom().item(Relisted.SKIPPED);
            }
            var current = snapshot.assembled();
            Map<String, AttributeValue> wanted = aggregate.listedAttributes(aggregate.decompose(current.view(),
                    current.refVersions(), current.version(), current.createdAt(), current.updatedAt()).root().item());
            Map<String, AttributeValue> stored = aggregate.listedAttributes(current.rootItem());
            if (wanted.equals(stored)) {
                return Uni.createFrom().item(Relisted.CURRENT);
            }
            var update = Update.create().setAll(wanted);
            stored.keySet().stream().filter(name -> !wanted.containsKey(name)).forEach(update::remove);
            var action = WriteAction.updateItem(aggregate.rootKey(id), update, Expectation.present(current.version()),
                    AggregateTxn.noWriteInFlight(), aggregate.name());
            return store.write(action).replaceWith(Relisted.UPDATED)
                    .onFailure(AggregateStore::lostRace).recoverWithItem(Relisted.SKIPPED);
        }).onFailure(AggregateStore::lostRace).recoverWithItem(Relisted.SKIPPED);
    }

    /**
     * A concurrent write won (version moved, a write in flight, the match deleted): that write lists the root
     * itself; or the partition does not form the aggregate (a DELETE cleans it): nothing to list.
     */
    private static boolean lostRace(Throwable failure) {
        return CairnException.is(failure, CairnError.VersionConflict.class, CairnError.AggregateAssemblyError.class,
                CairnError.AggregateBusy.class, CairnError.Conflict.class, CairnError.NotFound.class);
    }

    /** Runs a repair or clean-up detached from the request, at most one per partition at a time in this process. */
    private void inBackground(Aggregate aggregate, String id, Supplier<Uni<Void>> work) {
        String pk = aggregate.partitionOf(id);
        if (!repairing.add(pk)) {
            return;
        }
        Uni.createFrom().deferred(work::get).eventually(() -> repairing.remove(pk)).subscribe().with(
                done -> { },
                failure -> LOG.infof("background repair of %s %s did not finish (it is retried by the next reader, "
                        + "writer or the job worker): %s", aggregate.name(), id, failure.getMessage()));
    }

    private static Map<String, AttributeValue> intentOf(Aggregate aggregate, String id) {
        return Map.of("aggregate", AttributeValue.fromS(aggregate.name()), "id", AttributeValue.fromS(id));
    }

    /** The aggregate a job intent names, and its id (for the worker). */
    public static Map.Entry<String, String> intentTarget(Job job) {
        return Map.entry(job.target().get("aggregate").s(), job.target().get("id").s());
    }

    /** The aggregate's id, from the new root item or (for a delete) the root as read. */
    private static String idOf(Aggregate aggregate, Plan plan, Map<String, Map<String, AttributeValue>> before) {
        Map<String, AttributeValue> root = plan.root().item() != null ? plan.root().item() : before.get(plan.rootKey().sk());
        if (root == null || root.get(aggregate.idField()) == null) {
            throw new IllegalStateException("the plan's root names no " + aggregate.name() + " id");
        }
        return root.get(aggregate.idField()).s();
    }
}
