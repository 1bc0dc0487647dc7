package dev.cairn.platform.limits;

import dev.cairn.platform.auth.AuthEnabledProfile;
import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.HashMap;
import java.util.Map;

/**
 * The test app with authentication on (every token's subject is a caller of its own) and tiny per-caller limits:
 * 5 writes at once, then one every 2 s; 10 cascade copies a minute.
 */
public class LimitsProfile implements QuarkusTestProfile {

    static final int WRITE_BURST = 5;
    static final int COPIES_PER_MINUTE = 10;

    @Override
    public Map<String, String> getConfigOverrides() {
        var config = new HashMap<>(new AuthEnabledProfile().getConfigOverrides());
        config.put("cairn.limits.enabled", "true");
        config.put("cairn.limits.write-burst", Integer.toString(WRITE_BURST));
        config.put("cairn.limits.writes-per-second", "0.5");
        config.put("cairn.limits.cascade-copies-per-minute", Integer.toString(COPIES_PER_MINUTE));
        return config;
    }
}
