package dev.cairn.reliability;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.TableSpec;
import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.item.RecordCodec;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.platform.DynamoDbReadinessTestAccess;
import dev.cairn.platform.EmbeddedDynamoDb;
import dev.cairn.store.DynamoGateway;
import dev.cairn.store.EntityStore;
import dev.cairn.store.StoreMetrics;
import dev.cairn.store.StoreSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

import java.net.URI;
import java.time.Duration;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Real faults between the store and DynamoDB Local: refused connections, resets mid-response, latency beyond the
 * call timeout. Every call fails as ServiceUnavailable (503) within the timeout, readiness goes DOWN, and when the
 * fault clears the same client recovers; no acknowledged write is missing afterwards.
 */
class FaultInjectionTest {

    record Note(String id, String text) {
    }

    static final EntitySpec<Note> NOTE = EntitySpec.builder("FaultNote", RecordCodec.<Note>builder()
                    .string("id", Note::id).string("text", Note::text)
                    .build(f -> new Note(f.string("id"), f.string("text"))))
            .key(n -> PrimaryKey.of("FAULT#" + n.id(), "META")).build();

    EmbeddedDynamoDb dynamo;
    FaultProxy proxy;
    DynamoDbAsyncClient client;
    EntityStore store;
    DynamoGateway gateway;

    @BeforeEach
    void start() throws Exception {
        dynamo = EmbeddedDynamoDb.start(0, null);
        proxy = new FaultProxy(dynamo.port());
        client = DynamoDbAsyncClient.builder().endpointOverride(URI.create(proxy.endpoint())).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .apiCallTimeout(Duration.ofSeconds(3)).apiCallAttemptTimeout(Duration.ofMillis(1500)).build())
                .build();
        gateway = new DynamoGateway(client, new StoreMetrics(new SimpleMeterRegistry()));
        store = new EntityStore(gateway, new StoreSettings("cairn", "fault-test-cursor-secret", 4, 3, Duration.ofMillis(10)));
        gateway.createTable(TableSpec.createTableRequest("cairn")).await().atMost(Duration.ofSeconds(10));
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        proxy.close();
        dynamo.close();
    }

    @ParameterizedTest
    @EnumSource(value = FaultProxy.Fault.class, names = {"REFUSE", "RESET_MID_RESPONSE", "DELAY"})
    void everyCallFailsFastAsUnavailableAndRecoversWhenTheFaultClears(FaultProxy.Fault fault) {
        var acknowledged = new Note("ack-" + UUID.randomUUID(), "kept");
        await(store.create(NOTE, acknowledged));
        var readiness = DynamoDbReadinessTestAccess.readiness(gateway);
        assertThat(await(readiness.call()).getStatus()).isEqualTo(HealthCheckResponse.Status.UP);

        proxy.inject(fault, 5_000);
        for (Uni<?> call : java.util.List.<Uni<?>>of(
                store.get(NOTE, NOTE.keyOf(acknowledged), true),
                store.create(NOTE, new Note("during-" + UUID.randomUUID(), "x")))) {
            long started = System.nanoTime();
            Throwable failure = catchThrowable(() -> call.await().atMost(Duration.ofSeconds(20)));
            long millis = (System.nanoTime() - started) / 1_000_000;
            assertThat(failure).as(fault.name()).isInstanceOfSatisfying(CairnException.class, e -> {
                assertThat(e.error()).isInstanceOf(CairnError.ServiceUnavailable.class);
                assertThat(e.error().status()).isEqualTo(503);
            });
            assertThat(millis).as("%s failed after %d ms", fault, millis).isLessThan(4_500);
        }
        assertThat(await(readiness.call()).getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);

        proxy.clear();
        assertThat(await(readiness.call()).getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        assertThat(await(store.get(NOTE, NOTE.keyOf(acknowledged), true)).value()).isEqualTo(acknowledged);
        var after = new Note("after-" + UUID.randomUUID(), "y");
        await(store.create(NOTE, after));
        assertThat(await(store.get(NOTE, NOTE.keyOf(after), true))).isNotNull();
    }

    static <T> T await(Uni<T> uni) {
        return uni.await().atMost(Duration.ofSeconds(20));
    }
}
