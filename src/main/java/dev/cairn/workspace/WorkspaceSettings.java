package dev.cairn.workspace;

import io.quarkus.runtime.Startup;
import jakarta.inject.Singleton;
import dev.cairn.platform.CairnConfig;

/** Applies {@code cairn.workspace.status-shards} (the status index's shard count) before the first request. */
@Startup
@Singleton
public class WorkspaceSettings {

    public WorkspaceSettings(CairnConfig config) {
        WorkspaceModel.statusShards(config.workspace().statusShards());
    }
}
