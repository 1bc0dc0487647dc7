package dev.cairn.cricket;

import dev.cairn.core.TableSpec;
import dev.cairn.core.expr.Update;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.reliability.DynamoDbSemantics;
import dev.cairn.reliability.DynamoDbSemanticsProfile;
import dev.cairn.store.EntityStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import static dev.cairn.Eventually.within;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

/**
 * The source guard against DynamoDB Local, with the race made certain: every TransactWriteItems of the app is held
 * back by the semantics layer, and while a write that copies a player is held, the player is changed (or deleted)
 * straight in the table — no cascade runs, so only the guard can keep the old copy out. The write is refused
 * whole, reads the player again, and commits the current copy; the client sees one success.
 */
@QuarkusTest
@TestProfile(CopyGuardResourceTest.SlowTransactions.class)
class CopyGuardResourceTest {

    public static class SlowTransactions extends DynamoDbSemanticsProfile {
    }

    DynamoDbSemantics dynamo;
    @Inject EntityStore store;
    @Inject MeterRegistry registry;

    final String k = UUID.randomUUID().toString().substring(0, 8);

    @AfterEach
    void reset() {
        dynamo.reset();
    }

    @Test
    void aSelectionWhosePlayerIsRenamedBeforeItCommitsStoresTheNewName() {
        var f = CricketFixtures.create(1);
        String player = f.players.get(0);
        double caught = caught("Player");

        var created = whileHeld(() -> selection("gs-" + k, f.team1, player), () -> rename(player, "Renamed"));

        created.then().statusCode(201).body("player.firstName", equalTo("Renamed"));
        given().get("/squads/{s}/selections/{n}", "gs-" + k, 1).then().statusCode(200)
                .body("player.firstName", equalTo("Renamed"));
        assertThat(caught("Player") - caught).as("races the guard caught").isEqualTo(1);
    }

    @Test
    void aSelectionWhosePlayerIsDeletedBeforeItCommitsIsRefusedAndWritesNothing() {
        var f = CricketFixtures.create(1);
        String player = f.players.get(0);

        var refused = whileHeld(() -> selection("gd-" + k, f.team1, player),
                () -> store.delete(CricketModel.PLAYER, CricketModel.playerKey(player), true, null).await().indefinitely());

        refused.then().statusCode(422).contentType("application/problem+json").body("code", equalTo("RefNotFound"))
                .body("refId", equalTo(player));
        given().get("/squads/{s}/selections/{n}", "gd-" + k, 1).then().statusCode(404);
    }

    @Test
    void aSelectionRacingTheDeleteOfItsPlayerIsRefusedSoNoCopyOutlivesThePlayer() {
        var f = CricketFixtures.create(1);
        String player = f.players.get(0);
        long before = dynamo.counts().delayed();
        // The delete has looked for copies (none) and is deleting: its DeleteItem is held while the selection is made.
        dynamo.latency(Duration.ofMillis(800), "DeleteItem");
        var deleted = CompletableFuture.supplyAsync(() -> given().delete("/players/{id}", player));
        within(Duration.ofSeconds(10), () -> assertThat(dynamo.counts().delayed()).isGreaterThan(before));
        Response selection = selection("gr-" + k, f.team1, player);
        deleted.join().then().statusCode(204);
        dynamo.reset();

        selection.then().statusCode(422).contentType("application/problem+json").body("code", equalTo("RefNotFound"));
        given().get("/squads/{s}/selections/{n}", "gr-" + k, 1).then().statusCode(404);
        given().get("/players/{id}", player).then().statusCode(404);
    }

    @Test
    void aLargeMatchWrittenInSeveralTransactionsIsUndoneAndWrittenAgainWithTheNewName() {
        var f = CricketFixtures.create(120);
        String id = f.matchId();
        String renamed = f.players.get(77);
        double caught = caught("Player");

        var created = whileHeld(() -> given().contentType(ContentType.JSON).body(f.matchJson(id, 60, 60)).post("/matches"),
                () -> rename(renamed, "Renamed"));

        created.then().statusCode(201).body("team2.players[17].player.firstName", equalTo("Renamed"));
        given().get("/matches/{id}", id).then().statusCode(200)
                .body("team1.players", hasSize(60)).body("team2.players", hasSize(60))
                .body("team2.players[17].player.id", equalTo(renamed))
                .body("team2.players[17].player.firstName", equalTo("Renamed"));
        var items = store.queryAll(QuerySpec.table("MATCH#" + id).consistent().build()).await().indefinitely();
        assertThat(items).as("no undo log or write marks left behind").noneMatch(item ->
                item.get(TableSpec.SK).s().startsWith("~UNDO") || item.containsKey("_txn"));
        assertThat(caught("Player") - caught).as("races the guard caught").isEqualTo(1);
    }

    /**
     * Starts {@code write} with every transaction held back 400 ms, runs {@code meanwhile} once the write's first
     * transaction is held (so the write has read its sources), and answers the write's response.
     */
    private Response whileHeld(java.util.function.Supplier<Response> write, Runnable meanwhile) {
        long before = dynamo.counts().delayed();
        dynamo.latency(Duration.ofMillis(400), "TransactWriteItems");
        var answer = CompletableFuture.supplyAsync(write);
        within(Duration.ofSeconds(10), () -> assertThat(dynamo.counts().delayed()).isGreaterThan(before));
        meanwhile.run();
        Response response = answer.join();
        dynamo.reset();
        return response;
    }

    private Response selection(String squad, String team, String player) {
        return given().contentType(ContentType.JSON).body("{\"selectionNumber\":1,\"teamId\":\"" + team + "\",\"playerId\":\""
                + player + "\",\"squadRole\":\"batter\",\"isCaptain\":false}").post("/squads/{s}/selections", squad);
    }

    /** A change no cascade follows: the player's name and version straight in the table. */
    private void rename(String player, String firstName) {
        store.update(CricketModel.PLAYER, CricketModel.playerKey(player),
                Update.create().set("firstName", AttributeValue.fromS(firstName)), null).await().indefinitely();
    }

    private double caught(String entity) {
        Counter counter = registry.find("cairn.copies.guard.caught").tag("entity", entity).counter();
        return counter == null ? 0 : counter.count();
    }
}
