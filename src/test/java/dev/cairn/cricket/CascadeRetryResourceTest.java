package dev.cairn.cricket;

import dev.cairn.core.expr.Update;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.write.WriteAction;
import dev.cairn.store.EntityStore;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.time.Instant;

import static dev.cairn.Eventually.within;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;

/**
 * A cascade whose copies keep failing is not final: it retries by itself with a growing pause, and an admin can run
 * a failed one again. The copy is made unwritable the way a live multi-transaction write of another replica makes
 * it (marks on the match's root), and writable again by clearing them.
 */
@QuarkusTest
@TestProfile(JobRetryProfile.class)
class CascadeRetryResourceTest {

    @Inject
    EntityStore store;

    /** A match embedding the fixtures' first player, its root marked as written by another replica right now. */
    private PrimaryKey busyMatch(CricketFixtures f) {
        String id = f.matchId();
        given().contentType(ContentType.JSON).body(f.matchJson(id, 1, 1)).post("/matches").then().statusCode(201);
        var root = PrimaryKey.of("MATCH#" + id, "MATCH");
        store.write(WriteAction.updateItem(root, Update.create()
                .set("_txn", AttributeValue.fromS("someone-else")).set("_txnOp", AttributeValue.fromS("update"))
                .set("_lease", AttributeValue.fromS("someone-else"))
                .set("_leaseUntil", AttributeValue.fromN(Long.toString(Instant.now().plusSeconds(600).toEpochMilli()))),
                WriteAction.Expectation.present(null), "Match")).await().atMost(Duration.ofSeconds(10));
        return root;
    }

    private void free(PrimaryKey root) {
        store.write(WriteAction.updateItem(root, Update.create().remove("_txn").remove("_txnOp").remove("_lease")
                .remove("_leaseUntil"), WriteAction.Expectation.present(null), "Match")).await().atMost(Duration.ofSeconds(10));
    }

    private static String rename(String player, String firstName) {
        return given().contentType("application/merge-patch+json").body("{\"firstName\":\"" + firstName + "\"}")
                .patch("/players/{id}", player).then().statusCode(202).header("Location", containsString("/cascades/"))
                .body("state", equalTo("pending")).body("failed", equalTo(1)).extract().path("job");
    }

    @Test
    void aFailedPassRetriesByItselfAndHealsTheCopyWithoutARequest() {
        var f = CricketFixtures.create(2);
        PrimaryKey match = busyMatch(f);
        String job = rename(f.players.get(0), "Retried");
        // while the retry waits, the attempt that ended still says what it found: one copy, not written, and which
        given().get("/cascades/{id}", job).then().statusCode(200).body("state", equalTo("pending"))
                .body("retries", equalTo(1)).body("nextAttemptAt", notNullValue())
                .body("matched", equalTo(1)).body("updated", equalTo(0)).body("failed", equalTo(1))
                .body("failedKeys", hasSize(1));
        free(match);

        within(Duration.ofSeconds(20), () -> given().get("/cascades/{id}", job).then().body("state", equalTo("done"))
                .body("retries", equalTo(1)).body("failed", equalTo(0)).body("updated", equalTo(1)));
        given().get("/matches/{id}", match.pk().substring("MATCH#".length())).then().statusCode(200)
                .body("team1.players.player.firstName", hasItem("Retried"));
    }

    @Test
    void aJobLeftFailedRunsAgainWhenAnAdminRetriesIt() {
        var f = CricketFixtures.create(2);
        PrimaryKey match = busyMatch(f);
        String job = rename(f.players.get(0), "Again");
        // Its one automatic retry fails too (the match stays busy): then it is failed for good.
        within(Duration.ofSeconds(20), () -> given().get("/cascades/{id}", job).then().body("state", equalTo("failed"))
                .body("retries", equalTo(1)));
        free(match);

        given().post("/cascades/{id}/retry", job).then().statusCode(202).header("Location", containsString("/cascades/" + job))
                .body("state", equalTo("pending")).body("retries", equalTo(2));
        within(Duration.ofSeconds(20), () -> given().get("/cascades/{id}", job).then().body("state", equalTo("done"))
                .body("failed", equalTo(0)).body("updated", equalTo(1)));
        given().get("/matches/{id}", match.pk().substring("MATCH#".length())).then().statusCode(200)
                .body("team1.players.player.firstName", hasItem("Again"));

        given().post("/cascades/{id}/retry", job).then().statusCode(409).contentType("application/problem+json")
                .body("code", equalTo("Conflict"));
        given().post("/cascades/{id}/retry", "no-such-job").then().statusCode(404).contentType("application/problem+json");
    }
}
