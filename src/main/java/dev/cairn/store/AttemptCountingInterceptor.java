package dev.cairn.store;

import io.micrometer.core.instrument.Metrics;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

import java.util.UUID;

/**
 * Counts every HTTP attempt the SDK makes, including its own retries, into the ledger the gateway attached to
 * the request. Registered with {@code quarkus.dynamodb.interceptors}.
 */
public final class AttemptCountingInterceptor implements ExecutionInterceptor {

    // The SDK registers attribute names JVM-wide, and dev-mode live reload loads this class again: a unique
    // name per class load keeps a reload from colliding with the previous one.
    static final ExecutionAttribute<CallLedger> LEDGER =
            new ExecutionAttribute<>("cairn.ledger." + UUID.randomUUID());

    private static final ExecutionAttribute<Integer> ATTEMPTS =
            new ExecutionAttribute<>("cairn.attempts." + UUID.randomUUID());

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
