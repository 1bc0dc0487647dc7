package dev.cairn.platform.auth;

import dev.cairn.platform.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

/**
 * A library member's profile and loans are declared private ({@code private: true}): only that member, or an admin,
 * reads or changes them; any other caller — a reader scoped to every workspace, another member, a writer — meets them
 * as missing, and the listings across members (a book's loans, its page with them) are an admin's.
 */
@QuarkusTest
@TestProfile(AuthEnabledProfile.class)
class PrivateDataResourceTest {

    final String k = UUID.randomUUID().toString().substring(0, 8);

    static RequestSpecification as(String subject, String role) {
        return given().header("Authorization", TestTokens.bearer(subject, List.of("*"), role));
    }

    String member() {
        String member = "pm-" + k;
        as(member, "cairn-writer").contentType(ContentType.JSON)
                .body("{\"memberId\":\"" + member + "\",\"name\":\"Pat\",\"email\":\"" + member + "@example.org\",\"address\":{\"street\":\"1 Lane\",\"city\":\"Leeds\"}}")
                .post("/members").then().statusCode(201);
        return member;
    }

    @Test
    void aMembersProfileIsReadAndChangedByThatMemberOrAnAdminOnly() {
        String member = member();
        as(member, "cairn-reader").get("/members/{m}", member).then().statusCode(200).body("email", equalTo(member + "@example.org"));
        as("admin-" + k, "cairn-admin").get("/members/{m}", member).then().statusCode(200);
        as("other-" + k, "cairn-reader").get("/members/{m}", member).then().statusCode(404)
                .contentType("application/problem+json").body("code", equalTo("NotFound"))
                .body("detail", equalTo("member " + member + " does not exist"));
        as("other-" + k, "cairn-writer").contentType("application/merge-patch+json").body("{\"email\":\"evil@example.org\"}")
                .patch("/members/{m}", member).then().statusCode(404);
        // someone else's profile cannot be created either: a member is written by the user it is
        as("other-" + k, "cairn-writer").contentType(ContentType.JSON)
                .body("{\"memberId\":\"victim-" + k + "\",\"name\":\"V\",\"email\":\"v@example.org\",\"address\":{\"city\":\"Leeds\"}}")
                .post("/members").then().statusCode(403);
        as(member, "cairn-reader").get("/members/{m}", member).then().statusCode(200).body("email", equalTo(member + "@example.org"));
        as(member, "cairn-writer").contentType("application/merge-patch+json").body("{\"name\":\"Patricia\"}")
                .patch("/members/{m}", member).then().statusCode(200).body("name", equalTo("Patricia"));
    }

    @Test
    void aMembersLoansAreTheirsAndTheListingsAcrossMembersAnAdmins() {
        String member = member();
        String book = "pb-" + k;
        as("admin-" + k, "cairn-admin").contentType(ContentType.JSON).body("{\"bookId\":\"" + book + "\",\"title\":\"T\"}")
                .post("/books").then().statusCode(201);
        String loan = as(member, "cairn-writer").contentType(ContentType.JSON)
                .body("{\"bookId\":\"" + book + "\",\"due\":\"2026-12-24\"}").post("/members/{m}/loans", member)
                .then().statusCode(201).extract().path("loanId");
        as("other-" + k, "cairn-writer").contentType(ContentType.JSON)
                .body("{\"bookId\":\"" + book + "\",\"due\":\"2026-12-24\"}").post("/members/{m}/loans", member)
                .then().statusCode(404);
        as(member, "cairn-reader").get("/members/{m}/loans", member).then().statusCode(200).body("items.loanId", equalTo(List.of(loan)));
        as(member, "cairn-reader").get("/members/{m}/loans/{l}", member, loan).then().statusCode(200);
        as("other-" + k, "cairn-reader").get("/members/{m}/loans", member).then().statusCode(404);
        as("other-" + k, "cairn-reader").get("/members/{m}/loans/{l}", member, loan).then().statusCode(404);
        as("other-" + k, "cairn-reader").get("/members/{m}/loans/by-status/{s}", member, "out").then().statusCode(404);
        as("other-" + k, "cairn-writer").delete("/members/{m}/loans/{l}", member, loan).then().statusCode(404);
        // across members: an admin's (the role is named, as for any role a caller lacks)
        as("other-" + k, "cairn-writer").get("/books/{b}/loans", book).then().statusCode(403)
                .body("requiredRole", equalTo("cairn-admin"));
        as("other-" + k, "cairn-reader").get("/books/{b}/page", book).then().statusCode(403);
        as("admin-" + k, "cairn-admin").get("/books/{b}/loans", book).then().statusCode(200).body("items.loanId", equalTo(List.of(loan)));
        as("admin-" + k, "cairn-admin").get("/books/{b}/page", book).then().statusCode(200);
        as(member, "cairn-writer").delete("/members/{m}/loans/{l}", member, loan).then().statusCode(204);
    }
}
