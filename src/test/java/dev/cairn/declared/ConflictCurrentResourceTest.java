package dev.cairn.declared;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/**
 * A write refused because the item changed or exists already answers the item as it is now — the body its GET
 * answers, as {@code current}, and its version as the ETag — at no extra DynamoDB call: from the read the write made
 * (a stale If-Match) or from the failed condition itself (a create of an existing item, a conditional delete).
 */
@QuarkusTest
class ConflictCurrentResourceTest {

    final String k = UUID.randomUUID().toString().substring(0, 8);

    static Map<String, Object> body(Response answer) {
        return answer.jsonPath().getMap("$");
    }

    /** The GET of a path: its body and ETag, which a conflict's {@code current} and ETag must equal. */
    static Response read(String path) {
        return given().get(path).then().statusCode(200).extract().response();
    }

    @Test
    void aStaleIfMatchOnAPatchAnswersTheCurrentItemAsItsGetDoesFromTheReadItMade() {
        String author = "cc-" + k;
        given().contentType(ContentType.JSON).body("{\"authorId\":\"" + author + "\",\"name\":\"Ursula\"}").post("/authors")
                .then().statusCode(201);
        given().contentType("application/merge-patch+json").body("{\"name\":\"Ursula K.\"}").patch("/authors/{id}", author)
                .then().statusCode(200).header("ETag", "\"2\"");
        Response current = read("/authors/" + author);

        Response stale = given().contentType("application/merge-patch+json").header("If-Match", "\"1\"")
                .body("{\"name\":\"Lost update\"}").patch("/authors/{id}", author);
        assertThat(stale.statusCode()).isEqualTo(412);
        assertThat(stale.contentType()).startsWith("application/problem+json");
        assertThat(stale.<String>path("code")).isEqualTo("VersionConflict");
        assertThat(stale.<Map<String, Object>>path("current")).isEqualTo(body(current));
        assertThat(stale.header("ETag")).isEqualTo(current.header("ETag")).isEqualTo("\"2\"");
        assertThat(stale.header("X-DynamoDB-Calls")).as("the patch's own read, nothing more").isEqualTo("1");
        // a JSON Patch and a PUT answer the same way; nothing was written
        given().contentType("application/json-patch+json").header("If-Match", "\"1\"")
                .body("[{\"op\":\"replace\",\"path\":\"/name\",\"value\":\"x\"}]").patch("/authors/{id}", author).then()
                .statusCode(412).body("current.name", equalTo("Ursula K.")).header("ETag", "\"2\"");
        given().contentType(ContentType.JSON).header("If-Match", "\"1\"").body("{\"name\":\"x\"}")
                .put("/authors/{id}", author).then().statusCode(412).body("current.name", equalTo("Ursula K."));
        assertThat(body(read("/authors/" + author))).isEqualTo(body(current));
    }

    @Test
    void aCreateOfAnExistingItemAnswersItFromTheFailedConditionItself() {
        String author = "cx-" + k;
        given().contentType(ContentType.JSON).body("{\"authorId\":\"" + author + "\",\"name\":\"First\"}").post("/authors")
                .then().statusCode(201);
        Response current = read("/authors/" + author);
        Response again = given().contentType(ContentType.JSON).body("{\"authorId\":\"" + author + "\",\"name\":\"Second\"}")
                .post("/authors");
        assertThat(again.statusCode()).isEqualTo(409);
        assertThat(again.<String>path("code")).isEqualTo("Conflict");
        assertThat(again.<Map<String, Object>>path("current")).isEqualTo(body(current));
        assertThat(again.header("ETag")).isEqualTo("\"1\"");
        assertThat(again.header("X-DynamoDB-Calls")).as("the refused PutItem alone").isEqualTo("1");
    }

    @Test
    void aStaleIfMatchOnADeleteAnswersTheItemItsConditionFound() {
        String author = "cd-" + k;
        given().contentType(ContentType.JSON).body("{\"authorId\":\"" + author + "\",\"name\":\"Kept\"}").post("/authors")
                .then().statusCode(201);
        Response current = read("/authors/" + author);
        Response stale = given().header("If-Match", "\"7\"").delete("/authors/{id}", author);
        assertThat(stale.statusCode()).isEqualTo(412);
        assertThat(stale.<Map<String, Object>>path("current")).isEqualTo(body(current));
        assertThat(stale.header("ETag")).isEqualTo("\"1\"");
        read("/authors/" + author);
    }

    @Test
    void anEntityOthersCopyAnswersTheSameThroughItsCascadingPatch() {
        String player = "cp-" + k;
        given().contentType(ContentType.JSON)
                .body("{\"id\":\"" + player + "\",\"firstName\":\"Pat\",\"lastName\":\"Kept\",\"role\":\"bowler\"}")
                .post("/players").then().statusCode(201);
        Response current = read("/players/" + player);
        Response stale = given().contentType("application/merge-patch+json").header("If-Match", "\"3\"")
                .body("{\"firstName\":\"Lost\"}").patch("/players/{id}", player);
        assertThat(stale.statusCode()).isEqualTo(412);
        assertThat(stale.<Map<String, Object>>path("current")).isEqualTo(body(current));
        assertThat(stale.header("ETag")).isEqualTo("\"1\"");
    }

    @Test
    void anAggregatesStaleIfMatchAnswersTheWholeAggregateAsRead() {
        String product = "cq-" + k;
        given().contentType(ContentType.JSON)
                .body("{\"id\":\"" + product + "\",\"name\":\"Kettle\",\"brand\":\"steamco\",\"price\":25}")
                .post("/products").then().statusCode(201);
        String order = "co-" + k;
        given().contentType(ContentType.JSON).body("{\"id\":\"" + order + "\",\"workspaceId\":\"acme\",\"customerId\":\"c1\","
                        + "\"status\":\"placed\",\"shipTo\":{\"name\":\"Ann\",\"street\":\"1 High St\",\"city\":\"Leeds\"},"
                        + "\"lines\":[{\"productId\":\"" + product + "\",\"quantity\":1}]}")
                .post("/orders").then().statusCode(201);
        given().contentType("application/merge-patch+json").body("{\"status\":\"paid\"}").patch("/orders/{id}", order)
                .then().statusCode(200).header("ETag", "\"2\"");
        Response current = read("/orders/" + order);
        Response stale = given().contentType("application/merge-patch+json").header("If-Match", "\"1\"")
                .body("{\"status\":\"shipped\"}").patch("/orders/{id}", order);
        assertThat(stale.statusCode()).isEqualTo(412);
        assertThat(stale.<Map<String, Object>>path("current")).isEqualTo(body(current));
        assertThat(stale.header("ETag")).isEqualTo("\"2\"");
        assertThat(stale.header("X-DynamoDB-Calls")).as("the aggregate's one Query").isEqualTo("1");
        given().header("If-Match", "\"1\"").delete("/orders/{id}", order).then().statusCode(412)
                .body("current.status", equalTo("paid"));
    }
}
