package dev.cairn.cricket;

import dev.cairn.core.query.QuerySpec;
import dev.cairn.store.EntityStore;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

/** A match too large for one transaction: written in groups under a lease on the root. */
@QuarkusTest
class LargeMatchResourceTest {

    @Inject
    EntityStore store;

    @Test
    void twoSheetsOf60PlayersAreWrittenInSeveralTransactionsAndReadWhole() {
        var f = CricketFixtures.create(121);
        String id = f.matchId();
        // 1 BatchGetItem (2 chunks) beside the emptiness Query, the begin (lease + intent), 2 group transactions,
        // 1 transaction of source guards (123 sources: 98 ride in the commit, 25 go just before it), the commit: 8 calls
        given().contentType(ContentType.JSON).body(f.matchJson(id, 60, 60)).post("/matches").then().statusCode(201)
                .header("X-DynamoDB-Calls", "8");
        given().get("/matches/{id}", id).then().statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("team1.players", hasSize(60)).body("team2.players", hasSize(60))
                .body("team2.players[59].player.id", equalTo(f.players.get(119)));
        var items = store.queryAll(QuerySpec.table("MATCH#" + id).consistent().build())
                .await().atMost(Duration.ofSeconds(10));
        assertThat(items).hasSize(2 + 2 * 62).noneMatch(i -> i.containsKey("_lease"));

        // replace both sheets' last player: both groups change, still under one lease
        String replaced = f.matchJson(id, 60, 60).replace(f.players.get(59), f.players.get(120));
        given().contentType(ContentType.JSON).header("If-Match", "\"1\"").body(replaced).put("/matches/{id}", id).then()
                .statusCode(200).header("ETag", "\"2\"").body("team1.players[59].player.id", equalTo(f.players.get(120)));
        given().get("/matches/{id}", id).then().statusCode(200).header("ETag", "\"2\"")
                .body("team1.players[59].player.id", equalTo(f.players.get(120)));

        given().delete("/matches/{id}", id).then().statusCode(204);
        assertThat(store.queryAll(QuerySpec.table("MATCH#" + id).consistent().build())
                .await().atMost(Duration.ofSeconds(10))).isEmpty();
    }
}
