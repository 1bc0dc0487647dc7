package dev.cairn.platform;

import dev.cairn.store.EntityStore;
import io.quarkus.arc.All;
import io.quarkus.arc.profile.IfBuildProfile;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.List;

/** Dev mode only: seeds an EMPTY table once with every domain's demo data (the seeds' own examples). */
@IfBuildProfile("dev")
@ApplicationScoped
public class DevDemoSeeder {

    private static final Logger LOG = Logger.getLogger(DevDemoSeeder.class);

    void seed(@Observes @Priority(TableProvisioner.TABLE_READY + 10) StartupEvent event, EntityStore store, @All List<DemoData> demoData) {
        if (!store.isEmpty().await().atMost(Duration.ofSeconds(10))) {
            return;
        }
        for (DemoData data : demoData) {
            data.seed().await().atMost(Duration.ofSeconds(30));
        }
        LOG.infof("seeded the empty table with demo data from %d domains", demoData.size());
    }
}
