package dev.cairn.store;

import io.micrometer.core.instrument.Metrics;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

import java.util.UUID;

/**
 * Counts every HTTP attempt the SDK makes, including its own retries, into the ledger of the request that made the
 * call. Registered with {@code quarkus.dynamodb.interceptors}.
 *
 * <p>The SDK runs {@link #beforeExecution} on the thread that starts the call, before anything is sent: there the
 * request's {@link CallLedger} is current (the gateway starts every call on the request's context), and it is kept
 * in the call's execution attributes for its attempts, which may run on other threads. Taking it here, rather than
 * putting it on the request as an override, spares a copy of every request and a request-level configuration the
 * SDK would merge into each call.
 */
public final class AttemptCountingInterceptor implements ExecutionInterceptor {

    // The SDK registers attribute names JVM-wide, and dev-mode live reload loads this class again: a unique
    // name per class load keeps a reload from colliding with the previous one.
    static final ExecutionAttribute<CallLedger> LEDGER =
            new ExecutionAttribute<>("cairn.ledger." + UUID.randomUUID());

    private static final ExecutionAttribute<Integer> ATTEMPTS =
            new ExecutionAttribute<>("cairn.attempts." + UUID.randomUUID());

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        CallLedger ledger = CallLedger.current();
        if (ledger != null) {
            attributes.putAttribute(LEDGER, ledger);
        }
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        CallLedger ledger = attributes.getAttribute(LEDGER);
        if (ledger != null) {
            ledger.attempt();
        }
        Integer attempts = attributes.getAttribute(ATTEMPTS);
        int attempt = attempts == null ? 1 : attempts + 1;
        attributes.putAttribute(ATTEMPTS, attempt);
        if (attempt > 1) {
            // The SDK builds this interceptor itself, so it reaches Quarkus' registry through the global one.
            Metrics.counter("cairn.dynamodb.retries").increment();
        }
    }
}
