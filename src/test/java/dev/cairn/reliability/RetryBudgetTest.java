package dev.cairn.reliability;

import dev.cairn.core.CairnError;
import dev.cairn.core.TableSpec;
import dev.cairn.platform.EmbeddedDynamoDb;
import dev.cairn.store.RetryBudget;
import dev.cairn.store.SdkErrors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cairn's retry budget with the app's own call timeouts, against DynamoDB Local behind {@link DynamoDbSemantics}:
 * a call throttled at every attempt ends as throttling before the call timeout, never as a timeout.
 */
class RetryBudgetTest {

    static final Duration CALL_TIMEOUT = appSetting("quarkus.dynamodb.api-call-timeout");
    static final Duration ATTEMPT_TIMEOUT = appSetting("quarkus.dynamodb.api-call-attempt-timeout");

    static EmbeddedDynamoDb dynamo;
    static DynamoDbSemantics layer;
    static DynamoDbAsyncClient client;

    @BeforeAll
    static void start() throws Exception {
        dynamo = EmbeddedDynamoDb.start(0, null);
        layer = DynamoDbSemantics.start(dynamo.endpoint());
        var configuration = ClientOverrideConfiguration.builder().apiCallTimeout(CALL_TIMEOUT)
                .apiCallAttemptTimeout(ATTEMPT_TIMEOUT).build();
        client = DynamoDbAsyncClient.builder().endpointOverride(URI.create(layer.endpoint())).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .overrideConfiguration(RetryBudget.standard().applyTo(configuration))
                .build();
        client.createTable(TableSpec.createTableRequest("cairn")).join();
    }

    @AfterAll
    static void stop() throws Exception {
        client.close();
        layer.close();
        dynamo.close();
    }

    @AfterEach
    void reset() {
        layer.reset();
    }

    @Test
    void theLongestThrottlingPausesTakeAtMostHalfTheCallTimeout() {
        assertThat(RetryBudget.standard().longestThrottlingPauses()).isEqualTo(Duration.ofMillis(1_500))
                .isLessThanOrEqualTo(CALL_TIMEOUT.dividedBy(2));
    }

    @Test
    void aCallThrottledAtEveryAttemptEndsAsThrottlingBeforeTheCallTimeout() {
        layer.throttle(1.0);
        for (int call = 0; call < 5; call++) {
            long throttledBefore = layer.counts().throttled();
            long started = System.nanoTime();
            Throwable failure = DynamoDbSemanticsTest.failure(client.getItem(get()));
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            assertThat(failure).as("call %d", call).isInstanceOf(ProvisionedThroughputExceededException.class);
            assertThat(took).as("call %d", call).isLessThan(CALL_TIMEOUT);
            assertThat(layer.counts().throttled() - throttledBefore).as("attempts").isEqualTo(5);
            assertThat(SdkErrors.translate(failure).error()).isInstanceOfSatisfying(CairnError.ServiceUnavailable.class,
                    e -> assertThat(e.detail()).contains("throttling"));
        }
    }

    @Test
    void aCallFailingAtEveryAttemptWithA500EndsAsThatErrorWellBeforeTheCallTimeout() {
        layer.serverErrors(1.0);
        long before = layer.counts().serverErrors();
        long started = System.nanoTime();
        Throwable failure = DynamoDbSemanticsTest.failure(client.getItem(get()));
        assertThat(failure).isInstanceOf(InternalServerErrorException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(CALL_TIMEOUT.dividedBy(2));
        assertThat(layer.counts().serverErrors() - before).as("attempts").isEqualTo(5);
    }

    static GetItemRequest get() {
        return GetItemRequest.builder().tableName("cairn")
                .key(Map.of("pk", AttributeValue.fromS("BUDGET"), "sk", AttributeValue.fromS("ITEM"))).build();
    }

    /** A duration from the app's application.properties ({@code 3S}, {@code 1500MS}), so the test uses the app's values. */
    static Duration appSetting(String key) {
        try (InputStream in = RetryBudgetTest.class.getResourceAsStream("/application.properties")) {
            var properties = new Properties();
            properties.load(in);
            String value = properties.getProperty(key).trim().toUpperCase(Locale.ROOT);
            return value.endsWith("MS") ? Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)))
                    : Duration.parse("PT" + value);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
