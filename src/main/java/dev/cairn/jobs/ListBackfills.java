package dev.cairn.jobs;

import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.job.Job.Progress;
import dev.cairn.core.job.Job.State;
import dev.cairn.core.job.Job;
import dev.cairn.core.job.JobTable;
import dev.cairn.core.lease.Lease;
import dev.cairn.platform.CairnConfig;
import dev.cairn.platform.Catalog;
import dev.cairn.store.AggregateStore;
import dev.cairn.store.EntityStore;
import dev.cairn.store.JobStore;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one-off backfill that lists an aggregate's roots stored before its lists existed, as a durable job: a Scan
 * page at a time, each root not listed correctly written with ONE conditional UpdateItem at the version read, and
 * a checkpoint (the Scan's position, the counts) after every page. A process that dies mid-way leaves the job to
 * any replica's {@link JobWorker}, which resumes it from its checkpoint once the lease expires; a page run twice
 * changes nothing the second time (its roots are listed already).
 */
@ApplicationScoped
public class ListBackfills {

    private static final Logger LOG = Logger.getLogger(ListBackfills.class);

    private final EntityStore store;
    private final JobStore jobs;
    private final AggregateStore aggregates;
    private final Catalog catalog;
    private final CairnConfig config;
    private final Set<String> running = ConcurrentHashMap.newKeySet();
    /** Set on a graceful stop: a running backfill hands its lease back after its current page. */
    private volatile boolean stopping;

    public ListBackfills(EntityStore store, JobStore jobs, AggregateStore aggregates, Catalog catalog, CairnConfig config) {
        this.store = store;
        this.jobs = jobs;
        this.aggregates = aggregates;
        this.catalog = catalog;
        this.config = config;
    }

    /**
     * Records a new backfill job of ours and starts it detached; answers the job as recorded. It Scans the table, so
     * it takes a scan slot with its record, or is refused (409 MaintenanceBusy) while every slot is held.
     */
    public Uni<Job> start(Aggregate aggregate) {
        return Uni.createFrom().deferred(() -> {
            Instant now = store.now();
            String id = JobTable.newId(now);
            Map<String, AttributeValue> target = Map.of("aggregate", AttributeValue.fromS(aggregate.name()));
            return jobs.recordInSlot(id, config.reconcile().maxScans(),
                            slot -> jobs.create(Job.LIST_BACKFILL, id, Reconciles.inSlot(target, slot)))
                    .map(slot -> Job.started(id, Job.LIST_BACKFILL, Reconciles.inSlot(target, slot),
                            new Lease(jobs.settings().owner(), now.plus(jobs.settings().jobLease())), now))
                    .invoke(job -> run(job)
                            .onFailure().invoke(failure -> LOG.warnf("list backfill %s stopped (%s); it resumes from its "
                                    + "checkpoint once its lease expires", id, failure.getMessage()))
                            .subscribe().with(done -> { }, failure -> { }));
        });
    }

    /** A graceful stop (SIGTERM, a rollout): running backfills hand over after their page; waits a bounded time. */
    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        stopping = true;
        long deadline = System.nanoTime() + config.jobs().handOverWait().toNanos();
        while (!running.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }

    /** Resumes a backfill taken over from a dead owner, from its checkpoint. */
    public Uni<Job> resume(Job job) {
        return run(job);
    }

    private Uni<Job> run(Job job) {
        Aggregate aggregate = catalog.aggregate(job.target().get("aggregate").s());
        if (aggregate == null) {
            LOG.errorf("list backfill %s names %s, which no domain declares", job.id(), job.target().get("aggregate").s());
            return jobs.finish(job, State.FAILED, job.progress()).replaceWith(job.with(State.FAILED, job.progress()));
        }
        if (!running.add(job.id())) {
            return Uni.createFrom().nullItem();
        }
        var heartbeat = jobs.keepAlive(job, () -> stopping);
        return pages(job, aggregate, job.progress()).eventually(heartbeat::cancel).eventually(() -> running.remove(job.id()));
    }

    /** Page after page from the checkpoint; a first page starts at the table's start (a position of null). */
    private Uni<Job> pages(Job job, Aggregate aggregate, Progress progress) {
        if (progress.pages() > 0 && progress.position() == null) {
            return finish(job, progress);
        }
        return aggregates.relistPage(aggregate, progress.position(), config.jobs().backfillPageSize()).chain(page -> {
            Progress after = progress.page(0, page.lastKey(), page.roots(), page.updated(),
                    page.current() + page.skipped(), List.of());
            if (page.lastKey() == null) {
                return finish(job, after);
            }
            if (stopping) {
                // Any replica's worker takes it over at its next poll, instead of after the lease.
                return jobs.handOver(job, after).invoke(ours -> LOG.infof("list backfill %s handed over after %d page(s): "
                        + "this replica is stopping", job.id(), after.pages())).replaceWith((Job) null);
            }
            return jobs.checkpoint(job, after).chain(ours -> ours ? pages(job, aggregate, after) : lost(job));
        });
    }

    private Uni<Job> finish(Job job, Progress progress) {
        return jobs.finish(job, State.DONE, progress).chain(ours -> {
            if (!ours) {
                return lost(job);
            }
            LOG.infof("list backfill %s done: %d root(s) in %d page(s), %d listed now", job.id(), progress.matched(),
                    progress.pages(), progress.updated());
            return Uni.createFrom().item(job.with(State.DONE, progress));
        });
    }

    private static Uni<Job> lost(Job job) {
        LOG.infof("list backfill %s was taken over by another replica; this one stops", job.id());
        return Uni.createFrom().nullItem();
    }

    /** What a backfill job shows: its state and counts. */
    public static Map<String, Object> view(Job job) {
        var out = new LinkedHashMap<String, Object>();
        out.put("id", job.id());
        out.put("kind", job.kind());
        out.put("aggregate", job.target().get("aggregate").s());
        out.put("state", job.state().wire());
        out.put("pages", job.progress().pages());
        out.put("roots", job.progress().matched());
        out.put("updated", job.progress().updated());
        out.put("unchanged", job.progress().skipped());
        out.put("createdAt", job.createdAt() == null ? null : job.createdAt().toString());
        out.put("finishedAt", job.finishedAt() == null ? null : job.finishedAt().toString());
        return out;
    }
}
