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
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

/**
 * Who sees and undoes a soft delete (library.yaml): nobody sees a deleted item they could not have read live — a
 * member's deleted loans are that member's (or an admin's), the deleted members an admin's — a restore needs what the
 * delete needed, and a purge, irreversible, an admin.
 */
@QuarkusTest
@TestProfile(AuthEnabledProfile.class)
class SoftDeleteAccessResourceTest {

    final String k = UUID.randomUUID().toString().substring(0, 8);

    static RequestSpecification as(String subject, String role) {
        return given().header("Authorization", TestTokens.bearer(subject, List.of("*"), role));
    }

    @Test
    void aMembersDeletedLoansAreTheirsOrAnAdminsAndOnlyAnAdminPurges() {
        String member = "sda-" + k;
        String admin = "admin-" + k;
        as(member, "cairn-writer").contentType(ContentType.JSON)
                .body("{\"memberId\":\"" + member + "\",\"name\":\"Pat\",\"email\":\"" + member + "@example.org\",\"address\":{\"city\":\"Leeds\"}}")
                .post("/members").then().statusCode(201);
        String book = "sdab-" + k;
        as(admin, "cairn-admin").contentType(ContentType.JSON).body("{\"bookId\":\"" + book + "\",\"title\":\"T\"}")
                .post("/books").then().statusCode(201);
        String loan = as(member, "cairn-writer").contentType(ContentType.JSON)
                .body("{\"bookId\":\"" + book + "\",\"due\":\"2026-12-24\"}").post("/members/{m}/loans", member)
                .then().statusCode(201).extract().path("loanId");

        as("other-" + k, "cairn-writer").delete("/members/{m}/loans/{l}", member, loan).then().statusCode(404);
        as(member, "cairn-writer").delete("/members/{m}/loans/{l}", member, loan).then().statusCode(204);

        as(member, "cairn-reader").get("/members/{m}/loans/deleted", member).then().statusCode(200)
                .body("items.item.loanId", contains(loan)).body("items[0].deletedBy", equalTo(member));
        as("other-" + k, "cairn-reader").get("/members/{m}/loans/deleted", member).then().statusCode(404)
                .contentType("application/problem+json");
        as(admin, "cairn-admin").get("/members/{m}/loans/deleted", member).then().statusCode(200)
                .body("items.item.loanId", contains(loan));
        as("other-" + k, "cairn-writer").post("/members/{m}/loans/{l}/restore", member, loan).then().statusCode(404);
        // purge: irreversible, an admin's by default, even for the member whose loan it is
        as(member, "cairn-writer").delete("/members/{m}/loans/deleted/{l}", member, loan).then().statusCode(403)
                .contentType("application/problem+json").body("requiredRole", equalTo("cairn-admin"));
        as(member, "cairn-writer").post("/members/{m}/loans/{l}/restore", member, loan).then().statusCode(200)
                .body("loanId", equalTo(loan));
        as(member, "cairn-writer").delete("/members/{m}/loans/{l}", member, loan).then().statusCode(204);
        as(admin, "cairn-admin").delete("/members/{m}/loans/deleted/{l}", member, loan).then().statusCode(204);
        as(admin, "cairn-admin").get("/members/{m}/loans/deleted", member).then().statusCode(200)
                .body("items", org.hamcrest.Matchers.empty());
    }

    @Test
    void theDeletedMembersListAcrossUsersAndIsAnAdminsAsIsTheDeletedBooksRestore() {
        String member = "sdm-" + k;
        as(member, "cairn-writer").contentType(ContentType.JSON)
                .body("{\"memberId\":\"" + member + "\",\"name\":\"Pat\",\"email\":\"" + member + "@example.org\",\"address\":{\"city\":\"Leeds\"}}")
                .post("/members").then().statusCode(201);
        as(member, "cairn-writer").delete("/members/{m}", member).then().statusCode(204);
        as(member, "cairn-writer").get("/members/deleted").then().statusCode(403).body("requiredRole", equalTo("cairn-admin"));
        as("admin-" + k, "cairn-admin").get("/members/deleted").then().statusCode(200)
                .body("items.item.memberId", hasItem(member));
        // the member may undo their own delete; another writer meets it as missing
        as("other-" + k, "cairn-writer").post("/members/{m}/restore", member).then().statusCode(404);
        as(member, "cairn-writer").post("/members/{m}/restore", member).then().statusCode(200);

        // a book is copied by loans (reference data): its delete, and so its restore, are an admin's
        String book = "sdmb-" + k;
        as("admin-" + k, "cairn-admin").contentType(ContentType.JSON).body("{\"bookId\":\"" + book + "\",\"title\":\"T\"}")
                .post("/books").then().statusCode(201);
        as("admin-" + k, "cairn-admin").delete("/books/{b}", book).then().statusCode(204);
        as("w-" + k, "cairn-writer").post("/books/{b}/restore", book).then().statusCode(403);
        as("r-" + k, "cairn-reader").get("/books/deleted").then().statusCode(200).body("items.item.bookId", hasItem(book));
        as("admin-" + k, "cairn-admin").post("/books/{b}/restore", book).then().statusCode(200);
    }
}
