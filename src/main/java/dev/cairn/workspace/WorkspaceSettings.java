package dev.cairn.workspace;

import dev.cairn.platform.CairnConfig;
import io.quarkus.runtime.Startup;
import jakarta.inject.Singleton;

/** Applies {@code cairn.workspace.status-shards} (the status index's shard count) before the first request. */
@Startup
@Singleton
public class WorkspaceSettings {

    public WorkspaceSettings(CairnConfig config) {
        WorkspaceModel.statusShards(config.workspace().statusShards());
    }
}
