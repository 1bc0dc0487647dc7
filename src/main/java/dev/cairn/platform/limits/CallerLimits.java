package dev.cairn.platform.limits;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.platform.CairnConfig;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;

/**
 * What one caller (the subject of its token; with authentication off every request is the one caller
 * {@code anonymous}) may cost: a token bucket of writes, and a budget of cascade copies per minute. Both live in
 * this replica's memory, so the cluster-wide limit is replicas times these, and cost no DynamoDB call.
 * <p>
 * A cascade's size is known only once its copies are found (the transactional mode before it writes, the eventual
 * mode page by page as its job runs), so a cascading write is admitted while the caller's copy budget holds at
 * least one copy, and its copies are charged as they become known: the budget may go into debt, and the caller's
 * next cascading write waits until the debt is refilled. One write can therefore overshoot the budget by one
 * cascade, never a caller's rate over time.
 */
@ApplicationScoped
@Startup // its counters are registered at start, not at the first write
public class CallerLimits {

    public static final String WRITES = "writes";
    public static final String CASCADE_COPIES = "cascade-copies";

    /** The settings, as numbers. */
    public record Settings(boolean enabled, double writesPerSecond, int writeBurst, int cascadeCopiesPerMinute,
                           int maxCallers) {
        public static Settings of(CairnConfig.Limits config) {
            return new Settings(config.enabled(), config.writesPerSecond(), config.writeBurst(),
                    config.cascadeCopiesPerMinute(), config.maxCallers());
        }
    }

    /** One caller's buckets, and when it was last seen. */
    private static final class Buckets {
        final TokenBucket writes;
        final TokenBucket copies;
        volatile long seen;

        Buckets(Settings settings, long now) {
            writes = TokenBucket.of(settings.writeBurst(), settings.writesPerSecond(), now);
            copies = TokenBucket.of(settings.cascadeCopiesPerMinute(), settings.cascadeCopiesPerMinute() / 60.0, now);
            seen = now;
        }

        boolean idle(long now) {
            return writes.full(now) && copies.full(now);
        }
    }

    private final Settings settings;
    private final LongSupplier clock;
    private final Map<String, Buckets> callers = new ConcurrentHashMap<>();
    private final Counter writesRefused;
    private final Counter cascadesRefused;

    @Inject
    public CallerLimits(CairnConfig config, MeterRegistry registry) {
        this(Settings.of(config.limits()), registry, System::nanoTime);
    }

    CallerLimits(Settings settings, MeterRegistry registry, LongSupplier clock) {
        this.settings = settings;
        this.clock = clock;
        // Registered up front, so a dashboard sees zero rather than nothing before the first refusal.
        writesRefused = refusals(registry, WRITES);
        cascadesRefused = refusals(registry, CASCADE_COPIES);
    }

    private static Counter refusals(MeterRegistry registry, String limit) {
        return Counter.builder("cairn.rate.limited").description("Requests refused with 429 by a per-caller limit")
                .tag("limit", limit).register(registry);
    }

    public boolean enabled() {
        return settings.enabled();
    }

    /** Admits one write of {@code subject}, or refuses it (429) with the time until its next token. */
    public void admitWrite(String subject) {
        if (!settings.enabled()) {
            return;
        }
        long now = clock.getAsLong();
        long wait = buckets(subject, now).writes.take(now);
        if (wait > 0) {
            writesRefused.increment();
            throw refusal(WRITES, wait, "this caller's writes passed the limit of " + settings.writeBurst()
                    + " at once and " + number(settings.writesPerSecond()) + " a second");
        }
    }

    /** Admits a cascading write of {@code subject} while its copy budget is not spent, or refuses it (429). */
    public void admitCascade(String subject) {
        if (!settings.enabled()) {
            return;
        }
        long now = clock.getAsLong();
        long wait = buckets(subject, now).copies.admit(now);
        if (wait > 0) {
            cascadesRefused.increment();
            throw refusal(CASCADE_COPIES, wait, "the cascade copies this caller's writes caused used up its budget of "
                    + settings.cascadeCopiesPerMinute() + " a minute");
        }
    }

    /** Charges the copies a cascade of {@code subject}'s writes as they become known (the budget may go into debt). */
    public IntConsumer chargeTo(String subject) {
        if (!settings.enabled()) {
            return copies -> { };
        }
        return copies -> {
            if (copies > 0) {
                long now = clock.getAsLong();
                buckets(subject, now).copies.charge(copies, now);
            }
        };
    }

    /** Callers whose buckets are kept now. */
    int callers() {
        return callers.size();
    }

    /** A caller's copy budget now (negative: debt). */
    double copyBudget(String subject) {
        long now = clock.getAsLong();
        return buckets(subject, now).copies.tokens(now);
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

    private static CairnException refusal(String limit, long waitNanos, String why) {
        long seconds = TokenBucket.seconds(waitNanos);
        return new CairnException(new CairnError.RateLimited(why + " on this replica; nothing was written. Retry in "
                + seconds + " s", limit, seconds));
    }
}
