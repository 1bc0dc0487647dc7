package dev.cairn.jobs;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * What reconciles do, per source entity type: copies checked and copies repaired. Repairs that keep appearing
 * mean copies drift (a cascade that failed for good, a write outside the service): the rate to alert on.
 */
@ApplicationScoped
public class ReconcileMetrics {

    private final MeterRegistry registry;

    public ReconcileMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    public void checked(String entity, int copies) {
        count("cairn.reconcile.copies.checked", "Copies a reconcile compared with their source's current version",
                entity, copies);
    }

    public void repaired(String entity, int copies) {
        count("cairn.reconcile.copies.repaired", "Copies a reconcile found older than their source and rewrote",
                entity, copies);
    }

    private void count(String name, String description, String entity, int copies) {
        if (copies > 0) {
            Counter.builder(name).description(description).tag("entity", entity).register(registry).increment(copies);
        }
    }
}
