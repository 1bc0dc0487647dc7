package dev.cairn.platform;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.store.DynamoGateway;
import dev.cairn.store.EntityStore;
import dev.cairn.store.StoreSettings;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A DynamoDB that is gone or silent is a 503 with Retry-After within about 3 s, never a hang or a 500. */
class UnreachableDynamoDbTest {

    @Test
    void aSilentEndpointIsServiceUnavailableWithinTheCallTimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
             DynamoDbAsyncClient client = client("http://127.0.0.1:" + silent.getLocalPort())) {
            var store = new EntityStore(new DynamoGateway(client, new dev.cairn.store.StoreMetrics(new io.micrometer.core.instrument.simple.SimpleMeterRegistry())),
                    new StoreSettings("cairn", "cairn-development-cursor-secret", 4, 3, Duration.ofMillis(10)));
            long started = System.nanoTime();
            assertThatThrownBy(() -> store.get(dev.cairn.store.TestSpecs.NOTE, PrimaryKey.of("N#x", "META"), true)
                    .await().atMost(Duration.ofSeconds(10)))
                    .isInstanceOfSatisfying(CairnException.class, e -> {
                        assertThat(e.error()).isInstanceOf(CairnError.ServiceUnavailable.class);
                        assertThat(e.error().status()).isEqualTo(503);
                    });
            assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(4000);
        }
    }

    @Test
    void serviceUnavailableIsAProblemWithRetryAfter() {
        var response = ProblemMapper.problem(new CairnError.ServiceUnavailable("DynamoDB is unreachable", 1), null);
        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(response.getHeaderString("Retry-After")).isEqualTo("1");
        assertThat(response.getMediaType().toString()).isEqualTo("application/problem+json");
    }

    private static DynamoDbAsyncClient client(String endpoint) {
        return DynamoDbAsyncClient.builder()
                .endpointOverride(URI.create(endpoint))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .apiCallTimeout(Duration.ofSeconds(3)).apiCallAttemptTimeout(Duration.ofMillis(1500)).build())
                .build();
    }
}
