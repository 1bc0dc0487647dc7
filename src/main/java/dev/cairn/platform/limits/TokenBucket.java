package dev.cairn.platform.limits;

/**
 * A token bucket: at most {@code capacity} tokens, refilled continuously at {@code perSecond}. Times are
 * {@link System#nanoTime()} readings passed in, so the arithmetic needs no clock to be tested. The balance may go
 * below zero ({@link #charge}): a cost known only after the work was admitted is still paid, before anything
 * else is admitted. Thread-safe; every call is a few arithmetic operations under the bucket's lock.
 */
public final class TokenBucket {

    private final double capacity;
    private final double perNano;
    private double tokens;
    private long at;

    private TokenBucket(double capacity, double perSecond, long now) {
        if (capacity < 1 || perSecond <= 0) {
            throw new IllegalArgumentException("a bucket needs a capacity of at least 1 and a positive rate");
        }
        this.capacity = capacity;
        this.perNano = perSecond / 1e9;
        this.tokens = capacity;
        this.at = now;
    }

    /** A full bucket. */
    public static TokenBucket of(double capacity, double perSecond, long now) {
        return new TokenBucket(capacity, perSecond, now);
    }

    /** Takes one token: 0 when it was there, otherwise the nanoseconds until it will be (nothing is taken). */
    public synchronized long take(long now) {
        refill(now);
        if (tokens >= 1) {
            tokens -= 1;
            return 0;
        }
        return untilOne();
    }

    /**
     * Takes {@code cost} tokens if the bucket holds them all: 0 when taken, otherwise the nanoseconds until it will
     * hold them (nothing is taken; {@link Long#MAX_VALUE} when the cost is larger than the bucket can ever hold).
     */
    public synchronized long take(double cost, long now) {
        refill(now);
        if (tokens >= cost) {
            tokens -= cost;
            return 0;
        }
        return cost > capacity ? Long.MAX_VALUE : (long) Math.ceil((cost - tokens) / perNano);
    }

    /** Takes as many whole tokens as are there, up to {@code wanted}: how many were taken. */
    public synchronized int takeUpTo(int wanted, long now) {
        refill(now);
        int taken = (int) Math.max(0, Math.min(wanted, Math.floor(tokens)));
        tokens -= taken;
        return taken;
    }

    /** Nanoseconds until the bucket holds {@code cost} tokens (0 when it does; capped at a full refill). */
    public synchronized long until(double cost, long now) {
        refill(now);
        double missing = Math.min(cost, capacity) - tokens;
        return missing <= 0 ? 0 : (long) Math.ceil(missing / perNano);
    }

    /** Gives back tokens taken for work that was not done, up to the capacity. */
    public synchronized void refund(double tokens, long now) {
        refill(now);
        this.tokens = Math.min(capacity, this.tokens + tokens);
    }

    /**
     * Admits work whose cost is charged later: 0 while at least one token is left (nothing is taken), otherwise the
     * nanoseconds until one will be.
     */
    public synchronized long admit(long now) {
        refill(now);
        return tokens >= 1 ? 0 : untilOne();
    }

    /** Takes {@code cost} tokens whatever is left; what is missing becomes debt, refilled before anything is admitted. */
    public synchronized void charge(double cost, long now) {
        refill(now);
        tokens -= cost;
    }

    /** The balance now (negative: debt). */
    public synchronized double tokens(long now) {
        refill(now);
        return tokens;
    }

    /** Full again: forgetting the bucket changes nothing, a new one starts full. */
    public synchronized boolean full(long now) {
        refill(now);
        return tokens >= capacity;
    }

    /** Whole seconds to wait for {@code nanos}, at least 1: what a Retry-After header says. */
    public static long seconds(long nanos) {
        return Math.max(1, (long) Math.ceil(nanos / 1e9));
    }

    private void refill(long now) {
        if (now > at) {
            tokens = Math.min(capacity, tokens + (now - at) * perNano);
            at = now;
        }
    }

    private long untilOne() {
        return (long) Math.ceil((1 - tokens) / perNano);
    }
}
