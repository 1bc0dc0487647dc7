package dev.cairn.platform.limits;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.platform.CairnConfig;
import dev.cairn.store.CopyBudget;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.DoubleConsumer;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * What one caller (the subject of its token; with authentication off every request is the one caller
 * {@code anonymous}) may cost: a token bucket of writes, a budget of cascade copies per minute, and a budget of
 * DynamoDB read capacity. They live in this replica's memory and cost no DynamoDB call; the figures configured are
 * the cluster's, and each replica takes its share: with N replicas alive ({@link Replicas}) every request here costs
 * N tokens (at most a bucket's size), which is a bucket N times smaller filling N times slower.
 * <p>
 * Costs known only later are reserved before the work is admitted, so concurrency cannot overshoot a budget: a
 * cascading write reserves one copy, and its copies are taken before they are written (a transactional cascade all
 * at once or 429, an eventual one page by page, waiting for refills), those not written given back; a read reserves
 * {@code read-reserve} units, is charged what DynamoDB reports it consumed, and gives back the rest at its end. Only
 * the reads a caller already has in flight can overshoot its read budget, by what each consumes past its reserve.
 */
@ApplicationScoped
@Startup // its counters are registered at start, not at the first write
public class CallerLimits {

    public static final String WRITES = "writes";
    public static final String CASCADE_COPIES = "cascade-copies";
    public static final String READ_CAPACITY = "read-capacity";

    /** The settings, as numbers. */
    public record Settings(boolean enabled, double writesPerSecond, int writeBurst, int cascadeCopiesPerMinute,
                           double readUnitsPerSecond, int readBurst, int readReserve, int maxCallers) {
        public static Settings of(CairnConfig.Limits config) {
            return new Settings(config.enabled(), config.writesPerSecond(), config.writeBurst(),
                    config.cascadeCopiesPerMinute(), config.readUnitsPerSecond(), config.readBurst(),
                    config.readReserve(), config.maxCallers());
        }

        /** Writes and copies only, reads as by default (the tests of those two). */
        public Settings(boolean enabled, double writesPerSecond, int writeBurst, int cascadeCopiesPerMinute,
                        int maxCallers) {
            this(enabled, writesPerSecond, writeBurst, cascadeCopiesPerMinute, 500, 5000, 10, maxCallers);
        }
    }

    /** One caller's buckets, and when it was last seen. */
    private static final class Buckets {
        final TokenBucket writes;
        final TokenBucket copies;
        final TokenBucket reads;
        volatile long seen;

        Buckets(Settings settings, long now) {
            writes = TokenBucket.of(settings.writeBurst(), settings.writesPerSecond(), now);
            copies = TokenBucket.of(settings.cascadeCopiesPerMinute(), settings.cascadeCopiesPerMinute() / 60.0, now);
            reads = TokenBucket.of(settings.readBurst(), settings.readUnitsPerSecond(), now);
            seen = now;
        }

        boolean idle(long now) {
            return writes.full(now) && copies.full(now) && reads.full(now);
        }
    }

    /** The read capacity one request spends: its reserve, then its callers' budget; the rest given back at its end. */
    public interface ReadCharge extends DoubleConsumer {
        /** The read is over: what its reserve still holds goes back. Idempotent. */
        void close();

        ReadCharge NONE = new ReadCharge() {
            public void accept(double units) {
            }

            public void close() {
            }
        };
    }

    private final Settings settings;
    private final LongSupplier clock;
    private final IntSupplier replicas;
    private final Map<String, Buckets> callers = new ConcurrentHashMap<>();
    private final Counter writesRefused;
    private final Counter cascadesRefused;
    private final Counter readsRefused;

    @Inject
    public CallerLimits(CairnConfig config, MeterRegistry registry, Replicas replicas) {
        this(Settings.of(config.limits()), registry, System::nanoTime, replicas::alive);
    }

    CallerLimits(Settings settings, MeterRegistry registry, LongSupplier clock) {
        this(settings, registry, clock, () -> 1);
    }

    CallerLimits(Settings settings, MeterRegistry registry, LongSupplier clock, IntSupplier replicas) {
        this.settings = settings;
        this.clock = clock;
        this.replicas = replicas;
        // Registered up front, so a dashboard sees zero rather than nothing before the first refusal.
        writesRefused = refusals(registry, WRITES);
        cascadesRefused = refusals(registry, CASCADE_COPIES);
        readsRefused = refusals(registry, READ_CAPACITY);
    }

    private static Counter refusals(MeterRegistry registry, String limit) {
        return Counter.builder("cairn.rate.limited").description("Requests refused with 429 by a per-caller limit")
                .tag("limit", limit).register(registry);
    }

    public boolean enabled() {
        return settings.enabled();
    }

    /** What one unit of work costs here: this replica's share of the cluster's limits, at most a whole bucket. */
    private double share(double units, int bucketSize) {
        return Math.min(units * Math.max(1, replicas.getAsInt()), bucketSize);
    }

    /** Admits one write of {@code subject}, or refuses it (429) with the time until its next token. */
    public void admitWrite(String subject) {
        if (!settings.enabled()) {
            return;
        }
        long now = clock.getAsLong();
        long wait = buckets(subject, now).writes.take(share(1, settings.writeBurst()), now);
        if (wait > 0) {
            writesRefused.increment();
            throw refusal(WRITES, wait, "this caller's writes passed the limit of " + settings.writeBurst()
                    + " at once and " + number(settings.writesPerSecond()) + " a second");
        }
    }

    /**
     * Admits a cascading write of {@code subject} by reserving one copy of its budget, or refuses it (429): the copy
     * budget its cascade then takes from before writing. Closing the budget gives back what it reserved and did not
     * use.
     */
    public CopyBudget admitCascade(String subject) {
        if (!settings.enabled()) {
            return CopyBudget.UNLIMITED;
        }
        long now = clock.getAsLong();
        TokenBucket bucket = buckets(subject, now).copies;
        long wait = bucket.take(share(1, settings.cascadeCopiesPerMinute()), now);
        if (wait > 0) {
            throw copiesRefused(wait);
        }
        return new Copies(bucket);
    }

    /**
     * Admits a read of {@code subject} by reserving {@code read-reserve} capacity units, or refuses it (429): the
     * charge the request's DynamoDB calls then report their consumed capacity to.
     */
    public ReadCharge admitRead(String subject) {
        if (!settings.enabled()) {
            return ReadCharge.NONE;
        }
        long now = clock.getAsLong();
        TokenBucket bucket = buckets(subject, now).reads;
        double reserve = share(settings.readReserve(), settings.readBurst());
        long wait = bucket.take(reserve, now);
        if (wait > 0) {
            readsRefused.increment();
            throw refusal(READ_CAPACITY, wait, "the DynamoDB read capacity this caller's reads consumed passed the "
                    + "limit of " + settings.readBurst() + " units at once and " + number(settings.readUnitsPerSecond())
                    + " a second");
        }
        return new Reads(bucket, reserve);
    }

    /** A cascade's copies: the one reserved at admission first, then the bucket; each copy costs this replica's share. */
    private final class Copies implements CopyBudget {
        private final TokenBucket bucket;
        /** Copies of the reservation not yet used (0 or 1). */
        private final AtomicInteger reserved = new AtomicInteger(1);

        Copies(TokenBucket bucket) {
            this.bucket = bucket;
        }

        private double cost(int copies) {
            return copies * Math.max(1, replicas.getAsInt());
        }

        /** Copies still needed after what the reservation covers. */
        private int afterReservation(int copies) {
            return copies > 0 && reserved.compareAndSet(1, 0) ? copies - 1 : copies;
        }

        public void takeAll(int copies) {
            if (cost(copies) > settings.cascadeCopiesPerMinute()) {
                close();
                throw copiesRefused(Long.MAX_VALUE);
            }
            int rest = afterReservation(copies);
            if (rest <= 0) {
                return;
            }
            long now = clock.getAsLong();
            long wait = bucket.take(cost(rest), now);
            if (wait > 0) {
                bucket.refund(cost(copies - rest), now); // the reservation used above goes back too
                throw copiesRefused(wait);
            }
        }

        public int takeUpTo(int copies) {
            int rest = afterReservation(copies);
            if (rest <= 0) {
                return copies;
            }
            int perCopy = (int) Math.ceil(cost(1));
            int taken = bucket.takeUpTo(rest * perCopy, clock.getAsLong()) / perCopy;
            return copies - rest + taken;
        }

        public long until(int copies) {
            return bucket.until(cost(copies), clock.getAsLong());
        }

        public void refund(int copies) {
            if (copies > 0) {
                bucket.refund(cost(copies), clock.getAsLong());
            }
        }

        public void close() {
            if (reserved.compareAndSet(1, 0)) {
                bucket.refund(cost(1), clock.getAsLong());
            }
        }
    }

    /** A read's consumed capacity: from its reserve first, then the bucket (which may go into debt). */
    private final class Reads implements ReadCharge {
        private final TokenBucket bucket;
        private double reserve;
        private boolean closed;

        Reads(TokenBucket bucket, double reserve) {
            this.bucket = bucket;
            this.reserve = reserve;
        }

        public synchronized void accept(double units) {
            double cost = share(units, Integer.MAX_VALUE);
            double fromReserve = closed ? 0 : Math.min(reserve, cost);
            reserve -= fromReserve;
            if (cost > fromReserve) {
                bucket.charge(cost - fromReserve, clock.getAsLong());
            }
        }

        public synchronized void close() {
            if (!closed) {
                closed = true;
                bucket.refund(reserve, clock.getAsLong());
                reserve = 0;
            }
        }
    }

    /** Callers whose buckets are kept now. */
    int callers() {
        return callers.size();
    }

    /** A caller's copy budget now. */
    double copyBudget(String subject) {
        long now = clock.getAsLong();
        return buckets(subject, now).copies.tokens(now);
    }

    /** A caller's read budget now (negative: debt). */
    double readBudget(String subject) {
        long now = clock.getAsLong();
        return buckets(subject, now).reads.tokens(now);
    }

    private Buckets buckets(String subject, long now) {
        Buckets buckets = callers.get(subject);
        if (buckets == null) {
            if (callers.size() >= settings.maxCallers()) {
                forget(now);
            }
            buckets = callers.computeIfAbsent(subject, s -> new Buckets(settings, now));
        }
        buckets.seen = now;
        return buckets;
    }

    /**
     * Keeps the map bounded however many subjects come: buckets that are full again go first (a new one would be the
     * same); if most callers are active, the least recently seen go too (forgiving what they owed) until a tenth of
     * the room is free, so the sweep runs once per many new callers, not per request.
     */
    private synchronized void forget(long now) {
        if (callers.size() < settings.maxCallers()) {
            return;
        }
        callers.values().removeIf(buckets -> buckets.idle(now));
        int keep = settings.maxCallers() - Math.max(1, settings.maxCallers() / 10);
        if (callers.size() > keep) {
            // sorted on a snapshot: the live times move while requests come in
            callers.entrySet().stream().map(e -> Map.entry(e.getKey(), e.getValue().seen)).toList().stream()
                    .sorted(Map.Entry.comparingByValue()).limit(callers.size() - keep).map(Map.Entry::getKey)
                    .forEach(callers::remove);
        }
    }

    private static String number(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    private CairnException copiesRefused(long waitNanos) {
        cascadesRefused.increment();
        return refusal(CASCADE_COPIES, waitNanos, "the cascade copies this caller's writes cause passed its budget of "
                + settings.cascadeCopiesPerMinute() + " a minute");
    }

    private static CairnException refusal(String limit, long waitNanos, String why) {
        if (waitNanos == Long.MAX_VALUE) {
            return new CairnException(new CairnError.RateLimited(why + ", and this write alone needs more than the "
                    + "budget holds; nothing was written. Use ?cascade=eventual, whose copies are written as the "
                    + "budget refills", limit, 60));
        }
        long seconds = TokenBucket.seconds(waitNanos);
        return new CairnException(new CairnError.RateLimited(why + "; nothing was written. Retry in " + seconds + " s",
                limit, seconds));
    }
}
