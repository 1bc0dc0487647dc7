package dev.cairn.library;

import dev.cairn.core.key.PrimaryKey;
import dev.cairn.store.EntityStore;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

/**
 * A member's email is unique in the library, whatever its case (library.yaml: {@code unique: { email: ... }}): the
 * sentinel item that keeps it is read straight from the table after each write — taken on create, moved by a merge
 * patch, a JSON Patch and a PUT, left alone by a write that does not change the email, given up on delete.
 */
@QuarkusTest
class UniqueEmailResourceTest {

    @Inject
    EntityStore store;

    final String k = UUID.randomUUID().toString().substring(0, 8);

    static String body(String member, String email) {
        return "{\"memberId\":\"" + member + "\",\"name\":\"Ada\",\"email\":\"" + email + "\",\"address\":{\"city\":\"Leeds\"}}";
    }

    static Response create(String member, String email) {
        return given().contentType(ContentType.JSON).body(body(member, email)).post("/members");
    }

    /** The sentinel of an email as stored (null when absent). */
    Map<String, AttributeValue> sentinel(String email) {
        return store.getItem(PrimaryKey.of("UNIQUE#Member#email#*#" + email.toLowerCase(java.util.Locale.ROOT), "UNIQUE"), true)
                .await().indefinitely();
    }

    Map<String, AttributeValue> item(String member) {
        return store.getItem(PrimaryKey.of("MEMBER#" + member, "PROFILE"), true).await().indefinitely();
    }

    void ownedBy(String email, String member) {
        var sentinel = sentinel(email);
        assertThat(sentinel).as("the sentinel of " + email).isNotNull();
        assertThat(sentinel.get("_ownerPk").s()).isEqualTo("MEMBER#" + member);
        assertThat(sentinel.get("_type").s()).isEqualTo("_Unique");
    }

    @Test
    void theSentinelIsTakenOnCreateMovedByEveryChangeRouteAndGivenUpOnDelete() {
        String ada = "ada-" + k;
        String first = "Ada." + k + "@Example.org";
        create(ada, first).then().statusCode(201).body("email", equalTo(first));   // the item keeps the case given
        ownedBy(first, ada);

        String second = "second-" + k + "@example.org";
        given().contentType("application/merge-patch+json").body("{\"email\":\"" + second + "\"}")
                .patch("/members/{m}", ada).then().statusCode(200).body("email", equalTo(second));
        assertThat(sentinel(first)).isNull();
        ownedBy(second, ada);

        String third = "third-" + k + "@example.org";
        given().contentType("application/json-patch+json")
                .body("[{\"op\":\"replace\",\"path\":\"/email\",\"value\":\"" + third + "\"}]")
                .patch("/members/{m}", ada).then().statusCode(200).body("email", equalTo(third));
        assertThat(sentinel(second)).isNull();
        ownedBy(third, ada);

        String fourth = "fourth-" + k + "@example.org";
        given().contentType(ContentType.JSON).body(body(ada, fourth)).put("/members/{m}", ada).then().statusCode(200)
                .body("email", equalTo(fourth));
        assertThat(sentinel(third)).isNull();
        ownedBy(fourth, ada);

        // a change that leaves the email (or only its case) as it is: one UpdateItem, the sentinel untouched
        var before = sentinel(fourth);
        given().contentType("application/merge-patch+json").body("{\"name\":\"Ada L.\",\"email\":\"" + fourth.toUpperCase(java.util.Locale.ROOT) + "\"}")
                .patch("/members/{m}", ada).then().statusCode(200).header("X-DynamoDB-Calls", "2");
        assertThat(sentinel(fourth)).isEqualTo(before);

        given().delete("/members/{m}", ada).then().statusCode(204);
        assertThat(item(ada)).isNull();
        assertThat(sentinel(fourth)).isNull();
        // the value is free again
        create("next-" + k, fourth).then().statusCode(201);
        ownedBy(fourth, "next-" + k);
    }

    @Test
    void aTakenEmailInAnyCaseIsA409NamingTheConstraintAndFieldAndNothingOfTheOtherMember() {
        String owner = "owner-" + k;
        String email = "taken-" + k + "@example.org";
        create(owner, email).then().statusCode(201);
        var sentinelBefore = sentinel(email);
        var ownerBefore = item(owner);

        String thief = "thief-" + k;
        Response refused = create(thief, "TAKEN-" + k + "@EXAMPLE.ORG");
        refused.then().statusCode(409).contentType("application/problem+json")
                .body("code", equalTo("UniqueViolation")).body("constraint", equalTo("email"))
                .body("fields", equalTo(List.of("email"))).body("current", nullValue());
        assertThat(refused.getHeader("ETag")).isNull();
        assertThat(refused.asString()).doesNotContain(owner).doesNotContain("MEMBER#").doesNotContain("_ownerPk")
                .doesNotContain("Leeds");
        // the rejected create left the table as it was
        assertThat(item(thief)).isNull();
        assertThat(sentinel(email)).isEqualTo(sentinelBefore);
        assertThat(item(owner)).isEqualTo(ownerBefore);

        // a change onto a taken value: refused on every route, the member and its own sentinel as they were
        String other = "other-" + k;
        String own = "own-" + k + "@example.org";
        create(other, own).then().statusCode(201);
        var otherBefore = item(other);
        given().contentType("application/merge-patch+json").body("{\"email\":\"Taken-" + k + "@example.org\"}")
                .patch("/members/{m}", other).then().statusCode(409).body("code", equalTo("UniqueViolation"))
                .body("current", nullValue());
        given().contentType("application/json-patch+json")
                .body("[{\"op\":\"replace\",\"path\":\"/email\",\"value\":\"" + email + "\"}]")
                .patch("/members/{m}", other).then().statusCode(409).body("constraint", equalTo("email"));
        given().contentType(ContentType.JSON).body(body(other, email)).put("/members/{m}", other).then().statusCode(409)
                .body("fields", equalTo(List.of("email")));
        assertThat(item(other)).isEqualTo(otherBefore);
        ownedBy(own, other);
        ownedBy(email, owner);
    }

    @Test
    void aCreateOfAnExistingMemberIsItsOwnConflictNotAUniqueViolation() {
        String member = "twice-" + k;
        String email = "twice-" + k + "@example.org";
        create(member, email).then().statusCode(201);
        // both the item and its value exist: the item's conflict is the answer (and shows the member to who may read it)
        create(member, email).then().statusCode(409).body("code", equalTo("Conflict"))
                .body("current.memberId", equalTo(member));
        ownedBy(email, member);
    }

    @Test
    void aWholeTableReconcilePassesSentinelsByAndTheConsoleCountsThemAsTheirOwnType() {
        String member = "kept-" + k;
        String email = "kept-" + k + "@example.org";
        create(member, email).then().statusCode(201);
        var before = sentinel(email);
        Response started = given().contentType(ContentType.JSON).body("{\"rate\":10000}").post("/maintenance/reconcile")
                .then().statusCode(202).extract().response();
        var done = new io.restassured.path.json.JsonPath[1];
        dev.cairn.Eventually.within(java.time.Duration.ofSeconds(120), () -> {
            var now = given().get(started.header("Location")).then().statusCode(200).extract().jsonPath();
            assertThat(now.getString("state")).isIn("done", "failed");
            done[0] = now;
        });
        var job = done[0];
        assertThat(job.getString("state")).isEqualTo("done");
        assertThat(job.getString("scope")).isEqualTo("all");
        assertThat(sentinel(email)).isEqualTo(before);
        given().get("/members/{m}", member).then().statusCode(200).body("email", equalTo(email));
        given().get("/console/api/type-counts").then().statusCode(200)
                .body("counts._Unique", org.hamcrest.Matchers.greaterThanOrEqualTo(1));
    }

    @Test
    void sentinelsAreInNoListingAndTheContractStatesTheRule() {
        String member = "listed-" + k;
        create(member, "listed-" + k + "@example.org").then().statusCode(201);
        // the member's own partition (its loans' listing) holds the member's items only
        given().get("/members/{m}/loans", member).then().statusCode(200).body("items.size()", equalTo(0));
        // /access-patterns shows the sentinel's key (the demo member's email) and what each write costs
        Map<String, Object> pattern = given().get("/access-patterns").then().statusCode(200).extract().jsonPath()
                .getMap("find { it.route.contains('(unique email)') }");
        assertThat(pattern).containsEntry("operation", "GetItem")
                .containsEntry("route", "POST /members, PUT|PATCH|DELETE /members/{memberId} (unique email)");
        assertThat((String) pattern.get("name")).contains("+1 Put").contains("+1 Delete").contains("costs nothing more");
        assertThat(String.valueOf(pattern.get("request"))).contains("UNIQUE#Member#email#*#ada@example.org");
        var doc = dev.cairn.platform.Management.management().queryParam("format", "json").get("/q/openapi").then()
                .statusCode(200).extract().jsonPath();
        Map<String, Object> rule = doc.getMap("components.schemas.Member.x-cairn-unique[0]");
        assertThat(rule).containsEntry("name", "email").containsEntry("fields", List.of("email"))
                .containsEntry("case", "insensitive");
        assertThat(doc.getString("components.schemas.Member.description")).contains("email is unique (case-insensitive)");
        Map<String, Map<String, Object>> paths = doc.getMap("paths");
        for (var route : List.of(List.of("/members", "post"), List.of("/members/{memberId}", "patch"),
                List.of("/members/{memberId}", "put"))) {
            @SuppressWarnings("unchecked")
            var operation = (Map<String, Map<String, Map<String, Object>>>) paths.get(route.get(0)).get(route.get(1));
            assertThat(String.valueOf(operation.get("responses").get("409").get("description"))).as(route.toString())
                    .contains("UniqueViolation").contains("never the item that holds it");
        }
    }
}
