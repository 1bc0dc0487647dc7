package dev.cairn.cricket;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;

@QuarkusTest
class SquadResourceTest {

    static String selection(int number, String teamId, String playerId, boolean captain) {
        return "{\"selectionNumber\":" + number + ",\"teamId\":\"" + teamId + "\",\"playerId\":\"" + playerId
                + "\",\"squadRole\":\"bowler\",\"isCaptain\":" + captain + "}";
    }

    @Test
    void referencedEntitiesAreCreatedOnceAndReadInOneCall() {
        var f = CricketFixtures.create(1);
        given().get("/teams/{id}", f.team1).then().statusCode(200).header("X-DynamoDB-Calls", "1").body("ranking", equalTo(1));
        given().get("/players/{id}", f.players.get(0)).then().statusCode(200).body("role", equalTo("batter"));
        given().get("/coaches/{id}", f.coach1).then().statusCode(200).body("name", equalTo("Andrew McDonald"));
        given().get("/venues/{id}", f.venue).then().statusCode(200).body("city", equalTo("Melbourne"));
        given().contentType(ContentType.JSON).body("{\"id\":\"" + f.team1 + "\",\"name\":\"X\",\"country\":\"Y\",\"ranking\":3}")
                .post("/teams").then().statusCode(409);
        given().get("/venues/{id}", "nowhere-" + f.suffix).then().statusCode(404);
        given().contentType(ContentType.JSON).body("{\"id\":\"x\",\"firstName\":\"A\",\"lastName\":\"B\",\"role\":\"umpire\"}")
                .post("/players").then().statusCode(400).body("errors[0].field", equalTo("role"));
    }

    @Test
    void aSelectionTakesIdsAndAnswersFullObjectsHydratedWithOneBatchGet() {
        var f = CricketFixtures.create(2);
        String squad = "aus#2024-25#BGT-" + f.suffix;
        given().contentType(ContentType.JSON).body(selection(1, f.team1, f.players.get(0), true))
                .post("/squads/{s}/selections", squad).then().statusCode(201)
                .header("X-DynamoDB-Calls", "2")
                .body("squadId", equalTo(squad)).body("selectionNumber", equalTo(1))
                .body("team.name", equalTo("Australia")).body("player.lastName", equalTo("Last0"))
                .body("team", not(hasKey("_version"))).body("player", not(hasKey("pk")));
        given().contentType(ContentType.JSON).body(selection(1, f.team1, f.players.get(1), false))
                .post("/squads/{s}/selections", squad).then().statusCode(409);
        given().contentType(ContentType.JSON).body(selection(2, f.team1, f.players.get(1), false))
                .post("/squads/{s}/selections", squad).then().statusCode(201);
        given().get("/squads/{s}/selections/{n}", squad, 1).then().statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("player.id", equalTo(f.players.get(0)));
        given().get("/squads/{s}/selections", squad).then().statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("items", hasSize(2)).body("items.selectionNumber", equalTo(java.util.List.of(1, 2)));
        given().get("/players/{p}/selections", f.players.get(1)).then().statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("items", hasSize(1)).body("items[0].squadId", equalTo(squad));
    }

    @Test
    void aMissingRefIsA422NamingTheFieldAndWritesNothing() {
        var f = CricketFixtures.create(1);
        String squad = "squad-" + UUID.randomUUID();
        given().contentType(ContentType.JSON).body(selection(1, f.team1, "nonexistent-" + f.suffix, false))
                .post("/squads/{s}/selections", squad).then().statusCode(422)
                .contentType("application/problem+json")
                .body("code", equalTo("RefNotFound")).body("field", equalTo("player"))
                .body("refId", equalTo("nonexistent-" + f.suffix)).body("refEntity", equalTo("Player"));
        given().get("/squads/{s}/selections", squad).then().body("items", hasSize(0));
    }

    @Test
    void patchingARefRehydratesAndDeleteRemoves() {
        var f = CricketFixtures.create(2);
        String squad = "squad-" + UUID.randomUUID();
        given().contentType(ContentType.JSON).body(selection(7, f.team1, f.players.get(0), false))
                .post("/squads/{s}/selections", squad).then().statusCode(201);
        given().contentType("application/merge-patch+json").body("{\"isCaptain\":true}")
                .patch("/squads/{s}/selections/{n}", squad, 7).then().statusCode(200)
                .header("X-DynamoDB-Calls", "2").body("isCaptain", equalTo(true)).header("ETag", "\"2\"");
        given().contentType("application/merge-patch+json").body("{\"playerId\":\"" + f.players.get(1) + "\"}")
                .patch("/squads/{s}/selections/{n}", squad, 7).then().statusCode(200)
                .header("X-DynamoDB-Calls", "3").body("player.firstName", equalTo("First1"));
        given().get("/players/{p}/selections", f.players.get(0)).then().body("items.squadId", not(hasItem(squad)));
        given().get("/players/{p}/selections", f.players.get(1)).then().body("items.squadId", hasItem(squad));
        given().contentType("application/merge-patch+json").body("{\"teamId\":\"ghost-" + f.suffix + "\"}")
                .patch("/squads/{s}/selections/{n}", squad, 7).then().statusCode(422).body("field", equalTo("team"));
        given().contentType("application/merge-patch+json").body("{\"selectionNumber\":8}")
                .patch("/squads/{s}/selections/{n}", squad, 7).then().statusCode(400);
        given().header("If-Match", "\"1\"").delete("/squads/{s}/selections/{n}", squad, 7).then().statusCode(412);
        given().delete("/squads/{s}/selections/{n}", squad, 7).then().statusCode(204);
        given().get("/squads/{s}/selections/{n}", squad, 7).then().statusCode(404);
        given().get("/squads/{s}/selections/{n}", squad, "seven").then().statusCode(400);
    }

    @Test
    void twoConcurrentPatchesWithoutIfMatchAreBothKept() {
        var f = CricketFixtures.create(1);
        String squad = "squad-" + UUID.randomUUID();
        for (int number = 1; number <= 6; number++) {
            given().contentType(ContentType.JSON).body(selection(number, f.team1, f.players.get(0), false))
                    .post("/squads/{s}/selections", squad).then().statusCode(201);
            int n = number;
            // Both read version 1; the one that writes second meets a version conflict and runs its cycle again.
            var captain = CompletableFuture.supplyAsync(() -> given().contentType("application/merge-patch+json")
                    .body("{\"isCaptain\":true}").patch("/squads/{s}/selections/{n}", squad, n).statusCode());
            var role = CompletableFuture.supplyAsync(() -> given().contentType("application/merge-patch+json")
                    .body("{\"squadRole\":\"batter\"}").patch("/squads/{s}/selections/{n}", squad, n).statusCode());
            assertThat(List.of(captain.join(), role.join())).as("selection " + n).containsOnly(200);
            given().get("/squads/{s}/selections/{n}", squad, n).then().statusCode(200).header("ETag", "\"3\"")
                    .body("isCaptain", equalTo(true)).body("squadRole", equalTo("batter"));
        }
    }
}
