package dev.cairn.cricket;

import dev.cairn.core.query.QuerySpec;
import dev.cairn.store.EntityStore;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.hasItem;

@QuarkusTest
class MatchResourceTest {

    @Inject
    EntityStore store;

    List<Map<String, ?>> partition(String matchId) {
        return List.copyOf(store.queryAll(QuerySpec.table("MATCH#" + matchId).consistent().build()).collect().asList()
                .await().atMost(Duration.ofSeconds(10)));
    }

    @Test
    void createIsTwoCallsAndGetIsOneQueryAssemblingTheWholeMatch() {
        var f = CricketFixtures.create(6);
        String id = f.matchId();
        given().contentType(ContentType.JSON).body(f.matchJson(id, 3, 3)).post("/matches").then()
                .statusCode(201).header("X-DynamoDB-Calls", "2").header("ETag", "\"1\"")
                .body("id", equalTo(id)).body("venue.city", equalTo("Melbourne"))
                .body("team1.team.name", equalTo("Australia")).body("team1.coach.name", equalTo("Andrew McDonald"))
                .body("team1.players", hasSize(3)).body("team1.players[0].player.lastName", equalTo("Last0"))
                .body("team2.players[2].battingPosition", equalTo(3));
        given().get("/matches/{id}", id).then().statusCode(200)
                .header("X-DynamoDB-Calls", "1").header("ETag", "\"1\"")
                .body("name", equalTo("AUS vs IND, 1st Test"))
                .body("team1.homeTeam", equalTo(true)).body("team2.homeTeam", equalTo(false))
                .body("team2.team.id", equalTo(f.team2))
                .body("team1.players.player.id", equalTo(f.players.subList(0, 3)))
                .body("team1.players[0].isCaptain", equalTo(true))
                .body("team1.players[0].player", not(hasItem("_version")));
        assertThat(partition(id)).hasSize(1 + 1 + 2 * (1 + 1 + 3));
        given().get("/matches/{id}", "missing-" + id).then().statusCode(404).body("code", equalTo("NotFound"));
    }

    @Test
    void createOnAnExistingIdIsAConflictAndLeavesTheStoredMatchUnchanged() {
        var f = CricketFixtures.create(4);
        String id = f.matchId();
        given().contentType(ContentType.JSON).body(f.matchJson(id, 2, 2)).post("/matches").then().statusCode(201);
        var before = partition(id);
        given().contentType(ContentType.JSON).body(f.matchJson(id, 1, 1).replace("1st Test", "Overwritten"))
                .post("/matches").then().statusCode(409).body("code", equalTo("Conflict"));
        assertThat(partition(id)).containsExactlyInAnyOrderElementsOf(before);
        given().get("/matches/{id}", id).then().body("name", equalTo("AUS vs IND, 1st Test")).body("team1.players", hasSize(2));
    }
}
