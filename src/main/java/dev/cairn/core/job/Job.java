package dev.cairn.core.job;

import dev.cairn.core.lease.Lease;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A durable multi-step write recorded in the table: what to do ({@code kind} and its {@code target}), how far it
 * got ({@link Progress}, the checkpoint a resumed run starts from), its state, and the lease of the replica
 * working on it. Kinds: {@value #CASCADE} (bring every copy of a source entity up to date), {@value #LIST_BACKFILL},
 * {@value #UNIQUE_BACKFILL},
 * {@value #RECONCILE} and {@value #AGGREGATE_WRITE} (the intent of a multi-transaction aggregate write, finished
 * or undone by whoever finds it after its writer died).
 */
public record Job(String id, String kind, State state, Map<String, AttributeValue> target, Progress progress,
                  Lease lease, Instant createdAt, Instant updatedAt, Instant finishedAt, Instant settledAt,
                  int retries, Instant nextAttemptAt) {

    public static final String CASCADE = "cascade";
    public static final String AGGREGATE_WRITE = "aggregate-write";
    /** List the roots of an aggregate stored before its lists existed (a Scan, page by page, checkpointed). */
    public static final String LIST_BACKFILL = "list-backfill";
    /** Take the sentinels of an entity's items stored before a unique constraint was declared (a Scan, checkpointed). */
    public static final String UNIQUE_BACKFILL = "unique-backfill";
    /** Rewrite every copy older than its source's current version (one source, one entity type or all; paged, paced). */
    public static final String RECONCILE = "reconcile";
    /** Failed copy keys kept on the job record; the count goes on past it. */
    public static final int MAX_FAILED_KEYS = 50;

    /** The target attribute of a settle pass: the id of the cascade job whose copies it reads again. */
    public static final String SETTLES = "settles";
    /** The target attribute of a job that scans the table: the scan slot it holds until it ends ({@link JobTable}). */
    public static final String SLOT = "slot";

    public Job {
        target = Map.copyOf(target);
    }

    /** A job as its creator starts it: running under the creator's lease, nothing done yet. */
    public static Job started(String id, String kind, Map<String, AttributeValue> target, Lease lease, Instant now) {
        return new Job(id, kind, State.RUNNING, target, Progress.start(), lease, now, now, null, null, 0, null);
    }

    /** The scan slot this job holds while it runs, or null when it holds none. */
    public Integer slot() {
        AttributeValue slot = target.get(SLOT);
        return slot == null || slot.n() == null ? null : Integer.valueOf(slot.n());
    }

    /** The cascade job this one is the settle pass of; null for a first pass (or another kind). */
    public String settles() {
        AttributeValue settles = target.get(SETTLES);
        return settles == null ? null : settles.s();
    }

    /**
     * The id of the settle pass a cascade job schedules when a pass of it ends for good: one per attempt (a retried
     * job ends once more), so scheduling is idempotent within an attempt and never collides across attempts.
     */
    public String settleId() {
        return id + "-settle" + (retries == 0 ? "" : "-" + retries);
    }

    public enum State {
        PENDING, RUNNING, DONE, FAILED, CANCELLED;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static State parse(String value) {
            return valueOf(value.toUpperCase(Locale.ROOT));
        }

        /** The state an API parameter names, exactly as {@link #wire()} writes it; null when it names none. */
        public static State ofWire(String value) {
            for (State state : values()) {
                if (state.wire().equals(value)) {
                    return state;
                }
            }
            return null;
        }

        public boolean runnable() {
            return this == PENDING || this == RUNNING;
        }
    }

    /**
     * How far a job got: which of its queries ({@code step}) and where in it ({@code position}, the last
     * evaluated key; null at the start of the step), pages done, and the copies matched, written, skipped
     * (already current or gone) and failed, with the keys and reasons of the first failures.
     */
    public record Progress(int step, Map<String, AttributeValue> position, int pages, int matched, int updated,
                           int skipped, int failed, List<Map<String, String>> failedKeys, int orphaned) {

        public Progress {
            position = position == null ? null : Map.copyOf(position);
            failedKeys = List.copyOf(failedKeys);
        }

        /** The progress of a job that meets no orphaned copies (every kind but a reconcile). */
        public Progress(int step, Map<String, AttributeValue> position, int pages, int matched, int updated,
                        int skipped, int failed, List<Map<String, String>> failedKeys) {
            this(step, position, pages, matched, updated, skipped, failed, failedKeys, 0);
        }

        public static Progress start() {
            return new Progress(0, null, 0, 0, 0, 0, 0, List.of(), 0);
        }

        /** The same progress with {@code more} copies found whose source no longer exists (a reconcile's count). */
        public Progress orphans(int more) {
            return new Progress(step, position, pages, matched, updated, skipped, failed, failedKeys, orphaned + more);
        }

        /** After one more page: the next position (null = the next step begins) and the page's counts. */
        public Progress page(int nextStep, Map<String, AttributeValue> nextPosition, int matched, int updated,
                             int skipped, List<Map<String, String>> failures) {
            var keys = new ArrayList<>(failedKeys);
            failures.stream().limit(Math.max(0, MAX_FAILED_KEYS - keys.size())).forEach(keys::add);
            return new Progress(nextStep, nextPosition, pages + 1, this.matched + matched, this.updated + updated,
                    this.skipped + skipped, failed + failures.size(), keys, orphaned);
        }
    }

    /**
     * Where a run of this job starts: its checkpoint, or the start when no page of the current attempt is done yet.
     * A retry waiting for its time keeps the counts of the attempt that ended, to be shown, not added to.
     */
    public Progress resumeFrom() {
        return progress.pages() == 0 ? Progress.start() : progress;
    }

    public Job with(State newState, Progress newProgress) {
        return new Job(id, kind, newState, target, newProgress, lease, createdAt, updatedAt, finishedAt, settledAt,
                retries, nextAttemptAt);
    }
}
