package dev.cairn.reliability;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/** 32 requests released at once against the same item: exactly one wins, the others get a 4xx, none a 5xx. */
@QuarkusTest
class RaceResourceTest {

    static final int RACERS = 32;
    final ExecutorService pool = Executors.newFixedThreadPool(RACERS);
    final String k = UUID.randomUUID().toString().substring(0, 8);

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    List<Integer> race(Supplier<Integer> request) throws Exception {
        var barrier = new CyclicBarrier(RACERS);
        var futures = new ArrayList<Future<Integer>>();
        for (int i = 0; i < RACERS; i++) {
            futures.add(pool.submit(() -> {
                barrier.await();
                return request.get();
            }));
        }
        var statuses = new ArrayList<Integer>();
        for (var f : futures) {
            statuses.add(f.get());
        }
        return statuses;
    }

    static void post(String path, String body) {
        given().contentType(ContentType.JSON).body(body).post(path).then().statusCode(201);
    }

    @Test
    void concurrentCreatesOfOneWorkspaceHaveExactlyOneWinner() throws Exception {
        String id = "race-ws-" + k;
        var statuses = race(() -> given().contentType(ContentType.JSON)
                .body("{\"id\":\"" + id + "\",\"displayName\":\"A\",\"region\":\"r\",\"seatLimit\":3}")
                .post("/workspaces").statusCode());
        assertThat(statuses).filteredOn(s -> s == 201).hasSize(1);
        assertThat(statuses).filteredOn(s -> s == 409).hasSize(RACERS - 1);
    }

    @Test
    void concurrentEnrollmentsOfOnePairHaveExactlyOneWinner() throws Exception {
        post("/students", "{\"id\":\"rs-" + k + "\",\"name\":\"S\",\"year\":1,\"major\":\"M\"}");
        post("/courses", "{\"id\":\"rc-" + k + "\",\"title\":\"C\",\"credits\":1,\"term\":\"t\"}");
        var statuses = race(() -> given().contentType(ContentType.JSON).body("{}")
                .put("/students/rs-" + k + "/enrollments/rc-" + k).statusCode());
        assertThat(statuses).filteredOn(s -> s == 201).hasSize(1);
        assertThat(statuses).filteredOn(s -> s == 409).hasSize(RACERS - 1);
        given().get("/students/rs-" + k + "/courses").then().body("items.size()", equalTo(1));
    }

    @Test
    void concurrentCreatesAndIfMatchUpdatesOfOneMatchHaveExactlyOneWinner() throws Exception {
        post("/teams", "{\"id\":\"rt1-" + k + "\",\"name\":\"A\",\"country\":\"A\",\"ranking\":1}");
        post("/teams", "{\"id\":\"rt2-" + k + "\",\"name\":\"B\",\"country\":\"B\",\"ranking\":2}");
        post("/coaches", "{\"id\":\"rco-" + k + "\",\"name\":\"C\"}");
        post("/venues", "{\"id\":\"rv-" + k + "\",\"name\":\"V\",\"city\":\"X\"}");
        post("/players", "{\"id\":\"rp1-" + k + "\",\"firstName\":\"A\",\"lastName\":\"B\",\"role\":\"batter\"}");
        post("/players", "{\"id\":\"rp2-" + k + "\",\"firstName\":\"C\",\"lastName\":\"D\",\"role\":\"bowler\"}");
        String id = "rm-" + k;
        String match = "{\"id\":\"" + id + "\",\"name\":\"M\",\"venueId\":\"rv-" + k + "\",\"team1\":{\"teamId\":\"rt1-" + k
                + "\",\"coachId\":\"rco-" + k + "\",\"homeTeam\":true,\"players\":[{\"playerId\":\"rp1-" + k
                + "\",\"battingPosition\":1,\"isCaptain\":true}]},\"team2\":{\"teamId\":\"rt2-" + k + "\",\"coachId\":\"rco-" + k
                + "\",\"homeTeam\":false,\"players\":[{\"playerId\":\"rp2-" + k + "\",\"battingPosition\":1,\"isCaptain\":true}]}}";
        var creates = race(() -> given().contentType(ContentType.JSON).body(match).post("/matches").statusCode());
        assertThat(creates).filteredOn(s -> s == 201).hasSize(1);
        assertThat(creates).filteredOn(s -> s == 409).hasSize(RACERS - 1);

        var counter = new java.util.concurrent.atomic.AtomicInteger();
        var updates = race(() -> given().contentType("application/merge-patch+json").header("If-Match", "\"1\"")
                .body("{\"name\":\"M" + counter.incrementAndGet() + "\"}").patch("/matches/{id}", id).statusCode());
        assertThat(updates).filteredOn(s -> s == 200).hasSize(1);
        assertThat(updates).allMatch(s -> s == 200 || s == 409 || s == 412);
        given().get("/matches/{id}", id).then().statusCode(200).header("ETag", "\"2\"");
    }
}
