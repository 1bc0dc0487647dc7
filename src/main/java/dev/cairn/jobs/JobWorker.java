package dev.cairn.jobs;

import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.job.Job;
import dev.cairn.core.job.JobTable;
import dev.cairn.platform.CairnConfig;
import dev.cairn.platform.Catalog;
import dev.cairn.platform.TableProvisioner;
import dev.cairn.store.AggregateStore;
import dev.cairn.store.JobStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

/**
 * Every replica's worker: at a bounded interval it asks each shard of the runnable-job index for the jobs whose
 * lease has expired (1 Query per shard, never a Scan), claims them one by one with a conditional write (so only
 * one replica gets each), and runs them: a cascade, a backfill or a reconcile resumes from its checkpoint (a scheduled
 * one starts), an aggregate write left behind by a dead writer is undone. Nothing blocks: it runs on a Vert.x
 * timer, through the same Mutiny pipelines as requests.
 */
@ApplicationScoped
public class JobWorker {

    private static final Logger LOG = Logger.getLogger(JobWorker.class);
    private static final int CLAIMABLE_PER_SHARD = 10;
    /** Ahead of the default observer priority ({@code Interceptor.Priority.APPLICATION + 500}). */
    static final int STOP_CLAIMING = Interceptor.Priority.APPLICATION;

    private final JobStore jobs;
    private final CascadeJobs cascades;
    private final Backfills backfills;
    private final Reconciles reconciles;
    private final AggregateStore aggregates;
    private final Catalog catalog;
    private final CairnConfig config;
    private final Vertx vertx;
    private final AtomicBoolean polling = new AtomicBoolean();
    private volatile boolean stopping;
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicLong oldestRunnableMillis = new AtomicLong();
    private volatile long timer = -1;

    public JobWorker(JobStore jobs, CascadeJobs cascades, Backfills backfills, Reconciles reconciles,
                     AggregateStore aggregates, Catalog catalog, CairnConfig config, Vertx vertx, MeterRegistry registry) {
        this.jobs = jobs;
        this.cascades = cascades;
        this.backfills = backfills;
        this.reconciles = reconciles;
        this.aggregates = aggregates;
        this.catalog = catalog;
        this.config = config;
        this.vertx = vertx;
        Gauge.builder("cairn.jobs.running", cascades, CascadeJobs::runningHere)
                .description("Cascade jobs running in this replica").register(registry);
        Gauge.builder("cairn.jobs.oldest.runnable.age", oldestRunnableMillis, a -> a.get() / 1000.0)
                .description("Age in seconds of the oldest job found waiting for a worker at the last poll")
                .baseUnit("seconds").register(registry);
    }

    void start(@Observes @Priority(TableProvisioner.TABLE_READY + 10) StartupEvent event) {
        if (config.jobs().workerEnabled()) {
            timer = vertx.setPeriodic(config.jobs().poll().toMillis(), id -> poll());
        }
    }

    /**
     * Stops claiming before any running job hands over (this observer runs ahead of the jobs' own, which observe at
     * the default priority): a handed-over job is due at once and still names this replica, so a poll of ours would
     * claim it back and hold it, with a client about to close, for a whole lease.
     */
    void stop(@Observes @Priority(STOP_CLAIMING) ShutdownEvent event) {
        stopping = true;
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }

    /** One round over every shard; a round still running when the timer fires again is not doubled. */
    void poll() {
        if (stopping || !polling.compareAndSet(false, true)) {
            return;
        }
        List<Uni<List<Job>>> shards = IntStream.range(0, jobs.table().shards())
                .mapToObj(shard -> jobs.claimable(shard, CLAIMABLE_PER_SHARD)).toList();
        Uni.join().all(shards).andCollectFailures()
                .map(found -> found.stream().flatMap(List::stream).toList())
                .invoke(found -> oldestRunnableMillis.set(found.stream().map(Job::createdAt)
                        .filter(Objects::nonNull).min(Instant::compareTo)
                        .map(t -> Math.max(0, Duration.between(t, jobs.now()).toMillis())).orElse(0L)))
                .onItem().transformToMulti(found -> Multi.createFrom().iterable(found))
                .onItem().transformToUniAndConcatenate(this::claimAndRun)
                .collect().last()
                .eventually(() -> polling.set(false))
                .subscribe().with(done -> { }, failure -> LOG.debugf("job poll failed: %s", failure.getMessage()));
    }

    /** Claims one job if this replica has room, then runs it detached (the poll goes on). */
    private Uni<Void> claimAndRun(Job job) {
        if (stopping || active.get() >= config.jobs().concurrency()) {
            return Uni.createFrom().voidItem();
        }
        return jobs.claim(job).invoke(claimed -> {
            if (claimed == null) {
                return;
            }
            active.incrementAndGet();
            LOG.infof(job.lease() != null && JobTable.SCHEDULED.equals(job.lease().owner())
                    ? "took %s job %s (it was scheduled for now)"
                    : "took over %s job %s (its owner's lease ran out, or the owner handed it over as it stopped)",
                    claimed.kind(), claimed.id());
            run(claimed).eventually(active::decrementAndGet)
                    .subscribe().with(done -> { }, failure -> LOG.warnf("job %s stopped: %s; it is retried after its "
                            + "lease expires", claimed.id(), failure.getMessage()));
        }).replaceWithVoid();
    }

    private Uni<Void> run(Job job) {
        return switch (job.kind()) {
            case Job.CASCADE -> cascades.resume(job).replaceWithVoid();
            case Job.LIST_BACKFILL, Job.UNIQUE_BACKFILL -> backfills.resume(job).replaceWithVoid();
            case Job.RECONCILE -> reconciles.resume(job).replaceWithVoid();
            case Job.AGGREGATE_WRITE -> {
                var target = AggregateStore.intentTarget(job);
                Aggregate aggregate = catalog.aggregate(target.getKey());
                if (aggregate == null) {
                    LOG.errorf("job %s names the aggregate %s, which no domain declares", job.id(), target.getKey());
                    yield Uni.createFrom().voidItem();
                }
                // Undone, or nothing left in flight: the intent is over (the undo removes it itself).
                yield aggregates.recover(aggregate, target.getValue()).chain(settled -> settled
                        ? jobs.delete(job).replaceWithVoid() : Uni.createFrom().voidItem());
            }
            default -> {
                LOG.errorf("job %s has an unknown kind %s", job.id(), job.kind());
                yield Uni.createFrom().voidItem();
            }
        };
    }
}
