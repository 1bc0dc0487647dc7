package dev.cairn.platform;

import dev.cairn.core.TableSpec;
import dev.cairn.store.DynamoGateway;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The readiness check against real endpoints it does not own: a DynamoDB Local it stops and restarts, a closed
 * port, and a socket that accepts connections but never answers. Nothing here races a cold JVM against the clock:
 * where the point is not the probe's timeout, the timeout is long; where it is, the client is warmed first, the SDK's
 * own timeouts are far longer than the probe's, and the calls made are counted rather than inferred from time.
 */
class DynamoDbReadinessTest {

    @TempDir
    Path dataDir;

    @Test
    void readinessGoesDownWhileDynamoDbIsGoneAndUpAgainWhenItIsBack() throws Exception {
        EmbeddedDynamoDb dynamoDb = EmbeddedDynamoDb.start(0, dataDir);
        int port = dynamoDb.port();
        try (DynamoDbAsyncClient client = client("http://127.0.0.1:" + port)) {
            var gateway = new DynamoGateway(client, new dev.cairn.store.StoreMetrics(new io.micrometer.core.instrument.simple.SimpleMeterRegistry()));
            gateway.createTable(TableSpec.createTableRequest("cairn")).await().atMost(Duration.ofSeconds(10));
            // Going down and up again is the point here, not the timeout: a cold first call may take what it takes.
            var readiness = new DynamoDbReadiness(gateway, TestConfig.readinessConfig("cairn", PATIENT));
            var announced = new CountingEvent();
            readiness.ready = announced;
            assertThat(check(readiness).getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
            assertThat(announced.fired).as("the first UP announces the service ready").hasValue(1);

            dynamoDb.close();
            assertThat(check(readiness).getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);

            dynamoDb = EmbeddedDynamoDb.start(port, dataDir);
            assertThat(check(readiness).getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
            assertThat(announced.fired).as("ready is announced once, not at every UP").hasValue(1);
        } finally {
            dynamoDb.close();
        }
    }

    @Test
    void readinessIsDownWithinTheTimeoutWhenTheEndpointNeverAnswers() throws Exception {
        var calls = new CountingCalls();
        try (ServerSocket silent = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
             DynamoDbAsyncClient client = patientClient("http://127.0.0.1:" + silent.getLocalPort(), calls)) {
            var readiness = timedReadiness(client);
            warm(client, calls);
            long before = calls.count.get();
            long started = System.nanoTime();
            HealthCheckResponse response = check(readiness);
            long elapsedMillis = (System.nanoTime() - started) / 1_000_000;
            assertThat(response.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
            assertThat(response.getData()).hasValueSatisfying(data -> assertThat(data)
                    .containsEntry("error", "DynamoDB did not answer DescribeTable"));
            assertThat(calls.count.get() - before).as("one DescribeTable, never answered").isEqualTo(1);
            // The SDK would give up only after a minute: a DOWN at all, and not before the probe's timeout, is the
            // probe's own timeout at work, however fast or slow this machine is.
            long timeout = TestConfig.readinessConfig().health().timeout().toMillis();
            assertThat(elapsedMillis).isGreaterThanOrEqualTo(timeout - 50).isLessThan(PATIENT.toMillis() / 2);
        }
    }

    @Test
    void aMissingTableIsDownAndSaidToBeMissingNotUnanswered() throws Exception {
        try (EmbeddedDynamoDb dynamoDb = EmbeddedDynamoDb.start(0, null);
             DynamoDbAsyncClient client = client("http://127.0.0.1:" + dynamoDb.port())) {
            HealthCheckResponse response = check(readiness(client));
            assertThat(response.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
            assertThat(response.getData()).hasValueSatisfying(data -> assertThat(data)
                    .containsEntry("error", "the table does not exist"));
        }
    }

    @Test
    void aRefusedDescribeTableIsDownWithDynamoDbsErrorNotAsUnanswered() throws Exception {
        try (EmbeddedDynamoDb dynamoDb = EmbeddedDynamoDb.start(0, null);
             DynamoDbAsyncClient client = client("http://127.0.0.1:" + dynamoDb.port())) {
            var gateway = new DynamoGateway(client, new dev.cairn.store.StoreMetrics(new io.micrometer.core.instrument.simple.SimpleMeterRegistry()));
            // DynamoDB refuses a table name shorter than three characters: an answer, with an error
            HealthCheckResponse response = check(new DynamoDbReadiness(gateway, TestConfig.readinessConfig("x", PATIENT)));
            assertThat(response.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
            assertThat(response.getData()).hasValueSatisfying(data -> assertThat(data)
                    .containsEntry("error", "DynamoDB answered DescribeTable with ValidationException (HTTP 400)"));
        }
    }

    @Test
    void aReadinessThatNeverWasUpAnnouncesNothing() throws Exception {
        try (ServerSocket closed = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            int port = closed.getLocalPort();
            closed.close();
            try (DynamoDbAsyncClient client = client("http://127.0.0.1:" + port)) {
                var readiness = readiness(client);
                var announced = new CountingEvent();
                readiness.ready = announced;
                assertThat(check(readiness).getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
                assertThat(announced.fired).hasValue(0);
            }
        }
    }

    @Test
    void aProbeDuringTheStartsTableCheckIsAnsweredByThatCheckNotByASecondCall() throws Exception {
        // An endpoint that never answers: a DescribeTable of the probe's own could only time out (DOWN).
        try (ServerSocket silent = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
             DynamoDbAsyncClient client = client("http://127.0.0.1:" + silent.getLocalPort())) {
            var readiness = readiness(client);
            var startCheck = new java.util.concurrent.CompletableFuture<Void>();
            readiness.checkingAtStart(io.smallrye.mutiny.Uni.createFrom().completionStage(startCheck).memoize().indefinitely());

            var probe = readiness.call().subscribeAsCompletionStage();
            Thread.sleep(200);
            assertThat(probe).as("the probe waits for the start's check").isNotDone();
            readiness.answeredAtStart(software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse.builder()
                    .table(t -> t.tableName("cairn").tableStatus("ACTIVE")).build());
            startCheck.complete(null);

            HealthCheckResponse response = probe.get(1, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(response.getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
            assertThat(response.getData()).hasValueSatisfying(data -> assertThat(data).containsEntry("status", "ACTIVE"));
        }
    }

    @Test
    void aStartCheckThatNeverEndsLeavesTheProbeDownWithinItsTimeouts() throws Exception {
        var calls = new CountingCalls();
        try (ServerSocket silent = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
             DynamoDbAsyncClient client = patientClient("http://127.0.0.1:" + silent.getLocalPort(), calls)) {
            var readiness = timedReadiness(client);
            readiness.checkingAtStart(io.smallrye.mutiny.Uni.createFrom().completionStage(
                    new java.util.concurrent.CompletableFuture<Void>()));
            long started = System.nanoTime();
            HealthCheckResponse response = check(readiness);
            long elapsedMillis = (System.nanoTime() - started) / 1_000_000;
            assertThat(response.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
            assertThat(response.getData()).hasValueSatisfying(data -> assertThat(data)
                    .containsEntry("error", "DynamoDB did not answer DescribeTable"));
            // the wait for the start's check is the probe's timeout, with no second call after it (counted, not timed:
            // a second call could only end by the SDK's minute-long timeout)
            assertThat(calls.count.get()).as("no DescribeTable of the probe's own").isZero();
            assertThat(elapsedMillis).isGreaterThanOrEqualTo(TestConfig.readinessConfig().health().timeout().toMillis() - 50)
                    .isLessThan(PATIENT.toMillis() / 2);
        }
    }

    @Test
    void theStartsAnswerIsNotServedOnceOlderThanTheCacheToAProbeThatDidNotWaitForIt() throws Exception {
        // The table answered the start, then DynamoDB went silent: a later probe asks again (here: DOWN), as the
        // cache (zero in this configuration) says, instead of repeating the start's UP.
        try (ServerSocket silent = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
             DynamoDbAsyncClient client = client("http://127.0.0.1:" + silent.getLocalPort())) {
            var readiness = timedReadiness(client);
            readiness.checkingAtStart(io.smallrye.mutiny.Uni.createFrom().voidItem());
            readiness.answeredAtStart(software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse.builder()
                    .table(t -> t.tableName("cairn").tableStatus("ACTIVE")).build());
            Thread.sleep(50);
            assertThat(check(readiness).getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
        }
    }

    /** Counts what the readiness check announces. */
    static final class CountingEvent implements jakarta.enterprise.event.Event<ServiceReady> {
        final java.util.concurrent.atomic.AtomicInteger fired = new java.util.concurrent.atomic.AtomicInteger();

        @Override
        public void fire(ServiceReady event) {
            fired.incrementAndGet();
        }

        @Override
        public <U extends ServiceReady> java.util.concurrent.CompletionStage<U> fireAsync(U event) {
            fired.incrementAndGet();
            return java.util.concurrent.CompletableFuture.completedFuture(event);
        }

        @Override
        public <U extends ServiceReady> java.util.concurrent.CompletionStage<U> fireAsync(U event,
                                                                                     jakarta.enterprise.event.NotificationOptions options) {
            return fireAsync(event);
        }

        @Override
        public jakarta.enterprise.event.Event<ServiceReady> select(java.lang.annotation.Annotation... qualifiers) {
            return this;
        }

        @Override
        public <U extends ServiceReady> jakarta.enterprise.event.Event<U> select(Class<U> subtype,
                                                                              java.lang.annotation.Annotation... qualifiers) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <U extends ServiceReady> jakarta.enterprise.event.Event<U> select(jakarta.enterprise.util.TypeLiteral<U> subtype,
                                                                              java.lang.annotation.Annotation... qualifiers) {
            throw new UnsupportedOperationException();
        }
    }

    /** A readiness check whose point is not its timeout: a cold first call may take what it takes. */
    private static DynamoDbReadiness readiness(DynamoDbAsyncClient client) {
        return new DynamoDbReadiness(new DynamoGateway(client, new dev.cairn.store.StoreMetrics(
                new io.micrometer.core.instrument.simple.SimpleMeterRegistry())), TestConfig.readinessConfig("cairn", PATIENT));
    }

    /** The production-like probe timeout (1.5 s), for the tests whose point it is. */
    private static DynamoDbReadiness timedReadiness(DynamoDbAsyncClient client) {
        return new DynamoDbReadiness(new DynamoGateway(client, new dev.cairn.store.StoreMetrics(
                new io.micrometer.core.instrument.simple.SimpleMeterRegistry())), TestConfig.readinessConfig());
    }

    private static HealthCheckResponse check(DynamoDbReadiness readiness) {
        return readiness.call().await().atMost(PATIENT);
    }

    /** The SDK's own timeouts, far beyond any probe's: only the readiness check's timeout can end a silent call early. */
    static final Duration PATIENT = Duration.ofSeconds(60);

    /** Counts the calls a client makes (each attempt's start). */
    static final class CountingCalls implements software.amazon.awssdk.core.interceptor.ExecutionInterceptor {
        final java.util.concurrent.atomic.AtomicLong count = new java.util.concurrent.atomic.AtomicLong();

        @Override
        public void beforeTransmission(software.amazon.awssdk.core.interceptor.Context.BeforeTransmission context,
                                       software.amazon.awssdk.core.interceptor.ExecutionAttributes attributes) {
            count.incrementAndGet();
        }
    }

    private static DynamoDbAsyncClient patientClient(String endpoint, CountingCalls calls) {
        return DynamoDbAsyncClient.builder()
                .endpointOverride(URI.create(endpoint))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .overrideConfiguration(ClientOverrideConfiguration.builder().addExecutionInterceptor(calls)
                        .apiCallTimeout(PATIENT).apiCallAttemptTimeout(PATIENT).build())
                .build();
    }

    /**
     * Loads the client's whole call path (signing, marshalling, the HTTP client's native side) with one call that
     * cannot be answered in time, so the timed call that follows measures the check, not a cold JVM.
     */
    private static void warm(DynamoDbAsyncClient client, CountingCalls calls) throws InterruptedException {
        long before = calls.count.get();
        client.describeTable(b -> b.tableName("warm-up")); // never answered: left in flight
        long deadline = System.nanoTime() + PATIENT.toNanos();
        while (calls.count.get() == before && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(calls.count.get()).as("the warm-up call was sent").isGreaterThan(before);
    }

    /** A client whose own timeouts end nothing a test looks at: the SDK's cold first call may take what it takes. */
    private static DynamoDbAsyncClient client(String endpoint) {
        return patientClient(endpoint, new CountingCalls());
    }
}
