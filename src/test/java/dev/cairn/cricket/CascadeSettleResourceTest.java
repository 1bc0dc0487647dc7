package dev.cairn.cricket;

import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.write.WriteAction;
import dev.cairn.store.EntityStore;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.Map;

import static dev.cairn.Eventually.within;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

/**
 * A copy the ref index did not show to a cascade's pass — written just before the source changed, still on its way
 * into the GSI, or committed by a writer that read the source before the change — is brought up to date by the
 * cascade's settle pass, with no further request.
 */
@QuarkusTest
class CascadeSettleResourceTest {

    @Inject
    EntityStore store;

    @Test
    void aCopyTheFirstPassCouldNotSeeIsRewrittenByTheSettlePass() {
        var f = CricketFixtures.create(1);
        String player = f.players.get(0);
        String squad = "settle-" + f.suffix;
        CascadeResourceTest.select(squad, 1, f.team1, player);
        PrimaryKey selection = CricketModel.selectionKey(squad, 1);
        Map<String, AttributeValue> beforeRename = store.getItem(selection, true).await().atMost(Duration.ofSeconds(10));
        assertThat(beforeRename).isNotNull();

        // Out of the index while the pass reads it, back right after: the copy of the old name the pass never saw.
        store.write(WriteAction.deleteItem(selection, "SquadSelection")).await().atMost(Duration.ofSeconds(10));
        String job = given().contentType("application/merge-patch+json").body("{\"firstName\":\"Settled\"}")
                .patch("/players/{id}", player).then().statusCode(200).body("state", equalTo("done"))
                .body("matched", equalTo(0)).extract().path("job");
        store.write(WriteAction.putItem(selection, beforeRename, WriteAction.Expectation.NONE, "SquadSelection"))
                .await().atMost(Duration.ofSeconds(10));
        given().get("/squads/{s}/selections/{n}", squad, 1).then().body("player.firstName", equalTo("First0"));
        given().get("/cascades/{id}", job).then().statusCode(200).body("settledAt", nullValue())
                .body("settles", nullValue());

        within(Duration.ofSeconds(20), () ->
                given().get("/squads/{s}/selections/{n}", squad, 1).then().body("player.firstName", equalTo("Settled")));
        within(Duration.ofSeconds(10), () ->
                given().get("/cascades/{id}", job).then().statusCode(200).body("settledAt", notNullValue()));
        given().get("/cascades/{id}", job + "-settle").then().statusCode(200).body("settles", equalTo(job))
                .body("state", equalTo("done")).body("updated", equalTo(1)).body("settledAt", nullValue());
    }
}
