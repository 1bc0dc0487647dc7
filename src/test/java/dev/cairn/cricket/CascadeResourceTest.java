package dev.cairn.cricket;

import dev.cairn.core.expr.Update;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.write.WriteAction;
import dev.cairn.store.EntityStore;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasSize;

@QuarkusTest
class CascadeResourceTest {

    @Inject
    EntityStore store;

    @Inject
    dev.cairn.declared.DeclaredModels models;

    static void select(String squad, int number, String team, String player) {
        given().contentType(ContentType.JSON).body(SquadResourceTest.selection(number, team, player, false))
                .post("/squads/{s}/selections", squad).then().statusCode(201);
    }

    @Test
    void renamingAPlayerReachesSquadSelectionsAndEveryMatchAndMovesTheMatchVersions() {
        var f = CricketFixtures.create(4);
        String player = f.players.get(0);
        String squad = "squad-" + f.suffix;
        select(squad, 1, f.team1, player);
        select(squad, 2, f.team2, player);
        List<String> matches = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String id = f.matchId();
            given().contentType(ContentType.JSON).body(f.matchJson(id, 2, 2)).post("/matches").then().statusCode(201);
            matches.add(id);
        }
        given().contentType("application/merge-patch+json").body("{\"firstName\":\"Steven\"}")
                .patch("/players/{id}", player).then().statusCode(200)
                .header("ETag", "\"2\"").body("state", equalTo("done")).body("job", notNullValue())
                .body("mode", equalTo("eventual")).body("matched", equalTo(5)).body("updated", equalTo(5))
                .body("failed", equalTo(0)).body("failedKeys", hasSize(0))
                .body("entity.firstName", equalTo("Steven"));
        given().get("/players/{id}", player).then().body("firstName", equalTo("Steven")).header("ETag", "\"2\"");
        given().get("/squads/{s}/selections", squad).then().body("items.player.firstName", everyItem(equalTo("Steven")));
        for (String id : matches) {
            given().get("/matches/{id}", id).then().statusCode(200).header("ETag", "\"2\"")
                    .body("team1.players[0].player.firstName", equalTo("Steven"));
            given().contentType("application/merge-patch+json").header("If-Match", "\"1\"").body("{\"name\":\"stale\"}")
                    .patch("/matches/{id}", id).then().statusCode(412);
        }
        // repeating the same PATCH changes nothing: no write, no job, the version stays
        given().contentType("application/merge-patch+json").body("{\"firstName\":\"Steven\"}")
                .patch("/players/{id}", player).then().statusCode(200).header("ETag", "\"2\"")
                .body("job", nullValue()).body("matched", equalTo(0)).body("updated", equalTo(0));
        given().get("/players/{id}/references", player).then().statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("items", hasSize(5));
    }

    @Test
    void teamCoachAndVenueRenamesReachTheirCopies() {
        var f = CricketFixtures.create(2);
        String id = f.matchId();
        given().contentType(ContentType.JSON).body(f.matchJson(id, 1, 1)).post("/matches").then().statusCode(201);
        given().contentType("application/merge-patch+json").body("{\"name\":\"Aussies\"}").patch("/teams/{id}", f.team1)
                .then().statusCode(200).body("updated", equalTo(1));
        given().contentType("application/merge-patch+json").body("{\"name\":\"G. Gambhir\"}").patch("/coaches/{id}", f.coach2)
                .then().statusCode(200).body("updated", equalTo(1));
        given().contentType("application/merge-patch+json").body("{\"city\":\"Narrm\"}").patch("/venues/{id}", f.venue)
                .then().statusCode(200).body("updated", equalTo(1));
        given().get("/matches/{id}", id).then().header("ETag", "\"4\"")
                .body("team1.team.name", equalTo("Aussies")).body("team2.coach.name", equalTo("G. Gambhir"))
                .body("venue.city", equalTo("Narrm"));
    }

    @Test
    void twoHundredFiftyCopiesAreAllUpdatedInEventualMode() {
        var f = CricketFixtures.create(1);
        String player = f.players.get(0);
        String squad = "big-" + f.suffix;
        var now = Instant.now();
        var items = new ArrayList<Map<String, AttributeValue>>();
        for (int i = 1; i <= 250; i++) {
            var selection = new SquadSelection(squad, i, new Team(f.team1, "Australia", "Australia", 1),
                    new Player(player, "First0", "Last0", Player.Role.BATTER), SquadSelection.SquadRole.BATTER, false);
            var item = new java.util.HashMap<>(CricketModel.SELECTION_SPEC.toItem(selection, 1, now, now));
            item.putAll(CricketModel.selectionCopyVersions(1, 1));
            items.add(item);
        }
        store.batchPut(items).await().atMost(Duration.ofSeconds(30));
        given().contentType("application/merge-patch+json").body("{\"lastName\":\"Renamed\"}")
                .patch("/players/{id}", player).then().statusCode(200)
                .body("matched", equalTo(250)).body("updated", equalTo(250)).body("failed", equalTo(0));
        var page = given().queryParam("limit", 100).get("/squads/{s}/selections", squad).then().statusCode(200)
                .body("items.player.lastName", everyItem(equalTo("Renamed"))).extract().<String>path("next");
        assertThat(page).isNotNull();
    }

    @Test
    void transactionalCascadeIsAllOrNothingAndRefusesMoreThanOneTransaction() {
        var f = CricketFixtures.create(1);
        String player = f.players.get(0);
        String small = "tx40-" + f.suffix;
        for (int i = 1; i <= 40; i++) {
            select(small, i, f.team1, player);
        }
        given().contentType("application/merge-patch+json").queryParam("cascade", "transactional")
                .body("{\"firstName\":\"Atomic\"}").patch("/players/{id}", player).then().statusCode(200)
                .header("X-DynamoDB-Calls", "3")
                .body("mode", equalTo("transactional")).body("updated", equalTo(40));
        given().get("/squads/{s}/selections", small).then().body("items.player.firstName", everyItem(equalTo("Atomic")));

        var g = CricketFixtures.create(1);
        String other = g.players.get(0);
        String large = "tx120-" + g.suffix;
        var now = Instant.now();
        var items = new ArrayList<Map<String, AttributeValue>>();
        for (int i = 1; i <= 120; i++) {
            var selection = new SquadSelection(large, i, new Team(g.team1, "Australia", "Australia", 1),
                    new Player(other, "First0", "Last0", Player.Role.BATTER), SquadSelection.SquadRole.BATTER, false);
            var item = new java.util.HashMap<>(CricketModel.SELECTION_SPEC.toItem(selection, 1, now, now));
            item.putAll(CricketModel.selectionCopyVersions(1, 1));
            items.add(item);
        }
        store.batchPut(items).await().atMost(Duration.ofSeconds(30));
        given().contentType("application/merge-patch+json").queryParam("cascade", "transactional")
                .body("{\"firstName\":\"Never\"}").patch("/players/{id}", other).then().statusCode(409)
                .contentType("application/problem+json").body("code", equalTo("CascadeTooLarge")).body("actions", equalTo(121));
        given().get("/players/{id}", other).then().body("firstName", equalTo("First0")).header("ETag", "\"1\"");
        given().queryParam("limit", 100).get("/squads/{s}/selections", large).then()
                .body("items.player.firstName", everyItem(equalTo("First0")));
        given().contentType("application/merge-patch+json").queryParam("cascade", "sideways").body("{}")
                .patch("/players/{id}", other).then().statusCode(400).body("errors[0].field", equalTo("cascade"));
    }

    @Test
    void bothCascadeModesShareTheReadPatchWriteCycleEtagIfMatchAndNoChangeNoWrite() {
        var f = CricketFixtures.create(1);
        String player = f.players.get(0);
        String squad = "cycle-" + f.suffix;
        select(squad, 1, f.team1, player);
        var read = given().get("/players/{id}", player).then().statusCode(200).extract();
        String first = read.header("ETag");
        String firstName = read.path("firstName");
        for (String mode : List.of("transactional", "eventual")) {
            // The same value again: nothing written (1 read), the version and the copies stay.
            given().contentType("application/merge-patch+json").queryParam("cascade", mode)
                    .body("{\"firstName\":\"" + firstName + "\"}").patch("/players/{id}", player).then().statusCode(200)
                    .header("ETag", first).header("X-DynamoDB-Calls", "1")
                    .body("mode", equalTo(mode)).body("updated", equalTo(0)).body("entity.firstName", equalTo(firstName));
        }
        // A stale If-Match is a 412 in either mode, with nothing written.
        given().contentType("application/merge-patch+json").queryParam("cascade", "transactional").header("If-Match", "\"99\"")
                .body("{\"firstName\":\"Stale\"}").patch("/players/{id}", player).then().statusCode(412)
                .contentType("application/problem+json").body("code", equalTo("VersionConflict"));
        String next = given().contentType("application/merge-patch+json").queryParam("cascade", "transactional")
                .header("If-Match", first).body("{\"firstName\":\"Cycled\"}").patch("/players/{id}", player).then()
                .statusCode(200).body("updated", equalTo(1)).extract().header("ETag");
        assertThat(next).isNotEqualTo(first);
        given().get("/players/{id}", player).then().header("ETag", next).body("firstName", equalTo("Cycled"));
        given().get("/squads/{s}/selections/{n}", squad, 1).then().body("player.firstName", equalTo("Cycled"));
    }

    @Test
    void aCopyThatMustWaitTurnsThePatchInto202AndTheJobFinishesItWithoutAnotherRequest() throws Exception {
        var f = CricketFixtures.create(2);
        String player = f.players.get(0);
        String squad = "partial-" + f.suffix;
        select(squad, 1, f.team1, player);
        String id = f.matchId();
        given().contentType(ContentType.JSON).body(f.matchJson(id, 1, 1)).post("/matches").then().statusCode(201);
        // a multi-transaction write is in flight on the match (its marks on the root): its copy has to wait
        var root = PrimaryKey.of("MATCH#" + id, "MATCH");
        store.write(new WriteAction(WriteAction.Kind.UPDATE, root, null, Update.create()
                .set("_txn", AttributeValue.fromS("someone-else")).set("_txnOp", AttributeValue.fromS("update"))
                .set("_lease", AttributeValue.fromS("someone-else"))
                .set("_leaseUntil", AttributeValue.fromN(Long.toString(Instant.now().plusSeconds(600).toEpochMilli()))),
                WriteAction.Expectation.present(null), null, "Match")).await().atMost(Duration.ofSeconds(10));
        String location = java.net.URI.create(given().contentType("application/merge-patch+json")
                .body("{\"firstName\":\"Partial\"}").patch("/players/{id}", player).then().statusCode(202)
                .header("Location", containsString("/cascades/")).header("ETag", "\"2\"")
                .body("state", equalTo("running")).body("entity.firstName", equalTo("Partial"))
                .extract().header("Location")).getPath();
        given().get(location).then().statusCode(200).body("state", equalTo("running"))
                .body("source.entity", equalTo("Player")).body("source.id", equalTo(player)).body("source.version", equalTo(2));
        given().queryParam("state", "running").queryParam("limit", 100).get("/cascades").then().statusCode(200)
                .body("items.id", hasItem(location.substring("/cascades/".length())));
        // the match is readable meanwhile: the write in flight is not committed, so the match is shown as it was
        given().get("/matches/{id}", id).then().statusCode(200).body("team1.players[0].player.firstName", equalTo("First0"));

        store.write(new WriteAction(WriteAction.Kind.UPDATE, root, null, Update.create().remove("_txn").remove("_txnOp")
                .remove("_lease").remove("_leaseUntil"), WriteAction.Expectation.present(null), null, "Match"))
                .await().atMost(Duration.ofSeconds(10));
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!"done".equals(given().get(location).then().statusCode(200).extract().path("state"))) {
            assertThat(System.nanoTime()).as("the job finishes once the match is free").isLessThan(deadline);
            Thread.sleep(100);
        }
        given().get(location).then().body("matched", equalTo(2)).body("updated", equalTo(2)).body("failed", equalTo(0))
                .body("finishedAt", notNullValue());
        given().get("/matches/{id}", id).then().body("team1.players[0].player.firstName", equalTo("Partial"));
        given().get("/squads/{s}/selections/{n}", squad, 1).then().body("player.firstName", equalTo("Partial"));
    }

    @Test
    void anUnknownJobIs404AndABadStateIs400() {
        given().get("/cascades/{id}", "no-such-job").then().statusCode(404).contentType("application/problem+json")
                .body("code", equalTo("NotFound"));
        given().queryParam("state", "sideways").get("/cascades").then().statusCode(400)
                .contentType("application/problem+json").body("errors[0].field", equalTo("state"));
    }

    @Test
    void aCopyDeletedMeanwhileIsNotResurrected() {
        var f = CricketFixtures.create(1);
        String player = f.players.get(0);
        String squad = "gone-" + f.suffix;
        select(squad, 1, f.team1, player);
        var key = CricketModel.selectionKey(squad, 1);
        var item = store.getItem(key, true).await().atMost(Duration.ofSeconds(10));
        given().delete("/squads/{s}/selections/{n}", squad, 1).then().statusCode(204);
        var source = new dev.cairn.core.cascade.CascadeSource("Player", player, 5,
                CricketModel.PLAYER_CODEC.encode(new Player(player, "Late", "Write", Player.Role.BATTER)));
        var action = models.plan().cascade("Player").planner().copyUpdate(item, source, Instant.now()).orElseThrow();
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> store.write(action).await().atMost(Duration.ofSeconds(10))))
                .isInstanceOf(dev.cairn.core.CairnException.class);
        assertThat(store.getItem(key, true).await().atMost(Duration.ofSeconds(10))).isNull();
    }

    @Test
    void aReferencedEntityCannotBeDeleted() {
        var f = CricketFixtures.create(2);
        select("del-" + f.suffix, 1, f.team1, f.players.get(0));
        given().delete("/players/{id}", f.players.get(0)).then().statusCode(409)
                .contentType("application/problem+json").body("code", equalTo("StillReferenced")).body("count", equalTo(1));
        given().get("/players/{id}", f.players.get(0)).then().statusCode(200);
        given().delete("/players/{id}", f.players.get(1)).then().statusCode(204);
        given().get("/players/{id}", f.players.get(1)).then().statusCode(404);
        given().delete("/venues/{id}", "nowhere-" + UUID.randomUUID()).then().statusCode(404);
    }
}
