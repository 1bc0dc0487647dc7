package dev.cairn.jobs;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.cascade.CascadeSpec;
import dev.cairn.core.job.Job.Progress;
import dev.cairn.core.job.Job.State;
import dev.cairn.core.job.Job;
import dev.cairn.core.job.JobTable;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.lease.Lease;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.platform.CairnConfig;
import dev.cairn.platform.Catalog;
import dev.cairn.platform.TableProvisioner;
import dev.cairn.store.CascadeStore;
import dev.cairn.store.CopyBudget;
import dev.cairn.store.CopyScan;
import dev.cairn.store.EntityStore.RawPage;
import dev.cairn.store.EntityStore;
import dev.cairn.store.JobStore;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The reconcile job: finds every copy whose recorded source version ({@code _refv}) is older than its source's
 * current version and rewrites it through the cascade's own planner and units (conditioned on the copy still being
 * older; an aggregate member with its root's version bump). One source: its copy queries. An entity type or
 * everything: a Scan of the items holding copies, and per page ONE strongly consistent BatchGetItem of the distinct
 * sources. A copy whose source is gone is counted as orphaned and left alone. Durable like {@link Backfills}:
 * a checkpoint after each page, a lease kept alive by a heartbeat, a dead owner's job resumed by any replica's
 * {@link JobWorker}. Paced: at most {@code rate} copies checked (and items read) per second, so it never starves
 * traffic.
 */
@ApplicationScoped
public class Reconciles {

    private static final Logger LOG = Logger.getLogger(Reconciles.class);
    /** How often a replica looks whether the current period's scheduled reconcile exists (when one is configured). */
    private static final Duration SCHEDULE_CHECK = Duration.ofMinutes(1);

    private final EntityStore store;
    private final JobStore jobs;
    private final CopyScan scan;
    private final CascadeStore cascades;
    private final Catalog catalog;
    private final CairnConfig config;
    private final ReconcileMetrics metrics;
    private final Vertx vertx;
    private final Set<String> running = ConcurrentHashMap.newKeySet();
    /** The last period this replica scheduled a reconcile for: one attempt per period and replica. */
    private final AtomicLong scheduledPeriod = new AtomicLong(-1);
    /** Set on a graceful stop: a running reconcile hands its lease back after its current page. */
    private volatile boolean stopping;
    /** The pauses under way: a graceful stop ends them, so a paced run hands over now, not after its pause. */
    private final Set<Runnable> pausing = ConcurrentHashMap.newKeySet();
    private volatile long timer = -1;

    public Reconciles(EntityStore store, JobStore jobs, CopyScan scan, CascadeStore cascades, Catalog catalog,
                      CairnConfig config, ReconcileMetrics metrics, Vertx vertx) {
        this.store = store;
        this.jobs = jobs;
        this.scan = scan;
        this.cascades = cascades;
        this.catalog = catalog;
        this.config = config;
        this.metrics = metrics;
        this.vertx = vertx;
    }

    /** The cascade of an entity type named in any case ({@code player} is {@code Player}); null when none. */
    public CascadeSpec cascade(String entity) {
        return catalog.cascades().stream().filter(spec -> spec.entity().toLowerCase(Locale.ROOT)
                .equals(entity.toLowerCase(Locale.ROOT))).findFirst().orElse(null);
    }

    /**
     * Records a new reconcile of ours and starts it detached; answers the job as recorded. One that Scans the table
     * (an entity type or everything) takes a scan slot with its record, or is refused (409 MaintenanceBusy) while
     * {@code cairn.reconcile.max-scans} such jobs run.
     */
    public Uni<Job> start(ReconcileScope scope) {
        return Uni.createFrom().deferred(() -> {
            Instant now = store.now();
            String id = JobTable.newId(now);
            Map<String, AttributeValue> target = scope.toAttributes();
            Uni<Map<String, AttributeValue>> recorded = scope.id() != null
                    ? store.write(jobs.create(Job.RECONCILE, id, target)).replaceWith(target)
                    : jobs.recordInSlot(id, config.reconcile().maxScans(),
                            slot -> jobs.create(Job.RECONCILE, id, inSlot(target, slot))).map(slot -> inSlot(target, slot));
            return recorded.map(held -> Job.started(id, Job.RECONCILE, held,
                            new Lease(jobs.settings().owner(), now.plus(jobs.settings().jobLease())), now))
                    .invoke(job -> run(job)
                            .onFailure().invoke(failure -> LOG.warnf("reconcile %s stopped (%s); it resumes from its "
                                    + "checkpoint once its lease expires", id, failure.getMessage()))
                            .subscribe().with(done -> { }, failure -> { }));
        });
    }

    /** A job's target naming the scan slot it holds. */
    static Map<String, AttributeValue> inSlot(Map<String, AttributeValue> target, int slot) {
        var out = new LinkedHashMap<>(target);
        out.put(Job.SLOT, AttributeValue.fromN(Integer.toString(slot)));
        return out;
    }

    /** Resumes a reconcile taken over from a dead owner (or scheduled), from its checkpoint. */
    public Uni<Job> resume(Job job) {
        return run(job);
    }

    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        stopping = true;
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
        pausing.forEach(Runnable::run);
        long deadline = System.nanoTime() + config.jobs().handOverWait().toNanos();
        while (!running.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }

    // --- the periodic reconcile -------------------------------------------------------------------------------

    void schedule(@Observes @Priority(TableProvisioner.TABLE_READY + 10) StartupEvent event) {
        config.reconcile().every().filter(every -> !every.isZero() && config.jobs().workerEnabled()).ifPresent(every -> {
            long check = Math.min(every.toMillis(), SCHEDULE_CHECK.toMillis());
            timer = vertx.setPeriodic(check, tick -> schedulePeriod(every).subscribe().with(done -> { },
                    failure -> LOG.debugf("scheduling the periodic reconcile failed: %s", failure.getMessage())));
        });
    }

    /**
     * Schedules the current period's reconcile of everything under an id derived from the period, so however
     * many replicas try, the conditional put writes it once; any replica's worker then claims and runs it. A
     * period whose previous reconcile still runs is skipped: two passes over the table at once help nobody.
     */
    public Uni<Void> schedulePeriod(Duration every) {
        long period = store.now().toEpochMilli() / every.toMillis();
        if (scheduledPeriod.getAndSet(period) == period) {
            return Uni.createFrom().voidItem();
        }
        return jobs.get(periodicId(every, period - 1)).chain(previous -> {
            if (previous != null && previous.state().runnable()) {
                LOG.infof("periodic reconcile %s still runs: the next period's is skipped", previous.id());
                return Uni.createFrom().voidItem();
            }
            String id = periodicId(every, period);
            var target = ReconcileScope.everything(config.reconcile().rate()).toAttributes();
            // The schedule takes a scan slot like a reconcile started by hand: a period whose slots are all held is
            // skipped. Scheduled by another replica already: its slot-and-record transaction is refused here.
            return jobs.recordInSlot(id, config.reconcile().maxScans(),
                            slot -> jobs.schedule(Job.RECONCILE, id, inSlot(target, slot), store.now()))
                    .invoke(() -> LOG.infof("scheduled the periodic reconcile %s", id))
                    .onFailure(failure -> CairnException.is(failure, CairnError.MaintenanceBusy.class)).invoke(failure ->
                            LOG.infof("periodic reconcile %s skipped: %s", id, failure.getMessage()))
                    .onFailure(failure -> CairnException.is(failure, CairnError.Conflict.class,
                            CairnError.MaintenanceBusy.class) && !CairnException.retryable(failure)).recoverWithNull()
                    .replaceWithVoid();
        });
    }

    /** The job id of one period's reconcile: the same on every replica. */
    public static String periodicId(Duration every, long period) {
        return "reconcile-every-" + every.toSeconds() + "s-" + period;
    }

    // --- running ----------------------------------------------------------------------------------------------

    private Uni<Job> run(Job job) {
        ReconcileScope scope = ReconcileScope.fromAttributes(job.target());
        if (scope.entity() != null && catalog.cascade(scope.entity()) == null) {
            LOG.errorf("reconcile %s names %s, which no domain declares", job.id(), scope.entity());
            return jobs.finish(job, State.FAILED, job.progress()).replaceWith(job.with(State.FAILED, job.progress()));
        }
        if (!running.add(job.id())) {
            return Uni.createFrom().nullItem();
        }
        var heartbeat = jobs.keepAlive(job, () -> stopping);
        var pace = new Pace(System.nanoTime(), scope.rate());
        return pages(job, scope, job.progress(), pace).eventually(heartbeat::cancel)
                .eventually(() -> running.remove(job.id()));
    }

    /** The copies checked (or items read) by this run so far, and since when: the next page waits until they fit the rate. */
    private static final class Pace {
        private final long startedNanos;
        private final int rate;
        private long checked;

        Pace(long startedNanos, int rate) {
            this.startedNanos = startedNanos;
            this.rate = Math.max(1, rate);
        }

        /** How long to wait after a page of {@code copies} so the run stays at or under its rate. */
        Duration after(int copies) {
            checked += copies;
            long dueNanos = startedNanos + checked * 1_000_000_000L / rate;
            return Duration.ofNanos(Math.max(0, dueNanos - System.nanoTime()));
        }
    }

    /** A page read, with where the one after it starts (a null position at the last step: no more pages). */
    private record PageRead(List<Map<String, AttributeValue>> items, int read, int nextStep,
                            Map<String, AttributeValue> nextPosition, boolean last) {
    }

    private Uni<PageRead> read(ReconcileScope scope, Progress at) {
        int limit = config.reconcile().pageSize();
        if (scope.id() == null) {
            return scan.page(at.position(), limit).map(page -> new PageRead(page.items(), page.scanned(), 0,
                    page.lastKey(), page.lastKey() == null));
        }
        List<QuerySpec> queries = catalog.cascade(scope.entity()).copies().apply(scope.id()).stream()
                .map(q -> q.withLimit(limit)).toList();
        if (at.step() >= queries.size()) {
            return Uni.createFrom().item(new PageRead(List.of(), 0, at.step(), null, true));
        }
        return store.rawPage(queries.get(at.step()), at.position()).map((RawPage page) -> page.lastKey() == null
                ? new PageRead(page.items(), page.items().size(), at.step() + 1, null, at.step() + 1 >= queries.size())
                : new PageRead(page.items(), page.items().size(), at.step(), page.lastKey(), false));
    }

    /** Page after page from the checkpoint: check, write the stale copies, checkpoint, keep to the rate. */
    private Uni<Job> pages(Job job, ReconcileScope scope, Progress progress, Pace pace) {
        if (progress.pages() > 0 && progress.position() == null && scope.id() == null) {
            return finish(job, progress);
        }
        return read(scope, progress).chain(page -> check(page.items(), scope).chain(counts -> {
            Progress after = progress.page(page.nextStep(), page.nextPosition(), counts.checked(), counts.repaired(),
                    counts.current(), counts.failures()).orphans(counts.orphaned());
            // Items read count too: a Scan through a table of few copies must not read it at full speed.
            Duration wait = pace.after(Math.max(counts.checked(), page.read()));
            if (page.last()) {
                // Paced to the end: a run never checks copies faster than its rate, its last page included.
                return pause(wait).chain(() -> finish(job, after));
            }
            if (stopping) {
                return handOver(job, after);
            }
            // A stop during the pause hands over at once: this page's checkpoint is already written.
            return jobs.checkpoint(job, after).chain(ours -> ours
                    ? pause(wait).chain(() -> stopping ? handOver(job, after) : pages(job, scope, after, pace))
                    : lost(job));
        }));
    }

    /** Gives the job up with its progress: any replica's worker takes it at its next poll, instead of after the lease. */
    private Uni<Job> handOver(Job job, Progress after) {
        return jobs.handOver(job, after).chain(ours -> {
            if (!ours) {
                return lost(job);
            }
            LOG.infof("reconcile %s handed over after %d page(s): this replica is stopping", job.id(), after.pages());
            return Uni.createFrom().<Job>nullItem();
        });
    }

    /**
     * Waits {@code wait} to keep to the rate, or less when the replica stops meanwhile: a stop must not wait out a
     * slow rate's pause (seconds per page) past its hand-over wait, or the job keeps its lease on a closed client.
     */
    private Uni<Void> pause(Duration wait) {
        if (wait.isZero() || stopping) {
            return Uni.createFrom().voidItem();
        }
        return Uni.createFrom().emitter(emitter -> {
            Runnable end = () -> emitter.complete(null);
            pausing.add(end);
            emitter.onTermination(() -> pausing.remove(end));
            if (stopping) {
                end.run(); // the stop began after the check above and may have missed this pause
                return;
            }
            store.pause(wait).subscribe().with(done -> end.run(), emitter::fail);
        });
    }

    /** What checking one page found: copies checked, rewritten, current, whose source is gone, and failures. */
    private record Counts(int checked, int repaired, int current, int orphaned, List<Map<String, String>> failures) {

        static final Counts NONE = new Counts(0, 0, 0, 0, List.of());

        Counts plus(Counts other) {
            var all = new ArrayList<>(failures);
            all.addAll(other.failures());
            return new Counts(checked + other.checked, repaired + other.repaired, current + other.current,
                    orphaned + other.orphaned, all);
        }
    }

    /** The copies of one source found on a page. */
    private record Group(CascadeSpec spec, String sourceId, List<Map<String, AttributeValue>> items) {
    }

    /**
     * One page: its copies grouped by source, the sources read in ONE strongly consistent BatchGetItem, then each
     * source's stale copies written through the cascade's planner: the sources whose copies sit in aggregates one
     * after another (two units bumping the same root would collide), the others side by side.
     */
    private Uni<Counts> check(List<Map<String, AttributeValue>> items, ReconcileScope scope) {
        var groups = new LinkedHashMap<String, Group>();
        var unnamed = new ArrayList<Map<String, String>>();
        for (var item : items) {
            for (CascadeSpec spec : catalog.cascades()) {
                if (!scope.covers(spec.entity())) {
                    continue;
                }
                for (String sourceId : spec.planner().sourcesOf(item, spec.entity())) {
                    if (sourceId == null) {
                        unnamed.add(Map.of("pk", item.get("pk").s(), "sk", item.get("sk").s(), "reason", "UnknownSource"));
                    } else if (scope.id() == null || scope.id().equals(sourceId)) {
                        groups.computeIfAbsent(spec.entity() + "\u0000" + sourceId,
                                k -> new Group(spec, sourceId, new ArrayList<>())).items().add(item);
                    }
                }
            }
        }
        var start = new Counts(unnamed.size(), 0, 0, 0, unnamed);
        if (groups.isEmpty()) {
            return Uni.createFrom().item(start);
        }
        List<Group> all = List.copyOf(groups.values());
        List<PrimaryKey> keys = all.stream().map(g -> g.spec().sourceKey().apply(g.sourceId())).toList();
        return store.batchGet(keys, true).chain(sources -> {
            var inAggregates = new ArrayList<Integer>();
            var standAlone = new ArrayList<Integer>();
            for (int i = 0; i < all.size(); i++) {
                (all.get(i).items().stream().anyMatch(item -> catalog.holdsAggregate(item.get("pk").s()))
                        ? inAggregates : standAlone).add(i);
            }
            Multi<Counts> oneByOne = Multi.createFrom().iterable(inAggregates)
                    .onItem().transformToUniAndConcatenate(i -> reconcile(all.get(i), sources.get(i)));
            Multi<Counts> sideBySide = Multi.createFrom().iterable(standAlone)
                    .onItem().transformToUni(i -> reconcile(all.get(i), sources.get(i)))
                    .merge(Math.max(1, config.cascade().concurrency()));
            return Multi.createBy().merging().streams(oneByOne, sideBySide)
                    .collect().in(() -> new Counts[]{start}, (sum, counts) -> sum[0] = sum[0].plus(counts))
                    .map(sum -> sum[0]);
        });
    }

    private Uni<Counts> reconcile(Group group, Map<String, AttributeValue> source) {
        String entity = group.spec().entity();
        int copies = group.items().size();
        metrics.checked(entity, copies);
        if (source == null) {
            return Uni.createFrom().item(new Counts(copies, 0, 0, copies, List.of()));
        }
        return cascades.writePage(group.items(), group.spec().sourceOf(group.sourceId(), source), group.spec().planner(),
                        config.cascade().concurrency(), config.jobs().retryFor(), CopyBudget.UNLIMITED)
                .invoke(outcome -> metrics.repaired(entity, outcome.updated()))
                .map(outcome -> new Counts(copies, outcome.updated(), outcome.skipped(), 0, outcome.failures()));
    }

    private Uni<Job> finish(Job job, Progress progress) {
        State state = progress.failed() > 0 ? State.FAILED : State.DONE;
        return jobs.finish(job, state, progress).chain(ours -> {
            if (!ours) {
                return lost(job);
            }
            LOG.infof("reconcile %s %s: %d copies checked in %d page(s), %d repaired, %d current, %d orphaned, %d failed",
                    job.id(), state.wire(), progress.matched(), progress.pages(), progress.updated(), progress.skipped(),
                    progress.orphaned(), progress.failed());
            return Uni.createFrom().item(job.with(state, progress));
        });
    }

    private static Uni<Job> lost(Job job) {
        LOG.infof("reconcile %s is no longer this replica's (taken over by another, or cancelled); this one stops", job.id());
        return Uni.createFrom().nullItem();
    }

    /** What a reconcile job shows: its scope, state and counts; which replica holds it. */
    public static Map<String, Object> view(Job job) {
        ReconcileScope scope = ReconcileScope.fromAttributes(job.target());
        var p = job.progress();
        var out = new LinkedHashMap<String, Object>();
        out.put("id", job.id());
        out.put("kind", job.kind());
        out.put("scope", scope.kind());
        out.put("entity", scope.entity());
        out.put("sourceId", scope.id());
        out.put("rate", scope.rate());
        out.put("state", job.state().wire());
        out.put("pages", p.pages());
        out.put("checked", p.matched());
        out.put("repaired", p.updated());
        out.put("current", p.skipped());
        out.put("orphaned", p.orphaned());
        out.put("failed", p.failed());
        out.put("failedKeys", p.failedKeys());
        out.put("createdAt", job.createdAt() == null ? null : job.createdAt().toString());
        out.put("updatedAt", job.updatedAt() == null ? null : job.updatedAt().toString());
        out.put("finishedAt", job.finishedAt() == null ? null : job.finishedAt().toString());
        out.put("owner", job.lease() == null ? null : job.lease().owner());
        out.put("leaseUntil", job.lease() == null ? null : job.lease().until().toString());
        return out;
    }
}
