package dev.cairn.core.job;

import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.TableSpec;
import dev.cairn.core.expr.Condition;
import dev.cairn.core.expr.SortCondition;
import dev.cairn.core.expr.Update;
import dev.cairn.core.item.Timestamps;
import dev.cairn.core.job.Job.Progress;
import dev.cairn.core.job.Job.State;
import dev.cairn.core.key.KeyCodec;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.lease.Lease;
import dev.cairn.core.query.FanOut;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.core.write.WriteAction.Expectation;
import dev.cairn.core.write.WriteAction;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.IntStream;

/**
 * How jobs live in the single table: one item per job ({@code JOB#<id>} / {@code JOB}), and a write-sharded
 * index on gsi2 that the workers poll instead of scanning. A runnable job (pending, or running under a lease) sits
 * in {@code JOBS#RUNNABLE#NN} with the sort key {@code <due millis>#<id>}, where "due" is when it may be claimed
 * (its lease expiry), so a worker asks for exactly the jobs it may take: {@code gsi2sk < now}. A finished job moves
 * to {@code JOBS#DONE#NN} or {@code JOBS#FAILED#NN} (sorted by finishing time) and a done one expires by TTL.
 * Pure: every method is a plan or a decoding.
 */
public final class JobTable {

    public static final String TYPE = "Job";
    /** The table's TTL attribute (epoch seconds): DynamoDB deletes the item some time after it passes. */
    public static final String EXPIRES_AT = TableSpec.EXPIRES_AT;
    static final String SK = "JOB";
    static final String SETTLED_AT = "settledAt";
    static final String RETRIES = "retries";
    static final String NEXT_ATTEMPT_AT = "nextAttemptAt";
    /** The lease holder of a scheduled job: nobody, until the lease (the due time) expires and a worker claims it. */
    public static final String SCHEDULED = "scheduled";
    private static final int DUE_DIGITS = 15;

    private final int shards;
    private final Duration retention;

    public JobTable(int shards, Duration retention) {
        if (shards < 1 || shards > 64) {
            throw new IllegalArgumentException("job shards must be 1 to 64");
        }
        this.shards = shards;
        this.retention = retention;
    }

    public int shards() {
        return shards;
    }

    /** A new, time-ordered, unguessable id. */
    public static String newId(Instant now) {
        return Long.toString(now.toEpochMilli(), 36) + "-" + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36);
    }

    public static PrimaryKey key(String id) {
        return PrimaryKey.of("JOB" + KeyCodec.DELIMITER + KeyCodec.escape(id), SK);
    }

    /** A job's shard: stable for its id, so every write of one job stays in one index partition. */
    int shardOf(String id) {
        return Math.floorMod(id.hashCode(), shards);
    }

    static String partition(String group, int shard) {
        return "JOBS#" + group + "#" + String.format("%02d", shard);
    }

    static String due(Instant at, String id) {
        return String.format("%0" + DUE_DIGITS + "d", at.toEpochMilli()) + KeyCodec.DELIMITER + KeyCodec.escape(id);
    }

    // --- plans --------------------------------------------------------------------------------------------

    /** A new job, running under our lease (the creator works on it at once); absent before. */
    public WriteAction create(String kind, String id, Map<String, AttributeValue> target, String owner, Instant now,
                              Instant leaseUntil) {
        return put(kind, id, target, State.RUNNING, owner, now, leaseUntil);
    }

    /**
     * A new job nobody holds: any replica's worker claims it from {@code due} on (its lease is a placeholder that
     * expires then). Absent before, so scheduling the same id twice writes it once.
     */
    public WriteAction schedule(String kind, String id, Map<String, AttributeValue> target, Instant now, Instant due) {
        WriteAction put = put(kind, id, target, State.PENDING, SCHEDULED, now, due);
        var item = new HashMap<>(put.item());
        item.put(NEXT_ATTEMPT_AT, AttributeValue.fromS(due.toString()));
        return WriteAction.putItem(put.key(), item, Expectation.ABSENT, TYPE);
    }

    /** Records on a cascade job that its settle pass is over (the job is kept far longer than a settle window). */
    public WriteAction settled(String id, Instant now) {
        return WriteAction.updateItem(key(id), Update.create().set(SETTLED_AT, AttributeValue.fromS(now.toString())),
                Expectation.present(null), TYPE);
    }

    private WriteAction put(String kind, String id, Map<String, AttributeValue> target, State state, String owner,
                            Instant now, Instant leaseUntil) {
        var item = new HashMap<String, AttributeValue>();
        PrimaryKey key = key(id);
        item.putAll(key.toAttributes());
        item.put(TableSpec.TYPE, AttributeValue.fromS(TYPE));
        item.put("id", AttributeValue.fromS(id));
        item.put("kind", AttributeValue.fromS(kind));
        item.put("state", AttributeValue.fromS(state.wire()));
        item.put("target", AttributeValue.fromM(target));
        item.putAll(progressAttributes(Progress.start()));
        item.put(TableSpec.CREATED_AT, AttributeValue.fromS(now.toString()));
        item.put(TableSpec.UPDATED_AT, AttributeValue.fromS(now.toString()));
        item.putAll(Lease.attributes(owner, leaseUntil));
        item.put(Index.GSI2.pkName(), AttributeValue.fromS(partition("RUNNABLE", shardOf(id))));
        item.put(Index.GSI2.skName(), AttributeValue.fromS(due(leaseUntil, id)));
        return WriteAction.putItem(key, item, Expectation.ABSENT, TYPE);
    }

    /** Takes a runnable job whose lease is free or expired; its due time moves to our lease's expiry. */
    public WriteAction claim(Job job, String owner, Instant now, Instant leaseUntil) {
        var also = Update.create().set("state", AttributeValue.fromS(State.RUNNING.wire()))
                .set(TableSpec.UPDATED_AT, AttributeValue.fromS(now.toString()))
                .set(Index.GSI2.skName(), AttributeValue.fromS(due(leaseUntil, job.id())));
        return Lease.claim(TYPE, key(job.id()), owner, now, leaseUntil, also).and(runnable());
    }

    /** Records progress and extends our lease in ONE write; refused once another replica took the job over. */
    public WriteAction checkpoint(Job job, Progress progress, String owner, Instant now, Instant leaseUntil) {
        var also = Update.create().setAll(progressAttributes(progress))
                .set(TableSpec.UPDATED_AT, AttributeValue.fromS(now.toString()))
                .set(Index.GSI2.skName(), AttributeValue.fromS(due(leaseUntil, job.id())));
        return Lease.renew(TYPE, key(job.id()), owner, leaseUntil, also);
    }

    /** Extends our lease while a page takes long (copies waiting for a busy aggregate), so nobody takes over a live job. */
    public WriteAction heartbeat(Job job, String owner, Instant now, Instant leaseUntil) {
        var also = Update.create().set(TableSpec.UPDATED_AT, AttributeValue.fromS(now.toString()))
                .set(Index.GSI2.skName(), AttributeValue.fromS(due(leaseUntil, job.id())));
        return Lease.renew(TYPE, key(job.id()), owner, leaseUntil, also);
    }

    /** Ends the job (done or failed) with its final progress; it leaves the runnable index. */
    public WriteAction finish(Job job, State state, Progress progress, String owner, Instant now) {
        var also = Update.create().setAll(progressAttributes(progress))
                .set("state", AttributeValue.fromS(state.wire()))
                .set(TableSpec.UPDATED_AT, AttributeValue.fromS(now.toString()))
                .set("finishedAt", AttributeValue.fromS(now.toString()))
                .set(Index.GSI2.pkName(), AttributeValue.fromS(partition(state.name(), shardOf(job.id()))))
                .set(Index.GSI2.skName(), AttributeValue.fromS(due(now, job.id())));
        if (state == State.DONE) {
            also.set(EXPIRES_AT, AttributeValue.fromN(Long.toString(now.plus(retention).getEpochSecond())));
        }
        return Lease.release(TYPE, key(job.id()), owner, also);
    }

    /**
     * Puts a job of ours whose pass ended with failures back into the runnable index for another pass from the
     * start at {@code due}, counting the retry; the lease is ours until then, so any worker may claim it from then on.
     */
    public WriteAction retryLater(Job job, String owner, Instant now, Instant due) {
        return Lease.renew(TYPE, key(job.id()), owner, due, reopened(job, now, due));
    }

    /** Runs a failed job again from the start, now: claimable by any worker at once. Refused unless it is failed. */
    public WriteAction retryNow(Job job, Instant now) {
        var update = reopened(job, now, now).remove(EXPIRES_AT).remove("finishedAt")
                .set(Lease.OWNER, AttributeValue.fromS(SCHEDULED)).set(Lease.UNTIL, Lease.millis(now));
        return WriteAction.updateItem(key(job.id()), update, Expectation.present(null),
                Condition.eq("state", AttributeValue.fromS(State.FAILED.wire())), TYPE);
    }

    /**
     * Back in the runnable index for another pass from the start. The ended attempt's counts stay on the record (what
     * a caller sees while the retry waits) until the next attempt's first checkpoint replaces them; only where to
     * start is reset ({@link Job#resumeFrom}).
     */
    private Update reopened(Job job, Instant now, Instant due) {
        return Update.create().set("step", number(0)).set("position", AttributeValue.fromNul(true)).set("pages", number(0))
                .set("state", AttributeValue.fromS(State.PENDING.wire()))
                .set(RETRIES, number(job.retries() + 1))
                .set(NEXT_ATTEMPT_AT, AttributeValue.fromS(due.toString()))
                .set(TableSpec.UPDATED_AT, AttributeValue.fromS(now.toString()))
                .set(Index.GSI2.pkName(), AttributeValue.fromS(partition("RUNNABLE", shardOf(job.id()))))
                .set(Index.GSI2.skName(), AttributeValue.fromS(due(due, job.id())));
    }

    // --- scan slots and cancelling ---------------------------------------------------------------------------

    /** The owner a cancelled job's lease names: nobody holds it, and its old owner's next checkpoint is refused. */
    public static final String CANCELLED = "cancelled";
    static final String SLOTS = "SCANS";
    static final String HOLDER = "holder";

    /**
     * A slot for a job that scans the whole table (a reconcile of a type or of everything, a list backfill): one item
     * per slot, taken in the same transaction as the job is recorded and given back in the one that ends it, so no
     * more such jobs run at once, across every replica, than there are slots.
     */
    public static PrimaryKey slotKey(int slot) {
        return PrimaryKey.of(SLOTS, "SLOT" + KeyCodec.DELIMITER + slot);
    }

    /** Takes a free slot for job {@code id}; refused while another job holds it. */
    public static WriteAction takeSlot(int slot, String id, Instant now) {
        return WriteAction.putItem(slotKey(slot), slotItem(slot, id, now), Expectation.ABSENT, "scan slot " + slot);
    }

    /** Takes a slot over from a job that no longer runs ({@code stale}: it ended without giving it back). */
    public static WriteAction takeSlotFrom(int slot, String stale, String id, Instant now) {
        return WriteAction.putItem(slotKey(slot), slotItem(slot, id, now), Expectation.NONE,
                Condition.eq(HOLDER, AttributeValue.fromS(stale)), "scan slot " + slot);
    }

    /** Gives a slot back unless another job holds it (one gone already changes nothing). */
    public static WriteAction releaseSlot(int slot, String id) {
        return WriteAction.deleteItem(slotKey(slot), Expectation.NONE, Condition.attributeNotExists(HOLDER)
                .or(Condition.eq(HOLDER, AttributeValue.fromS(id))), "scan slot " + slot);
    }

    /** The job holding a slot item. */
    public static String holderOf(Map<String, AttributeValue> slotItem) {
        AttributeValue holder = slotItem == null ? null : slotItem.get(HOLDER);
        return holder == null ? null : holder.s();
    }

    private static Map<String, AttributeValue> slotItem(int slot, String id, Instant now) {
        var item = new HashMap<>(slotKey(slot).toAttributes());
        item.put(TableSpec.TYPE, AttributeValue.fromS("ScanSlot"));
        item.put(HOLDER, AttributeValue.fromS(id));
        item.put(TableSpec.CREATED_AT, AttributeValue.fromS(now.toString()));
        return item;
    }

    /**
     * Cancels a job that has not ended: it leaves the runnable index for the cancelled one, its lease goes to nobody
     * (the replica running it finds its next checkpoint refused and stops), and it expires by TTL like a done one.
     */
    public WriteAction cancel(Job job, Instant now) {
        var update = Update.create().set("state", AttributeValue.fromS(State.CANCELLED.wire()))
                .set(TableSpec.UPDATED_AT, AttributeValue.fromS(now.toString()))
                .set("finishedAt", AttributeValue.fromS(now.toString()))
                .set(Lease.OWNER, AttributeValue.fromS(CANCELLED)).set(Lease.UNTIL, Lease.millis(now))
                .set(Index.GSI2.pkName(), AttributeValue.fromS(partition(State.CANCELLED.name(), shardOf(job.id()))))
                .set(Index.GSI2.skName(), AttributeValue.fromS(due(now, job.id())))
                .set(EXPIRES_AT, AttributeValue.fromN(Long.toString(now.plus(retention).getEpochSecond())));
        return WriteAction.updateItem(key(job.id()), update, Expectation.present(null), runnable(), TYPE);
    }

    /** Removes a job that leaves nothing worth keeping (a finished aggregate write), only while we hold it. */
    public WriteAction delete(String id, String owner) {
        return WriteAction.deleteItem(key(id), Expectation.NONE, Lease.ownedBy(owner), TYPE);
    }

    private static Condition runnable() {
        return Condition.in("state", List.of(AttributeValue.fromS(State.PENDING.wire()),
                AttributeValue.fromS(State.RUNNING.wire())));
    }

    private static Map<String, AttributeValue> progressAttributes(Progress p) {
        var out = new LinkedHashMap<String, AttributeValue>();
        out.put("step", number(p.step()));
        out.put("position", p.position() == null ? AttributeValue.fromNul(true) : AttributeValue.fromM(p.position()));
        out.put("pages", number(p.pages()));
        out.put("matched", number(p.matched()));
        out.put("updated", number(p.updated()));
        out.put("skipped", number(p.skipped()));
        out.put("failed", number(p.failed()));
        out.put("orphaned", number(p.orphaned()));
        out.put("failedKeys", AttributeValue.fromL(p.failedKeys().stream().map(k -> {
            var m = new LinkedHashMap<String, AttributeValue>();
            k.forEach((name, value) -> m.put(name, AttributeValue.fromS(value)));
            return AttributeValue.fromM(m);
        }).toList()));
        return out;
    }

    // --- queries ------------------------------------------------------------------------------------------

    /** The jobs of one shard that may be claimed now (their lease expired, or they never had one). */
    public QuerySpec claimable(int shard, Instant now, int limit) {
        return QuerySpec.on(Index.GSI2, partition("RUNNABLE", shard))
                .sort(SortCondition.lt(String.format("%0" + DUE_DIGITS + "d", now.toEpochMilli())))
                .limit(limit).build();
    }

    /** Jobs in one state over every shard, for a fan-out page: finished ones newest first. */
    public FanOut listing(State state, int limit) {
        return FanOut.of(IntStream.range(0, shards).mapToObj(shard -> {
            var query = state.runnable()
                    ? QuerySpec.on(Index.GSI2, partition("RUNNABLE", shard))
                    .filter(Condition.eq("state", AttributeValue.fromS(state.wire())))
                    : QuerySpec.on(Index.GSI2, partition(state.name(), shard)).descending();
            return query.limit(limit).build();
        }).toList());
    }

    // --- decoding -----------------------------------------------------------------------------------------

    public static boolean isJob(Map<String, AttributeValue> item) {
        AttributeValue type = item.get(TableSpec.TYPE);
        return type != null && TYPE.equals(type.s());
    }

    public static Job fromItem(Map<String, AttributeValue> item) {
        AttributeValue position = item.get("position");
        var failedKeys = item.containsKey("failedKeys") ? item.get("failedKeys").l().stream().map(v -> {
            var m = new LinkedHashMap<String, String>();
            v.m().forEach((name, value) -> m.put(name, value.s()));
            return (Map<String, String>) m;
        }).toList() : List.<Map<String, String>>of();
        var progress = new Progress(integer(item, "step"), position == null || position.m() == null || !position.hasM()
                ? null : position.m(), integer(item, "pages"), integer(item, "matched"), integer(item, "updated"),
                integer(item, "skipped"), integer(item, "failed"), failedKeys, integer(item, "orphaned"));
        return new Job(item.get("id").s(), item.get("kind").s(), State.parse(item.get("state").s()),
                item.get("target").m(), progress, Lease.of(item), instant(item, TableSpec.CREATED_AT),
                instant(item, TableSpec.UPDATED_AT), instant(item, "finishedAt"), instant(item, SETTLED_AT),
                integer(item, RETRIES), instant(item, NEXT_ATTEMPT_AT));
    }

    private static int integer(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null || value.n() == null ? 0 : Integer.parseInt(value.n());
    }

    private static Instant instant(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null || value.s() == null ? null : Timestamps.instant(value.s());
    }

    private static AttributeValue number(int value) {
        return AttributeValue.fromN(Integer.toString(value));
    }
}
