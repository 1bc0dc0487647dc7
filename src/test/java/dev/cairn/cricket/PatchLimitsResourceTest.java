package dev.cairn.cricket;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/**
 * A hostile writer's patches cannot exhaust memory: a JSON Patch is held to the operation and document caps while
 * it is applied (a copy bomb is refused after a few doublings, long before it is serialised), a merge patch to the
 * document cap, and a refused patch leaves the match exactly as it was.
 */
@QuarkusTest
class PatchLimitsResourceTest {

    static final String JSON_PATCH = "application/json-patch+json";
    static final String MERGE_PATCH = "application/merge-patch+json";
    static final int BOMBERS = 12;

    final ExecutorService pool = Executors.newFixedThreadPool(BOMBERS + 1);
    CricketFixtures f;
    String match;

    @BeforeEach
    void match() {
        f = CricketFixtures.create(4);
        match = f.matchId();
        given().contentType(ContentType.JSON).body(f.matchJson(match, 2, 2)).post("/matches").then().statusCode(201);
    }

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    /** 30 operations, each copying the whole document into a new member: 2^30 times its size if it ran. */
    static String copyBomb() {
        var ops = new StringBuilder("[");
        for (int i = 0; i < 30; i++) {
            ops.append(i == 0 ? "" : ",").append("{\"op\":\"copy\",\"from\":\"\",\"path\":\"/a").append(i).append("\"}");
        }
        return ops.append(']').toString();
    }

    Response read() {
        return given().get("/matches/{id}", match).then().statusCode(200).extract().response();
    }

    void assertUnchanged(Response before) {
        Response after = read();
        assertThat(after.header("ETag")).isEqualTo(before.header("ETag"));
        assertThat(after.asString()).isEqualTo(before.asString());
    }

    @Test
    void theCopyBombAnswers413NamingTheLimitAndLeavesTheMatchUnchanged() {
        Response before = read();
        assertThat(copyBomb().length()).isLessThan(1400);
        given().contentType(JSON_PATCH).body(copyBomb()).patch("/matches/{id}", match).then().statusCode(413)
                .contentType("application/problem+json").body("code", equalTo("PayloadTooLarge"))
                .body("limitBytes", equalTo(1048576)).body("detail", containsString("(copy) would make the document larger than 1048576 bytes"));
        assertUnchanged(before);
    }

    @Test
    void twelveParallelBombsAreAllRefusedWhileAnotherClientsReadsAnswer200() throws Exception {
        Response before = read();
        String player = f.players.get(0);
        var bombing = new AtomicBoolean(true);
        var barrier = new CyclicBarrier(BOMBERS + 1);
        Future<List<Integer>> reader = pool.submit(() -> {
            var statuses = new ArrayList<Integer>();
            barrier.await();
            do {
                statuses.add(given().get("/players/{id}", player).statusCode());
            } while (bombing.get());
            return statuses;
        });
        var bombs = new ArrayList<Future<Integer>>();
        for (int i = 0; i < BOMBERS; i++) {
            bombs.add(pool.submit(() -> {
                barrier.await();
                return given().contentType(JSON_PATCH).body(copyBomb()).patch("/matches/{id}", match).statusCode();
            }));
        }
        var answers = new ArrayList<Integer>();
        for (var bomb : bombs) {
            answers.add(bomb.get());
        }
        bombing.set(false);
        assertThat(answers).hasSize(BOMBERS).containsOnly(413);
        assertThat(reader.get()).isNotEmpty().containsOnly(200);
        assertUnchanged(before);
    }

    @Test
    void aJsonPatchWithMoreThanTheMostOperationsIsRefusedBeforeAnyRuns() {
        Response before = read();
        var ops = new StringBuilder("[{\"op\":\"replace\",\"path\":\"/name\",\"value\":\"Renamed\"}");
        for (int i = 0; i < 1000; i++) {
            ops.append(",{\"op\":\"test\",\"path\":\"/id\",\"value\":\"").append(match).append("\"}");
        }
        given().contentType(JSON_PATCH).body(ops.append(']').toString()).patch("/matches/{id}", match).then().statusCode(413)
                .contentType("application/problem+json").body("code", equalTo("PayloadTooLarge")).body("limit", equalTo(1000))
                .body("detail", containsString("1001 operations"));
        assertUnchanged(before);
    }

    @Test
    void aMergePatchWhoseResultWouldPassTheDocumentCapIsRefused() {
        Response before = read();
        // Within the 1 MiB body limit, but the match around the new name takes the result past the 1 MiB cap.
        String body = "{\"name\":\"" + "x".repeat(1_048_500) + "\"}";
        assertThat(body.length()).isLessThan(1_048_576);
        given().contentType(MERGE_PATCH).body(body).patch("/matches/{id}", match).then().statusCode(413)
                .contentType("application/problem+json").body("code", equalTo("PayloadTooLarge"))
                .body("limitBytes", equalTo(1048576)).body("detail", containsString("merge patch"));
        assertUnchanged(before);
    }

    @Test
    void ordinaryJsonAndMergePatchesStillChangeTheMatch() {
        String etag = read().header("ETag");
        String moved = given().contentType(JSON_PATCH).header("If-Match", etag)
                .body("[{\"op\":\"test\",\"path\":\"/name\",\"value\":\"AUS vs IND, 1st Test\"},"
                        + "{\"op\":\"replace\",\"path\":\"/name\",\"value\":\"AUS vs IND, 2nd Test\"},"
                        + "{\"op\":\"copy\",\"from\":\"/team1/players/0/battingPosition\",\"path\":\"/team2/players/1/battingPosition\"},"
                        + "{\"op\":\"replace\",\"path\":\"/team2/players/0/battingPosition\",\"value\":2}]")
                .patch("/matches/{id}", match).then().statusCode(200)
                .body("name", equalTo("AUS vs IND, 2nd Test")).extract().header("ETag");
        assertThat(moved).isNotEqualTo(etag);
        given().contentType(MERGE_PATCH).header("If-Match", moved).body("{\"name\":\"AUS vs IND, 3rd Test\"}")
                .patch("/matches/{id}", match).then().statusCode(200).body("name", equalTo("AUS vs IND, 3rd Test"));
        assertThat(read().path("name").toString()).isEqualTo("AUS vs IND, 3rd Test");
    }
}
