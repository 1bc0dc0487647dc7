package dev.cairn.store;

import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.aggregate.AggregateNode;
import dev.cairn.core.aggregate.AggregateWrites;
import dev.cairn.core.aggregate.PartitionRanges;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.store.AggregateStore.ReadMode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Large aggregates (40 sub-aggregates; 3,000 members, or 600 of 4 KB) against DynamoDB Local: past its first page
 * one is read as one Query per range of its root's fences, all at once, and a read still shows ONE committed
 * generation while multi-transaction updates run. Calls are counted by a store of its own, so nothing else is counted.
 */
@QuarkusTest
class ParallelAggregateReadTest {

    static final int GROUPS = 40;
    /** Reads that must overlap the updates, and the most generations the writer makes to get them. */
    static final int MIN_OVERLAPPING_READS = 4;
    static final int MAX_GENERATIONS = 30;
    static final AggregateNode GROUP = AggregateNode.builder("BinGroup", "GROUP")
            .many("lines", AggregateNode.builder("BinLine", "LINE").field("n").field("gen").field("pad").keyedBy("n").build())
            .build();
    static final Aggregate BIN = bin();

    private static Aggregate bin() {
        var root = AggregateNode.builder("Bin", "BIN").field("name");
        for (int g = 0; g < GROUPS; g++) {
            root.sub("g" + g, GROUP, Map.of("group", g));
        }
        return Aggregate.of("Bin", KeyTemplate.of("BIN#{id}"), "id", root.build(), List.of());
    }

    @ConfigProperty(name = "quarkus.dynamodb.endpoint-override")
    String endpoint;

    @ConfigProperty(name = "cairn.table.name")
    String table;

    /**
     * A client of its own, with generous timeouts: a 2.4 MB multi-transaction update sends its 100-item transactions
     * all at once, and on a busy 2-core machine DynamoDB Local can take longer than the app's 1.5 s per attempt.
     */
    DynamoDbAsyncClient client;

    SimpleMeterRegistry registry;
    EntityStore store;
    AggregateStore aggregates;

    @BeforeEach
    void ownStore() {
        client = DynamoDbAsyncClient.builder().endpointOverride(java.net.URI.create(endpoint))
                .region(software.amazon.awssdk.regions.Region.US_EAST_1)
                .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("local", "local")))
                .overrideConfiguration(c -> c.apiCallTimeout(Duration.ofSeconds(60)).apiCallAttemptTimeout(Duration.ofSeconds(30)))
                .build();
        registry = new SimpleMeterRegistry();
        var metrics = new StoreMetrics(registry);
        var gateway = new DynamoGateway(client, metrics);
        store = new EntityStore(gateway, new StoreSettings(table, "test-cursor-secret", 4, 8, Duration.ofMillis(25)));
        aggregates = new AggregateStore(store, gateway, metrics, new Leases(store),
                new JobSettings("range-test-" + UUID.randomUUID(), 4, Duration.ofDays(1), Duration.ofSeconds(15), Duration.ofSeconds(10)));
    }

    @org.junit.jupiter.api.AfterEach
    void closeClient() {
        client.close();
    }

    static Map<String, Object> view(String id, String generation, int members) {
        return view(id, generation, members, 400);
    }

    static Map<String, Object> view(String id, String generation, int members, int padBytes) {
        var view = new LinkedHashMap<String, Object>();
        view.put("id", id);
        view.put("name", "bin " + generation);
        int perGroup = members / GROUPS;
        for (int g = 0; g < GROUPS; g++) {
            var lines = new ArrayList<Map<String, Object>>();
            for (int i = 0; i < perGroup; i++) {
                lines.add(Map.of("n", String.format("%02d-%03d", g, i), "gen", generation, "pad", "x".repeat(padBytes)));
            }
            view.put("g" + g, Map.of("lines", lines));
        }
        return view;
    }

    Uni<Void> create(Map<String, Object> view) {
        Instant now = Instant.now();
        return aggregates.write(BIN, AggregateWrites.create(BIN, BIN.decompose(view, Map.of(), 1, now, now)), Map.of());
    }

    Uni<Void> update(String id, Map<String, Object> next) {
        return aggregates.readForWrite(BIN, id).chain(snapshot -> {
            var current = snapshot.assembled();
            Instant now = Instant.now();
            var before = BIN.decompose(current.view(), Map.of(), current.version(), current.createdAt(), current.updatedAt());
            var after = BIN.decompose(next, Map.of(), current.version() + 1, current.createdAt(), now);
            return aggregates.write(BIN, AggregateWrites.update(BIN, before, after, current.version(), now), snapshot.bySk());
        });
    }

    long calls(String operation) {
        return registry.find("cairn.dynamodb.calls").tag("operation", operation).timers().stream().mapToLong(t -> t.count()).sum();
    }

    /** The generation every member shows; fails on a mixture. */
    static String generationOf(Map<String, Object> view, int members) {
        var generations = new TreeSet<String>();
        generations.add(((String) view.get("name")).substring(4));
        int lines = 0;
        for (int g = 0; g < GROUPS; g++) {
            @SuppressWarnings("unchecked")
            var list = (List<Map<String, Object>>) ((Map<String, Object>) view.get("g" + g)).get("lines");
            lines += list.size();
            list.forEach(line -> generations.add((String) line.get("gen")));
        }
        assertThat(lines).isEqualTo(members);
        assertThat(generations).as("one generation only, never a mixture").hasSize(1);
        return generations.first();
    }

    @Test
    void aLargeAggregateIsReadAsOneQueryPerRangeAtOnceAndEqualsThePageByPageRead() {
        String id = "bin-" + UUID.randomUUID();
        int members = 3000;
        // Stored directly: 31 group transactions at once would outrun DynamoDB Local's 2 cores here.
        Instant now = Instant.now();
        store.batchPut(BIN.decompose(view(id, "v1", members), Map.of(), 1, now, now).bySk().values().stream()
                .map(Aggregate.Member::item).toList()).await().atMost(Duration.ofSeconds(120));

        long queries = calls("Query");
        long gets = calls("GetItem");
        var parallel = aggregates.read(BIN, id, ReadMode.PARALLEL).await().atMost(Duration.ofSeconds(30));
        long parallelQueries = calls("Query") - queries;
        // 3,000 members + 41 roots, fenced every 500 items (or 256 KB): the first page holds 1,024, the rest is one
        // range per fence beyond it, plus the open end.
        List<String> fences = PartitionRanges.fencesOf(parallel.assembled().rootItem());
        assertThat(fences).hasSizeBetween(6, 7);
        List<String> sortKeys = parallel.items().stream().map(i -> i.get("sk").s()).sorted().toList();
        String lastOfFirstPage = sortKeys.get(PartitionRanges.FIRST_PAGE_ITEMS - 1);
        long beyond = fences.stream().filter(f -> f.compareTo(lastOfFirstPage) > 0).count();
        assertThat(beyond).isGreaterThanOrEqualTo(4);
        assertThat(parallelQueries).as("1 first page + one Query per range after it").isEqualTo(1 + beyond + 1);
        assertThat(calls("GetItem") - gets).as("the root read again: the proof of one state").isEqualTo(1);

        queries = calls("Query");
        var sequential = aggregates.read(BIN, id, ReadMode.SEQUENTIAL).await().atMost(Duration.ofSeconds(30));
        assertThat(calls("Query") - queries).as("1 MB pages one after another").isBetween(2L, 3L);
        assertThat(parallel.assembled().view()).isEqualTo(sequential.assembled().view());
        assertThat(parallel.items()).hasSize(members + GROUPS + 1);
        assertThat(generationOf(parallel.assembled().view(), members)).isEqualTo("v1");

        // A small aggregate stays ONE Query and no GetItem.
        String small = "bin-" + UUID.randomUUID();
        create(view(small, "v1", GROUPS)).await().atMost(Duration.ofSeconds(30));
        queries = calls("Query");
        gets = calls("GetItem");
        aggregates.read(BIN, small).await().atMost(Duration.ofSeconds(10));
        assertThat(calls("Query") - queries).isEqualTo(1);
        assertThat(calls("GetItem") - gets).isZero();
    }

    @Test
    void parallelRangeReadsNeverMixTwoMultiTransactionWrites() {
        String id = "bin-" + UUID.randomUUID();
        // 600 members of 4 KB (2.4 MB): a 1 MB first page, then ranges of 256 KB; every write takes 7 transactions.
        int members = 600;
        int pad = 4000;
        create(view(id, "v1", members, pad)).await().atMost(Duration.ofSeconds(120));
        var first = aggregates.read(BIN, id).await().atMost(Duration.ofSeconds(30));
        assertThat(PartitionRanges.fencesOf(first.assembled().rootItem())).as("several ranges").hasSizeGreaterThan(5);
        // The writer keeps making generations until the reader has overlapped several of them: how many reads fit
        // into one update depends on the machine, so the overlap is waited for, not assumed.
        var reads = new AtomicInteger();
        var lastWritten = new AtomicInteger(1);
        var writer = CompletableFuture.runAsync(() -> {
            for (int v = 2; v <= MAX_GENERATIONS && (v <= 4 || reads.get() < MIN_OVERLAPPING_READS); v++) {
                update(id, view(id, "v" + v, members, pad)).await().atMost(Duration.ofSeconds(120));
                lastWritten.set(v);
            }
        });
        var seen = new TreeSet<String>();
        while (!writer.isDone()) {
            var snapshot = aggregates.read(BIN, id).await().atMost(Duration.ofSeconds(60));
            seen.add(generationOf(snapshot.assembled().view(), members)); // fails on a mixture
            reads.incrementAndGet();
        }
        writer.join();
        assertThat(generationOf(aggregates.read(BIN, id).await().atMost(Duration.ofSeconds(30)).assembled().view(), members))
                .isEqualTo("v" + lastWritten.get());
        assertThat(reads.get()).as("reads ran during the writes").isGreaterThanOrEqualTo(MIN_OVERLAPPING_READS);
        assertThat(seen).allSatisfy(generation -> assertThat(Integer.parseInt(generation.substring(1)))
                .isBetween(1, lastWritten.get()));
        System.out.printf("%d parallel range reads during %d multi-transaction updates saw generations %s, never a mixture%n",
                reads.get(), lastWritten.get() - 1, seen);
    }
}
