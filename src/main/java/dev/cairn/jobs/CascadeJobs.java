package dev.cairn.jobs;

import dev.cairn.core.cascade.CascadeSource;
import dev.cairn.core.cascade.CascadeSpec;
import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.job.Job.Progress;
import dev.cairn.core.job.Job.State;
import dev.cairn.core.job.Job;
import dev.cairn.core.job.JobTable;
import dev.cairn.core.lease.Lease;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.core.write.TransactionPlan;
import dev.cairn.core.write.WriteAction;
import dev.cairn.platform.CairnConfig;
import dev.cairn.platform.Catalog;
import dev.cairn.store.CascadeStore;
import dev.cairn.store.CopyBudget;
import dev.cairn.store.EntityStore.RawPage;
import dev.cairn.store.EntityStore;
import dev.cairn.store.JobStore;
import dev.cairn.store.StoreMetrics;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Cascades as durable jobs. The source's update and its job record commit in ONE transaction, so a committed
 * change always has its cascade recorded. The job then runs page by page through the copy queries: the copies of
 * a page are written while the next page is read, and the job checkpoints (and renews its lease) after every
 * page. A process that dies leaves the job to any replica's {@link JobWorker}, which resumes it from its last
 * checkpoint once the lease expires. Copy writes are conditioned on the source version, so a page written twice
 * changes nothing the second time, and an older job's copies never overwrite a newer one's.
 */
@ApplicationScoped
public class CascadeJobs {

    private static final Logger LOG = Logger.getLogger(CascadeJobs.class);

    private final EntityStore store;
    private final JobStore jobs;
    private final CascadeStore cascades;
    private final Catalog catalog;
    private final CairnConfig config;
    private final StoreMetrics metrics;
    /** Jobs this process is running now: a job is never run twice at once here. */
    private final Set<String> running = ConcurrentHashMap.newKeySet();
    /** Set on a graceful stop: each running job hands its lease back after the page it is writing. */
    private volatile boolean stopping;

    public CascadeJobs(EntityStore store, JobStore jobs, CascadeStore cascades, Catalog catalog, CairnConfig config,
                       StoreMetrics metrics) {
        this.store = store;
        this.jobs = jobs;
        this.cascades = cascades;
        this.catalog = catalog;
        this.config = config;
        this.metrics = metrics;
    }

    public int runningHere() {
        return running.size();
    }

    /**
     * A graceful stop (SIGTERM, a rollout): every running job checkpoints after its current page with a lease that
     * ends now, so another replica's worker takes it over at its next poll instead of after the lease. Waits a
     * bounded time for the hand-over; a job still inside a long page keeps its lease, which then simply expires.
     */
    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        stopping = true;
        long deadline = System.nanoTime() + config.jobs().handOverWait().toNanos();
        while (!running.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }

    /**
     * Commits the source write and a new cascade job (owned by this process) in ONE transaction; a refused source
     * write is that write's own error (NotFound, VersionConflict) and records no job.
     */
    public Uni<Job> commit(List<WriteAction> sourceWrites, CascadeSource source) {
        return Uni.createFrom().deferred(() -> {
            Instant now = store.now();
            String id = JobTable.newId(now);
            WriteAction job = jobs.create(Job.CASCADE, id, source.toAttributes());
            var lease = new Lease(jobs.settings().owner(), now.plus(jobs.settings().jobLease()));
            var actions = new java.util.ArrayList<WriteAction>();
            actions.add(sourceWrites.get(0));
            actions.add(job);
            actions.addAll(sourceWrites.subList(1, sourceWrites.size()));
            return store.transact(TransactionPlan.of(actions))
                    .replaceWith(Job.started(id, Job.CASCADE, source.toAttributes(), lease, now));
        });
    }

    /**
     * Starts running a job of ours, detached from the caller: it goes on when the caller stops waiting. The Uni
     * answers the job as it ended, or null when the job went to another replica (or could not be run now; it is
     * then resumed after its lease expires). Each page's copy writes are taken from {@code budget} (the copy budget
     * of the caller whose write caused it) before they are written; a job resumed elsewhere charges nobody.
     */
    public Uni<Job> start(Job job, CopyBudget budget) {
        Uni<Job> run = run(job, budget).eventually(budget::close).onFailure().recoverWithItem(failure -> {
            LOG.warnf("cascade job %s stopped (%s); it resumes from its checkpoint once its lease expires",
                    job.id(), failure.getMessage());
            return null;
        }).memoize().indefinitely();
        run.subscribe().with(done -> { });
        return run;
    }

    /**
     * Resumes a job taken over from a dead owner. A job whose source moved on to a newer version is done at once:
     * the newer version's own job brings every copy to the newer state.
     */
    public Uni<Job> resume(Job job) {
        CascadeSource source = CascadeSource.fromAttributes(job.target());
        CascadeSpec spec = catalog.cascade(source.entity());
        if (spec == null) {
            return finish(job, job.progress(), State.FAILED);
        }
        return store.getItem(spec.sourceKey().apply(source.id()), true).chain(item -> {
            if (item != null && EntitySpec.versionOf(item) > source.version()) {
                LOG.infof("cascade job %s of %s %s v%d is superseded by v%d", job.id(), source.entity(), source.id(),
                        source.version(), EntitySpec.versionOf(item));
                return finish(job, job.progress(), State.DONE);
            }
            return run(job, CopyBudget.UNLIMITED);
        });
    }

    private Uni<Job> run(Job job, CopyBudget budget) {
        if (!running.add(job.id())) {
            return Uni.createFrom().nullItem();
        }
        return Uni.createFrom().deferred(() -> {
            CascadeSource source = CascadeSource.fromAttributes(job.target());
            CascadeSpec spec = catalog.cascade(source.entity());
            if (spec == null) {
                LOG.errorf("cascade job %s names %s, which no domain declares", job.id(), source.entity());
                return finish(job, job.progress(), State.FAILED);
            }
            int pageSize = config.jobs().pageSize();
            List<QuerySpec> queries = spec.copies().apply(source.id()).stream().map(q -> q.withLimit(pageSize)).toList();
            Progress at = job.resumeFrom();
            var heartbeat = jobs.keepAlive(job, () -> stopping);
            return pages(job, source, spec, queries, at, read(queries, at.step(), at.position()),
                    Uni.createFrom().item(true), budget).eventually(heartbeat::cancel);
        }).eventually(() -> running.remove(job.id()));
    }

    /** A page read, with where the one after it starts. */
    private record PageRead(RawPage page, int nextStep, Map<String, AttributeValue> nextPosition) {
    }

    private Uni<Optional<PageRead>> read(List<QuerySpec> queries, int step, Map<String,
            AttributeValue> position) {
        if (step >= queries.size()) {
            return Uni.createFrom().item(Optional.empty());
        }
        return store.rawPage(queries.get(step), position).map(page -> Optional.of(page.lastKey() == null
                ? new PageRead(page, step + 1, null) : new PageRead(page, step, page.lastKey())));
    }

    /**
     * One page after another: a page's copies are written while the next page is read and while the previous
     * page's checkpoint is written; a page's checkpoint starts once all its copies are written. A refused
     * checkpoint (the job was taken over) stops this run.
     */
    private Uni<Job> pages(Job job, CascadeSource source, CascadeSpec spec, List<QuerySpec> queries, Progress progress,
                           Uni<Optional<PageRead>> reading, Uni<Boolean> checkpointed, CopyBudget budget) {
        return reading.chain(current -> {
            if (current.isEmpty()) {
                return checkpointed.chain(ours -> ours
                        ? finish(job, progress, progress.failed() > 0 ? State.FAILED : State.DONE) : lost(job));
            }
            PageRead page = current.get();
            Uni<Optional<PageRead>> next = read(queries, page.nextStep(), page.nextPosition());
            return Uni.combine().all().unis(cascades.writePage(page.page().items(), source, spec.planner(),
                            config.cascade().concurrency(), config.jobs().retryFor(), budget), next, checkpointed).asTuple()
                    .chain(all -> {
                        if (!all.getItem3()) {
                            return lost(job);
                        }
                        var outcome = all.getItem1();
                        Progress after = progress.page(page.nextStep(), page.nextPosition(), outcome.matched(),
                                outcome.updated(), outcome.skipped(), outcome.failures());
                        if (stopping) {
                            return jobs.handOver(job, after).chain(ours -> {
                                if (!ours) {
                                    return lost(job);
                                }
                                LOG.infof("cascade job %s handed over after %d page(s): this replica is stopping",
                                        job.id(), after.pages());
                                return Uni.createFrom().<Job>nullItem();
                            });
                        }
                        Uni<Boolean> checkpoint = jobs.checkpoint(job, after).memoize().indefinitely();
                        checkpoint.subscribe().with(ours -> { }, failure -> { });
                        return pages(job, source, spec, queries, after, Uni.createFrom().item(all.getItem2()), checkpoint,
                                budget);
                    });
        });
    }

    /**
     * Ends a pass. DynamoDB fills a GSI asynchronously, so the ref-index Query of a pass can miss copies written
     * just before it (and a writer racing the source change may commit one after it): a first pass therefore
     * schedules, in the same transaction as its end, a settle pass of the same source that any replica's worker
     * runs once {@code cairn.cascade.settle} has passed — it reads the index again and writes whatever is still
     * older. A settle pass's end records on the first pass that it settled.
     */
    private Uni<Job> finish(Job job, Progress progress, State state) {
        if (state == State.FAILED && job.settles() == null && job.retries() < config.jobs().maxRetries()) {
            return retryLater(job, progress);
        }
        Duration settle = config.cascade().settle();
        WriteAction after = job.settles() != null ? jobs.settled(job.settles())
                : settle.isZero() ? null
                : jobs.schedule(Job.CASCADE, job.settleId(), settleTarget(job), store.now().plus(settle));
        return (after == null ? jobs.finish(job, state, progress) : jobs.finish(job, state, progress, after)).chain(ours -> {
            if (!ours) {
                return lost(job);
            }
            metrics.jobFinished(job.kind(), state.wire());
            return Uni.createFrom().item(job.with(state, progress));
        });
    }

    /**
     * A pass that ended with failed copies (their items kept failing for {@code retry-for}) runs again by itself,
     * from the start, after a pause that doubles with each retry: copies already current are skipped, so a retry
     * costs the reads and the copies still stale. Answers the job as the failed pass left it, now pending.
     */
    private Uni<Job> retryLater(Job job, Progress progress) {
        Duration backoff = config.jobs().retryBackoff().multipliedBy(1L << Math.min(job.retries(), 20));
        Duration pause = backoff.compareTo(config.jobs().maxRetryBackoff()) > 0 ? config.jobs().maxRetryBackoff() : backoff;
        Instant due = store.now().plus(pause);
        return jobs.retryLater(job, due).chain(ours -> {
            if (!ours) {
                return lost(job);
            }
            LOG.infof("cascade job %s: %d copies failed; retry %d of %d at %s", job.id(), progress.failed(),
                    job.retries() + 1, config.jobs().maxRetries(), due);
            metrics.jobFinished(job.kind(), "retrying");
            return Uni.createFrom().item(new Job(job.id(), job.kind(), State.PENDING, job.target(), progress, job.lease(),
                    job.createdAt(), store.now(), null, null, job.retries() + 1, due));
        });
    }

    /** Runs a failed cascade job again from the start, now: any replica's worker claims it at its next poll. */
    public Uni<Boolean> retry(Job job) {
        return jobs.retryNow(job);
    }

    private static Map<String, AttributeValue> settleTarget(Job job) {
        var target = new HashMap<>(job.target());
        target.put(Job.SETTLES, AttributeValue.fromS(job.id()));
        return target;
    }

    private static Uni<Job> lost(Job job) {
        LOG.infof("cascade job %s is no longer this replica's (taken over by another, or cancelled); this one stops",
                job.id());
        return Uni.createFrom().nullItem();
    }
}
