package dev.cairn.cricket;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/**
 * Cascade jobs that give a failing copy one second, retry once by themselves after a second, then stay failed. The
 * settle pass a finished pass schedules waits an hour, so only a retry can heal a copy here.
 */
public class JobRetryProfile implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("cairn.jobs.retry-for", "1s", "cairn.jobs.retry-backoff", "1s", "cairn.jobs.max-retries", "1",
                "cairn.cascade.settle", "1h");
    }
}
