package dev.cairn.cricket;

import dev.cairn.platform.CairnConfig;
import io.quarkus.runtime.Startup;
import jakarta.inject.Singleton;

/** Applies {@code cairn.matches.list-shards} (the list of all matches' shard count) before the first request. */
@Startup
@Singleton
public class CricketSettings {

    public CricketSettings(CairnConfig config) {
        CricketModel.ALL_MATCHES.shards(config.matches().listShards());
    }
}
