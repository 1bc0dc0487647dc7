package dev.cairn.cricket;

import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.core.write.WriteAction;
import dev.cairn.platform.Pages;
import dev.cairn.store.EntityStore;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

/** A partition that is no match, last pages that are exactly full, and ids taken from the path. */
@QuarkusTest
class AggregateEdgeCasesResourceTest {

    @Inject
    EntityStore store;

    List<Map<String, AttributeValue>> partition(String id) {
        return store.queryAll(QuerySpec.table("MATCH#" + id).consistent().build()).await().atMost(Duration.ofSeconds(10));
    }

    @Test
    void membersWithoutTheirRootAreA409ANeverAdoptedByACreateAndADeleteRemovesThem() {
        var f = CricketFixtures.create(4);
        String id = f.matchId();
        given().contentType(ContentType.JSON).body(f.matchJson(id, 2, 2)).post("/matches").then().statusCode(201);
        // the root goes, its members stay (a manual repair gone wrong, a partial restore)
        store.write(new WriteAction(WriteAction.Kind.DELETE, PrimaryKey.of("MATCH#" + id, "MATCH"), null, null,
                WriteAction.Expectation.NONE, null, "Match")).await().atMost(Duration.ofSeconds(10));
        var leftovers = partition(id);
        assertThat(leftovers).hasSize(1 + 2 * (1 + 1 + 2));

        given().get("/matches/{id}", id).then().statusCode(409).contentType("application/problem+json")
                .body("code", equalTo("AggregateAssemblyError")).body("reason", containsString("root item MATCH is missing"));
        // a create with other players would adopt the leftover ones: refused, naming them, and nothing written
        var other = CricketFixtures.create(2);
        given().contentType(ContentType.JSON).body(other.matchJson(id, 1, 1)).post("/matches").then().statusCode(409)
                .contentType("application/problem+json").body("code", equalTo("Conflict"))
                .body("detail", containsString("left without their root")).body("detail", containsString("TEAM#1"));
        assertThat(partition(id)).isEqualTo(leftovers);
        given().put("/matches/{id}", id).then().statusCode(400);
        given().contentType(ContentType.JSON).body(f.matchJson(id, 2, 2)).put("/matches/{id}", id).then().statusCode(409)
                .body("code", equalTo("AggregateAssemblyError"));

        given().delete("/matches/{id}", id).then().statusCode(204);
        assertThat(partition(id)).isEmpty();
        given().get("/matches/{id}", id).then().statusCode(404);
        given().contentType(ContentType.JSON).body(other.matchJson(id, 1, 1)).post("/matches").then().statusCode(201);
        given().get("/matches/{id}", id).then().statusCode(200).body("team1.players", hasSize(1))
                .body("team2.players", hasSize(1));
    }

    @Test
    void aCreateOverAnExistingMatchIsAConflictAndTheCheckCostsNoLatency() {
        var f = CricketFixtures.create(2);
        String id = f.matchId();
        given().contentType(ContentType.JSON).body(f.matchJson(id, 1, 1)).post("/matches").then().statusCode(201)
                .header("X-DynamoDB-Calls", "3");
        given().contentType(ContentType.JSON).body(f.matchJson(id, 1, 1)).post("/matches").then().statusCode(409)
                .body("code", equalTo("Conflict")).body("detail", containsString("already exists"));
    }

    @Test
    void putTakesTheIdFromThePathAndRefusesABodyNamingAnotherMatch() {
        var f = CricketFixtures.create(2);
        String id = f.matchId();
        given().contentType(ContentType.JSON).body(f.matchJson(id, 1, 1)).post("/matches").then().statusCode(201);
        String withoutId = f.matchJson(id, 1, 1).replace("\"id\":\"" + id + "\",", "").replace("1st Test", "2nd Test");
        assertThat(withoutId).doesNotContain(id);
        given().contentType(ContentType.JSON).body(withoutId).put("/matches/{id}", id).then().statusCode(200)
                .header("ETag", "\"2\"").body("id", equalTo(id)).body("name", containsString("2nd Test"));
        given().contentType(ContentType.JSON).body(f.matchJson("another-match", 1, 1)).put("/matches/{id}", id).then()
                .statusCode(400).contentType("application/problem+json").body("errors[0].field", equalTo("id"))
                .body("errors[0].message", containsString("another-match")).body("errors[0].message", containsString(id));
        given().contentType(ContentType.JSON).body(withoutId.replace("\"name\":\"AUS vs IND, 2nd Test\",", ""))
                .put("/matches/{id}", id).then().statusCode(400).body("errors[0].field", equalTo("name"));
        given().get("/matches/{id}", id).then().header("ETag", "\"2\"");
    }

    @Test
    void anExactlyFullLastPageHasNoNextAndEveryPageIsOneCall() {
        var f = CricketFixtures.create(2);
        String player = f.players.get(0);
        for (int i = 0; i < 2; i++) {
            given().contentType(ContentType.JSON).body(f.matchJson(f.matchId(), 1, 1)).post("/matches").then().statusCode(201);
        }
        String squad = "exact-" + f.suffix;
        for (int n = 1; n <= 3; n++) {
            CascadeResourceTest.select(squad, n, f.team1, player);
        }
        // limit 1 over 2 matches: two pages, the second without next
        var matches = Pages.walk(() -> given().queryParam("limit", 1), r -> r.get("/players/{p}/matches", player));
        assertThat(matches).hasSize(2);
        matches.forEach(page -> assertThat(page.header("X-DynamoDB-Calls")).isEqualTo("1"));
        assertThat(matches.get(1).<Object>path("next")).isNull();
        // limit equal to the item count: one page, no next
        given().queryParam("limit", 3).get("/squads/{s}/selections", squad).then().statusCode(200)
                .header("X-DynamoDB-Calls", "1").body("items", hasSize(3)).body("next", nullValue());
        given().queryParam("limit", 3).get("/players/{p}/selections", player).then().statusCode(200)
                .header("X-DynamoDB-Calls", "1").body("items", hasSize(3)).body("next", nullValue());
        given().queryParam("limit", 5).get("/players/{p}/references", player).then().statusCode(200)
                .header("X-DynamoDB-Calls", "1").body("items", hasSize(5)).body("next", nullValue());
        // one item fewer than there are: a next, whose page holds the last item and no next
        var references = Pages.walk(() -> given().queryParam("limit", 4), r -> r.get("/players/{p}/references", player));
        assertThat(references).hasSize(2);
        assertThat(references.get(1).<List<Object>>path("items")).hasSize(1);
    }

    @Test
    void aShardedListingWhoseLastPageIsExactlyFullHasNoNext() {
        String ws = "exact-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        given().contentType(ContentType.JSON).body("{\"id\":\"" + ws + "\",\"displayName\":\"W\",\"region\":\"eu-west-1\","
                + "\"seatLimit\":5,\"shards\":4}").post("/workspaces").then().statusCode(201);
        for (int i = 0; i < 6; i++) {
            given().contentType(ContentType.JSON).body("{\"title\":\"P" + i + "\",\"status\":\"ACTIVE\",\"createdBy\":\"ann\"}")
                    .post("/workspaces/{w}/projects", ws).then().statusCode(201);
        }
        given().queryParam("limit", 6).get("/workspaces/{w}/projects", ws).then().statusCode(200)
                .header("X-DynamoDB-Calls", "4").body("items", hasSize(6)).body("next", nullValue());
        var pages = Pages.walk(() -> given().queryParam("limit", 3), r -> r.get("/workspaces/{w}/projects", ws));
        assertThat(pages).hasSize(2);
        assertThat(pages.get(1).<List<Object>>path("items")).hasSize(3);
    }
}
