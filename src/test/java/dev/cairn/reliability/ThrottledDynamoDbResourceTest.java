package dev.cairn.reliability;

import dev.cairn.store.AttemptCountingInterceptor;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The app while DynamoDB throttles 20 % of its calls and cancels 20 % of its transactions with a transaction
 * conflict: many clients create, rename (cascading into matches), list and read at once. Every acknowledged write
 * is in the table afterwards and every copy converges; no client sees a 5xx but a 503 with Retry-After that says
 * DynamoDB is throttling (or a busy aggregate), never that DynamoDB is unreachable.
 */
@QuarkusTest
@TestProfile(ThrottledDynamoDbResourceTest.Throttled.class)
class ThrottledDynamoDbResourceTest {

    public static class Throttled extends DynamoDbSemanticsProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // A cascade still running after 1 s answers 202: the clients go on, the job finishes the copies.
            return Map.of("cairn.jobs.answer-within", "1s");
        }
    }

    static final int CLIENTS = 8;
    static final int ROUNDS = 25;

    DynamoDbSemantics dynamo;
    @Inject
    DynamoDbAsyncClient client;
    final String k = UUID.randomUUID().toString().substring(0, 8);

    record Outcome(String request, int status, String code, String detail, String retryAfter) {
    }

    /** One client's acknowledged writes, and the names it tried since its last acknowledged rename. */
    final class Client {
        final String player;
        final List<String> matches = new ArrayList<>();
        final Map<String, String> players = new LinkedHashMap<>();
        final Map<String, String> projects = new LinkedHashMap<>();
        String acknowledgedName = "Old";
        final List<String> unacknowledgedNames = new ArrayList<>();

        Client(int n) {
            this.player = "tp" + n + "-" + k;
        }
    }

    final List<Outcome> outcomes = Collections.synchronizedList(new ArrayList<>());

    @Test
    void theClientKeepsTheExtensionsSettingsAndTakesCairnsRetryBudget() {
        ClientOverrideConfiguration configuration = client.serviceClientConfiguration().overrideConfiguration();
        assertThat(configuration.apiCallTimeout()).contains(Duration.ofSeconds(3));
        assertThat(configuration.apiCallAttemptTimeout()).contains(Duration.ofMillis(1_500));
        assertThat(configuration.executionInterceptors()).hasAtLeastOneElementOfType(AttemptCountingInterceptor.class);
        assertThat(configuration.retryStrategy()).get().extracting(RetryStrategy::maxAttempts).isEqualTo(5);
    }

    @Test
    void underThrottlingAndConflictsEveryAcknowledgedWriteIsKeptAndOnlyThrottlingAnswers503() throws Exception {
        String workspace = "tw-" + k;
        created("/workspaces", "{\"id\":\"" + workspace + "\",\"displayName\":\"W\",\"region\":\"eu-west-1\",\"seatLimit\":5}");
        created("/teams", "{\"id\":\"tt1-" + k + "\",\"name\":\"A\",\"country\":\"A\",\"ranking\":1}");
        created("/teams", "{\"id\":\"tt2-" + k + "\",\"name\":\"B\",\"country\":\"B\",\"ranking\":2}");
        created("/coaches", "{\"id\":\"tc-" + k + "\",\"name\":\"C\"}");
        created("/venues", "{\"id\":\"tv-" + k + "\",\"name\":\"V\",\"city\":\"X\"}");
        created("/players", "{\"id\":\"topp-" + k + "\",\"firstName\":\"O\",\"lastName\":\"P\",\"role\":\"bowler\"}");
        var clients = new ArrayList<Client>();
        for (int n = 0; n < CLIENTS; n++) {
            var client = new Client(n);
            created("/players", "{\"id\":\"" + client.player + "\",\"firstName\":\"Old\",\"lastName\":\"N\",\"role\":\"batter\"}");
            String match = "tm" + n + "-" + k;
            created("/matches", match(match, client.player));
            client.matches.add(match);
            clients.add(client);
        }

        dynamo.throttle(0.2).conflicts(0.2);
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        try {
            var running = clients.stream().map(c -> CompletableFuture.runAsync(() -> work(c, workspace), pool)).toList();
            running.forEach(CompletableFuture::join);
        } finally {
            pool.shutdownNow();
            dynamo.reset();
        }

        Map<Integer, Long> byStatus = outcomes.stream().collect(Collectors.groupingBy(Outcome::status, Collectors.counting()));
        long succeeded = outcomes.stream().filter(o -> o.status() < 300).count();
        Map<String, Long> failures = outcomes.stream().filter(o -> o.status() >= 300).collect(Collectors.groupingBy(
                o -> o.status() + " " + o.request() + " " + o.code() + ": " + o.detail(), Collectors.counting()));
        System.out.printf("Throttled 20 %% of calls, conflicts on 20 %% of transactions: %d requests, %d succeeded, "
                        + "%d were 503, %d were 409 (by status %s; failures %s); the layer: %s%n", outcomes.size(), succeeded,
                byStatus.getOrDefault(503, 0L), byStatus.getOrDefault(409, 0L), byStatus, failures, dynamo.counts());
        assertThat(dynamo.counts().throttled()).as("calls throttled").isGreaterThan(100);
        assertThat(dynamo.counts().conflicts()).as("transactions cancelled").isGreaterThan(10);
        assertThat(outcomes).allSatisfy(o -> assertThat(o.status()).as("%s", o).isIn(200, 201, 202, 409, 503));
        assertThat(outcomes).filteredOn(o -> o.status() == 503).allSatisfy(o -> {
            assertThat(o.retryAfter()).as("%s", o).isNotNull();
            assertThat(o.code().equals("AggregateBusy")
                    || o.code().equals("ServiceUnavailable") && o.detail().contains("throttling")).as("%s", o).isTrue();
        });
        assertThat(outcomes).noneSatisfy(o -> assertThat(String.valueOf(o.detail())).contains("unreachable"));

        for (Client client : clients) {
            client.players.forEach((id, name) -> given().get("/players/{id}", id).then().statusCode(200)
                    .body("firstName", org.hamcrest.Matchers.equalTo(name)));
            client.projects.forEach((id, title) -> given().get("/workspaces/{ws}/projects/{id}", workspace, id)
                    .then().statusCode(200).body("title", org.hamcrest.Matchers.equalTo(title)));
            String name = given().get("/players/{id}", client.player).then().statusCode(200).extract().path("firstName");
            var allowed = new ArrayList<>(client.unacknowledgedNames);
            allowed.add(client.acknowledgedName);
            assertThat(name).as("player %s after its renames", client.player).isIn(allowed);
            // Every copy converges to the player's final name, once the cascade jobs have retried what failed.
            for (String match : client.matches) {
                waitFor("match " + match + " shows " + name, Duration.ofSeconds(60), () -> name.equals(
                        given().get("/matches/{id}", match).then().statusCode(200).extract()
                                .path("team1.players[0].player.firstName")));
            }
        }
    }

    void work(Client client, String workspace) {
        for (int round = 0; round < ROUNDS; round++) {
            String id = client.player + "-new" + round;
            String firstName = "F" + round;
            if (send("POST /players", given().contentType(ContentType.JSON).body("{\"id\":\"" + id + "\",\"firstName\":\""
                    + firstName + "\",\"lastName\":\"L\",\"role\":\"bowler\"}").post("/players")).status() == 201) {
                client.players.put(id, firstName);
            }
            String name = "N" + round;
            int renamed = send("PATCH /players", given().contentType("application/merge-patch+json")
                    .body("{\"firstName\":\"" + name + "\"}").patch("/players/{id}", client.player)).status();
            if (renamed == 200 || renamed == 202) {
                client.acknowledgedName = name;
                client.unacknowledgedNames.clear();
            } else {
                client.unacknowledgedNames.add(name);
            }
            String title = "P" + round + "-" + client.player;
            Response project = given().contentType(ContentType.JSON)
                    .body("{\"title\":\"" + title + "\",\"status\":\"ACTIVE\",\"createdBy\":\"ann\"}")
                    .post("/workspaces/{id}/projects", workspace);
            if (send("POST /projects", project).status() == 201) {
                client.projects.put(project.path("id"), title);
            }
            send("GET /players", given().get("/players/{id}", client.player));
            if (round % 5 == 4) {
                String match = client.player + "-m" + round;
                if (send("POST /matches", given().contentType(ContentType.JSON).body(match(match, client.player))
                        .post("/matches")).status() == 201) {
                    client.matches.add(match);
                }
            }
        }
    }

    Outcome send(String request, Response response) {
        boolean problem = response.statusCode() >= 400 && response.contentType().startsWith("application/problem+json");
        var outcome = new Outcome(request, response.statusCode(), problem ? response.path("code") : null,
                problem ? response.path("detail") : null, response.header("Retry-After"));
        outcomes.add(outcome);
        return outcome;
    }

    String match(String id, String player) {
        return "{\"id\":\"" + id + "\",\"name\":\"M\",\"venueId\":\"tv-" + k + "\",\"team1\":{\"teamId\":\"tt1-" + k
                + "\",\"coachId\":\"tc-" + k + "\",\"homeTeam\":true,\"players\":[{\"playerId\":\"" + player
                + "\",\"battingPosition\":1,\"isCaptain\":true}]},\"team2\":{\"teamId\":\"tt2-" + k + "\",\"coachId\":\"tc-" + k
                + "\",\"homeTeam\":false,\"players\":[{\"playerId\":\"topp-" + k + "\",\"battingPosition\":1,\"isCaptain\":true}]}}";
    }

    static void created(String path, String body) {
        given().contentType(ContentType.JSON).body(body).post(path).then().statusCode(201);
    }

    static void waitFor(String what, Duration within, java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what + " within " + within).isLessThan(deadline);
            Thread.sleep(200);
        }
    }
}
