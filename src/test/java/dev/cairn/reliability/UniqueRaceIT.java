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
 * never the member that won; the one sentinel belongs to the winner.
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
        var go = new CountDownLatch(1);
        var answers = new ArrayList<CompletableFuture<Answer>>();
        for (int i = 0; i < CREATES; i++) {
            String member = "racer" + i + "-" + k;
            String base = (i % 2 == 0 ? one : two).base();
            // the same address in different cases: one value under the case-insensitive rule
            String spelled = i % 3 == 0 ? email.toUpperCase(java.util.Locale.ROOT) : email;
            String body = "{\"memberId\":\"" + member + "\",\"name\":\"Racer\",\"email\":\"" + spelled
                    + "\",\"address\":{\"city\":\"Leeds\"}}";
            answers.add(CompletableFuture.supplyAsync(() -> {
                try {
                    go.await();
                    var response = http.send(HttpRequest.newBuilder(URI.create(base + "/members"))
                            .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
                    return new Answer(member, response.statusCode(),
                            response.headers().firstValue("Content-Type").orElse(""), response.body());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, pool));
        }
        go.countDown();
        List<Answer> done = answers.stream().map(CompletableFuture::join).toList();

        var byStatus = new TreeMap<Integer, Integer>();
        done.forEach(a -> byStatus.merge(a.status(), 1, Integer::sum));
        List<Answer> created = done.stream().filter(a -> a.status() == 201).toList();
        assertThat(created).as("answers by status: %s", byStatus).hasSize(1);
        String winner = created.get(0).member();
        for (Answer a : done) {
            if (a.status() == 201) {
                continue;
            }
            assertThat(a.status()).as("%s: %s", a.member(), a.body()).isEqualTo(409);
            assertThat(a.contentType()).startsWith("application/problem+json");
            assertThat(a.body()).contains("\"code\":\"UniqueViolation\"").contains("\"constraint\":\"email\"")
                    .doesNotContain(winner).doesNotContain("current");
        }
        // every loser is absent; the one sentinel is the winner's
        for (Answer a : done) {
            int status = http.send(HttpRequest.newBuilder(URI.create(one.base() + "/members/" + a.member())).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
            assertThat(status).as(a.member()).isEqualTo(a.member().equals(winner) ? 200 : 404);
        }
        try (var client = DynamoDbAsyncClient.builder().endpointOverride(URI.create(dynamo.endpoint())).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"))).build()) {
            String table = client.listTables().join().tableNames().get(0);
            Map<String, AttributeValue> sentinel = client.getItem(GetItemRequest.builder().tableName(table).consistentRead(true)
                    .key(Map.of("pk", AttributeValue.fromS("UNIQUE#Member#email#*#" + email), "sk", AttributeValue.fromS("UNIQUE")))
                    .build()).join().item();
            assertThat(sentinel).isNotEmpty();
            assertThat(sentinel.get("_ownerPk").s()).isEqualTo("MEMBER#" + winner);
        }
    }
}
