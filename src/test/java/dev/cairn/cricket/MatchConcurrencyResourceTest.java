package dev.cairn.cricket;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

@QuarkusTest
class MatchConcurrencyResourceTest {

    /** Both writers based on the same version: exactly one wins every round, the other gets 409 or 412. */
    @Test
    void twoConcurrentUpdatesOfTheSameVersionHaveExactlyOneWinner() throws Exception {
        var f = CricketFixtures.create(4);
        String id = f.matchId();
        given().contentType(ContentType.JSON).body(f.matchJson(id, 2, 2)).post("/matches").then().statusCode(201);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            int expectedPosition0 = 1;
            int expectedPosition1 = 2;
            for (int round = 0; round < 20; round++) {
                var barrier = new CyclicBarrier(2);
                int a = 100 + round;
                int b = 200 + round;
                String version = "\"" + (round + 1) + "\"";
                CompletableFuture<Response> first = CompletableFuture.supplyAsync(() -> patch(id, 0, a, version, barrier), pool);
                CompletableFuture<Response> second = CompletableFuture.supplyAsync(() -> patch(id, 1, b, version, barrier), pool);
                int s1 = first.get().statusCode();
                int s2 = second.get().statusCode();
                assertThat(List.of(s1, s2)).as("round %d", round).contains(200).hasSize(2)
                        .anyMatch(s -> s == 409 || s == 412).doesNotHaveDuplicates();
                Response loser = s1 != 200 ? first.get() : second.get();
                assertThat(loser.contentType()).startsWith("application/problem+json");
                assertThat(loser.<String>path("code")).isEqualTo("VersionConflict");
                if (s1 == 200) {
                    expectedPosition0 = a;
                } else {
                    expectedPosition1 = b;
                }
                given().get("/matches/{id}", id).then().statusCode(200)
                        .header("ETag", "\"" + (round + 2) + "\"")
                        .body("team1.players[0].battingPosition", equalTo(expectedPosition0))
                        .body("team1.players[1].battingPosition", equalTo(expectedPosition1))
                        .body("team1.players", hasSize(2));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Without If-Match: every acknowledged change is in the final state (none is lost, whatever the timing). */
    @Test
    void concurrentUpdatesWithoutIfMatchNeverLoseAnAcknowledgedChange() throws Exception {
        var f = CricketFixtures.create(4);
        String id = f.matchId();
        given().contentType(ContentType.JSON).body(f.matchJson(id, 2, 2)).post("/matches").then().statusCode(201);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            int expected0 = 1;
            int expected1 = 2;
            for (int round = 0; round < 20; round++) {
                var barrier = new CyclicBarrier(2);
                int a = 300 + round;
                int b = 400 + round;
                CompletableFuture<Response> first = CompletableFuture.supplyAsync(() -> patch(id, 0, a, null, barrier), pool);
                CompletableFuture<Response> second = CompletableFuture.supplyAsync(() -> patch(id, 1, b, null, barrier), pool);
                int s1 = first.get().statusCode();
                int s2 = second.get().statusCode();
                assertThat(List.of(s1, s2)).allMatch(s -> s == 200 || s == 409);
                expected0 = s1 == 200 ? a : expected0;
                expected1 = s2 == 200 ? b : expected1;
                given().get("/matches/{id}", id).then().statusCode(200)
                        .body("team1.players[0].battingPosition", equalTo(expected0))
                        .body("team1.players[1].battingPosition", equalTo(expected1));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static Response patch(String id, int player, int position, String ifMatch, CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        var request = given();
        if (ifMatch != null) {
            request.header("If-Match", ifMatch);
        }
        return request.contentType("application/json-patch+json")
                .body("[{\"op\":\"replace\",\"path\":\"/team1/players/" + player + "/battingPosition\",\"value\":" + position + "}]")
                .patch("/matches/{id}", id);
    }
}
