package dev.cairn.store;

import io.smallrye.common.vertx.ContextLocals;
import io.smallrye.common.vertx.VertxContext;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleConsumer;

/**
 * The DynamoDB work done while serving one HTTP request: API requests sent (every attempt, retries included),
 * consumed capacity units, and time spent waiting on DynamoDB. It lives in the request's Vert.x duplicated
 * context, which the gateway keeps every continuation on.
 */
public final class CallLedger {

    private static final String KEY = CallLedger.class.getName();

    private final AtomicInteger calls = new AtomicInteger();
    private final DoubleAdder capacity = new DoubleAdder();
    private final LongAdder nanos = new LongAdder();
    /** Who pays the capacity this request consumes (its caller's read budget), or null. */
    private volatile DoubleConsumer payer;

    /** Starts a ledger for the request whose duplicated context is current. */
    public static CallLedger start() {
        var ledger = new CallLedger();
        if (VertxContext.isOnDuplicatedContext()) {
            ContextLocals.put(KEY, ledger);
        }
        return ledger;
    }

    /** The ledger of the current request, or null outside a request (startup, health checks). */
    public static CallLedger current() {
        return VertxContext.isOnDuplicatedContext() ? ContextLocals.<CallLedger>get(KEY).orElse(null) : null;
    }

    void attempt() {
        calls.incrementAndGet();
    }

    void consumed(Double units) {
        if (units != null) {
            capacity.add(units);
            DoubleConsumer pays = payer;
            if (pays != null) {
                pays.accept(units);
            }
        }
    }

    /** Charges the capacity this request consumes from now on to {@code payer} as each call reports it. */
    public void payer(DoubleConsumer payer) {
        this.payer = payer;
    }

    void waited(long elapsedNanos) {
        nanos.add(elapsedNanos);
    }

    public int calls() {
        return calls.get();
    }

    public double capacity() {
        return capacity.sum();
    }

    public double millis() {
        return nanos.sum() / 1_000_000.0;
    }
}
