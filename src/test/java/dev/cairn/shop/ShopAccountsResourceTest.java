package dev.cairn.shop;

import dev.cairn.platform.TestTokens;
import dev.cairn.platform.auth.AuthEnabledProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

/**
 * The shop's customer accounts are their users' own (declared {@code self} and {@code private}, and {@code private}
 * on their events): with authentication on, any caller but the account's user (or an admin) — whatever its workspace
 * scope — meets an account and its events exactly as if they were missing, and the products orders copy are reference
 * data only an admin deletes.
 */
@QuarkusTest
@TestProfile(AuthEnabledProfile.class)
class ShopAccountsResourceTest {

    private static final String PROBLEM = "application/problem+json";

    static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    static RequestSpecification as(String bearer) {
        return given().header("Authorization", bearer);
    }

    static void customerWithEvents(String id, int events) {
        as(TestTokens.admin()).contentType(ContentType.JSON)
                .body("{\"id\":\"" + id + "\",\"name\":\"N\",\"email\":\"n@example.org\",\"shards\":4}")
                .post("/customers").then().statusCode(201);
        for (int i = 0; i < events; i++) {
            as(TestTokens.admin()).contentType(ContentType.JSON).body("{\"kind\":\"viewed\",\"note\":\"n" + i + "\"}")
                    .post("/customers/{c}/events", id).then().statusCode(201);
        }
    }

    @Test
    void anotherAccountAndItsEventsAnswerExactlyLikeMissingOnes() {
        String mine = unique("cust-a");
        String theirs = unique("cust-b");
        customerWithEvents(mine, 2);
        customerWithEvents(theirs, 3);
        String theirEvent = as(TestTokens.admin()).get("/customers/{c}/events", theirs).then().statusCode(200)
                .extract().path("items[0].id");
        // the account's own user, scoped to every workspace: the scope is not what lets it in, its subject is
        String writer = TestTokens.bearer(mine, List.of("*"), "cairn-writer");

        as(writer).queryParam("include", "events").get("/customers/{id}", mine).then().statusCode(200)
                .body("events.items", hasSize(2));
        as(writer).get("/customers/{c}/events", mine).then().statusCode(200).body("items", hasSize(2));

        // theirs, and one that does not exist: the same answer but for the id it names
        String missing = unique("cust-none");
        Response other = as(writer).get("/customers/{id}", theirs);
        Response absent = as(writer).get("/customers/{id}", missing);
        other.then().statusCode(404).contentType(PROBLEM).body("code", equalTo("NotFound"));
        absent.then().statusCode(404).contentType(PROBLEM).body("code", equalTo("NotFound"));
        assertThat(other.path("detail").toString().replace(theirs, "X"))
                .isEqualTo(absent.path("detail").toString().replace(missing, "X"));
        as(writer).queryParam("include", "events").get("/customers/{id}", theirs).then().statusCode(404).contentType(PROBLEM);
        as(writer).get("/customers/{c}/events", theirs).then().statusCode(404).contentType(PROBLEM);
        as(writer).get("/customers/{c}/events/{e}", theirs, theirEvent).then().statusCode(404).contentType(PROBLEM);
        as(writer).delete("/customers/{c}/events/{e}", theirs, theirEvent).then().statusCode(404).contentType(PROBLEM);
        as(writer).contentType(ContentType.JSON).body("{\"kind\":\"carted\"}").post("/customers/{c}/events", theirs)
                .then().statusCode(404).contentType(PROBLEM);
        as(writer).contentType("application/merge-patch+json").body("{\"name\":\"Taken\"}")
                .patch("/customers/{id}", theirs).then().statusCode(404).contentType(PROBLEM);
        // nothing of theirs changed
        as(TestTokens.admin()).get("/customers/{c}/events", theirs).then().statusCode(200).body("items", hasSize(3));
        as(TestTokens.admin()).get("/customers/{id}", theirs).then().statusCode(200).body("name", equalTo("N"));

        // creating someone else's account is refused; a reader scoped to a workspace of the account's name sees nothing
        as(writer).contentType(ContentType.JSON)
                .body("{\"id\":\"" + unique("cust-c") + "\",\"name\":\"N\",\"email\":\"n@example.org\"}")
                .post("/customers").then().statusCode(403).contentType(PROBLEM).body("code", equalTo("Forbidden"));
        as(TestTokens.bearer("nobody", List.of(mine), "cairn-reader")).get("/customers/{id}", mine).then().statusCode(404);
        as(TestTokens.bearer("nobody", List.of("*"), "cairn-reader")).get("/customers/{c}/events", mine).then().statusCode(404);
    }

    @Test
    void aProductOrdersCopyIsReferenceDataThatOnlyAnAdminDeletes() {
        String product = unique("prod");
        as(TestTokens.admin()).contentType(ContentType.JSON)
                .body("{\"id\":\"" + product + "\",\"name\":\"Kettle\",\"brand\":\"steamco\",\"price\":9}")
                .post("/products").then().statusCode(201);
        String writer = TestTokens.bearer("wendy", List.of("*"), "cairn-writer");
        as(writer).delete("/products/{id}", product).then().statusCode(403).contentType(PROBLEM)
                .body("code", equalTo("Forbidden"));
        as(TestTokens.admin()).get("/products/{id}", product).then().statusCode(200);
        as(TestTokens.admin()).delete("/products/{id}", product).then().statusCode(204);
    }
}
