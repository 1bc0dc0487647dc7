package dev.cairn.platform;

import dev.cairn.store.JobSettings;
import dev.cairn.store.StoreSettings;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import java.time.Clock;
import java.util.List;
import java.util.UUID;

/** Hands the store its settings, so the store never depends on the platform's configuration types. */
@ApplicationScoped
public class StoreSettingsProducer {

    @Produces
    @Singleton
    StoreSettings storeSettings(CairnConfig config) {
        var retries = config.retries();
        return new StoreSettings(config.table().name(), config.cursor().secret(), config.batch().concurrency(),
                config.batch().maxAttempts(), config.batch().baseDelay(), new StoreSettings.Retries(retries.busyAttempts(),
                retries.busyPause(), retries.readAttempts(), retries.backoff(), retries.maxBackoff()),
                config.cursor().previousSecrets().orElse(List.of()));
    }

    /**
     * The clock of every expiry check, write condition and timestamp: the system's, unless a bean replaces it (the
     * tests' movable clock does).
     */
    @Produces
    @Singleton
    @DefaultBean
    Clock clock() {
        return Clock.systemUTC();
    }

    /** This process's lease owner id is new at every start: a restarted pod never mistakes a dead run for its own. */
    @Produces
    @Singleton
    JobSettings jobSettings(CairnConfig config) {
        String host = System.getenv().getOrDefault("HOSTNAME", "cairn");
        String owner = host + "-" + UUID.randomUUID().toString().substring(0, 8);
        return new JobSettings(owner, config.jobs().shards(), config.jobs().retention(), config.jobs().lease(),
                config.jobs().aggregateLease());
    }
}
