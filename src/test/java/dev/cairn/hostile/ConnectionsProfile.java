package dev.cairn.hostile;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/**
 * The HTTP layer's connection bounds made small enough for a test to pass them: idle 2 s, 100 connections at once on
 * each of the 2 IO threads (the cap is counted per IO thread).
 */
public class ConnectionsProfile implements QuarkusTestProfile {

    static final int MAX_CONNECTIONS = 100;
    static final int IO_THREADS = 2;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quarkus.http.idle-timeout", "2s", "quarkus.http.io-threads", Integer.toString(IO_THREADS),
                "quarkus.http.limits.max-connections", Integer.toString(MAX_CONNECTIONS));
    }
}
