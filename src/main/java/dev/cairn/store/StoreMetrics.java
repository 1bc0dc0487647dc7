package dev.cairn.store;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Cairn's own meters, all with low-cardinality tags (operation, outcome, index, reason — never ids):
 * DynamoDB calls by operation and outcome, consumed capacity, conditional-check failures, transaction
 * cancellations by reason, cascade copies, aggregate items per read. SDK retries are counted by
 * {@link AttemptCountingInterceptor}.
 */
@ApplicationScoped
public class StoreMetrics {

    private final MeterRegistry registry;
    // Every DynamoDB call records here: the meters are built once per tag combination, not per call.
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();
    private final Map<String, DistributionSummary> capacities = new ConcurrentHashMap<>();
    private final Map<String, DistributionSummary> aggregateItems = new ConcurrentHashMap<>();

    public StoreMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void call(String operation, String index, long nanos, Throwable failure, Double capacity) {
        String outcome = outcome(failure);
        timers.computeIfAbsent(operation + '|' + outcome, k -> Timer.builder("cairn.dynamodb.calls")
                        .description("DynamoDB API calls (every attempt's total time)")
                        .tags("operation", operation, "outcome", outcome).register(registry))
                .record(nanos, TimeUnit.NANOSECONDS);
        if (capacity != null) {
            capacities.computeIfAbsent(operation + '|' + index, k -> DistributionSummary.builder("cairn.dynamodb.capacity")
                            .description("Consumed capacity units").baseUnit("units")
                            .tags("operation", operation, "index", index).register(registry))
                    .record(capacity);
        }
        if (failure instanceof CairnException e && e.error() instanceof CairnError.TransactionCanceled canceled) {
            canceled.failures().forEach(f -> Counter.builder("cairn.dynamodb.transaction.cancellations")
                    .description("Cancelled transaction actions by reason").tag("reason", f.reason())
                    .register(registry).increment());
        }
        if ("condition_failed".equals(outcome)) {
            Counter.builder("cairn.dynamodb.condition.failures").description("Conditional check failures")
                    .tag("operation", operation).register(registry).increment();
        }
    }

    public void cascade(String mode, int updated, int failed) {
        Counter.builder("cairn.cascade.copies").tags("mode", mode, "result", "updated").register(registry).increment(updated);
        Counter.builder("cairn.cascade.copies").tags("mode", mode, "result", "failed").register(registry).increment(failed);
    }

    /** An interrupted multi-transaction write undone (by its writer, a reader, the next writer or the worker). */
    /** A write that copies {@code entity} was refused because it changed after the copy was read (and ran again). */
    public void copyGuardCaught(String entity) {
        Counter.builder("cairn.copies.guard.caught")
                .description("Writes refused because a source they copied changed before they committed (then run again)")
                .tag("entity", entity).register(registry).increment();
    }

    public void aggregateRepaired(String aggregate) {
        Counter.builder("cairn.aggregate.repairs").description("Interrupted multi-transaction aggregate writes undone")
                .tag("aggregate", aggregate).register(registry).increment();
    }

    /** A job that ended, by kind and final state. */
    public void jobFinished(String kind, String state) {
        Counter.builder("cairn.jobs.finished").description("Jobs that ended, by kind and state")
                .tags("kind", kind, "state", state).register(registry).increment();
    }

    public MeterRegistry registry() {
        return registry;
    }

    public void aggregateRead(String aggregate, int items) {
        // Every aggregate read records here: the summary is built once per aggregate, not per read.
        aggregateItems.computeIfAbsent(aggregate, name -> DistributionSummary.builder("cairn.aggregate.items")
                .description("Member items per aggregate read").tag("aggregate", name).register(registry)).record(items);
    }

    private static String outcome(Throwable failure) {
        if (failure == null) {
            return "success";
        }
        if (CairnException.is(failure, CairnError.ServiceUnavailable.class)) {
            return "unavailable";
        }
        if (CairnException.is(failure, CairnError.TransactionCanceled.class)) {
            return "cancelled";
        }
        if (CairnException.is(failure, CairnError.NotFound.class, CairnError.Conflict.class,
                CairnError.VersionConflict.class)) {
            return "condition_failed";
        }
        return "error";
    }
}
