package dev.cairn.reliability;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/** A cascade racing an update of the match that embeds the entity: the copy always ends at the newest source. */
@QuarkusTest
class CascadeRaceResourceTest {

    @Test
    void aCascadeRacingAMatchUpdateLeavesTheCopyAtTheNewestSourceVersion() throws Exception {
        String k = UUID.randomUUID().toString().substring(0, 8);
        post("/teams", "{\"id\":\"ct1-" + k + "\",\"name\":\"A\",\"country\":\"A\",\"ranking\":1}");
        post("/teams", "{\"id\":\"ct2-" + k + "\",\"name\":\"B\",\"country\":\"B\",\"ranking\":2}");
        post("/coaches", "{\"id\":\"cco-" + k + "\",\"name\":\"C\"}");
        post("/venues", "{\"id\":\"cv-" + k + "\",\"name\":\"V\",\"city\":\"X\"}");
        post("/players", "{\"id\":\"cp1-" + k + "\",\"firstName\":\"Name0\",\"lastName\":\"B\",\"role\":\"batter\"}");
        post("/players", "{\"id\":\"cp2-" + k + "\",\"firstName\":\"C\",\"lastName\":\"D\",\"role\":\"bowler\"}");
        String id = "cm-" + k;
        post("/matches", "{\"id\":\"" + id + "\",\"name\":\"M\",\"venueId\":\"cv-" + k + "\",\"team1\":{\"teamId\":\"ct1-" + k
                + "\",\"coachId\":\"cco-" + k + "\",\"homeTeam\":true,\"players\":[{\"playerId\":\"cp1-" + k
                + "\",\"battingPosition\":1,\"isCaptain\":true}]},\"team2\":{\"teamId\":\"ct2-" + k + "\",\"coachId\":\"cco-" + k
                + "\",\"homeTeam\":false,\"players\":[{\"playerId\":\"cp2-" + k + "\",\"battingPosition\":1,\"isCaptain\":true}]}}");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            int expectedPosition = 1;
            for (int round = 1; round <= 15; round++) {
                var barrier = new CyclicBarrier(2);
                String name = "Name" + round;
                int position = 10 + round;
                CompletableFuture<Response> rename = CompletableFuture.supplyAsync(() -> {
                    await(barrier);
                    return given().contentType("application/merge-patch+json").body("{\"firstName\":\"" + name + "\"}")
                            .patch("/players/{id}", "cp1-" + k);
                }, pool);
                CompletableFuture<Response> update = CompletableFuture.supplyAsync(() -> {
                    await(barrier);
                    return given().contentType("application/json-patch+json")
                            .body("[{\"op\":\"replace\",\"path\":\"/team1/players/0/battingPosition\",\"value\":" + position + "}]")
                            .patch("/matches/{id}", id);
                }, pool);
                assertThat(rename.get().statusCode()).as("round %d rename", round).isEqualTo(200);
                int updateStatus = update.get().statusCode();
                assertThat(updateStatus).as("round %d match update", round).isIn(200, 409);
                if (updateStatus == 200) {
                    expectedPosition = position;
                }
                given().get("/matches/{id}", id).then().statusCode(200)
                        .body("team1.players[0].player.firstName", equalTo(name))
                        .body("team1.players[0].battingPosition", equalTo(expectedPosition));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static void post(String path, String body) {
        given().contentType(ContentType.JSON).body(body).post(path).then().statusCode(201);
    }
}
