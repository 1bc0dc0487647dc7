package dev.cairn.platform.limits;

import dev.cairn.platform.Management;
import dev.cairn.platform.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;

/**
 * One writer cannot make Cairn write without bound: past its write burst, or once the cascade copies its writes
 * caused have spent its budget, it is answered 429 problem+json with Retry-After and nothing is written, while other
 * callers' reads and writes go on. Each test uses callers (token subjects) of its own.
 */
@QuarkusTest
@TestProfile(LimitsProfile.class)
class LimitsResourceTest {

    static final String MERGE_PATCH = "application/merge-patch+json";
    final String k = UUID.randomUUID().toString().substring(0, 8);

    static RequestSpecification as(String subject, String role) {
        return given().header("Authorization", TestTokens.bearer(subject, List.of("*"), role));
    }

    /** Fixtures are written by a caller of their own each, so they spend no test caller's budget. */
    static void setUp(String path, String body) {
        as("setup-" + UUID.randomUUID(), "cairn-admin").contentType(ContentType.JSON).body(body).post(path)
                .then().statusCode(201);
    }

    static String player(String id) {
        return "{\"id\":\"" + id + "\",\"firstName\":\"Pat\",\"lastName\":\"Cummins\",\"role\":\"bowler\"}";
    }

    /** A player selected in {@code selections} squads: each rename of the player writes that many copies. */
    String selectedPlayer(int selections) {
        String team = "lt-" + k;
        String player = "lp-" + k;
        setUp("/teams", "{\"id\":\"" + team + "\",\"name\":\"Australia\",\"country\":\"Australia\",\"ranking\":1}");
        setUp("/players", player(player));
        for (int i = 0; i < selections; i++) {
            setUp("/squads/lsq" + i + "-" + k + "/selections", "{\"selectionNumber\":1,\"teamId\":\"" + team
                    + "\",\"playerId\":\"" + player + "\",\"squadRole\":\"bowler\",\"isCaptain\":false}");
        }
        return player;
    }

    static void assertRefused(Response answer, String limit, int minSeconds, int maxSeconds) {
        assertThat(answer.statusCode()).as(answer.asString()).isEqualTo(429);
        assertThat(answer.contentType()).startsWith("application/problem+json");
        assertThat(answer.<String>path("code")).isEqualTo("RateLimited");
        assertThat(answer.<String>path("rateLimit")).isEqualTo(limit);
        assertThat(Integer.parseInt(answer.header("Retry-After"))).isBetween(minSeconds, maxSeconds);
    }

    @Test
    void aPathNothingServesIsA404WithOrWithoutATokenWhileLimitsAreOn() {
        // no caller is bound for a path no route serves: nothing to charge, and the answer is the 404, not a 401
        for (String path : List.of("/q/health/ready", "/no/such/route")) {
            as("lost-reader", "cairn-reader").get(path).then().statusCode(404).contentType("application/problem+json")
                    .body("code", equalTo("NotFound"));
            given().get(path).then().statusCode(404);
        }
    }

    @Test
    void aWriteFloodByOneCallerIsAnswered429WhileAnotherCallersWritesPass() {
        String mallory = "mallory-" + k;
        String alice = "alice-" + k;
        var statuses = new ArrayList<Integer>();
        var refused = new ArrayList<String>();
        for (int i = 0; i < 12; i++) {
            String id = "flood" + i + "-" + k;
            Response answer = as(mallory, "cairn-writer").contentType(ContentType.JSON).body(player(id)).post("/players");
            statuses.add(answer.statusCode());
            if (answer.statusCode() == 429) {
                assertRefused(answer, "writes", 1, 2);
                refused.add(id);
            }
            if (i % 4 == 0) {
                as(alice, "cairn-writer").contentType(ContentType.JSON).body(player("calm" + i + "-" + k)).post("/players")
                        .then().statusCode(201);
            }
        }
        assertThat(statuses.subList(0, LimitsProfile.WRITE_BURST)).containsOnly(201);
        assertThat(statuses).contains(429).containsOnly(201, 429);
        for (String id : refused) {
            as(alice, "cairn-reader").get("/players/{id}", id).then().statusCode(404);
        }
    }

    @Test
    void aCascadeFloodIsAnswered429WithRetryAfterWhileAnotherClientsReadsAnswer200() {
        // 8 copies a rename, 10 a minute: the first rename writes its 8; the second is admitted (it reserves a copy)
        // and its job writes what the budget holds, waiting for the rest; the third finds no copy left to reserve.
        String player = selectedPlayer(8);
        String renamer = "renamer-" + k;
        String reader = "reader-" + k;
        Response refusal = null;
        String lastName = "Pat";
        for (int i = 1; i <= LimitsProfile.WRITE_BURST && refusal == null; i++) {
            Response answer = as(renamer, "cairn-writer").contentType(MERGE_PATCH).body("{\"firstName\":\"P" + i + "\"}")
                    .patch("/players/{id}", player);
            if (answer.statusCode() == 429) {
                refusal = answer;
            } else {
                assertThat(answer.statusCode()).as(answer.asString()).isIn(200, 202);
                lastName = "P" + i;
            }
            as(reader, "cairn-reader").get("/players/{id}", player).then().statusCode(200);
        }
        assertThat(refusal).as("a rename refused once the copies spent the budget").isNotNull();
        // (a slow machine may refill a copy or two between the renames: one comes back every 6 s)
        assertThat(lastName).as("the first two renames pass, and no more than the refills allow").isIn("P2", "P3", "P4");
        assertRefused(refusal, "cascade-copies", 1, 7);
        as(reader, "cairn-reader").get("/players/{id}", player).then().statusCode(200).body("firstName", equalTo(lastName));
        // another writer's cascades have a budget of their own
        as("other-" + k, "cairn-writer").contentType(MERGE_PATCH).body("{\"lastName\":\"Other\"}")
                .patch("/players/{id}", player).then().statusCode(anyOf(equalTo(200), equalTo(202)))
                .body("entity.lastName", equalTo("Other"));
    }

    @Test
    void aTransactionalCascadeTakesTheCopiesItPlansBeforeItWritesOrWritesNothing() {
        String player = selectedPlayer(8);
        String admin = "admin-" + k;
        as(admin, "cairn-admin").contentType(MERGE_PATCH).queryParam("cascade", "transactional")
                .body("{\"firstName\":\"T1\"}").patch("/players/{id}", player)
                .then().statusCode(200).body("updated", equalTo(8));
        String etag = as(admin, "cairn-reader").get("/players/{id}", player).then().statusCode(200).extract().header("ETag");
        // 2 copies left, 8 needed: 6 more come back in 36 s
        assertRefused(as(admin, "cairn-admin").contentType(MERGE_PATCH).queryParam("cascade", "transactional")
                .body("{\"firstName\":\"T2\"}").patch("/players/{id}", player), "cascade-copies", 30, 40);
        as(admin, "cairn-reader").get("/players/{id}", player).then().statusCode(200)
                .header("ETag", etag).body("firstName", equalTo("T1"));
    }

    @Test
    void refusalsAreCountedByLimitOnTheManagementPort() {
        double before = refused("writes");
        String flooder = "counted-" + k;
        int refusals = 0;
        for (int i = 0; i < 12; i++) {
            if (as(flooder, "cairn-writer").contentType(ContentType.JSON).body(player("m" + i + "-" + k)).post("/players")
                    .statusCode() == 429) {
                refusals++;
            }
        }
        assertThat(refusals).isPositive();
        assertThat(refused("writes")).isGreaterThanOrEqualTo(before + refusals);
        assertThat(refused("cascade-copies")).isGreaterThanOrEqualTo(0.0);
    }

    static double refused(String limit) {
        String metrics = Management.management().get("/q/metrics").then().statusCode(200).extract().asString();
        var value = Pattern.compile("(?m)^cairn_rate_limited_total\\{limit=\"" + Pattern.quote(limit) + "\"[^}]*} (\\S+)$")
                .matcher(metrics);
        assertThat(value.find()).as("cairn_rate_limited_total{limit=\"" + limit + "\"} in\n" + metrics).isTrue();
        return Double.parseDouble(value.group(1));
    }
}
