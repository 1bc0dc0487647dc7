package dev.cairn.hostile;

import dev.cairn.platform.auth.AuthEnabledProfile;
import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.HashMap;
import java.util.Map;

/**
 * The app as production runs it for a hostile caller: authentication on, every per-caller limit on (small enough for a
 * test to pass them, and shared out between the replicas alive), one table scan at a time.
 */
public class HostileProfile implements QuarkusTestProfile {

    static final int WRITE_BURST = 60;
    static final int COPIES_PER_MINUTE = 5;
    static final int READ_BURST = 300;
    static final int READ_RESERVE = 10;
    static final int MAX_RATE = 500;

    @Override
    public Map<String, String> getConfigOverrides() {
        var config = new HashMap<>(new AuthEnabledProfile().getConfigOverrides());
        config.put("cairn.limits.enabled", "true");
        config.put("cairn.limits.write-burst", Integer.toString(WRITE_BURST));
        config.put("cairn.limits.writes-per-second", "30");
        config.put("cairn.limits.cascade-copies-per-minute", Integer.toString(COPIES_PER_MINUTE));
        config.put("cairn.limits.read-burst", Integer.toString(READ_BURST));
        config.put("cairn.limits.read-units-per-second", "20");
        config.put("cairn.limits.read-reserve", Integer.toString(READ_RESERVE));
        config.put("cairn.limits.cluster.heartbeat", "1s");
        config.put("cairn.reconcile.max-rate", Integer.toString(MAX_RATE));
        config.put("cairn.reconcile.rate", "20");
        return config;
    }
}
