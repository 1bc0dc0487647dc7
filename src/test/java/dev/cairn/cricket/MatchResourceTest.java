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
        return List.copyOf(store.queryAll(QuerySpec.table("MATCH#" + matchId).consistent().build())
                .await().atMost(Duration.ofSeconds(10)));
    }

    @Test
    void createIsThreeCallsAndGetIsOneQueryAssemblingTheWholeMatch() {
        var f = CricketFixtures.create(6);
        String id = f.matchId();
        // refs (BatchGetItem) and "the partition is empty" (Query, in parallel), then ONE transaction
        given().contentType(ContentType.JSON).body(f.matchJson(id, 3, 3)).post("/matches").then()
                .statusCode(201).header("X-DynamoDB-Calls", "3").header("ETag", "\"1\"")
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

    @Test
    void captainChangeByJsonPatchIsTwoCallsAndWritesOnlyThatSheet() {
        var f = CricketFixtures.create(4);
        String id = f.matchId();
        given().contentType(ContentType.JSON).body(f.matchJson(id, 2, 2)).post("/matches").then().statusCode(201);
        var before = partition(id);
        given().contentType("application/json-patch+json")
                .body("[{\"op\":\"replace\",\"path\":\"/team1/players/0/isCaptain\",\"value\":false},"
                        + "{\"op\":\"replace\",\"path\":\"/team1/players/1/isCaptain\",\"value\":true}]")
                .patch("/matches/{id}", id).then().statusCode(200)
                .header("X-DynamoDB-Calls", "2").header("ETag", "\"2\"")
                .body("team1.players[0].isCaptain", equalTo(false)).body("team1.players[1].isCaptain", equalTo(true));
        var after = partition(id);
        // team2's items are untouched: identical attribute for attribute
        var team2Before = before.stream().filter(i -> i.get("sk").toString().contains("TEAM#2")).toList();
        assertThat(after).containsAll(team2Before);
        given().get("/matches/{id}", id).then().header("ETag", "\"2\"").body("team1.players[1].isCaptain", equalTo(true));
    }

    @Test
    void removingAPlayerDeletesItsItemAndAddingOneHydratesOnlyTheNewRef() {
        var f = CricketFixtures.create(5);
        String id = f.matchId();
        given().contentType(ContentType.JSON).body(f.matchJson(id, 2, 2)).post("/matches").then().statusCode(201);
        given().contentType("application/json-patch+json").body("[{\"op\":\"remove\",\"path\":\"/team1/players/1\"}]")
                .patch("/matches/{id}", id).then().statusCode(200).header("X-DynamoDB-Calls", "2")
                .body("team1.players", hasSize(1));
        given().get("/matches/{id}", id).then().body("team1.players", hasSize(1))
                .body("team1.players.player.id", not(hasItem(f.players.get(1))));
        assertThat(partition(id)).hasSize(1 + 1 + 2 + 1 + 2 + 2);
        given().contentType("application/json-patch+json")
                .body("[{\"op\":\"add\",\"path\":\"/team2/players/-\",\"value\":{\"playerId\":\"" + f.players.get(4)
                        + "\",\"battingPosition\":9,\"isCaptain\":false}}]")
                .patch("/matches/{id}", id).then().statusCode(200).header("X-DynamoDB-Calls", "3")
                .body("team2.players", hasSize(3)).body("team2.players[2].player.firstName", equalTo("First4"));
    }

    @Test
    void mergePatchOfTheNameRewritesEveryGroupBecauseItIsAContextField() {
        var f = CricketFixtures.create(2);
        String id = f.matchId();
        given().contentType(ContentType.JSON).body(f.matchJson(id, 1, 1)).post("/matches").then().statusCode(201);
        given().contentType("application/merge-patch+json").body("{\"name\":\"Boxing Day Test\"}")
                .patch("/matches/{id}", id).then().statusCode(200).body("name", equalTo("Boxing Day Test"));
        given().get("/players/{p}/matches", f.players.get(0)).then().statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("items", hasSize(1)).body("items[0].matchId", equalTo(id))
                .body("items[0].matchName", equalTo("Boxing Day Test"))
                .body("items[0].teamNumber", equalTo(1)).body("items[0].battingPosition", equalTo(1));
    }

    @Test
    void putReplacesTheWholeMatchAndHonoursIfMatch() {
        var f = CricketFixtures.create(6);
        String id = f.matchId();
        given().contentType(ContentType.JSON).body(f.matchJson(id, 2, 2)).post("/matches").then().statusCode(201);
        given().contentType(ContentType.JSON).header("If-Match", "\"7\"").body(f.matchJson(id, 3, 3))
                .put("/matches/{id}", id).then().statusCode(412).body("code", equalTo("VersionConflict"));
        given().contentType(ContentType.JSON).header("If-Match", "\"1\"").body(f.matchJson(id, 3, 3))
                .put("/matches/{id}", id).then().statusCode(200).header("ETag", "\"2\"")
                .body("team1.players", hasSize(3)).body("team2.players.player.id", equalTo(f.players.subList(3, 6)));
        assertThat(partition(id)).hasSize(1 + 1 + 2 * (1 + 1 + 3));
        given().contentType(ContentType.JSON).body(f.matchJson("other-" + id, 1, 1))
                .put("/matches/{id}", id).then().statusCode(400).body("errors[0].field", equalTo("id"));
        given().contentType(ContentType.JSON).body(f.matchJson("absent-" + id, 1, 1))
                .put("/matches/{id}", "absent-" + id).then().statusCode(404);
    }

    @Test
    void deleteRemovesEveryItemAndHonoursIfMatch() {
        var f = CricketFixtures.create(4);
        String id = f.matchId();
        given().contentType(ContentType.JSON).body(f.matchJson(id, 2, 2)).post("/matches").then().statusCode(201);
        given().header("If-Match", "\"3\"").delete("/matches/{id}", id).then().statusCode(412);
        assertThat(partition(id)).hasSize(10);
        given().delete("/matches/{id}", id).then().statusCode(204).header("X-DynamoDB-Calls", "2");
        assertThat(partition(id)).isEmpty();
        given().get("/matches/{id}", id).then().statusCode(404);
        given().delete("/matches/{id}", id).then().statusCode(404);
    }

    @Test
    void invalidMatchesAreRejectedBeforeAnyWrite() {
        var f = CricketFixtures.create(3);
        String id = f.matchId();
        // the same player in both sheets
        String twice = f.matchJson(id, 2, 1).replace(f.players.get(2), f.players.get(0));
        given().contentType(ContentType.JSON).body(twice).post("/matches").then().statusCode(422)
                .body("code", equalTo("AggregateDecompositionError")).body("member", equalTo("team2.players[0].playerId"))
                .header("X-DynamoDB-Calls", "0");
        // the same team twice
        given().contentType(ContentType.JSON).body(f.matchJson(id, 1, 1).replace(f.team2, f.team1)).post("/matches").then()
                .statusCode(422).body("code", equalTo("AggregateDecompositionError"));
        // a batting position taken twice
        given().contentType(ContentType.JSON).body(f.matchJson(id, 2, 1).replace("\"battingPosition\":2", "\"battingPosition\":1"))
                .post("/matches").then().statusCode(422).body("member", equalTo("team1.players[1].battingPosition"));
        // missing sheet, bad position
        given().contentType(ContentType.JSON).body("{\"id\":\"" + id + "\",\"name\":\"x\",\"venueId\":\"v\",\"team1\":"
                        + f.sheet(f.team1, f.coach1, true, 0, 1).replace("\"battingPosition\":1", "\"battingPosition\":0") + "}")
                .post("/matches").then().statusCode(400)
                .body("errors.field", hasItem("team2")).body("errors.field", hasItem("team1.players[0].battingPosition"));
        // a ref that does not exist: named by its path
        given().contentType(ContentType.JSON).body(f.matchJson(id, 2, 1).replace(f.players.get(1), "ghost-" + f.suffix))
                .post("/matches").then().statusCode(422).body("code", equalTo("RefNotFound"))
                .body("field", equalTo("team1.players[1].player")).body("refId", equalTo("ghost-" + f.suffix))
                .body("refEntity", equalTo("Player")).header("X-DynamoDB-Calls", "2"); // refs + emptiness, no write
        assertThat(partition(id)).isEmpty();
    }

    @Test
    void aSheetOf101PlayersOverflowsItsTransactionGroupWithNothingWritten() {
        var f = CricketFixtures.create(0);
        for (int i = 0; i < 102; i++) {
            f.players.add("ghost" + i + "-" + f.suffix);
        }
        String id = f.matchId();
        given().contentType(ContentType.JSON).body(f.matchJson(id, 101, 1)).post("/matches").then().statusCode(422)
                .body("code", equalTo("AggregateTransactionOverflow")).body("group", equalTo("team1"))
                .body("itemCount", equalTo(103)).header("X-DynamoDB-Calls", "0");
        assertThat(partition(id)).isEmpty();
    }
}
