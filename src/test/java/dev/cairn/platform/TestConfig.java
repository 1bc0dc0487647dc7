package dev.cairn.platform;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** A {@link CairnConfig} for tests that build platform beans by hand (no caching of health answers). */
final class TestConfig {

    private TestConfig() {
    }

    static CairnConfig readinessConfig() {
        return readinessConfig("cairn");
    }

    static CairnConfig readinessConfig(String tableName) {
        return readinessConfig(tableName, Duration.ofMillis(1500));
    }

    /** With a probe timeout of its own: a test whose point is not the timeout gives a cold JVM all the time it needs. */
    static CairnConfig readinessConfig(String tableName, Duration probeTimeout) {
        return new CairnConfig() {
            public Table table() {
                return new Table() {
                    public String name() { return tableName; }
                    public boolean create() { return false; }
                };
            }
            public Cursor cursor() {
                return new Cursor() {
                    public String secret() { return "cairn-development-cursor-secret"; }
                    public Optional<List<String>> previousSecrets() { return Optional.empty(); }
                };
            }
            public Diagnostics diagnostics() { return () -> true; }
            public Batch batch() {
                return new Batch() {
                    public int concurrency() { return 4; }
                    public int maxAttempts() { return 8; }
                    public Duration baseDelay() { return Duration.ofMillis(25); }
                };
            }
            public Health health() {
                return new Health() {
                    public Duration timeout() { return probeTimeout; }
                    public Duration cacheFor() { return Duration.ZERO; }
                };
            }
            public Cascade cascade() {
                return new Cascade() {
                    public int concurrency() { return 16; }
                    public Duration settle() { return Duration.ofSeconds(5); }
                };
            }
            public Reconcile reconcile() {
                return new Reconcile() {
                    public int rate() { return 200; }
                    public int pageSize() { return 100; }
                    public Optional<Duration> every() { return Optional.empty(); }
                    public int maxRate() { return 2000; }
                    public int maxScans() { return 1; }
                };
            }
            public Auth auth() {
                return new Auth() {
                    public boolean enabled() { return false; }
                    public String workspacesClaim() { return "workspaces"; }
                };
            }
            public Console console() { return () -> true; }
            public Workspace workspace() { return () -> 4; }
            public Matches matches() { return () -> 4; }
            public Jobs jobs() {
                throw new UnsupportedOperationException("readiness tests build no job machinery");
            }
            public Retries retries() {
                throw new UnsupportedOperationException("readiness tests retry nothing");
            }
            public Patch patch() {
                throw new UnsupportedOperationException("readiness tests patch nothing");
            }
            public Limits limits() {
                throw new UnsupportedOperationException("readiness tests limit nothing");
            }
            public LocalDynamodb localDynamodb() {
                return new LocalDynamodb() {
                    public int port() { return 8765; }
                    public String dataDir() { return ".dynamodb-local"; }
                };
            }
        };
    }
}
