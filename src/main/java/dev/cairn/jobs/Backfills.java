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
import jakarta.enterprise.inject.Instance;
import org.jboss.logging.Logger;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one-off backfills, as durable jobs: a Scan page at a time, each item that lacks what a later declaration added
 * written with a conditioned write at the version read, and a checkpoint (the Scan's position, the counts) after every
 * page. A process that dies mid-way leaves the job to any replica's {@link JobWorker}, which resumes it from its
 * checkpoint once the lease expires; a page run twice changes nothing the second time. Two kinds:
 * <ul>
 *   <li>{@value Job#LIST_BACKFILL}: the roots of an aggregate stored before its lists existed get their list keys
 *       and summary (one UpdateItem per root to list);</li>
 *   <li>{@value Job#UNIQUE_BACKFILL}: the items of an entity stored before a unique constraint was declared get their
 *       sentinels ({@link Kind}, served by the declared models).</li>
 * </ul>
 */
@ApplicationScoped
public class Backfills {

    private static final Logger LOG = Logger.getLogger(Backfills.class);

    /** One page of a backfill: items read, written, left as they were, the failures (first ones kept), the next start. */
    public record Outcome(int matched, int updated, int unchanged, List<Map<String, String>> failures,
                          Map<String, AttributeValue> lastKey) {
    }

    /** A kind of backfill served elsewhere (by the declared models): its job kind, its pages and its view. */
    public interface Kind {
        String kind();

        /** The target of a new job over {@code name}, or null when it names nothing this kind backfills. */
        Map<String, AttributeValue> target(String name);

        /** The pages of the job's target, or null when no declaration names it any more. */
        Pager pager(Job job);

        Map<String, Object> view(Job job);
    }

    /** Reads and writes one Scan page from {@code start} (null: the table's start). */
    public interface Pager {
        Uni<Outcome> page(Map<String, AttributeValue> start, int limit);
    }

    private final EntityStore store;
    private final JobStore jobs;
    private final AggregateStore aggregates;
    private final Catalog catalog;
    private final CairnConfig config;
    private final Instance<Kind> kinds;
    private final Set<String> running = ConcurrentHashMap.newKeySet();
    /** Set on a graceful stop: a running backfill hands its lease back after its current page. */
    private volatile boolean stopping;

    public Backfills(EntityStore store, JobStore jobs, AggregateStore aggregates, Catalog catalog, CairnConfig config,
                     Instance<Kind> kinds) {
        this.store = store;
        this.jobs = jobs;
        this.aggregates = aggregates;
        this.catalog = catalog;
        this.config = config;
        this.kinds = kinds;
    }

    /** Starts the list backfill of an aggregate (see {@link #start(String, Map)}). */
    public Uni<Job> start(Aggregate aggregate) {
        return start(Job.LIST_BACKFILL, Map.of("aggregate", AttributeValue.fromS(aggregate.name())));
    }

    /**
     * Records a new backfill job of ours and starts it detached; answers the job as recorded. It Scans the table, so
     * it takes a scan slot with its record, or is refused (409 MaintenanceBusy) while every slot is held.
     */
    public Uni<Job> start(String kind, Map<String, AttributeValue> target) {
        return Uni.createFrom().deferred(() -> {
            Instant now = store.now();
            String id = JobTable.newId(now);
            return jobs.recordInSlot(id, config.reconcile().maxScans(),
                            slot -> jobs.create(kind, id, Reconciles.inSlot(target, slot)))
                    .map(slot -> Job.started(id, kind, Reconciles.inSlot(target, slot),
                            new Lease(jobs.settings().owner(), now.plus(jobs.settings().jobLease())), now))
                    .invoke(job -> run(job)
                            .onFailure().invoke(failure -> LOG.warnf("%s %s stopped (%s); it resumes from its "
                                    + "checkpoint once its lease expires", kind, id, failure.getMessage()))
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

    /** The kind of backfill served elsewhere under {@code kind} (null when none is). */
    public Kind kind(String kind) {
        return kinds.stream().filter(k -> k.kind().equals(kind)).findFirst().orElse(null);
    }

    /** Whether a job is one of the backfills. */
    public boolean serves(Job job) {
        return job != null && (Job.LIST_BACKFILL.equals(job.kind()) || kind(job) != null);
    }

    /** What a backfill job shows: its state and counts. */
    public Map<String, Object> view(Job job) {
        Kind kind = kind(job);
        return kind != null ? kind.view(job) : listView(job);
    }

    private Kind kind(Job job) {
        return kind(job.kind());
    }

    private Pager pager(Job job) {
        if (!Job.LIST_BACKFILL.equals(job.kind())) {
            Kind kind = kind(job);
            return kind == null ? null : kind.pager(job);
        }
        Aggregate aggregate = catalog.aggregate(job.target().get("aggregate").s());
        return aggregate == null ? null : (start, limit) -> aggregates.relistPage(aggregate, start, limit)
                .map(page -> new Outcome(page.roots(), page.updated(), page.current() + page.skipped(), List.of(),
                        page.lastKey()));
    }

    private Uni<Job> run(Job job) {
        Pager pager = pager(job);
        if (pager == null) {
            LOG.errorf("%s %s names %s, which no domain declares", job.kind(), job.id(), job.target());
            return jobs.finish(job, State.FAILED, job.progress()).replaceWith(job.with(State.FAILED, job.progress()));
        }
        if (!running.add(job.id())) {
            return Uni.createFrom().nullItem();
        }
        var heartbeat = jobs.keepAlive(job, () -> stopping);
        return pages(job, pager, job.progress()).eventually(heartbeat::cancel).eventually(() -> running.remove(job.id()));
    }

    /** Page after page from the checkpoint; a first page starts at the table's start (a position of null). */
    private Uni<Job> pages(Job job, Pager pager, Progress progress) {
        if (progress.pages() > 0 && progress.position() == null) {
            return finish(job, progress);
        }
        return pager.page(progress.position(), config.jobs().backfillPageSize()).chain(page -> {
            Progress after = progress.page(0, page.lastKey(), page.matched(), page.updated(), page.unchanged(),
                    page.failures());
            if (page.lastKey() == null) {
                return finish(job, after);
            }
            if (stopping) {
                // Any replica's worker takes it over at its next poll, instead of after the lease.
                return jobs.handOver(job, after).chain(ours -> {
                    if (!ours) {
                        return lost(job);
                    }
                    LOG.infof("%s %s handed over after %d page(s): this replica is stopping", job.kind(), job.id(),
                            after.pages());
                    return Uni.createFrom().<Job>nullItem();
                });
            }
            return jobs.checkpoint(job, after).chain(ours -> ours ? pages(job, pager, after) : lost(job));
        });
    }

    private Uni<Job> finish(Job job, Progress progress) {
        return jobs.finish(job, State.DONE, progress).chain(ours -> {
            if (!ours) {
                return lost(job);
            }
            LOG.infof("%s %s done: %d item(s) in %d page(s), %d written, %d failed", job.kind(), job.id(),
                    progress.matched(), progress.pages(), progress.updated(), progress.failed());
            return Uni.createFrom().item(job.with(State.DONE, progress));
        });
    }

    private static Uni<Job> lost(Job job) {
        LOG.infof("%s %s is no longer this replica's (taken over by another, or cancelled); this one stops", job.kind(),
                job.id());
        return Uni.createFrom().nullItem();
    }

    /** What a list backfill job shows: its state and counts. */
    public static Map<String, Object> listView(Job job) {
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
