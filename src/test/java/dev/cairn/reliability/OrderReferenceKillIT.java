package dev.cairn.reliability;

import dev.cairn.core.aggregate.AggregateTxn;
import dev.cairn.platform.EmbeddedDynamoDb;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Unique values on an aggregate's root survive a SIGKILL at any instant of their writes. The shop's orders keep a
 * purchase-order reference unique per workspace, case-insensitively; its sentinel goes in the write's commit
 * transaction (the one transaction of a small order, the last of one written in steps). The packaged app, behind a
 * proxy that makes every DynamoDB answer late, runs creates with fresh references, creates colliding with held ones,
 * merge patches moving and removing references, deletes, and large orders written in steps (a create, a colliding
 * create and a change moving its reference) at once, and is killed while they are in flight. Read straight from the
 * table afterwards, as readers see it (a partition whose stepped write is unfinished shows its committed state), every
 * order holding a reference has its sentinel and every sentinel is held by an order with that reference — no orphan
 * that would lock a reference out for ever, no order whose reference another could take. A fresh process then
 * creates an order with every reference used: exactly the free ones are taken. Beside them, the shop's quotes are
 * soft-deleted, restored and their released numbers taken at once: each quote stays whole, live or a tombstone, its
 * number's sentinel held exactly while it is live, its deleted version kept. And the orders' parcels (members whose
 * barcode is unique per workspace, a sentinel owned by the parcel's item, moved in the order's commit) are moved,
 * collided with, deleted with their orders and created 20 at a time in steps: every committed parcel holds its
 * barcode's sentinel and every sentinel is a committed parcel's (shown to fail when a delete leaves them behind).
 */
class OrderReferenceKillIT {

    static final int ORDERS = 16;
    /** The most lines an order has: more than one transaction holds, so it is written in steps. */
    static final int LARGE = 98;
    static final String SENTINEL = "UNIQUE#Order#reference#";
    static final String ROOT_SK = "HEAD";

    final String k = UUID.randomUUID().toString().substring(0, 8);
    final String wsA = "wa-" + k;
    final String wsB = "wb-" + k;
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    final ExecutorService pool = Executors.newFixedThreadPool(48, r -> {
        Thread t = new Thread(r, "order-kill-client");
        t.setDaemon(true);
        return t;
    });
    EmbeddedDynamoDb dynamo;
    FaultProxy proxy;
    DynamoDbAsyncClient direct;
    final List<PackagedApp> apps = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        dynamo = EmbeddedDynamoDb.start(0, null);
        proxy = new FaultProxy(dynamo.port());
        direct = DynamoDbAsyncClient.builder().endpointOverride(URI.create("http://127.0.0.1:" + dynamo.port()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"))).build();
    }

    @AfterEach
    void stop() throws Exception {
        pool.shutdownNow();
        for (PackagedApp app : apps) {
            app.stop();
        }
        direct.close();
        proxy.close();
        dynamo.close();
    }

    PackagedApp startApp() throws Exception {
        PackagedApp app = PackagedApp.start(proxy.endpoint(), List.of("-Dquarkus.dynamodb.api-call-timeout=30S",
                "-Dquarkus.dynamodb.api-call-attempt-timeout=15S"));
        apps.add(app);
        return app;
    }

    /** Set just before the kill: a request begun after it was never in flight when the process died. */
    volatile boolean killing;
    /** Requests begun before the kill that got no answer: those the kill cut off. */
    final java.util.concurrent.atomic.AtomicInteger cutOff = new java.util.concurrent.atomic.AtomicInteger();

    int send(PackagedApp app, String method, String path, String contentType, String body) {
        boolean before = !killing;
        try {
            var request = HttpRequest.newBuilder(URI.create(app.base() + path)).timeout(Duration.ofSeconds(60))
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
            if (contentType != null) {
                request.header("Content-Type", contentType);
            }
            return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            if (before) {
                cutOff.incrementAndGet();
            }
            return -1; // the process was killed under it (or was gone when it began)
        }
    }

    static String order(String id, String workspace, String reference, List<String> products, String... barcodes) {
        var lines = new ArrayList<String>();
        for (String product : products) {
            lines.add("{\"productId\":\"" + product + "\",\"quantity\":1}");
        }
        return "{\"id\":\"" + id + "\",\"workspaceId\":\"" + workspace + "\",\"customerId\":\"c1\",\"status\":\"placed\","
                + (reference == null ? "" : "\"reference\":\"" + reference + "\",")
                + "\"shipTo\":{\"name\":\"Ann\",\"street\":\"1 High St\",\"city\":\"Leeds\"},"
                + "\"lines\":[" + String.join(",", lines) + "]" + parcels(barcodes) + "}";
    }

    /** The orders' parcels: each barcode unique per workspace, a sentinel owned by the parcel, moved in the commit. */
    static String parcels(String... barcodes) {
        if (barcodes.length == 0) {
            return "";
        }
        var parcels = new ArrayList<String>();
        for (int i = 0; i < barcodes.length; i++) {
            parcels.add("{\"no\":" + (i + 1) + ",\"barcode\":\"" + barcodes[i] + "\"}");
        }
        return ",\"parcels\":[" + String.join(",", parcels) + "]";
    }

    static final String PARCEL_SENTINEL = "UNIQUE#OrderParcel#barcode#";
    static final int PARCELS = 20;

    /** The references here are ASCII: the model's fold (NFKC, case folded) is lower-casing for them. */
    /** A quote (the shop's soft-deleted aggregate, its number unique per workspace, released by a delete). */
    static String quote(String id, String workspace, String number, String product) {
        return "{\"id\":\"" + id + "\",\"workspaceId\":\"" + workspace + "\",\"customerId\":\"c1\",\"number\":\""
                + number + "\",\"lines\":[{\"productId\":\"" + product + "\",\"quantity\":1}]}";
    }

    static final int QUOTES = 8;

    static String fold(String reference) {
        return reference.toLowerCase(Locale.ROOT);
    }

    String ref(String name, int i) {
        return name + i + "-" + k;
    }

    String workspace(int i) {
        return i % 2 == 0 ? wsA : wsB;
    }

    /** A reference as used: its workspace and its spelling in a request. */
    record Use(String workspace, String reference) {
        String sentinel() {
            return workspace + "#" + fold(reference);
        }
    }

    @Test
    void orderRootsAndTheirReferenceSentinelsStayOneToOneWhenTheProcessIsKilledAmidSmallAndSteppedWrites() throws Exception {
        PackagedApp first = startApp();
        var products = new ArrayList<String>();
        var created = new ArrayList<CompletableFuture<Integer>>();
        for (int i = 0; i < LARGE; i++) {
            String id = "kp" + i + "-" + k;
            products.add(id);
            created.add(CompletableFuture.supplyAsync(() -> send(first, "POST", "/products", "application/json",
                    "{\"id\":\"" + id + "\",\"name\":\"Kettle\",\"brand\":\"steamco\",\"price\":25}"), pool));
        }
        assertThat(created.stream().map(CompletableFuture::join).toList()).as("the products").containsOnly(201);
        List<String> one = products.subList(0, 1);
        var used = new ArrayList<Use>();
        var barcodes = new ArrayList<Use>();
        // small orders in two workspaces, one in four without a reference
        for (int i = 0; i < ORDERS; i++) {
            String reference = i % 4 == 3 ? null : ref("R", i);
            assertThat(send(first, "POST", "/orders", "application/json", order("o" + i + "-" + k, workspace(i), reference, one,
                    ref("PB", i)))).isEqualTo(201);
            barcodes.add(new Use(workspace(i), ref("PB", i)));
            if (reference != null) {
                used.add(new Use(workspace(i), reference));
            }
        }
        // another workspace is a scope of its own: the first order's reference, in another case, is free there
        assertThat(send(first, "POST", "/orders", "application/json", order("s0-" + k, wsB, fold(ref("R", 0)), one)))
                .isEqualTo(201);
        used.add(new Use(wsB, fold(ref("R", 0))));
        // a large order, changed in steps below
        assertThat(send(first, "POST", "/orders", "application/json", order("big0-" + k, wsA, ref("BIG", 0), products)))
                .isEqualTo(201);
        used.add(new Use(wsA, ref("BIG", 0)));
        // quotes: soft deletes and restores amid the orders' writes; the later half deleted already, to be restored
        for (int j = 0; j < QUOTES; j++) {
            assertThat(send(first, "POST", "/quotes", "application/json", quote("q" + j + "-" + k, wsA, ref("Q", j),
                    one.get(0)))).isEqualTo(201);
            if (j >= QUOTES / 2) {
                assertThat(send(first, "DELETE", "/quotes/q" + j + "-" + k, null, null)).isEqualTo(204);
            }
        }
        assertOneToOne("before the faults", 0);
        assertParcelsOneToOne("before the faults");
        assertVersionsKept("before the faults", false);
        assertQuotesWhole("before the faults");

        // Every DynamoDB answer late, so each write's steps are far apart in time.
        proxy.inject(FaultProxy.Fault.DELAY, 300);
        // in steps: the large order's reference moved with every line changed, a large create with a fresh reference,
        // and a large create colliding with the reference the change gives up
        var patch = new StringBuilder("[{\"op\":\"replace\",\"path\":\"/reference\",\"value\":\"" + ref("BIG", 1) + "\"}");
        for (int i = 0; i < LARGE; i++) {
            patch.append(",{\"op\":\"replace\",\"path\":\"/lines/").append(i).append("/quantity\",\"value\":2}");
        }
        used.addAll(List.of(new Use(wsA, ref("BIG", 1)), new Use(wsA, ref("BIG", 2))));
        // and in steps too: a create of 60 lines and 20 parcels (its 20 barcodes taken in its commit), the last one
        // also the barcode a small order holds
        var bigBarcodes = new String[PARCELS];
        for (int j = 0; j < PARCELS; j++) {
            bigBarcodes[j] = j == PARCELS - 1 ? fold(ref("PB", 1)).toUpperCase(Locale.ROOT) : ref("BP", j);
            barcodes.add(new Use(wsB, bigBarcodes[j]));
        }
        var bigParcels = List.of(
                CompletableFuture.supplyAsync(() -> send(first, "POST", "/orders", "application/json",
                        order("bigp0-" + k, wsB, null, products.subList(0, 60), bigBarcodes)), pool),
                CompletableFuture.supplyAsync(() -> send(first, "POST", "/orders", "application/json",
                        order("bigp1-" + k, wsB, null, products.subList(0, 60),
                                java.util.Arrays.copyOf(bigBarcodes, PARCELS - 1))), pool));
        var stepped = List.of(
                CompletableFuture.supplyAsync(() -> send(first, "PATCH", "/orders/big0-" + k,
                        "application/json-patch+json", patch.append("]").toString()), pool),
                CompletableFuture.supplyAsync(() -> send(first, "POST", "/orders", "application/json",
                        order("big2-" + k, wsA, ref("BIG", 2), products)), pool),
                CompletableFuture.supplyAsync(() -> send(first, "POST", "/orders", "application/json",
                        order("big3-" + k, wsA, fold(ref("BIG", 0)), products)), pool));

        // The small writes go out one order's worth at a time, then as fresh creates, until the kill: each takes at
        // least two late answers, so whenever the kill falls some have answered and some are at their steps. The
        // kill falls once one has answered and a stepped write has begun (its root marked), between its transactions.
        var small = new ArrayList<CompletableFuture<Integer>>();
        long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        boolean ready = false;
        for (int i = 0; System.nanoTime() < until; i++) {
            if (small.stream().anyMatch(CompletableFuture::isDone) && steppedWriteBegun()) {
                ready = true;
                break;
            }
            String ws = workspace(i);
            int n = i;
            if (i < ORDERS) {
                String id = "o" + i + "-" + k;
                var moved = new Use(ws, ref("M", i));
                if (n % 4 == 0 || n % 4 == 3) {
                    used.add(moved);
                }
                small.add(CompletableFuture.supplyAsync(() -> switch (n % 4) {
                    case 0, 3 -> send(first, "PATCH", "/orders/" + id, "application/merge-patch+json",
                            "{\"reference\":\"" + moved.reference() + "\"}");   // moved, or gained by an order without one
                    case 1 -> send(first, "PATCH", "/orders/" + id, "application/merge-patch+json", "{\"reference\":null}");
                    default -> send(first, "DELETE", "/orders/" + id, null, null);
                }, pool));
                // its parcel's barcode moved (one in four), and a create colliding with the barcode it held
                if (n % 4 == 0) {
                    var barcode = new Use(ws, ref("PM", n));
                    barcodes.add(barcode);
                    small.add(CompletableFuture.supplyAsync(() -> send(first, "PATCH", "/orders/" + id,
                            "application/merge-patch+json", "{" + parcels(barcode.reference()).substring(1) + "}"), pool));
                    small.add(CompletableFuture.supplyAsync(() -> send(first, "POST", "/orders", "application/json",
                            order("xp" + n + "-" + k, ws, null, one, fold(ref("PB", n)))), pool));
                }
                // a create that collides with a value held now (or about to be released or taken by the write above)
                var colliding = new Use(ws, n % 4 == 3 ? fold(ref("M", n)) : fold(ref("R", n)).toUpperCase(Locale.ROOT));
                used.add(colliding);
                small.add(CompletableFuture.supplyAsync(() -> send(first, "POST", "/orders", "application/json",
                        order("x" + n + "-" + k, ws, colliding.reference(), one)), pool));
            }
            if (i < QUOTES) {
                // a live quote soft-deleted, a deleted one restored, and a new quote taking the number a delete releases
                String quote = "q" + i + "-" + k;
                small.add(CompletableFuture.supplyAsync(() -> n < QUOTES / 2
                        ? send(first, "DELETE", "/quotes/" + quote, null, null)
                        : send(first, "POST", "/quotes/" + quote + "/restore", null, null), pool));
                if (n < QUOTES / 2) {
                    small.add(CompletableFuture.supplyAsync(() -> send(first, "POST", "/quotes", "application/json",
                            quote("qn" + n + "-" + k, wsA, ref("Q", n), one.get(0))), pool));
                }
            }
            // a create with a fresh reference
            var fresh = new Use(ws, ref("F", i));
            used.add(fresh);
            small.add(CompletableFuture.supplyAsync(() -> send(first, "POST", "/orders", "application/json",
                    order("n" + n + "-" + k, ws, fresh.reference(), one)), pool));
            Thread.sleep(60);
        }
        killing = true;
        first.kill();
        proxy.clear();
        assertThat(ready).as("within 20 s a small write had answered and a stepped write had begun").isTrue();
        var statuses = small.stream().map(CompletableFuture::join).toList();
        var steppedStatuses = stepped.stream().map(CompletableFuture::join).toList();
        assertThat(steppedStatuses).as("answers of the stepped writes").contains(-1);
        // the kill fell amid the small writes: some had answered, and some begun before it were cut off (a request
        // still queued in the client's pool when it fell is not counted)
        assertThat(statuses).as("answers of the small writes when the process was killed").anyMatch(status -> status > 0);
        assertThat(cutOff.get() - steppedStatuses.stream().filter(status -> status == -1).count())
                .as("small writes in flight when the process was killed").isPositive();

        bigParcels.forEach(CompletableFuture::join);
        assertOneToOne("after the SIGKILL", 1);
        assertParcelsOneToOne("after the SIGKILL");
        assertVersionsKept("after the SIGKILL", true);
        assertQuotesWhole("after the SIGKILL");

        // A fresh process: every reference with no sentinel can be taken, every one with a sentinel cannot.
        PackagedApp second = startApp();
        Map<String, String> holders = sentinels();
        var answers = new LinkedHashMap<String, Integer>();   // workspace#folded -> the create's status, once a value
        int n = 0;
        for (Use use : used) {
            if (!answers.containsKey(use.sentinel())) {
                answers.put(use.sentinel(), send(second, "POST", "/orders", "application/json",
                        order("after" + n++ + "-" + k, use.workspace(), use.reference(), one)));
            }
        }
        answers.forEach((value, status) -> assertThat(status).as("a create with %s, %s", value,
                holders.containsKey(value) ? "held by " + holders.get(value) : "free")
                .isEqualTo(holders.containsKey(value) ? 409 : 201));
        assertThat(answers.values()).as("the fresh process's creates").contains(201, 409);
        assertOneToOne("after the fresh process took the free references", 0);
        // every barcode with no sentinel can be taken, every one with a sentinel cannot
        Map<String, String> parcelHolders = parcelSentinels(settled());
        var parcelAnswers = new LinkedHashMap<String, Integer>();
        for (Use use : barcodes) {
            if (!parcelAnswers.containsKey(use.sentinel())) {
                parcelAnswers.put(use.sentinel(), send(second, "POST", "/orders", "application/json",
                        order("afterp" + n++ + "-" + k, use.workspace(), null, one, use.reference())));
            }
        }
        parcelAnswers.forEach((value, status) -> assertThat(status).as("a create with barcode %s, %s", value,
                parcelHolders.containsKey(value) ? "held by " + parcelHolders.get(value) : "free")
                .isEqualTo(parcelHolders.containsKey(value) ? 409 : 201));
        assertThat(parcelAnswers.values()).as("the fresh process's creates with barcodes").contains(201, 409);
        assertParcelsOneToOne("after the fresh process took the free barcodes");
        assertVersionsKept("after the fresh process took the free references", true);
        // the fresh process restores every deleted quote it can: refused only where a new quote took its number
        for (int j = 0; j < QUOTES; j++) {
            int status = send(second, "POST", "/quotes/q" + j + "-" + k + "/restore", null, null);
            assertThat(status).as("a restore of q%d", j).isIn(200, 404, 409);
        }
        assertQuotesWhole("after the fresh process restored the quotes");
    }

    /** Whether a stepped write's root is marked with its write in flight, read straight from the table. */
    boolean steppedWriteBegun() {
        String table = direct.listTables().join().tableNames().get(0);
        return List.of("big0-", "big2-", "big3-").stream().anyMatch(id -> direct.getItem(r -> r.tableName(table)
                .consistentRead(true).key(Map.of("pk", AttributeValue.fromS("ORDER#" + id + k), "sk",
                        AttributeValue.fromS(ROOT_SK)))).join().item().containsKey(AggregateTxn.TXN));
    }

    /**
     * Orders' references and their sentinels, read straight from the table, each partition as readers see it (its
     * committed state): every order with a reference has the sentinel of its folded value in its workspace, held by
     * it, and every sentinel is held by an order with that value. A partition whose stepped write is unfinished holds
     * no sentinel beyond its committed root's. At least {@code leastUnfinished} partitions have a write in flight.
     */
    void assertOneToOne(String when, int leastUnfinished) {
        var partitions = new HashMap<String, List<Map<String, AttributeValue>>>();
        List<Map<String, AttributeValue>> table = settled();
        for (var item : table) {
            String pk = item.get("pk").s();
            if (pk.startsWith("ORDER#") && pk.endsWith("-" + k)) {
                partitions.computeIfAbsent(pk, p -> new ArrayList<>()).add(item);
            }
        }
        Map<String, String> holders = sentinels(table);           // workspace#folded -> holder's pk
        var references = new HashMap<String, String>();           // order pk -> workspace#folded
        var roots = new HashMap<String, Map<String, AttributeValue>>();
        int unfinished = 0;
        for (var partition : partitions.entrySet()) {
            var committed = AggregateTxn.committed(ROOT_SK, partition.getValue());
            if (committed.inFlight() != null) {
                unfinished++;
            }
            committed.items().stream().filter(item -> item.get("sk").s().equals(ROOT_SK)).findFirst().ifPresent(root -> {
                roots.put(partition.getKey(), root);
                if (root.containsKey("reference")) {
                    references.put(partition.getKey(), root.get("workspaceId").s() + "#" + fold(root.get("reference").s()));
                }
            });
            if (committed.absent()) {
                // a create in flight, or a partition being deleted or undone: no sentinel may name it
                assertThat(holders).as("%s: sentinels held by %s, which has no committed root", when, partition.getKey())
                        .doesNotContainValue(partition.getKey());
            }
        }
        assertThat(roots).as("%s: the orders", when).isNotEmpty();
        assertThat(references).as("%s: the orders holding a reference", when).isNotEmpty();
        references.forEach((pk, value) -> assertThat(holders.get(value)).as("%s: the sentinel of %s's reference %s", when, pk, value)
                .isEqualTo(pk));
        holders.forEach((value, pk) -> assertThat(references.get(pk)).as("%s: the order %s holding reference %s", when, pk, value)
                .isEqualTo(value));
        assertThat(unfinished).as("%s: partitions whose stepped write was cut off", when).isGreaterThanOrEqualTo(leastUnfinished);
    }

    /**
     * The orders keep their last 20 previous versions, each in its write's commit: for every committed order at version
     * v, exactly the snapshots of versions max(1, v − 20) to v − 1 are there — none missing (a commit without its
     * snapshot), none at v or later (a snapshot without its commit); a partition without a committed order has, if any
     * snapshots, a newest one that records its delete. {@code someChanged}: the writes so far changed an order.
     */
    void assertVersionsKept(String when, boolean someChanged) {
        var versions = new HashMap<String, java.util.TreeMap<Long, Map<String, AttributeValue>>>();
        var parts = new HashMap<String, List<Map<String, AttributeValue>>>();
        for (var item : settled()) {
            String pk = item.get("pk").s();
            if (pk.startsWith("~VERSION#ORDER#") && pk.endsWith("-" + k) && !item.get("sk").s().equals("~TAIL")) {
                versions.computeIfAbsent(pk.substring("~VERSION#".length()), p -> new java.util.TreeMap<>())
                        .put(Long.parseLong(item.get("sk").s()), item);
            } else if (pk.startsWith("ORDER#") && pk.endsWith("-" + k)) {
                parts.computeIfAbsent(pk, p -> new ArrayList<>()).add(item);
            }
        }
        int changed = 0;
        for (String pk : new java.util.TreeSet<>(parts.keySet())) {
            var committed = AggregateTxn.committed(ROOT_SK, parts.get(pk));
            var kept = versions.getOrDefault(pk, new java.util.TreeMap<>());
            var root = committed.items().stream().filter(item -> item.get("sk").s().equals(ROOT_SK)).findFirst();
            if (root.isPresent()) {
                long v = Long.parseLong(root.get().get("_version").n());
                var expected = new java.util.TreeSet<Long>();
                for (long n = Math.max(1, v - 20); n < v; n++) {
                    expected.add(n);
                }
                assertThat(kept.keySet()).as("%s: the retained versions of %s at version %d", when, pk, v)
                        .containsExactlyElementsOf(expected);
                changed += v > 1 ? 1 : 0;
            } else if (!kept.isEmpty()) {
                assertThat(kept.lastEntry().getValue()).as("%s: the newest version of %s, which has no committed order", when, pk)
                        .containsKey("_deletedBy");
            }
        }
        for (String pk : versions.keySet()) {
            if (!parts.containsKey(pk)) {
                assertThat(versions.get(pk).lastEntry().getValue()).as("%s: the newest version of the deleted %s", when, pk)
                        .containsKey("_deletedBy");
            }
        }
        if (someChanged) {
            assertThat(changed).as("%s: orders changed since their create", when).isGreaterThan(0);
        }
    }

    /**
     * Every quote of this test is whole, read straight from the table once settled: live (a committed root and its
     * line) or a tombstone, never both and never neither; every number sentinel is held by a live quote with that
     * number and every live quote holds its own (a deleted quote releases it); a tombstone's version has its snapshot,
     * marked with who deleted it.
     */
    void assertQuotesWhole(String when) {
        var table = settled();
        var parts = new HashMap<String, List<Map<String, AttributeValue>>>();
        var tombstones = new HashMap<String, Map<String, AttributeValue>>();
        var snapshots = new HashMap<String, Map<String, AttributeValue>>();
        var numbers = new HashMap<String, String>();    // number -> holder's pk
        for (var item : table) {
            String pk = item.get("pk").s();
            if (!pk.endsWith("-" + k)) {
                continue;
            }
            if (pk.startsWith("QUOTE#")) {
                parts.computeIfAbsent(pk, p -> new ArrayList<>()).add(item);
            } else if (pk.startsWith("~DELETED#QUOTE#")) {
                tombstones.put(pk.substring("~DELETED#".length()), item);
            } else if (pk.startsWith("~VERSION#QUOTE#") && !item.get("sk").s().equals("~TAIL")) {
                snapshots.put(pk.substring("~VERSION#".length()) + "@" + Long.parseLong(item.get("sk").s()), item);
            } else if (pk.startsWith("UNIQUE#Quote#number#")) {
                numbers.put(pk.substring(pk.lastIndexOf('#') + 1), item.get("_ownerPk").s());
            }
        }
        var live = new HashMap<String, String>();       // pk -> its number
        parts.forEach((pk, items) -> {
            var committed = AggregateTxn.committed(ROOT_SK, items);
            committed.items().stream().filter(i -> i.get("sk").s().equals(ROOT_SK)).findFirst()
                    .ifPresent(root -> live.put(pk, root.get("number").s()));
            if (committed.inFlight() == null && !committed.absent()) {
                assertThat(committed.items()).as("%s: the items of %s", when, pk).hasSize(2);
            }
        });
        for (int j = 0; j < QUOTES; j++) {
            String pk = "QUOTE#q" + j + "-" + k;
            assertThat(live.containsKey(pk) ^ tombstones.containsKey(pk)).as("%s: %s live (%s) or deleted (%s), one of "
                    + "them", when, pk, live.containsKey(pk), tombstones.containsKey(pk)).isTrue();
            if (tombstones.containsKey(pk)) {
                long version = Long.parseLong(tombstones.get(pk).get("_version").n());
                assertThat(snapshots.get(pk + "@" + version)).as("%s: the deleted version %d of %s", when, version, pk)
                        .isNotNull().containsKey("_deletedBy");
            }
        }
        // (a quote number is compared exactly: its sentinel's key holds it as given)
        numbers.forEach((number, holder) -> assertThat(live.get(holder)).as("%s: the holder %s of number %s", when, holder,
                number).isEqualTo(number));
        live.forEach((pk, number) -> assertThat(numbers.get(number)).as("%s: the sentinel of %s's number %s", when,
                pk, number).isEqualTo(pk));
    }

    /**
     * Parcels' barcodes and their sentinels, read straight from the table, each partition as readers see it: every
     * committed parcel has the sentinel of its folded barcode in its order's workspace, owned by its item, and every
     * sentinel of this test's workspaces is owned by a committed parcel with that barcode — none taken by a stepped
     * write cut off before its commit, none left by a parcel removed or an order deleted.
     */
    void assertParcelsOneToOne(String when) {
        var table = settled();
        var partitions = new HashMap<String, List<Map<String, AttributeValue>>>();
        for (var item : table) {
            String pk = item.get("pk").s();
            if (pk.startsWith("ORDER#") && pk.endsWith("-" + k)) {
                partitions.computeIfAbsent(pk, p -> new ArrayList<>()).add(item);
            }
        }
        var held = new HashMap<String, String>();                  // workspace#folded -> parcel pk + " " + sk
        for (var partition : partitions.entrySet()) {
            var items = AggregateTxn.committed(ROOT_SK, partition.getValue()).items();
            var root = items.stream().filter(item -> item.get("sk").s().equals(ROOT_SK)).findFirst().orElse(null);
            for (var item : items) {
                if (root != null && item.get("_type") != null && "OrderParcel".equals(item.get("_type").s())) {
                    String value = root.get("workspaceId").s() + "#" + fold(item.get("barcode").s());
                    assertThat(held.put(value, partition.getKey() + " " + item.get("sk").s()))
                            .as("%s: barcode %s held by two parcels", when, value).isNull();
                }
            }
        }
        Map<String, String> sentinels = parcelSentinels(table);
        assertThat(held).as("%s: the parcels holding a barcode", when).isNotEmpty();
        assertThat(sentinels).as("%s: the barcode sentinels and the committed parcels holding them", when)
                .isEqualTo(held);
    }

    /** The barcode sentinels of this test's workspaces: {@code workspace#folded value} -> owner's pk + " " + sk. */
    Map<String, String> parcelSentinels(List<Map<String, AttributeValue>> table) {
        var holders = new HashMap<String, String>();
        for (var item : table) {
            String pk = item.get("pk").s();
            if (pk.startsWith(PARCEL_SENTINEL + wsA + "#") || pk.startsWith(PARCEL_SENTINEL + wsB + "#")) {
                holders.put(pk.substring(PARCEL_SENTINEL.length()), item.get("_ownerPk").s() + " " + item.get("_ownerSk").s());
            }
        }
        return holders;
    }

    /** The reference sentinels of this test's workspaces: {@code workspace#folded value} -> holder's pk. */
    Map<String, String> sentinels() {
        return sentinels(settled());
    }

    Map<String, String> sentinels(List<Map<String, AttributeValue>> table) {
        var holders = new HashMap<String, String>();
        for (var item : table) {
            String pk = item.get("pk").s();
            if (pk.startsWith(SENTINEL + wsA + "#") || pk.startsWith(SENTINEL + wsB + "#")) {
                holders.put(pk.substring(SENTINEL.length()), item.get("_ownerPk").s());
            }
        }
        return holders;
    }

    /**
     * The table once it has settled: a Scan is no snapshot, and a write the killed process sent just before its end
     * may still reach DynamoDB Local through the late proxy, between two pages — two Scans half a second apart that
     * read the same are taken as the table (at most 10 s).
     */
    List<Map<String, AttributeValue>> settled() {
        var before = scan();
        for (int i = 0; i < 20; i++) {
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            var now = scan();
            if (new java.util.HashSet<>(now).equals(new java.util.HashSet<>(before))) {
                return now;
            }
            before = now;
        }
        throw new AssertionError("the table did not settle within 10 s");
    }

    List<Map<String, AttributeValue>> scan() {
        String table = direct.listTables().join().tableNames().get(0);
        var items = new ArrayList<Map<String, AttributeValue>>();
        Map<String, AttributeValue> start = null;
        do {
            var page = direct.scan(ScanRequest.builder().tableName(table).consistentRead(true).exclusiveStartKey(start).build()).join();
            items.addAll(page.items());
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return items;
    }
}
