package dev.cairn.library;

import dev.cairn.Eventually;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.declared.DeclaredModels;
import dev.cairn.store.EntityStore;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.cairn.library.LibraryResourceTest.book;
import static dev.cairn.library.LibraryResourceTest.member;
import static dev.cairn.library.LibraryResourceTest.unique;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

/**
 * library.yaml declares {@code loansByMemberStatus}, an index keyed on the loans' own fields (partition: memberId and
 * status; sort: due): its listing is served from the declaration, through ONE Query of that index, with no key
 * attribute written for it.
 */
@QuarkusTest
class LoansByStatusResourceTest {

    static final String LISTING = "/members/{m}/loans/by-status/{status}";

    @Inject
    EntityStore store;

    @Inject
    DeclaredModels models;

    static String loan(String member, String book, String due) {
        return given().contentType(ContentType.JSON).body("{\"bookId\":\"" + book + "\",\"due\":\"" + due + "\"}")
                .post("/members/{m}/loans", member).then().statusCode(201).body("status", equalTo("out"))
                .extract().path("loanId");
    }

    static List<String> dues(String member, String status, Map<String, ?> query) {
        return given().queryParams(query).get(LISTING, member, status).then().statusCode(200)
                .header("X-DynamoDB-Calls", "1").extract().path("items.due");
    }

    @Test
    void aMembersLoansAreListedByStatusSoonestDueFirstWithRangesOfDueDates() {
        String m = unique("member");
        String b = unique("book");
        member(m);
        book(b, "Tehanu");
        loan(m, b, "2026-12-20");
        loan(m, b, "2026-12-10");
        String returned = loan(m, b, "2026-12-15");
        loan(m, b, "2027-01-05");
        given().contentType("application/merge-patch+json").body("{\"status\":\"returned\"}")
                .patch("/members/{m}/loans/{l}", m, returned).then().statusCode(200).body("status", equalTo("returned"));

        // The index is eventually consistent, as every GSI.
        Eventually.within(Duration.ofSeconds(10), () -> {
            assertThat(dues(m, "out", Map.of())).containsExactly("2026-12-10", "2026-12-20", "2027-01-05");
            assertThat(dues(m, "returned", Map.of())).containsExactly("2026-12-15");
        });
        assertThat(dues(m, "out", Map.of("dueFrom", "2026-12-15"))).containsExactly("2026-12-20", "2027-01-05");
        assertThat(dues(m, "out", Map.of("dueTo", "2026-12-31"))).containsExactly("2026-12-10", "2026-12-20");
        assertThat(dues(m, "out", Map.of("dueFrom", "2026-12-11", "dueTo", "2026-12-31"))).containsExactly("2026-12-20");
        assertThat(dues(m, "out", Map.of("due", "2027-01-05"))).containsExactly("2027-01-05");
        assertThat(dues(m, "lost", Map.of())).isEmpty();
        assertThat(dues(unique("nobody"), "out", Map.of())).isEmpty();

        // Pages: a signed cursor that continues in the index, and only there.
        String next = given().queryParam("limit", 2).get(LISTING, m, "out").then().statusCode(200)
                .body("items.due", contains("2026-12-10", "2026-12-20")).body("next", notNullValue()).extract().path("next");
        given().queryParam("limit", 2).queryParam("cursor", next).get(LISTING, m, "out").then().statusCode(200)
                .body("items.due", contains("2027-01-05")).body("next", nullValue());
        given().queryParam("cursor", next).get(LISTING, m, "returned").then().statusCode(400)
                .body("code", equalTo("InvalidCursor"));
    }

    @Test
    void theLoanItemCarriesNoKeyAttributeForTheIndexOnlyItsOwnFields() {
        String m = unique("member");
        String b = unique("book");
        member(m);
        book(b, "The Farthest Shore");
        String l = loan(m, b, "2026-12-24");
        PrimaryKey key = models.plan().entity("Loan").key(List.of(m, l));
        var item = store.getItem(key, true).await().atMost(Duration.ofSeconds(10));
        // Its fields, its table key, the book index's key (gsi1, declared with 'index'), and the store's bookkeeping.
        assertThat(item.keySet()).filteredOn(name -> !name.startsWith("_")).containsExactlyInAnyOrder("pk", "sk",
                "gsi1pk", "gsi1sk", "memberId", "loanId", "bookId", "bookTitle", "due", "status", "renewals");
        assertThat(item.get("status").s()).isEqualTo("out");
        assertThat(item.get("due").s()).isEqualTo("2026-12-24");
    }

    @Test
    void conditionsTheIndexCannotTakeAreRefusedBeforeAnyCall() {
        String m = unique("member");
        given().get(LISTING, m, "borrowed").then().statusCode(400).header("X-DynamoDB-Calls", "0")
                .body("code", equalTo("ValidationFailed")).body("errors[0].field", equalTo("status"));
        given().queryParam("due", "2026-12-01").queryParam("dueFrom", "2026-11-01").get(LISTING, m, "out").then()
                .statusCode(400).body("errors[0].field", equalTo("due")).body("errors[0].message", containsString("not both"));
        given().queryParam("dueFrom", "2026-12-31").queryParam("dueTo", "2026-12-01").get(LISTING, m, "out").then()
                .statusCode(400).body("errors[0].field", equalTo("dueFrom"));
        given().queryParam("dueTo", "next week").get(LISTING, m, "out").then().statusCode(400)
                .body("errors[0].field", equalTo("dueTo"));
        given().queryParam("due", "").get(LISTING, m, "out").then().statusCode(400).body("errors[0].field", equalTo("due"));
    }

    @Test
    void theAccessPatternShowsTheMultiAttributeKeyCondition() {
        given().get("/access-patterns").then().statusCode(200)
                .body("find { it.route == 'GET /members/{memberId}/loans/by-status/{status}' }.request.IndexName",
                        equalTo("loansByMemberStatus"))
                .body("find { it.route == 'GET /members/{memberId}/loans/by-status/{status}' }.request.KeyConditionExpression",
                        equalTo("#n0 = :v0 AND #n1 = :v1"))
                .body("find { it.route == 'GET /members/{memberId}/loans/by-status/{status}' }.request.ExpressionAttributeNames",
                        equalTo(Map.of("#n0", "memberId", "#n1", "status")))
                .body("route", hasItem("GET /members/{memberId}/loans/by-status/{status}"));
        given().get("/console/api/access-patterns").then().statusCode(200)
                .body("find { it.route == 'GET /members/{memberId}/loans/by-status/{status}' }.index",
                        equalTo("loansByMemberStatus"))
                .body("find { it.route == 'GET /members/{memberId}/loans/by-status/{status}' }.readableKeyCondition",
                        equalTo("memberId = m-ada AND status = out"))
                .body("find { it.route == 'GET /members/{memberId}/loans/by-status/{status}' }.parameters",
                        contains("memberId", "status"));
        given().get(LISTING, unique("m"), "out").then().statusCode(200).body("items", empty());
    }
}
