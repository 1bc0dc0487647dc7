package dev.cairn.platform;

import dev.cairn.store.StoreSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** Hands the store its settings, so the store never depends on the platform's configuration types. */
@ApplicationScoped
public class StoreSettingsProducer {

    @Produces
    @Singleton
    StoreSettings storeSettings(CairnConfig config) {
        return new StoreSettings(config.table().name(), config.cursor().secret(), config.batch().concurrency(),
                config.batch().maxAttempts(), config.batch().baseDelay());
    }
}
