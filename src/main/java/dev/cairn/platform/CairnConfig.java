package dev.cairn.platform;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Cairn's own configuration ({@code cairn.*}); see the README's configuration table. */
@ConfigMapping(prefix = "cairn")
public interface CairnConfig {

    Table table();

    Cursor cursor();

    Diagnostics diagnostics();

    Batch batch();

    Health health();

    Cascade cascade();

    interface Cascade {
        /** Copy writes of an eventual cascade in flight at once. */
        @WithDefault("16")
        int concurrency();

        /**
         * How long after its pass a cascade reads the ref index again (its settle pass), for copies the index did
         * not show yet: DynamoDB propagates GSI changes within a fraction of a second under normal conditions.
         * {@code 0} turns settle passes off.
         */
        @WithDefault("5s")
        Duration settle();
    }

    Jobs jobs();

    /** Durable multi-step writes: cascade jobs, the intents of multi-transaction aggregate writes, the worker. */
    interface Jobs {
        /** Write shards of the runnable-job index (gsi2 {@code JOBS#RUNNABLE#NN}); a worker polls them all. */
        @WithDefault("4")
        int shards();

        /** How often every replica's worker looks for jobs whose owner died. */
        @WithDefault("2s")
        Duration poll();

        /** A job's lease: a job whose owner stops renewing it is taken over this long after its last checkpoint. */
        @WithDefault("15s")
        Duration lease();

        /** The lease of a multi-transaction aggregate write: it is undone this long after its writer died. */
        @WithDefault("10s")
        @WithName("aggregate-lease")
        Duration aggregateLease();

        /** Copies read (and then written) per page of a cascade; the job checkpoints after every page. */
        @WithDefault("100")
        @WithName("page-size")
        int pageSize();

        /** A PATCH waits this long for its cascade before it answers 202 Accepted with the job's location. */
        @WithDefault("2s")
        @WithName("answer-within")
        Duration answerWithin();

        /** How long a copy that keeps failing (e.g. its aggregate is being written) is retried before it is recorded. */
        @WithDefault("30s")
        @WithName("retry-for")
        Duration retryFor();

        /**
         * Times a cascade job whose pass ended with failed copies runs again by itself, from the start, before it
         * is left failed (then {@code POST /cascades/{id}/retry} runs it again).
         */
        @WithDefault("5")
        int maxRetries();

        /** The pause before a failed cascade's first automatic retry, doubled for each next one. */
        @WithDefault("1m")
        Duration retryBackoff();

        /** The longest pause between automatic retries. */
        @WithDefault("1h")
        Duration maxRetryBackoff();

        /** How long a done job stays readable before DynamoDB's TTL removes it. */
        @WithDefault("7d")
        Duration retention();

        /** Jobs one replica's worker runs at once. */
        @WithDefault("4")
        int concurrency();

        /** On a graceful stop, how long running jobs get to hand their lease over after their current page. */
        @WithDefault("5s")
        @WithName("hand-over-wait")
        Duration handOverWait();

        /** Items one page of a list backfill scans; the job checkpoints after every page. */
        @WithDefault("500")
        @WithName("backfill-page-size")
        int backfillPageSize();

        /** Run the worker on this replica. */
        @WithDefault("true")
        @WithName("worker.enabled")
        boolean workerEnabled();
    }

    Reconcile reconcile();

    /** The reconcile job: every copy older than its source's current version rewritten, paced. */
    interface Reconcile {
        /**
         * Copies a reconcile checks per second at most (a job started with its own {@code rate} uses that): a
         * Scan page of 100 small items costs about 13 read units, so 200/s stays near 25 RCU/s of reads plus the
         * writes of the copies that are stale, a small share of an on-demand table's traffic.
         */
        @WithDefault("200")
        int rate();

        /** Items one page reads (a Scan page, or a page of a source's copy queries); a checkpoint after each page. */
        @WithDefault("100")
        @WithName("page-size")
        int pageSize();

        /** Schedule a reconcile of everything this often (one job per period across replicas); off when unset. */
        Optional<Duration> every();

        /** The highest {@code rate} a reconcile may be started with (400 past it). */
        @WithDefault("2000")
        @WithName("max-rate")
        int maxRate();

        /**
         * Maintenance jobs that scan the whole table (reconciles of an entity type or of everything, list backfills)
         * that may run at once across the cluster; another is refused (409 MaintenanceBusy) until one ends or is
         * cancelled. Reconciles of one source read only its copies and take no slot.
         */
        @WithDefault("1")
        @WithName("max-scans")
        int maxScans();
    }

    Retries retries();

    /** How passing faults (DynamoDB unreachable, throttling, colliding transactions) and busy aggregates are waited out. */
    interface Retries {
        /** Read-patch-write cycles of a PATCH without If-Match while other writes slip in between (then 409). */
        @WithDefault("3")
        @WithName("patch-attempts")
        int patchAttempts();

        /** Reads for a write while another multi-transaction write holds the aggregate (then 503 AggregateBusy). */
        @WithDefault("5")
        @WithName("busy-attempts")
        int busyAttempts();

        /** The pause between those reads. */
        @WithDefault("100ms")
        @WithName("busy-pause")
        Duration busyPause();

        /** Reads of a large aggregate whose root moved while its ranges were read (then 503 AggregateBusy). */
        @WithDefault("20")
        @WithName("read-attempts")
        int readAttempts();

        /** The first pause before a passing fault is retried (cascade copies, repairs); doubled per attempt. */
        @WithDefault("50ms")
        Duration backoff();

        /** The longest such pause. */
        @WithDefault("2s")
        @WithName("max-backoff")
        Duration maxBackoff();
    }

    LocalDynamodb localDynamodb();

    Workspace workspace();

    interface Workspace {
        /**
         * Shards of the project status index ({@code STATUS#ACTIVE#07}); a listing reads them all in parallel.
         * Only ever raise it: projects indexed under a smaller count stay inside every larger one.
         */
        @WithDefault("4")
        @WithName("status-shards")
        int statusShards();
    }

    Matches matches();

    interface Matches {
        /**
         * Write shards of the list of all matches ({@code MATCHES#ALL#03} on gsi1); a page reads them all in
         * parallel (1 Query each). Every match write rewrites its root, so one partition would take them all.
         */
        @WithDefault("4")
        @WithName("list-shards")
        int listShards();
    }

    Patch patch();

    /**
     * What one patch may build, checked while it is applied: a JSON Patch's {@code copy} doubles the document per
     * operation, so a small request could otherwise build gigabytes before anything looked at the result.
     */
    interface Patch {
        /** Operations one JSON Patch may have; counted before any runs. */
        @WithDefault("1000")
        @WithName("max-operations")
        int maxOperations();

        /**
         * The largest document (compact JSON, bytes) a patch may make; as large as the largest body a PUT accepts
         * ({@code quarkus.http.limits.max-body-size}), so a patch builds nothing a client could not send whole.
         */
        @WithDefault("1048576")
        @WithName("max-document-bytes")
        long maxDocumentBytes();

        /**
         * The work one JSON Patch may do, in units: a member copied when a container is first changed, an array
         * element shifted by an insert or a removal, a value frozen by a copy or compared by a test, a pointer token
         * followed. Bounds the CPU of the worst patch a writer can send to a few milliseconds, far above what an
         * edit of a real document takes (a patch rewriting every field of two 95-player sheets spends about 5,000).
         */
        @WithDefault("50000")
        @WithName("max-work")
        long maxWork();
    }

    Limits limits();

    /**
     * Per-caller limits (by the token's subject), kept in each replica's memory and shared out between the replicas
     * alive ({@link Cluster}): the figures below are what one caller may do across the whole cluster. A refused
     * request answers 429 with Retry-After and writes nothing.
     */
    interface Limits {
        /** Enforce the limits below (on unless a profile turns it off; the test profile does). */
        @WithDefault("true")
        boolean enabled();

        /** Writes (every method but GET, HEAD and OPTIONS) per second a caller may sustain. */
        @WithDefault("50")
        @WithName("writes-per-second")
        double writesPerSecond();

        /** Writes a caller may make at once after being idle (the bucket's size). */
        @WithDefault("100")
        @WithName("write-burst")
        int writeBurst();

        /**
         * Cascade copies a caller's writes may cause per minute; also the budget's size. A cascading write reserves
         * one copy to be admitted; its copies are taken before they are written (a transactional cascade all at once
         * or 429, an eventual one page by page, waiting for the budget to refill) and those not written are given back.
         */
        @WithDefault("6000")
        @WithName("cascade-copies-per-minute")
        int cascadeCopiesPerMinute();

        /**
         * DynamoDB read capacity units per second a caller's reads (GET and HEAD) may consume, as DynamoDB reports
         * them (a strongly consistent read of 4 KB is one unit, an eventually consistent one half).
         */
        @WithDefault("500")
        @WithName("read-units-per-second")
        double readUnitsPerSecond();

        /** Read capacity units a caller may consume at once after being idle (the bucket's size). */
        @WithDefault("5000")
        @WithName("read-burst")
        int readBurst();

        /**
         * Read capacity units a read takes from the caller's budget to be admitted; what it consumes is charged as
         * DynamoDB reports it, the rest given back at its end. The bucket's size over this bounds the reads one
         * caller has in flight at once, and so how far concurrent reads can overshoot the budget.
         */
        @WithDefault("10")
        @WithName("read-reserve")
        int readReserve();

        /** Callers whose buckets one replica keeps; past it, idle buckets (full again) go first, then the oldest. */
        @WithDefault("10000")
        @WithName("max-callers")
        int maxCallers();

        Cluster cluster();

        /**
         * How the replicas share the limits out: each replica records itself alive in the table (1 PutItem per
         * heartbeat) and counts the replicas alive (1 Query per heartbeat); with N alive, each enforces 1/N of every
         * limit, so a caller whose requests are spread over the replicas gets the configured figure in all.
         */
        interface Cluster {
            /** Share the limits out between the replicas alive (off: each replica enforces the whole of each). */
            @WithDefault("true")
            boolean enabled();

            /** How often a replica records itself alive and counts the others; one is dead after three missed. */
            @WithDefault("10s")
            Duration heartbeat();
        }
    }

    Auth auth();

    Console console();

    interface Console {
        /** Serve the read-only item-collection console at /console (cairn-admin only when authentication is on). */
        @WithDefault("true")
        boolean enabled();
    }

    interface Auth {
        /**
         * Require a verified bearer JWT on every API route (true unless a profile turns it off; dev and test do).
         * With it on, mp.jwt.verify.publickey.location (or mp.jwt.verify.publickey) and mp.jwt.verify.issuer must
         * be set, or the service refuses to start.
         */
        @WithDefault("true")
        boolean enabled();

        /**
         * The claim holding the caller's workspaces: a list of ids, or one string of ids separated by commas (as an
         * identity provider's custom attribute is, e.g. Amazon Cognito's {@code custom:workspaces}); {@code "*"} is
         * every workspace. The roles come from {@code smallrye.jwt.path.groups} (default {@code groups}).
         */
        @WithDefault("workspaces")
        @WithName("workspaces-claim")
        String workspacesClaim();
    }

    interface Table {
        /** The single table's name. */
        @WithDefault("cairn")
        String name();

        /** Create the table at startup when it is missing (dev and test; never in prod). */
        @WithDefault("false")
        boolean create();
    }

    interface Cursor {
        /** The secret pagination cursors are sealed with (AES-256-GCM); required in prod, shared by every replica. */
        String secret();

        /** Earlier secrets still accepted for cursors handed out before a rotation; drop them after a while. */
        Optional<List<String>> previousSecrets();
    }

    interface Diagnostics {
        /** Send X-DynamoDB-Calls, X-DynamoDB-Capacity and a Server-Timing entry on every response. */
        @WithDefault("true")
        boolean headers();
    }

    interface Batch {
        /** Chunks of one batch operation in flight at once. */
        @WithDefault("4")
        int concurrency();

        /** Attempts for unprocessed batch items before the request fails with 503. */
        @WithDefault("8")
        int maxAttempts();

        /** First backoff delay for unprocessed items; doubled per attempt, with jitter. */
        @WithDefault("25ms")
        Duration baseDelay();
    }

    interface Health {
        /** Timeout of the readiness DescribeTable. */
        @WithDefault("1500ms")
        Duration timeout();

        /** How long a readiness result is reused. */
        @WithDefault("2s")
        Duration cacheFor();
    }

    /** The embedded DynamoDB Local of dev mode. */
    interface LocalDynamodb {
        /** Loopback port of the dev-mode instance. */
        @WithDefault("8765")
        int port();

        /** Where the dev-mode instance keeps its data (relative to the working directory). */
        @WithDefault(".dynamodb-local")
        String dataDir();
    }
}
