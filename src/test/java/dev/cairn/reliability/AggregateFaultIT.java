package dev.cairn.reliability;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.TableSpec;
import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.aggregate.AggregateNode;
import dev.cairn.core.aggregate.AggregateTxn;
import dev.cairn.core.aggregate.AggregateWrites;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.platform.EmbeddedDynamoDb;
import dev.cairn.store.AggregateStore;
import dev.cairn.store.DynamoGateway;
import dev.cairn.store.EntityStore;
import dev.cairn.store.JobSettings;
import dev.cairn.store.Leases;
import dev.cairn.store.StoreMetrics;
import dev.cairn.store.StoreSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A real network fault (the proxy cuts the response) in the middle of a multi-transaction aggregate write: the
 * write fails as 503, readers never see a mixture of old and new members, the old aggregate (or, for a create,
 * nothing) is back as soon as the fault clears, and the same request then completes. Runs in the failsafe JVM
 * (an *IT): it builds its own store on plain Mutiny, away from the class loaders the @QuarkusTests leave behind.
 */
class AggregateFaultIT {

    static final AggregateNode SIDE = AggregateNode.builder("ShelfSide", "SIDE").field("label")
            .many("books", AggregateNode.builder("Book", "BOOK").field("isbn").field("title").keyedBy("isbn").build())
            .build();
    static final Aggregate SHELF = Aggregate.of("Shelf", KeyTemplate.of("SHELF#{id}"), "id",
            AggregateNode.builder("Shelf", "SHELF").field("name")
                    .sub("left", SIDE, Map.of("side", 1)).sub("right", SIDE, Map.of("side", 2)).build(),
            List.of());
    /** 2 × (1 + 70) members: two groups that cannot share a transaction, so every write takes a lease. */
    static final int BOOKS_PER_SIDE = 70;
    static final Duration AGGREGATE_LEASE = Duration.ofSeconds(10);

    EmbeddedDynamoDb dynamo;
    FaultProxy proxy;
    DynamoDbAsyncClient client;
    EntityStore store;
    AggregateStore aggregates;
    final AtomicInteger transactions = new AtomicInteger();
    volatile int faultAtTransaction = Integer.MAX_VALUE;
    volatile FaultProxy.Fault fault = FaultProxy.Fault.RESET_MID_RESPONSE;

    @BeforeEach
    void start() throws Exception {
        // Earlier @QuarkusTests may leave their class loader on this thread; the SDK's threads inherit it, and
        // Mutiny's service loading must see this test's classes.
        Thread.currentThread().setContextClassLoader(AggregateFaultIT.class.getClassLoader());
        dynamo = EmbeddedDynamoDb.start(0, null);
        proxy = new FaultProxy(dynamo.port());
        // Counts TransactWriteItems attempts and turns the proxy's fault on as the chosen one goes out.
        ExecutionInterceptor trigger = new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                if (context.request() instanceof TransactWriteItemsRequest
                        && transactions.incrementAndGet() == faultAtTransaction) {
                    proxy.inject(fault, 0);
                }
            }
        };
        client = DynamoDbAsyncClient.builder().endpointOverride(URI.create(proxy.endpoint())).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .overrideConfiguration(ClientOverrideConfiguration.builder().addExecutionInterceptor(trigger)
                        .apiCallTimeout(Duration.ofSeconds(3)).apiCallAttemptTimeout(Duration.ofMillis(1500)).build())
                .build();
        var metrics = new StoreMetrics(new SimpleMeterRegistry());
        var gateway = new DynamoGateway(client, metrics);
        store = new EntityStore(gateway, new StoreSettings("cairn", "fault-test-cursor-secret", 4, 3, Duration.ofMillis(10)));
        aggregates = new AggregateStore(store, gateway, metrics, new Leases(store),
                new JobSettings("fault-test", 4, Duration.ofDays(1), Duration.ofSeconds(15), AGGREGATE_LEASE));
        gateway.createTable(TableSpec.createTableRequest("cairn")).await().atMost(Duration.ofSeconds(10));
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        proxy.close();
        dynamo.close();
    }

    static Map<String, Object> shelf(String id, String generation) {
        return shelf(id, generation, "");
    }

    /** {@code padding} goes into every title: with 8 KB each, the shelf takes more than one 1 MB Query page. */
    static Map<String, Object> shelf(String id, String generation, String padding) {
        var view = new LinkedHashMap<String, Object>();
        view.put("id", id);
        view.put("name", "shelf " + generation);
        for (var side : List.of("left", "right")) {
            var books = new ArrayList<Map<String, Object>>();
            for (int i = 0; i < BOOKS_PER_SIDE; i++) {
                books.add(Map.of("isbn", side + "-" + i, "title", generation + " " + side + " " + i + padding));
            }
            view.put(side, Map.of("label", side, "books", books));
        }
        return view;
    }

    Uni<Void> create(Map<String, Object> view) {
        Instant now = Instant.now();
        var items = SHELF.decompose(SHELF.hydrate(view, Map.of()), Map.of(), 1, now, now);
        return aggregates.write(SHELF, AggregateWrites.create(SHELF, items), Map.of());
    }

    Uni<Void> update(String id, Map<String, Object> next) {
        return aggregates.readForWrite(SHELF, id).chain(snapshot -> {
            var current = snapshot.assembled();
            Instant now = Instant.now();
            var before = SHELF.decompose(current.view(), current.refVersions(), current.version(), current.createdAt(), current.updatedAt());
            var after = SHELF.decompose(SHELF.hydrate(next, Map.of()), Map.of(), current.version() + 1, current.createdAt(), now);
            return aggregates.write(SHELF, AggregateWrites.update(SHELF, before, after, current.version(), now), snapshot.bySk());
        });
    }

    /** The generation every member shows; fails on a mixture. Null when the shelf is absent. */
    String generationVisible(String id) {
        var snapshot = aggregates.read(SHELF, id).await().atMost(Duration.ofSeconds(20));
        if (snapshot == null) {
            return null;
        }
        var view = snapshot.assembled().view();
        var generations = new java.util.TreeSet<String>();
        generations.add(((String) view.get("name")).substring(6));
        for (var side : List.of("left", "right")) {
            @SuppressWarnings("unchecked")
            var books = (List<Map<String, Object>>) ((Map<String, Object>) view.get(side)).get("books");
            assertThat(books).hasSize(BOOKS_PER_SIDE);
            books.forEach(book -> generations.add(((String) book.get("title")).split(" ")[0]));
        }
        assertThat(generations).as("one generation only, never a mixture").hasSize(1);
        return generations.first();
    }

    /**
     * After the fault clears: every read shows one whole generation (never busy, never a mixture) while the writer
     * repairs its interrupted write in the background; answers the generation once no write is in flight and no
     * undo item is left in the partition.
     */
    String settledGeneration(String id) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (true) {
            String generation = generationVisible(id);
            var items = store.queryAll(QuerySpec.table(SHELF.partitionOf(id)).consistent().build())
                    .await().atMost(Duration.ofSeconds(10));
            boolean settled = items.stream().noneMatch(i -> i.containsKey(AggregateTxn.TXN) || AggregateTxn.isUndoItem(i));
            if (settled) {
                return generation;
            }
            assertThat(System.nanoTime()).as("the interrupted write is repaired soon after the fault clears").isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    int partitionSize(String id) {
        return store.queryAll(QuerySpec.table(SHELF.partitionOf(id)).consistent().build())
                .await().atMost(Duration.ofSeconds(10)).size();
    }

    void failsUnavailable(Uni<Void> write) {
        Throwable failure = catchThrowable(() -> write.await().atMost(Duration.ofSeconds(30)));
        assertThat(failure).isInstanceOfSatisfying(CairnException.class,
                e -> assertThat(e.error()).isInstanceOf(CairnError.ServiceUnavailable.class));
    }

    @ParameterizedTest
    @EnumSource(value = FaultProxy.Fault.class, names = {"RESET_MID_RESPONSE", "REFUSE"})
    void anInterruptedCreateLeavesNothingAndTheSameCreateThenCompletes(FaultProxy.Fault kind) throws Exception {
        String id = "shelf-" + UUID.randomUUID();
        fault = kind;
        faultAtTransaction = transactions.get() + 3; // lease + first group pass, the second group's answer is cut
        failsUnavailable(create(shelf(id, "v1")));
        proxy.clear();
        assertThat(settledGeneration(id)).as("nothing was created").isNull();
        assertThat(partitionSize(id)).as("no stray member left").isZero();

        create(shelf(id, "v1")).await().atMost(Duration.ofSeconds(20));
        assertThat(generationVisible(id)).isEqualTo("v1");
        assertThat(partitionSize(id)).isEqualTo(1 + 2 * (1 + BOOKS_PER_SIDE));
    }

    @ParameterizedTest
    @EnumSource(value = FaultProxy.Fault.class, names = {"RESET_MID_RESPONSE", "REFUSE"})
    void anInterruptedUpdateLeavesTheOldAggregateAndTheSameUpdateThenCompletes(FaultProxy.Fault kind) throws Exception {
        String id = "shelf-" + UUID.randomUUID();
        create(shelf(id, "v1")).await().atMost(Duration.ofSeconds(20));
        fault = kind;
        faultAtTransaction = transactions.get() + 3;
        failsUnavailable(update(id, shelf(id, "v2")));
        proxy.clear();
        assertThat(settledGeneration(id)).as("the old aggregate, whole").isEqualTo("v1");

        update(id, shelf(id, "v2")).await().atMost(Duration.ofSeconds(20));
        assertThat(generationVisible(id)).isEqualTo("v2");
        assertThat(aggregates.read(SHELF, id).await().atMost(Duration.ofSeconds(10)).assembled().version()).isEqualTo(2);
    }

    @ParameterizedTest
    @EnumSource(value = FaultProxy.Fault.class, names = {"RESET_MID_RESPONSE"})
    void aFinishWhoseAnswerIsLostLeavesOneWholeGeneration(FaultProxy.Fault kind) throws Exception {
        String id = "shelf-" + UUID.randomUUID();
        create(shelf(id, "v1")).await().atMost(Duration.ofSeconds(20));
        fault = kind;
        faultAtTransaction = transactions.get() + 4; // lease, both groups, then the finish's answer is cut
        failsUnavailable(update(id, shelf(id, "v2")));
        proxy.clear();
        // The finish committed (its answer was lost), so the new generation stands, whole; never a mixture.
        assertThat(settledGeneration(id)).isIn("v1", "v2");
    }

    @org.junit.jupiter.api.Test
    void aReadOverSeveralPagesNeverMixesTwoWrites() throws Exception {
        String id = "shelf-" + UUID.randomUUID();
        String padding = " " + "x".repeat(8 * 1024);
        create(shelf(id, "v1", padding)).await().atMost(Duration.ofSeconds(30));
        assertThat(store.queryAllPages(SHELF.viewQuery(id)).await().atMost(Duration.ofSeconds(10)).pages())
                .as("the shelf is read in several pages").isGreaterThan(1);
        var writer = java.util.concurrent.CompletableFuture.runAsync(() -> {
            for (int v = 2; v <= 6; v++) {
                update(id, shelf(id, "v" + v, padding)).await().atMost(Duration.ofSeconds(30));
                try {
                    Thread.sleep(300); // writes at a brisk but not back-to-back cadence
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        int reads = 0;
        var seen = new java.util.TreeSet<String>();
        while (!writer.isDone()) {
            seen.add(generationVisible(id)); // fails on a mixture of two generations
            reads++;
        }
        writer.join();
        assertThat(generationVisible(id)).isEqualTo("v6");
        assertThat(reads).as("reads ran during the writes").isGreaterThan(3);
        System.out.printf("%d multi-page reads during 5 multi-transaction updates saw generations %s, never a mixture%n",
                reads, seen);
    }
}
