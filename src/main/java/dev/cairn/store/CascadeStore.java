package dev.cairn.store;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.aggregate.AggregateTxn;
import dev.cairn.core.aggregate.CopyVersions;
import dev.cairn.core.cascade.CascadePlanner.Unit;
import dev.cairn.core.cascade.CascadePlanner;
import dev.cairn.core.cascade.CascadeSource;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.core.write.TransactionPlan;
import dev.cairn.core.write.WriteAction;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes cascades: every item embedding a copy of the source is found with Queries of a ref index (never a
 * Scan). Eventual mode writes the copies page by page for a cascade job ({@link #writePage}); transactional mode
 * writes the source and every copy in ONE transaction or nothing.
 */
@ApplicationScoped
public class CascadeStore {

    private final EntityStore store;
    private final DynamoGateway gateway;
    private final StoreMetrics metrics;
    private final AggregateStore aggregates;

    public CascadeStore(EntityStore store, DynamoGateway gateway, StoreMetrics metrics, AggregateStore aggregates) {
        this.store = store;
        this.gateway = gateway;
        this.metrics = metrics;
        this.aggregates = aggregates;
    }

    /** What a cascade did: items holding a copy, copies written, copies already current or gone, failures. */
    public record Report(String mode, int matched, int updated, int skipped, int failed, List<Map<String, String>> failedKeys) {

        public Map<String, Object> toMap() {
            var out = new LinkedHashMap<String, Object>();
            out.put("mode", mode);
            out.put("matched", matched);
            out.put("updated", updated);
            out.put("skipped", skipped);
            out.put("failed", failed);
            out.put("failedKeys", failedKeys);
            return out;
        }
    }

    private record Outcome(int updated, int skipped, List<Map<String, String>> failedKeys) {
    }

    /** Every item of {@code copies} that holds a copy of the source entity (the queries run in parallel). */
    public Uni<List<Map<String, AttributeValue>>> findCopies(List<QuerySpec> copies, String entity) {
        if (copies.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Uni.join().all(copies.stream().map(store::queryAll).toList()).andFailFast()
                .map(results -> results.stream().flatMap(List::stream)
                        .filter(item -> !CopyVersions.copiesOf(item, entity).isEmpty()).toList());
    }

    /**
     * What writing one page of copies did: copies matched, written, skipped (current or gone), failed, and the copy
     * writes it tried (what the page cost: copies found current when read are not written).
     */
    public record PageOutcome(int matched, int updated, int skipped, List<Map<String, String>> failures, int attempted) {
    }

    /**
     * Writes the copies among one page of found items: units with bounded parallelism, each retried with backoff
     * while it fails for a passing reason (DynamoDB unreachable, a colliding transaction, an aggregate with a
     * write in flight) until {@code retryFor} has passed; a unit that still fails is reported with its key and
     * reason. Copies already current, or deleted meanwhile, are skipped (the conditions say so).
     */
    public Uni<PageOutcome> writePage(List<Map<String, AttributeValue>> items, CascadeSource source,
                                      CascadePlanner planner, int concurrency, Duration retryFor, CopyBudget budget) {
        var found = items.stream().filter(item -> !CopyVersions.copiesOf(item, source.entity()).isEmpty()).toList();
        List<Unit> units = planner.plan(found, source, store.now());
        int attempted = units.stream().mapToInt(Unit::copies).sum();
        int current = found.size() - attempted;
        // The copies are taken from the budget before any is written (waiting for it to refill): the budget holds
        // however many writes run at once.
        return acquire(budget, attempted).chain(() -> {
            long deadline = System.nanoTime() + retryFor.toNanos();
            return Multi.createFrom().iterable(units)
                    .onItem().transformToUni(unit -> run(unit, 1, deadline, planner, source)).merge(Math.max(1, concurrency))
                    .collect().asList();
        }).map(outcomes -> {
            var failures = new ArrayList<Map<String, String>>();
            outcomes.forEach(o -> failures.addAll(o.failedKeys()));
            int updated = outcomes.stream().mapToInt(Outcome::updated).sum();
            int skipped = outcomes.stream().mapToInt(Outcome::skipped).sum();
            budget.refund(skipped); // found current or gone when written: no copy was made
            metrics.cascade("eventual", updated, failures.size());
            return new PageOutcome(found.size(), updated, current + skipped, failures, attempted);
        });
    }

    /** Takes {@code copies} from the budget, pausing (without blocking) until it has refilled enough. */
    private Uni<Void> acquire(CopyBudget budget, int copies) {
        if (copies <= 0) {
            return Uni.createFrom().voidItem();
        }
        int left = copies - budget.takeUpTo(copies);
        if (left == 0) {
            return Uni.createFrom().voidItem();
        }
        long nanos = Math.max(1_000_000, budget.until(left));
        return gateway.pause(Duration.ofNanos(nanos)).chain(() -> acquire(budget, left));
    }

    /**
     * The source's writes (its change first, then what goes with it) and every copy in ONE transaction; more than fits is a CascadeTooLarge with nothing
     * written. The copies are taken from {@code budget} once they are planned, before the transaction, all or none
     * (a 429 when the budget does not hold them), and given back when the transaction is refused.
     */
    public Uni<Report> transactional(List<WriteAction> sourceWrites, List<QuerySpec> copies, CascadeSource source,
                                     CascadePlanner planner, CopyBudget budget) {
        return transactional(sourceWrites, copies, source, planner, budget, 1);
    }

    /** A holder written between the read of the copies and the transaction is not the source's conflict: read again. */
    private static final int COPY_ATTEMPTS = 8;

    private Uni<Report> transactional(List<WriteAction> sourceWrites, List<QuerySpec> copies, CascadeSource source,
                                      CascadePlanner planner, CopyBudget budget, int attempt) {
        return findCopies(copies, source.entity()).chain(listed -> current(listed, planner)).chain(found ->
                kept(planner.plan(found, source, store.now()), planner, source).map(units -> Map.entry(found, units)))
                .chain(planned -> {
            var found = planned.getKey();
            List<Unit> units = planned.getValue();
            var actions = new ArrayList<WriteAction>();
            actions.addAll(sourceWrites);
            units.forEach(u -> actions.addAll(u.actions()));
            if (actions.size() > TransactionPlan.MAX_ACTIONS) {
                return Uni.createFrom().failure(new CairnException(new CairnError.CascadeTooLarge(
                        "a transactional cascade of " + source.entity() + " " + source.id() + " needs " + actions.size()
                                + " writes; one transaction holds at most " + TransactionPlan.MAX_ACTIONS
                                + ". Nothing was written; use ?cascade=eventual", actions.size(), TransactionPlan.MAX_ACTIONS)));
            }
            int updated = units.stream().mapToInt(Unit::copies).sum();
            budget.takeAll(updated);
            return store.transactDetailed(TransactionPlan.of(actions))
                    .invoke(() -> metrics.cascade("transactional", updated, 0))
                    .map(done -> new Report("transactional", found.size(), updated, found.size() - updated, 0, List.of()))
                    .onFailure().recoverWithUni(e -> {
                        budget.refund(updated);
                        if (onlyCopiesMoved(e, sourceWrites.size())) {
                            if (attempt >= COPY_ATTEMPTS) {
                                // holders written without a pause: nothing was written, and a later try may pass
                                return Uni.createFrom().failure(SdkErrors.unavailable("the items holding copies of "
                                        + source.entity() + " " + source.id() + " kept changing while this transactional "
                                        + "cascade read them; nothing was written: retry, or use ?cascade=eventual", e));
                            }
                            return gateway.pause(store.settings().retries().pauseAfter(attempt)).chain(() ->
                                    transactional(sourceWrites, copies, source, planner, budget, attempt + 1));
                        }
                        // anything else is answered as every write's failure is (the source's own condition first)
                        return Uni.createFrom().failure(e instanceof CairnException ce
                                && ce.error() instanceof CairnError.TransactionCanceled && ce.getCause() != null
                                ? SdkErrors.translate(ce.getCause(), actions) : e);
                    });
        });
    }

    /**
     * Every failed condition was a copy's (a holder kept at its version read — one keeping history — written or
     * deleted meanwhile), none the source's own writes: nothing was written, and a fresh read of the copies decides.
     */
    private static boolean onlyCopiesMoved(Throwable e, int sourceActions) {
        return e instanceof CairnException ce && ce.error() instanceof CairnError.TransactionCanceled canceled
                && !canceled.failures().isEmpty()
                && canceled.failures().stream().allMatch(f -> "ConditionalCheckFailed".equals(f.reason())
                && f.index() >= sourceActions);
    }

    /**
     * The items whose types keep history, read again consistently (1 BatchGetItem, only when there are such items):
     * their copy writes are checked at the version read, and the index a cascade finds them by is eventually
     * consistent. One deleted meanwhile is left out.
     */
    private Uni<List<Map<String, AttributeValue>>> current(List<Map<String, AttributeValue>> found, CascadePlanner planner) {
        var keys = found.stream().filter(planner::keepsHistory).map(dev.cairn.core.key.PrimaryKey::from).toList();
        if (keys.isEmpty()) {
            return Uni.createFrom().item(found);
        }
        return store.batchGet(keys, true).map(fresh -> {
            var out = new ArrayList<Map<String, AttributeValue>>();
            int next = 0;
            for (var item : found) {
                if (!planner.keepsHistory(item)) {
                    out.add(item);
                } else if (fresh.get(next++) != null) {
                    out.add(fresh.get(next - 1));
                }
            }
            return out;
        });
    }

    /**
     * A unit of an item that keeps history: its copy write and snapshot in ONE transaction, checked at the version
     * read. Refused because the item moved on, it is planned again from the item the refusal returned (no extra
     * read) — written if its copies are still behind, skipped when they are current or the item is gone.
     */
    private Uni<Outcome> runHistory(Unit unit, int attempt, long deadline, CascadePlanner planner, CascadeSource source) {
        return store.transact(TransactionPlan.of(unit.actions())).map(done -> new Outcome(1, 0, List.of()))
                .onFailure().recoverWithUni(failure -> {
                    CairnError error = failure instanceof CairnException e ? e.error() : null;
                    if (error instanceof CairnError.VersionConflict moved && moved.found() != null
                            && System.nanoTime() < deadline) {
                        return planner.unitOf(moved.found(), source, store.now())
                                .map(again -> runHistory(again, attempt + 1, deadline, planner, source))
                                .orElseGet(() -> Uni.createFrom().item(new Outcome(0, 1, List.of())));
                    }
                    if (!CairnException.retryable(failure)
                            && CairnException.is(failure, CairnError.NotFound.class, CairnError.Conflict.class)) {
                        return Uni.createFrom().item(new Outcome(0, 1, List.of()));
                    }
                    if (CairnException.retryable(failure) && System.nanoTime() < deadline) {
                        return gateway.pause(store.settings().retries().pauseAfter(attempt))
                                .chain(() -> runHistory(unit, attempt + 1, deadline, planner, source));
                    }
                    return Uni.createFrom().item(new Outcome(0, 0, List.of(keyOf(unit, error == null ? "InternalError"
                            : error.code()))));
                });
    }

    /** One unit, retried while it fails for a passing reason; copies found current or deleted meanwhile are skipped. */
    private Uni<Outcome> run(Unit unit, int attempt, long deadline, CascadePlanner planner, CascadeSource source) {
        if (unit.history()) {
            return runHistory(unit, attempt, deadline, planner, source);
        }
        boolean keptAt = planner.keepingHistory(unit) != null;
        Uni<Outcome> write = unit.aggregate()
                ? kept(unit, planner, source).chain(prepared -> prepared == null
                        ? Uni.createFrom().item(new Outcome(0, unit.copies(), List.of()))
                        : store.transactDetailed(TransactionPlan.of(prepared.actions()))
                                .map(done -> new Outcome(unit.copies(), 0, List.of())))
                : store.write(unit.actions().get(0)).map(done -> new Outcome(1, 0, List.of()));
        return write.onFailure().recoverWithUni(failure -> {
            CairnError error = failure instanceof CairnException e ? e.error() : null;
            if (!unit.aggregate() && !CairnException.retryable(failure)
                    && CairnException.is(failure, CairnError.NotFound.class, CairnError.Conflict.class)) {
                return Uni.createFrom().item(new Outcome(0, 1, List.of()));
            }
            boolean busy = false;
            if (unit.aggregate() && error instanceof CairnError.TransactionCanceled canceled) {
                var rootFailure = canceled.failures().stream().filter(f -> f.index() == 0
                        && "ConditionalCheckFailed".equals(f.reason())).findFirst();
                if (rootFailure.isPresent()) {
                    var old = rootFailure.get().oldItem();
                    if (old == null || old.isEmpty()) {
                        return Uni.createFrom().item(new Outcome(0, unit.copies(), List.of()));
                    }
                    // A multi-transaction write is in flight (or left behind, soon undone): wait for it.
                    busy = old.containsKey(AggregateTxn.TXN);
                    if (!busy && keptAt && System.nanoTime() < deadline) {
                        // written since it was read (its snapshot would be of the wrong version): read it again, after
                        // the pause every other retry takes
                        return gateway.pause(store.settings().retries().pauseAfter(attempt))
                                .chain(() -> run(unit, attempt + 1, deadline, planner, source));
                    }
                    if (!busy) {
                        return Uni.createFrom().item(new Outcome(0, unit.copies(), List.of()));
                    }
                } else if (canceled.failures().stream().allMatch(f -> "ConditionalCheckFailed".equals(f.reason()))) {
                    return retryWithout(unit, canceled, attempt, deadline, planner, source);
                }
            }
            if ((busy || CairnException.retryable(failure)) && System.nanoTime() < deadline) {
                return gateway.pause(store.settings().retries().pauseAfter(attempt))
                        .chain(() -> run(unit, attempt + 1, deadline, planner, source));
            }
            return Uni.createFrom().item(new Outcome(0, 0, List.of(keyOf(unit, busy ? "AggregateBusy"
                    : error == null ? "InternalError" : error.code()))));
        });
    }

    /**
     * Units as they are written: one of an aggregate that keeps history is read first (1 strongly consistent Query, as
     * before any write of it) and written checked at the version read, with that version's snapshot ({@link
     * CascadePlanner#keptAt}); an aggregate gone meanwhile leaves its unit out (its copies went with it).
     */
    private Uni<List<Unit>> kept(List<Unit> units, CascadePlanner planner, CascadeSource source) {
        if (units.stream().noneMatch(u -> planner.keepingHistory(u) != null)) {
            return Uni.createFrom().item(units);
        }
        return Uni.join().all(units.stream().map(u -> kept(u, planner, source)).toList()).andFailFast()
                .map(all -> all.stream().filter(java.util.Objects::nonNull).toList());
    }

    /** One unit as it is written (see above); null when its aggregate is gone. */
    private Uni<Unit> kept(Unit unit, CascadePlanner planner, CascadeSource source) {
        var aggregate = planner.keepingHistory(unit);
        if (aggregate == null) {
            return Uni.createFrom().item(unit);
        }
        return aggregates.readForWrite(aggregate, aggregate.idOf(unit.partition())).map(read ->
                read == null || read.assembled() == null ? null
                        : planner.keptAt(unit, read.assembled(), source, store.now()));
    }

    /** Members whose copy is already current (or that are gone) leave the unit; the rest is written again. */
    private Uni<Outcome> retryWithout(Unit unit, CairnError.TransactionCanceled canceled, int attempt, long deadline,
                                      CascadePlanner planner, CascadeSource source) {
        // (a unit of an aggregate that keeps history was sent with its snapshot after its own actions, which keep
        // their places: the indexes name the same actions)
        var failedIndexes = canceled.failures().stream().map(CairnError.ActionFailure::index).toList();
        var remaining = new ArrayList<WriteAction>();
        for (int i = 0; i < unit.actions().size(); i++) {
            if (!failedIndexes.contains(i)) {
                remaining.add(unit.actions().get(i));
            }
        }
        int skipped = failedIndexes.size();
        if (remaining.size() <= 1) {
            return Uni.createFrom().item(new Outcome(0, unit.copies(), List.of()));
        }
        var smaller = new Unit(unit.partition(), remaining, true, unit.copies() - skipped);
        return run(smaller, attempt + 1, deadline, planner, source).map(o -> new Outcome(o.updated(), o.skipped() + skipped, o.failedKeys()));
    }

    private static Map<String, String> keyOf(Unit unit, String reason) {
        WriteAction first = unit.actions().get(0);
        return Map.of("pk", first.key().pk(), "sk", first.key().sk(), "reason", reason);
    }
}
