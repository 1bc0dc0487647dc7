package dev.cairn.reliability;

import dev.cairn.platform.EmbeddedDynamoDb;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A unique value raced across two processes: two replicas of the packaged app share one DynamoDB Local table, and 32
 * creates of members with the same email — in different cases, under the library's case-insensitive rule — are sent
 * at once, half to each. Exactly one is created (201); every other is a 409 UniqueViolation naming the constraint and
 * never the member that won; the one sentinel belongs to the winner. The same holds for an aggregate root's value
 * (32 orders with one purchase-order reference) and for a value moved by changes that cascade (16 books renamed to
 * one ISBN at once: one moves it, the others keep theirs).
 */
class UniqueRaceIT {

    static final int CREATES = 32;

    final String k = UUID.randomUUID().toString().substring(0, 8);
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    final ExecutorService pool = Executors.newFixedThreadPool(CREATES, r -> {
        Thread t = new Thread(r, "unique-race-client");
        t.setDaemon(true);
        return t;
    });
    EmbeddedDynamoDb dynamo;
    PackagedApp one;
    PackagedApp two;

    @BeforeEach
    void start() throws Exception {
        dynamo = EmbeddedDynamoDb.start(0, null);
        var settings = List.of("-Dquarkus.dynamodb.api-call-timeout=30S", "-Dquarkus.dynamodb.api-call-attempt-timeout=15S");
        one = PackagedApp.start(dynamo.endpoint(), settings);   // first: it creates the table
        two = PackagedApp.start(dynamo.endpoint(), settings);
    }

    @AfterEach
    void stop() throws Exception {
        pool.shutdownNow();
        if (two != null) {
            two.stop();
        }
        if (one != null) {
            one.stop();
        }
        dynamo.close();
    }

    record Answer(String member, int status, String contentType, String body) {
    }

    @Test
    void thirtyTwoConcurrentCreatesOfOneEmailAcrossTwoProcessesCreateExactlyOne() throws Exception {
        String email = "race-" + k + "@example.org";
        var requests = new ArrayList<Request>();
        for (int i = 0; i < CREATES; i++) {
            String member = "racer" + i + "-" + k;
            // the same address in different cases: one value under the case-insensitive rule
            String spelled = i % 3 == 0 ? email.toUpperCase(java.util.Locale.ROOT) : email;
            requests.add(new Request(member, "POST", (i % 2 == 0 ? one : two).base() + "/members", "{\"memberId\":\""
                    + member + "\",\"name\":\"Racer\",\"email\":\"" + spelled + "\",\"address\":{\"city\":\"Leeds\"}}"));
        }
        List<Answer> done = race(requests);
        String winner = oneWinner(done, java.util.Set.of(201), "email");
        // every loser is absent; the one sentinel is the winner's
        for (Answer a : done) {
            int status = send("GET", one.base() + "/members/" + a.member(), null).status();
            assertThat(status).as(a.member()).isEqualTo(a.member().equals(winner) ? 200 : 404);
        }
        assertThat(owner("UNIQUE#Member#email#*#" + email)).isEqualTo("MEMBER#" + winner);
    }

    @Test
    void thirtyTwoConcurrentOrdersOfOneReferenceAcrossTwoProcessesCreateExactlyOne() throws Exception {
        String product = "rp-" + k;
        assertThat(send("POST", one.base() + "/products", "{\"id\":\"" + product
                + "\",\"name\":\"Kettle\",\"brand\":\"steamco\",\"price\":25}").status()).isEqualTo(201);
        String reference = "po-" + k;
        var requests = new ArrayList<Request>();
        for (int i = 0; i < CREATES; i++) {
            String order = "order" + i + "-" + k;
            String spelled = i % 3 == 0 ? reference.toUpperCase(java.util.Locale.ROOT) : reference;
            requests.add(new Request(order, "POST", (i % 2 == 0 ? one : two).base() + "/orders", "{\"id\":\"" + order
                    + "\",\"workspaceId\":\"acme\",\"customerId\":\"c1\",\"status\":\"placed\",\"reference\":\""
                    + spelled + "\",\"shipTo\":{\"name\":\"Ann\",\"street\":\"1 High St\",\"city\":\"Leeds\"},"
                    + "\"lines\":[{\"productId\":\"" + product + "\",\"quantity\":1}]}"));
        }
        List<Answer> done = race(requests);
        String winner = oneWinner(done, java.util.Set.of(201), "reference");
        for (Answer a : done) {
            int status = send("GET", two.base() + "/orders/" + a.member(), null).status();
            assertThat(status).as(a.member()).isEqualTo(a.member().equals(winner) ? 200 : 404);
        }
        assertThat(owner("UNIQUE#Order#reference#acme#" + reference.toUpperCase(java.util.Locale.ROOT)
                .toLowerCase(java.util.Locale.ROOT))).isEqualTo("ORDER#" + winner);
    }

    @Test
    void thirtyTwoOrdersWithAParcelOfOneBarcodeAcrossTwoProcessesCreateExactlyOne() throws Exception {
        String product = "bp-" + k;
        assertThat(send("POST", one.base() + "/products", "{\"id\":\"" + product
                + "\",\"name\":\"Kettle\",\"brand\":\"steamco\",\"price\":25}").status()).isEqualTo(201);
        String barcode = "bc-" + k;
        var requests = new ArrayList<Request>();
        for (int i = 0; i < CREATES; i++) {
            String order = "parcel" + i + "-" + k;
            String spelled = i % 3 == 0 ? barcode.toUpperCase(java.util.Locale.ROOT) : barcode;
            // each order's own first parcel is free; its second holds the raced barcode
            requests.add(new Request(order, "POST", (i % 2 == 0 ? one : two).base() + "/orders", "{\"id\":\"" + order
                    + "\",\"workspaceId\":\"acme\",\"customerId\":\"c1\",\"status\":\"placed\","
                    + "\"shipTo\":{\"name\":\"Ann\",\"street\":\"1 High St\",\"city\":\"Leeds\"},"
                    + "\"lines\":[{\"productId\":\"" + product + "\",\"quantity\":1}],"
                    + "\"parcels\":[{\"no\":1,\"barcode\":\"own-" + i + "-" + k + "\"},{\"no\":2,\"barcode\":\""
                    + spelled + "\"}]}"));
        }
        List<Answer> done = race(requests);
        String winner = oneWinner(done, java.util.Set.of(201), "barcode");
        for (int i = 0; i < CREATES; i++) {
            String order = "parcel" + i + "-" + k;
            int status = send("GET", two.base() + "/orders/" + order, null).status();
            assertThat(status).as(order).isEqualTo(order.equals(winner) ? 200 : 404);
            // a refused order took none of its values, not even its own free one
            assertThat(owner("UNIQUE#OrderParcel#barcode#acme#own-" + i + "-" + k))
                    .as(order).isEqualTo(order.equals(winner) ? "ORDER#" + winner : null);
        }
        assertThat(owner("UNIQUE#OrderParcel#barcode#acme#" + barcode)).isEqualTo("ORDER#" + winner);
    }

    @Test
    void thirtyTwoProductsPutIntoOneSlotOfACategoryAtOnceAcrossTwoProcessesTakeItExactlyOnce() throws Exception {
        String category = "rc-" + k;
        assertThat(send("POST", one.base() + "/categories", "{\"id\":\"" + category + "\",\"name\":\"Kitchen\"}").status())
                .isEqualTo(201);
        var requests = new ArrayList<Request>();
        for (int i = 0; i < CREATES; i++) {
            String product = "rp" + i + "-" + k;
            assertThat(send("POST", one.base() + "/products", "{\"id\":\"" + product
                    + "\",\"name\":\"Kettle\",\"brand\":\"steamco\",\"price\":25}").status()).isEqualTo(201);
            // an edge's unique value (one product per featured slot of a category), put by either process
            requests.add(new Request(product, "PUT", (i % 2 == 0 ? one : two).base() + "/products/" + product
                    + "/categories/" + category, "{\"slot\":7}"));
        }
        List<Answer> done = race(requests);
        String winner = oneWinner(done, java.util.Set.of(201), "slot");
        for (Answer a : done) {
            int status = send("GET", two.base() + "/products/" + a.member() + "/categories/" + category, null).status();
            assertThat(status).as(a.member()).isEqualTo(a.member().equals(winner) ? 200 : 404);
        }
        assertThat(owner("UNIQUE#ProductCategory#slot#" + category + "#7")).isEqualTo("PROD#" + winner);
    }

    @Test
    void sixteenBooksRenamedToOneIsbnAtOnceAcrossTwoProcessesMoveItExactlyOnce() throws Exception {
        int books = 16;
        String target = isbn(99);
        for (int i = 0; i < books; i++) {
            assertThat(send("POST", one.base() + "/books", "{\"bookId\":\"book" + i + "-" + k + "\",\"title\":\"T" + i
                    + "\",\"isbn\":\"" + isbn(i) + "\"}").status()).isEqualTo(201);
        }
        var requests = new ArrayList<Request>();
        for (int i = 0; i < books; i++) {
            String book = "book" + i + "-" + k;
            requests.add(new Request(book, "PATCH", (i % 2 == 0 ? one : two).base() + "/books/" + book,
                    "{\"isbn\":\"" + target + "\"}"));
        }
        List<Answer> done = race(requests);
        // a change that cascades answers 200, or 202 when its cascade job outlives the request
        String winner = oneWinner(done, java.util.Set.of(200, 202), "isbn");
        assertThat(owner("UNIQUE#Book#isbn#*#" + target)).isEqualTo("BOOK#" + winner);
        for (int i = 0; i < books; i++) {
            String book = "book" + i + "-" + k;
            // the winner gave its old value up in its own transaction; every other still holds its own
            assertThat(owner("UNIQUE#Book#isbn#*#" + isbn(i))).as(book).isEqualTo(book.equals(winner) ? null : "BOOK#" + book);
            assertThat(send("GET", two.base() + "/books/" + book, null).body())
                    .contains("\"isbn\":\"" + (book.equals(winner) ? target : isbn(i)) + "\"");
        }
    }

    /** A 13-digit ISBN unique to this run. */
    String isbn(int n) {
        return String.format("%06d%05d%02d", Math.floorMod(k.hashCode(), 1_000_000), 0, n);
    }

    record Request(String member, String method, String url, String body) {
    }

    /** Sends every request at once (one thread each, released together): their answers, in order. */
    List<Answer> race(List<Request> requests) {
        var go = new CountDownLatch(1);
        var answers = new ArrayList<CompletableFuture<Answer>>();
        for (Request request : requests) {
            answers.add(CompletableFuture.supplyAsync(() -> {
                try {
                    go.await();
                    Answer answer = send(request.method(), request.url(), request.body());
                    return new Answer(request.member(), answer.status(), answer.contentType(), answer.body());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, pool));
        }
        go.countDown();
        return answers.stream().map(CompletableFuture::join).toList();
    }

    /** Exactly one answer has a status of {@code won}; every other is a 409 UniqueViolation of the constraint, naming no winner. */
    static String oneWinner(List<Answer> done, java.util.Set<Integer> won, String constraint) {
        var byStatus = new TreeMap<Integer, Integer>();
        done.forEach(a -> byStatus.merge(a.status(), 1, Integer::sum));
        List<Answer> winners = done.stream().filter(a -> won.contains(a.status())).toList();
        assertThat(winners).as("answers by status: %s", byStatus).hasSize(1);
        String winner = winners.get(0).member();
        for (Answer a : done) {
            if (!won.contains(a.status())) {
                assertThat(a.status()).as("%s: %s", a.member(), a.body()).isEqualTo(409);
                assertThat(a.contentType()).startsWith("application/problem+json");
                assertThat(a.body()).contains("\"code\":\"UniqueViolation\"").contains("\"constraint\":\"" + constraint + "\"")
                        .doesNotContain(winner).doesNotContain("current");
            }
        }
        return winner;
    }

    Answer send(String method, String url, String body) throws Exception {
        var builder = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60));
        if (body != null) {
            builder.header("Content-Type", method.equals("PATCH") ? "application/merge-patch+json" : "application/json");
        }
        var response = http.send(builder.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(null, response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                response.body());
    }

    /** The owner ({@code _ownerPk}) of the sentinel at this partition key, read straight from the table; null: none. */
    String owner(String sentinelPk) {
        try (var client = DynamoDbAsyncClient.builder().endpointOverride(URI.create(dynamo.endpoint())).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"))).build()) {
            String table = client.listTables().join().tableNames().get(0);
            Map<String, AttributeValue> sentinel = client.getItem(GetItemRequest.builder().tableName(table).consistentRead(true)
                    .key(Map.of("pk", AttributeValue.fromS(sentinelPk), "sk", AttributeValue.fromS("UNIQUE")))
                    .build()).join().item();
            return sentinel == null || sentinel.isEmpty() ? null : sentinel.get("_ownerPk").s();
        }
    }
}
