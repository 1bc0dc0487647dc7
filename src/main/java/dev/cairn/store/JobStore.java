package dev.cairn.store;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.job.Job.Progress;
import dev.cairn.core.job.Job.State;
import dev.cairn.core.job.Job;
import dev.cairn.core.job.JobTable;
import dev.cairn.core.query.Page;
import dev.cairn.core.write.TransactionPlan;
import dev.cairn.core.write.WriteAction;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import jakarta.enterprise.context.ApplicationScoped;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/**
 * Job records: created inside the transaction of the change they follow, found through the runnable index (never
 * a Scan), claimed, checkpointed and finished under this process's lease ({@link Leases}).
 */
@ApplicationScoped
public class JobStore {

    private final EntityStore store;
    private final Leases leases;
    private final JobSettings settings;
    private final JobTable table;

    public JobStore(EntityStore store, Leases leases, JobSettings settings) {
        this.store = store;
        this.leases = leases;
        this.settings = settings;
        this.table = new JobTable(settings.shards(), settings.retention());
    }

    public JobTable table() {
        return table;
    }

    public JobSettings settings() {
        return settings;
    }

    public Instant now() {
        return store.now();
    }

    /** A new job owned by this process, to be written in the same transaction as the change it follows. */
    public WriteAction create(String kind, String id, Map<String, AttributeValue> target) {
        Instant now = store.now();
        return table.create(kind, id, target, settings.owner(), now, now.plus(settings.jobLease()));
    }

    /** The job as it stands now (strongly consistent), or null. */
    public Uni<Job> get(String id) {
        return store.getItem(JobTable.key(id), true).map(item -> item != null && JobTable.isJob(item) ? JobTable.fromItem(item) : null);
    }

    /** Jobs of one shard whose lease expired (their owner died or gave up), oldest due first. */
    public Uni<List<Job>> claimable(int shard, int limit) {
        return store.rawPage(table.claimable(shard, store.now(), limit), null)
                .map(page -> page.items().stream().filter(JobTable::isJob).map(JobTable::fromItem)
                        .filter(job -> job.state().runnable()).toList());
    }

    /** Takes a job over; null when another process got it first or it is no longer runnable. */
    public Uni<Job> claim(Job job) {
        Instant now = store.now();
        return leases.attempt(table.claim(job, settings.owner(), now, now.plus(settings.jobLease())))
                .chain(claimed -> claimed ? get(job.id()) : Uni.createFrom().nullItem());
    }

    /** Records progress and renews the lease; false once the job is no longer ours. */
    public Uni<Boolean> checkpoint(Job job, Progress progress) {
        Instant now = store.now();
        return leases.attempt(table.checkpoint(job, progress, settings.owner(), now, now.plus(settings.jobLease())));
    }

    /** Records progress and gives the job up: its lease ends now, so any replica's worker takes it at once. */
    public Uni<Boolean> handOver(Job job, Progress progress) {
        Instant now = store.now();
        return leases.attempt(table.checkpoint(job, progress, settings.owner(), now, now));
    }

    /** Extends our lease without recording progress; false once the job is no longer ours. */
    public Uni<Boolean> heartbeat(Job job) {
        Instant now = store.now();
        return leases.attempt(table.heartbeat(job, settings.owner(), now, now.plus(settings.jobLease())));
    }

    /**
     * Renews our lease on {@code job} every third of the lease until cancelled, so a slow (or paced) page never looks
     * like a dead owner; nothing is renewed while {@code stopping} holds (the job hands over after its page).
     */
    public Cancellable keepAlive(Job job, BooleanSupplier stopping) {
        return Multi.createFrom().ticks().every(settings.jobLease().dividedBy(3))
                .onItem().transformToUniAndConcatenate(tick -> stopping.getAsBoolean() ? Uni.createFrom().item(true)
                        : heartbeat(job).onFailure().recoverWithItem(true))
                .subscribe().with(ours -> { }, failure -> { });
    }

    /** Ends a job of ours (giving back the scan slot it holds, in the same transaction); false once not ours. */
    public Uni<Boolean> finish(Job job, State state, Progress progress) {
        WriteAction finish = table.finish(job, state, progress, settings.owner(), store.now());
        return job.slot() == null ? leases.attempt(finish)
                : leases.attempt(TransactionPlan.of(List.of(finish, JobTable.releaseSlot(job.slot(), job.id()))));
    }

    /**
     * Cancels a job that has not ended, giving back its scan slot in the same transaction: false when it had ended
     * already. The replica running it stops at its next checkpoint, which the cancelled lease refuses.
     */
    public Uni<Boolean> cancel(Job job) {
        WriteAction cancel = table.cancel(job, store.now());
        return job.slot() == null ? leases.attempt(cancel)
                : leases.attempt(TransactionPlan.of(List.of(cancel, JobTable.releaseSlot(job.slot(), job.id()))));
    }

    /**
     * Records a job that scans the whole table in one of {@code slots} scan slots, the slot taken in the same
     * transaction as {@code record} writes the job (given the slot to name in its target). A slot held by a job that
     * no longer runs (it ended without giving it back) is taken over. Fails with 409 MaintenanceBusy naming the jobs
     * holding every slot.
     */
    public Uni<Integer> recordInSlot(String id, int slots, IntFunction<WriteAction> record) {
        return trySlot(id, 0, slots, record).chain(taken -> taken != null ? Uni.createFrom().item(taken)
                : store.batchGet(IntStream.range(0, slots).mapToObj(JobTable::slotKey).toList(), true)
                .chain(held -> takeStaleSlot(id, held, record)));
    }

    private Uni<Integer> trySlot(String id, int slot, int slots, IntFunction<WriteAction> record) {
        if (slot >= slots) {
            return Uni.createFrom().nullItem();
        }
        return leases.attempt(TransactionPlan.of(List.of(JobTable.takeSlot(slot, id, store.now()), record.apply(slot))))
                .chain(taken -> taken ? Uni.createFrom().item(slot) : trySlot(id, slot + 1, slots, record));
    }

    private Uni<Integer> takeStaleSlot(String id, List<Map<String, AttributeValue>> held, IntFunction<WriteAction> record) {
        var holders = held.stream().map(JobTable::holderOf).toList();
        return Uni.join().all(holders.stream().map(holder -> holder == null ? Uni.createFrom().<Job>nullItem() : get(holder))
                .toList()).andFailFast().chain(jobs -> {
            for (int slot = 0; slot < holders.size(); slot++) {
                Job holder = jobs.get(slot);
                if (holders.get(slot) != null && (holder == null || !holder.state().runnable())) {
                    int stale = slot;
                    return leases.attempt(TransactionPlan.of(List.of(JobTable.takeSlotFrom(slot, holders.get(slot), id,
                            store.now()), record.apply(slot)))).chain(taken -> taken ? Uni.createFrom().item(stale)
                            : Uni.createFrom().failure(busy(holders)));
                }
            }
            return Uni.createFrom().failure(busy(holders));
        });
    }

    private static CairnException busy(List<String> holders) {
        var running = holders.stream().filter(java.util.Objects::nonNull).toList();
        return new CairnException(new CairnError.MaintenanceBusy("a maintenance job that scans the table cannot start "
                + "while " + running.size() + " such job(s) run (" + String.join(", ", running) + "); wait for one to "
                + "end, or cancel one: POST /maintenance/jobs/{id}/cancel", running));
    }

    /**
     * Ends a job of ours together with {@code also} in ONE transaction (what its end sets off, e.g. a scheduled
     * follow-up job), so a process that dies in between never leaves one without the other; false once not ours.
     */
    public Uni<Boolean> finish(Job job, State state, Progress progress, WriteAction also) {
        return leases.attempt(TransactionPlan.of(List.of(table.finish(job, state, progress, settings.owner(), store.now()),
                also)));
    }

    /** A job nobody holds, claimable by any replica's worker from {@code due} on; write it with what causes it. */
    public WriteAction schedule(String kind, String id, Map<String, AttributeValue> target, Instant due) {
        return table.schedule(kind, id, target, store.now(), due);
    }

    /** Puts a job of ours back for another pass from the start at {@code due}; false once not ours. */
    public Uni<Boolean> retryLater(Job job, Instant due) {
        return leases.attempt(table.retryLater(job, settings.owner(), store.now(), due));
    }

    /** Runs a failed job again from the start, at once (any worker claims it); false unless it is failed. */
    public Uni<Boolean> retryNow(Job job) {
        return leases.attempt(table.retryNow(job, store.now()));
    }

    /** Records that the settle pass of cascade job {@code id} is over. */
    public WriteAction settled(String id) {
        return table.settled(id, store.now());
    }

    /** Removes a job of ours that leaves nothing worth keeping; false when it is gone or no longer ours. */
    public Uni<Boolean> delete(Job job) {
        return leases.attempt(table.delete(job.id(), settings.owner()));
    }

    /** One page of the jobs in a state (1 Query per shard, in parallel). */
    public Uni<Page<Job>> list(State state, int limit, String cursor) {
        return store.fanOutPage(shards -> table.listing(state, limit), settings.shards(), cursor)
                .map(page -> page.map(JobTable::fromItem));
    }
}
