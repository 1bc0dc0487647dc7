package dev.cairn.store;

import dev.cairn.core.CairnException;
import dev.cairn.core.TableSpec;
import dev.cairn.core.entity.EntitySpec;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.CreateTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveResponse;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The ONLY caller of {@link DynamoDbAsyncClient}. Each call is a lazy {@link Uni} (re-subscribing re-issues
 * the request), counted in the request's {@link CallLedger} (every SDK attempt, with consumed capacity), and
 * completes back on the caller's Vert.x context, so a request's whole pipeline stays on its event loop and
 * never blocks (a caller without one continues on the worker pool, never on the SDK's event loop). Failures are translated by {@link SdkErrors}.
 */
@ApplicationScoped
public class DynamoGateway {

    private final DynamoDbAsyncClient client;
    private final StoreMetrics metrics;
    private final Clock clock;

    /** On the system's clock (what every call outside the container uses). */
    public DynamoGateway(DynamoDbAsyncClient client, StoreMetrics metrics) {
        this(client, metrics, Clock.systemUTC());
    }

    /**
     * On the container's {@link Clock}: the one "now" of every expiry check, write condition and timestamp, so a test
     * can move it and see an item lapse without waiting.
     */
    @jakarta.inject.Inject
    public DynamoGateway(DynamoDbAsyncClient client, StoreMetrics metrics, Clock clock) {
        this.client = client;
        this.metrics = metrics;
        this.clock = clock;
    }

    /** The clock every "now" of the store is read from. */
    public Clock clock() {
        return clock;
    }

    public Uni<GetItemResponse> getItem(GetItemRequest request) {
        return call("GetItem", "table", request, client::getItem, r -> units(r.consumedCapacity()), SdkErrors::translate)
                .map(r -> r.hasItem() && expired(r.item(), clock.instant()) ? r.toBuilder().item(null).build() : r);
    }

    public Uni<PutItemResponse> putItem(PutItemRequest request, Function<Throwable, CairnException> errors) {
        return call("PutItem", "table", request, client::putItem, r -> units(r.consumedCapacity()), errors);
    }

    public Uni<UpdateItemResponse> updateItem(UpdateItemRequest request, Function<Throwable, CairnException> errors) {
        return call("UpdateItem", "table", request, client::updateItem, r -> units(r.consumedCapacity()), errors);
    }

    public Uni<DeleteItemResponse> deleteItem(DeleteItemRequest request, Function<Throwable, CairnException> errors) {
        return call("DeleteItem", "table", request, client::deleteItem, r -> units(r.consumedCapacity()), errors);
    }

    public Uni<QueryResponse> query(QueryRequest request) {
        return call("Query", request.indexName() == null ? "table" : request.indexName(), request, client::query, r -> units(r.consumedCapacity()), SdkErrors::translate)
                .map(r -> {
                    List<Map<String, AttributeValue>> live = unexpired(r.items());
                    return live == r.items() ? r : r.toBuilder().items(live).count(live.size()).build();
                });
    }

    /**
     * A Query whose answer keeps items past their expiry: only for undoing an interrupted write, which must restore
     * (or remove) every item it touched, expired or not. Every other read goes through {@link #query}.
     */
    public Uni<QueryResponse> queryIncludingExpired(QueryRequest request) {
        return call("Query", request.indexName() == null ? "table" : request.indexName(), request, client::query,
                r -> units(r.consumedCapacity()), SdkErrors::translate);
    }

    public Uni<BatchGetItemResponse> batchGetItem(BatchGetItemRequest request) {
        return call("BatchGetItem", "table", request, client::batchGetItem, r -> units(r.consumedCapacity()), SdkErrors::translate)
                .map(r -> {
                    var responses = new HashMap<String, List<Map<String, AttributeValue>>>();
                    r.responses().forEach((table, items) -> responses.put(table, unexpired(items)));
                    return r.toBuilder().responses(responses).build();
                });
    }

    /**
     * An item past its expiry ({@link TableSpec#EXPIRES_AT}, epoch seconds: the table's TTL attribute) is gone from
     * every read at once: DynamoDB deletes it in the background, typically within days. Checked here, on the one path
     * every read takes, after the read: the item was read (its capacity is spent), it is just not answered, so a
     * page may come back shorter than its limit while its cursor (the last key read) still continues it.
     */
    static boolean expired(Map<String, AttributeValue> item, Instant now) {
        return EntitySpec.expired(item, now);
    }

    private List<Map<String, AttributeValue>> unexpired(List<Map<String, AttributeValue>> items) {
        Instant now = clock.instant();
        if (items.stream().noneMatch(item -> expired(item, now))) {
            return items;
        }
        return items.stream().filter(item -> !expired(item, now)).toList();
    }

    public Uni<BatchWriteItemResponse> batchWriteItem(BatchWriteItemRequest request) {
        return call("BatchWriteItem", "table", request, client::batchWriteItem, r -> units(r.consumedCapacity()), SdkErrors::translate);
    }

    public Uni<TransactWriteItemsResponse> transactWriteItems(TransactWriteItemsRequest request,
                                                              Function<Throwable, CairnException> errors) {
        return call("TransactWriteItems", "table", request, client::transactWriteItems, r -> units(r.consumedCapacity()), errors);
    }

    public Uni<ScanResponse> scan(
            ScanRequest request) {
        return call("Scan", "table", request, client::scan, r -> units(r.consumedCapacity()), SdkErrors::translate)
                .map(r -> {
                    List<Map<String, AttributeValue>> live = unexpired(r.items());
                    return live == r.items() ? r : r.toBuilder().items(live).count(live.size()).build();
                });
    }

    public Uni<DescribeTableResponse> describeTable(DescribeTableRequest request) {
        return call("DescribeTable", "table", request, client::describeTable, r -> null, SdkErrors::translate);
    }

    public Uni<CreateTableResponse> createTable(CreateTableRequest request) {
        return call("CreateTable", "table", request, client::createTable, r -> null, SdkErrors::translate);
    }

    public Uni<UpdateTableResponse> updateTable(
            UpdateTableRequest request) {
        return call("UpdateTable", "table", request, client::updateTable, r -> null, SdkErrors::translate);
    }

    public Uni<UpdateTimeToLiveResponse> updateTimeToLive(
            UpdateTimeToLiveRequest request) {
        return call("UpdateTimeToLive", "table", request, client::updateTimeToLive, r -> null, SdkErrors::translate);
    }

    /** Waits without blocking and resumes on the caller's Vert.x context (for backoff between batch retries). */
    public Uni<Void> pause(Duration delay) {
        return Uni.createFrom().emitter(emitter -> {
            Context context = Vertx.currentContext();
            if (context == null) {
                CompletableFuture.delayedExecutor(delay.toMillis(), TimeUnit.MILLISECONDS)
                        .execute(() -> emitter.complete(null));
            } else {
                context.owner().setTimer(Math.max(1, delay.toMillis()),
                        id -> context.runOnContext(v -> emitter.complete(null)));
            }
        });
    }

    private <Q extends DynamoDbRequest, R> Uni<R> call(String name, String index, Q request,
                                                        Function<Q, CompletableFuture<R>> operation,
                                                        Function<R, Double> capacity,
                                                        Function<Throwable, CairnException> errors) {
        return Uni.createFrom().emitter(emitter -> {
            Context context = Vertx.currentContext();
            CallLedger ledger = CallLedger.current();
            long started = System.nanoTime();
            CompletableFuture<R> future;
            try {
                future = operation.apply(withLedger(request, ledger));
            } catch (RuntimeException e) {
                CairnException translated = errors.apply(e);
                metrics.call(name, index, System.nanoTime() - started, translated, null);
                emitter.fail(translated);
                return;
            }
            future.whenComplete((response, failure) -> {
                long elapsed = System.nanoTime() - started;
                Double units = response == null ? null : capacity.apply(response);
                if (ledger != null) {
                    ledger.waited(elapsed);
                    ledger.consumed(units);
                }
                CairnException translated = failure == null ? null : errors.apply(failure);
                metrics.call(name, index, elapsed, translated, units);
                Runnable emit = failure == null
                        ? () -> emitter.complete(response)
                        : () -> emitter.fail(translated);
                if (context == null) {
                    // No request or job context to go back to (startup, a test's direct call): the SDK completes
                    // on its event loop (quarkus.dynamodb.async-client.advanced.use-future-completion-thread-pool),
                    // so whatever follows goes to the worker pool rather than hold that event loop.
                    Infrastructure.getDefaultExecutor().execute(emit);
                } else {
                    context.runOnContext(v -> emit.run());
                }
            });
        });
    }

    @SuppressWarnings("unchecked")
    private static <Q extends DynamoDbRequest> Q withLedger(Q request, CallLedger ledger) {
        if (ledger == null) {
            return request;
        }
        AwsRequestOverrideConfiguration override = request.overrideConfiguration()
                .map(AwsRequestOverrideConfiguration::toBuilder)
                .orElseGet(AwsRequestOverrideConfiguration::builder)
                .putExecutionAttribute(AttemptCountingInterceptor.LEDGER, ledger)
                .build();
        return (Q) request.toBuilder().overrideConfiguration(override).build();
    }

    private static Double units(ConsumedCapacity capacity) {
        return capacity == null ? null : capacity.capacityUnits();
    }

    private static Double units(List<ConsumedCapacity> capacities) {
        return capacities == null ? null
                : capacities.stream().mapToDouble(c -> c.capacityUnits() == null ? 0 : c.capacityUnits()).sum();
    }
}
