package dev.cairn.platform.limits;

import dev.cairn.core.lease.ReplicaRoll;
import dev.cairn.platform.CairnConfig;
import dev.cairn.platform.TableProvisioner;
import dev.cairn.store.EntityStore;
import dev.cairn.store.JobSettings;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

import java.time.Duration;

/**
 * How many replicas share the per-caller limits: this replica writes itself on the roll at every heartbeat
 * ({@code cairn.limits.cluster.heartbeat}: 1 PutItem) and counts the replicas alive on it (1 Query). Until the first
 * count, and with the cluster sharing off, it counts as alone. A heartbeat that fails keeps the last count: a replica
 * that cannot reach DynamoDB serves nothing that costs anyway.
 */
@ApplicationScoped
public class Replicas {

    private static final Logger LOG = Logger.getLogger(Replicas.class);

    private final CairnConfig config;
    private final EntityStore store;
    private final JobSettings jobs;
    private final Vertx vertx;
    private volatile int alive = 1;
    private volatile long timer = -1;

    public Replicas(CairnConfig config, EntityStore store, JobSettings jobs, Vertx vertx, MeterRegistry registry) {
        this.config = config;
        this.store = store;
        this.jobs = jobs;
        this.vertx = vertx;
        Gauge.builder("cairn.replicas.alive", this, Replicas::alive)
                .description("Replicas sharing the per-caller limits, as this one counted them last").register(registry);
    }

    /** Replicas alive at the last count, at least 1. */
    public int alive() {
        return alive;
    }

    // After the dev-mode demo seeder, which looks whether the table is empty.
    void start(@Observes @Priority(TableProvisioner.TABLE_READY + 20) StartupEvent event) {
        var cluster = config.limits().cluster();
        if (!config.limits().enabled() || !cluster.enabled()) {
            return;
        }
        beat();
        timer = vertx.setPeriodic(cluster.heartbeat().toMillis(), tick -> beat());
    }

    /** A replica that stops takes itself off the roll, so the others take its share at their next heartbeat. */
    void stop(@Observes ShutdownEvent event) {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
            try {
                store.write(ReplicaRoll.leave(jobs.owner())).await().atMost(Duration.ofSeconds(2));
            } catch (RuntimeException e) {
                LOG.debugf("could not take this replica off the roll (%s): it drops off after three heartbeats",
                        e.getMessage());
            }
        }
    }

    private void beat() {
        store.write(ReplicaRoll.heartbeat(jobs.owner(), store.now(), config.limits().cluster().heartbeat()))
                .chain(() -> store.rawPage(ReplicaRoll.roll(), null))
                .subscribe().with(page -> {
                    int counted = ReplicaRoll.alive(page.items(), store.now());
                    if (counted != alive) {
                        LOG.infof("%d replica(s) alive: each enforces 1/%d of every per-caller limit", counted, counted);
                    }
                    alive = counted;
                }, failure -> LOG.debugf("the replica heartbeat failed (%s); %d replica(s) still counted",
                        failure.getMessage(), alive));
    }
}
