package dev.cairn.reliability;

import dev.cairn.core.CairnError;
import dev.cairn.core.TableSpec;
import dev.cairn.platform.EmbeddedDynamoDb;
import dev.cairn.store.SdkErrors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The test layer against a real DynamoDB Local through a real SDK client (its retries off, so every answer of the
 * layer is seen as the SDK turns it into a response or an exception).
 */
class DynamoDbSemanticsTest {

    static final Duration LAG = Duration.ofMillis(1_500);

    static EmbeddedDynamoDb dynamo;
    static DynamoDbSemantics layer;
    static DynamoDbAsyncClient client;
    final String k = UUID.randomUUID().toString().substring(0, 8);

    @BeforeAll
    static void start() throws Exception {
        dynamo = EmbeddedDynamoDb.start(0, null);
        layer = DynamoDbSemantics.start(dynamo.endpoint());
        client = DynamoDbAsyncClient.builder().endpointOverride(URI.create(layer.endpoint())).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()))
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
    void itemsWrittenWithinTheLagAreAbsentFromIndexReadsUntilItHasPassed() throws Exception {
        String index = "G#" + k;
        // Written before the lag is switched on: in the index at once.
        put(item("old", index));
        layer.gsiLag(LAG);
        // One write of each kind DynamoDB propagates to an index.
        put(item("put", index));
        client.updateItem(UpdateItemRequest.builder().tableName("cairn").key(key("update"))
                .updateExpression("SET gsi1pk = :pk, gsi1sk = :sk, #id = :sk").expressionAttributeNames(Map.of("#id", "id"))
                .expressionAttributeValues(Map.of(":pk", s(index), ":sk", s("update"))).build()).join();
        client.batchWriteItem(BatchWriteItemRequest.builder().requestItems(Map.of("cairn", List.of(WriteRequest.builder()
                .putRequest(PutRequest.builder().item(item("batch", index)).build()).build()))).build()).join();
        client.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(TransactWriteItem.builder()
                .put(Put.builder().tableName("cairn").item(item("transact", index)).build()).build()).build()).join();

        QueryResponse lagging = indexQuery(index);
        assertThat(ids(lagging.items())).containsExactly("old");
        assertThat(lagging.count()).isEqualTo(1);
        assertThat(lagging.scannedCount()).isEqualTo(1);
        // The body was rewritten: the SDK accepted the recomputed checksum.
        assertThat(lagging.sdkHttpResponse().firstMatchingHeader("x-amz-crc32")).isPresent();
        ScanResponse scan = client.scan(ScanRequest.builder().tableName("cairn").indexName("gsi1")
                .filterExpression("gsi1pk = :pk").expressionAttributeValues(Map.of(":pk", s(index))).build()).join();
        assertThat(ids(scan.items())).containsExactly("old");
        assertThat(scan.count()).isEqualTo(1);
        // The table itself is current.
        assertThat(ids(client.query(QueryRequest.builder().tableName("cairn").keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk", s("SEM#" + k + "#put"))).build()).join().items()))
                .containsExactly("put");

        Thread.sleep(LAG.toMillis() + 100);
        QueryResponse later = indexQuery(index);
        assertThat(ids(later.items())).containsExactlyInAnyOrder("old", "put", "update", "batch", "transact");
        assertThat(later.count()).isEqualTo(5);
        assertThat(layer.counts().hidden()).isGreaterThanOrEqualTo(4 + 4);
    }

    @Test
    void throttledCallsAreTheSdksThrottlingExceptionsAndCairnSaysDynamoDbIsThrottling() {
        put(item("throttled", "G#" + k));
        layer.throttle(1.0);
        Throwable throughput = failure(client.getItem(GetItemRequest.builder().tableName("cairn").key(key("throttled")).build()));
        assertThat(throughput).isInstanceOfSatisfying(ProvisionedThroughputExceededException.class,
                e -> assertThat(e.statusCode()).isEqualTo(400));
        assertThat(SdkErrors.translate(throughput).error()).isInstanceOfSatisfying(CairnError.ServiceUnavailable.class,
                e -> assertThat(e.detail()).contains("throttling"));

        layer.throttle(1.0, DynamoDbSemantics.Throttle.THROTTLING);
        Throwable rate = failure(client.getItem(GetItemRequest.builder().tableName("cairn").key(key("throttled")).build()));
        assertThat(rate).isInstanceOfSatisfying(DynamoDbException.class, e -> {
            assertThat(e.statusCode()).isEqualTo(400);
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ThrottlingException");
            assertThat(e.isThrottlingException()).isTrue();
        });
        assertThat(SdkErrors.translate(rate).error()).isInstanceOfSatisfying(CairnError.ServiceUnavailable.class,
                e -> assertThat(e.detail()).contains("throttling"));
        // The control plane is never refused.
        assertThat(client.describeTable(r -> r.tableName("cairn")).join().table().tableName()).isEqualTo("cairn");
    }

    @Test
    void aCancelledTransactionNamesOneTransactionConflictAndWritesNothing() {
        layer.conflicts(1.0);
        Throwable cancelled = failure(client.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(
                List.of("a", "b", "c").stream().map(id -> TransactWriteItem.builder()
                        .put(Put.builder().tableName("cairn").item(item(id, "G#" + k)).build()).build()).toList()).build()));
        assertThat(cancelled).isInstanceOfSatisfying(TransactionCanceledException.class, e -> {
            assertThat(e.cancellationReasons()).extracting(CancellationReason::code)
                    .containsOnly("None", "TransactionConflict").hasSize(3)
                    .filteredOn("TransactionConflict"::equals).hasSize(1);
            assertThat(e.getMessage()).contains("TransactionConflict");
        });
        // Only transactions: a single write passes.
        put(item("single", "G#" + k));
        layer.reset();
        assertThat(exists("a")).isFalse();
        assertThat(exists("single")).isTrue();
    }

    @Test
    void serverErrorsAreInternalServerErrorsAndWriteNothing() {
        layer.serverErrors(1.0);
        Throwable failed = failure(client.putItem(PutItemRequest.builder().tableName("cairn").item(item("failed", "G#" + k)).build()));
        assertThat(failed).isInstanceOfSatisfying(InternalServerErrorException.class,
                e -> assertThat(e.statusCode()).isEqualTo(500));
        layer.reset();
        assertThat(exists("failed")).isFalse();
    }

    @Test
    void aFractionRefusesAboutThatShareOfCalls() {
        put(item("often", "G#" + k));
        long before = layer.counts().throttled();
        layer.throttle(0.2);
        int refused = 0;
        for (int i = 0; i < 500; i++) {
            if (failure(client.getItem(GetItemRequest.builder().tableName("cairn").key(key("often")).build())) != null) {
                refused++;
            }
        }
        // 100 expected; the bounds are more than five standard deviations (about 9) away.
        assertThat(refused).isBetween(50, 150);
        assertThat(layer.counts().throttled() - before).isEqualTo(refused);
    }

    @Test
    void aSlowedWriteLandsOnlyAfterItsDelayWhileOtherCallsPassAtOnce() throws Exception {
        Duration delay = Duration.ofMillis(800);
        layer.latency(delay, "PutItem");
        long before = layer.counts().delayed();
        long started = System.nanoTime();
        var slow = client.putItem(PutItemRequest.builder().tableName("cairn").item(item("slow", "G#" + k)).build());
        Thread.sleep(200);
        // GetItem is not slowed: it answers within the put's delay, and the put has not reached DynamoDB yet.
        assertThat(exists("slow")).as("written before its delay was over").isFalse();
        assertThat(slow).isNotDone();
        slow.join();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(delay);
        assertThat(exists("slow")).isTrue();
        assertThat(layer.counts().delayed() - before).isEqualTo(1);

        layer.reset();
        put(item("fast", "G#" + k));
        assertThat(layer.counts().delayed() - before).as("switched off").isEqualTo(1);
    }

    @Test
    void aLatencyRangeHoldsEachCallForATimeWithinIt() {
        Duration min = Duration.ofMillis(100);
        Duration max = Duration.ofMillis(300);
        layer.latency(min, max, "UpdateItem", "TransactWriteItems");
        var took = new java.util.ArrayList<Duration>();
        for (int i = 0; i < 12; i++) {
            long started = System.nanoTime();
            if (i % 2 == 0) {
                client.updateItem(UpdateItemRequest.builder().tableName("cairn").key(key("ranged"))
                        .updateExpression("SET #id = :id").expressionAttributeNames(Map.of("#id", "id"))
                        .expressionAttributeValues(Map.of(":id", s("ranged"))).build()).join();
            } else {
                client.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(TransactWriteItem.builder()
                        .put(Put.builder().tableName("cairn").item(item("ranged-" + i, "G#" + k)).build()).build()).build()).join();
            }
            took.add(Duration.ofNanos(System.nanoTime() - started));
        }
        assertThat(took).allSatisfy(d -> assertThat(d).isGreaterThanOrEqualTo(min));
        // Drawn, not fixed: twelve draws from a 200 ms range spread over more than 40 ms but for a 1e-6 chance.
        Duration shortest = took.stream().min(Duration::compareTo).orElseThrow();
        Duration longest = took.stream().max(Duration::compareTo).orElseThrow();
        assertThat(longest.minus(shortest)).isGreaterThan(Duration.ofMillis(40));
        // Operations not named pass at once.
        long before = layer.counts().delayed();
        put(item("unnamed", "G#" + k));
        assertThat(layer.counts().delayed()).isEqualTo(before);
        assertThat(catchThrowable(() -> layer.latency(max, min, "PutItem"))).isInstanceOf(IllegalArgumentException.class);
    }

    // --- helpers ----------------------------------------------------------------------------------------------

    QueryResponse indexQuery(String index) {
        return client.query(QueryRequest.builder().tableName("cairn").indexName("gsi1").keyConditionExpression("gsi1pk = :pk")
                .expressionAttributeValues(Map.of(":pk", s(index))).build()).join();
    }

    void put(Map<String, AttributeValue> item) {
        client.putItem(PutItemRequest.builder().tableName("cairn").item(item).build()).join();
    }

    boolean exists(String id) {
        return client.getItem(GetItemRequest.builder().tableName("cairn").key(key(id)).consistentRead(true).build())
                .join().hasItem();
    }

    Map<String, AttributeValue> key(String id) {
        return Map.of("pk", s("SEM#" + k + "#" + id), "sk", s("ITEM"));
    }

    Map<String, AttributeValue> item(String id, String index) {
        return Map.of("pk", s("SEM#" + k + "#" + id), "sk", s("ITEM"), "id", s(id), "gsi1pk", s(index), "gsi1sk", s(id));
    }

    static List<String> ids(List<Map<String, AttributeValue>> items) {
        return items.stream().map(i -> i.get("id").s()).toList();
    }

    static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    static Throwable failure(java.util.concurrent.CompletableFuture<?> call) {
        Throwable t = catchThrowable(call::join);
        return t instanceof CompletionException ce && ce.getCause() != null ? ce.getCause() : t;
    }
}
