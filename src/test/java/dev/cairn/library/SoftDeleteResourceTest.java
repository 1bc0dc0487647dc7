package dev.cairn.library;

import dev.cairn.core.key.PrimaryKey;
import dev.cairn.store.EntityStore;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

/**
 * Soft delete in the library (library.yaml: books, members and loans declare {@code softDelete: true}): a delete takes
 * the item out of every read at once and keeps a tombstone (read straight from the table), which the deleted listing
 * pages through, a restore brings back everywhere, and a purge removes with the unique values it kept. Every refusal
 * leaves the table as it was.
 */
@QuarkusTest
class SoftDeleteResourceTest {

    @Inject
    EntityStore store;

    final String k = UUID.randomUUID().toString().substring(0, 8);

    static Response createBook(String id, String title) {
        return given().contentType(ContentType.JSON).body("{\"bookId\":\"" + id + "\",\"title\":\"" + title + "\"}").post("/books");
    }

    static Response createMember(String id, String email, String card) {
        return given().contentType(ContentType.JSON).body("{\"memberId\":\"" + id + "\",\"name\":\"Ada\",\"email\":\"" + email
                + "\"" + (card == null ? "" : ",\"card\":\"" + card + "\"") + ",\"address\":{\"city\":\"Leeds\"}}").post("/members");
    }

    static String loan(String member, String book, String status) {
        return given().contentType(ContentType.JSON).body("{\"bookId\":\"" + book + "\",\"due\":\"2026-12-24\",\"status\":\""
                + status + "\"}").post("/members/{m}/loans", member).then().statusCode(201).extract().path("loanId");
    }

    Map<String, AttributeValue> raw(String pk, String sk) {
        return store.getItem(PrimaryKey.of(pk, sk), true).await().indefinitely();
    }

    Map<String, AttributeValue> sentinel(String constraint, String value) {
        return raw("UNIQUE#Member#" + constraint + "#*#" + value.toLowerCase(Locale.ROOT), "UNIQUE");
    }

    @Test
    void aDeletedLoanLeavesEveryReadAtOnceIsKeptWithWhoAndWhenAndComesBackEverywhere() {
        String book = "sd-book-" + k;
        String member = "sd-m-" + k;
        createBook(book, "Tehanu").then().statusCode(201);
        createMember(member, member + "@example.org", null).then().statusCode(201);
        String loan = loan(member, book, "out");
        given().get("/members/{m}/loans/{l}", member, loan).then().statusCode(200).header("ETag", "\"1\"");
        given().get("/books/{b}/loans", book).then().statusCode(200).body("items.loanId", contains(loan));

        Instant before = Instant.now();
        given().delete("/members/{m}/loans/{l}", member, loan).then().statusCode(204)
                .header("X-DynamoDB-Calls", "2");   // the read of the item, then ONE transaction
        Instant after = Instant.now();

        // gone from the get (exactly the 404 of a missing loan), the partition listing, both indexes and the view
        String missing = given().get("/members/{m}/loans/{l}", member, "never-" + k).then().statusCode(404)
                .extract().path("code");
        given().get("/members/{m}/loans/{l}", member, loan).then().statusCode(404).contentType("application/problem+json")
                .body("code", equalTo(missing)).body("detail", equalTo("loan " + loan + " does not exist"));
        given().get("/members/{m}/loans", member).then().statusCode(200).body("items", empty());
        given().get("/books/{b}/loans", book).then().statusCode(200).body("items", empty());
        given().get("/members/{m}/loans/by-status/out", member).then().statusCode(200).body("items", empty());
        given().get("/books/{b}/page", book).then().statusCode(200).body("loans.items", empty());
        given().contentType("application/merge-patch+json").body("{\"status\":\"lost\"}")
                .patch("/members/{m}/loans/{l}", member, loan).then().statusCode(404);

        // the tombstone, in a partition of its own: the item nested, no index key of the item's, who and when
        assertThat(raw("MEMBER#" + member, "LOAN#" + loan)).isNull();
        var tombstone = raw("~DELETED#MEMBER#" + member, "LOAN#" + loan);
        assertThat(tombstone).isNotNull();
        assertThat(tombstone.get("_type").s()).isEqualTo("_Deleted");
        assertThat(tombstone.get("_deletedBy").s()).isEqualTo("anonymous");
        assertThat(Instant.parse(tombstone.get("_deletedAt").s())).isBetween(before.minusMillis(1), after.plusMillis(1));
        assertThat(tombstone.get("_item").m().get("bookId").s()).isEqualTo(book);
        assertThat(tombstone).doesNotContainKeys("bookId", "status", "due");
        assertThat(tombstone.get("gsi1pk").s()).isEqualTo("~DELETED#Loan#" + member);

        given().get("/members/{m}/loans/deleted", member).then().statusCode(200)
                .body("items.item.loanId", contains(loan)).body("items[0].deletedBy", equalTo("anonymous"))
                .body("items[0].item.bookTitle", equalTo("Tehanu")).body("next", nullValue());

        // restored: the same id, a new version, back in the listing and both indexes, the tombstone gone
        given().post("/members/{m}/loans/{l}/restore", member, loan).then().statusCode(200).header("ETag", "\"2\"")
                .header("X-DynamoDB-Calls", "3")   // the tombstone, its refs (one BatchGetItem), the transaction
                .body("loanId", equalTo(loan)).body("status", equalTo("out"));
        given().get("/members/{m}/loans/{l}", member, loan).then().statusCode(200).header("ETag", "\"2\"");
        given().get("/members/{m}/loans", member).then().body("items.loanId", contains(loan));
        given().get("/books/{b}/loans", book).then().body("items.loanId", contains(loan));
        given().get("/members/{m}/loans/by-status/out", member).then().body("items.loanId", contains(loan));
        given().get("/books/{b}/page", book).then().body("loans.items.loanId", contains(loan));
        assertThat(raw("~DELETED#MEMBER#" + member, "LOAN#" + loan)).isNull();
        given().get("/members/{m}/loans/deleted", member).then().statusCode(200).body("items", empty());
        // nothing left to restore
        given().post("/members/{m}/loans/{l}/restore", member, loan).then().statusCode(404)
                .contentType("application/problem+json").body("code", equalTo("NotFound"));
    }

    @Test
    void aDeletedBookIsGoneFromItsGetItsPageAndEveryRefAndARestoredLoanCopiesItsTitleFresh() {
        String book = "sd-book2-" + k;
        String member = "sd-m2-" + k;
        createBook(book, "The Farthest Shore").then().statusCode(201);
        createMember(member, member + "@example.org", null).then().statusCode(201);
        String loan = loan(member, book, "out");
        given().delete("/members/{m}/loans/{l}", member, loan).then().statusCode(204);
        // renamed while the loan is deleted: the cascade cannot reach the tombstone, the restore copies afresh
        given().contentType("application/merge-patch+json").body("{\"title\":\"The Farthest Shore (1972)\"}")
                .queryParam("cascade", "transactional").patch("/books/{b}", book).then().statusCode(200);

        given().delete("/books/{b}", book).then().statusCode(204);
        given().get("/books/{b}", book).then().statusCode(404).body("detail", equalTo("book " + book + " does not exist"));
        given().get("/books/{b}/page", book).then().statusCode(404);
        // a ref that names a deleted book is refused as a missing one, and writes nothing
        given().contentType(ContentType.JSON).body("{\"bookId\":\"" + book + "\",\"due\":\"2026-12-24\"}")
                .post("/members/{m}/loans", member).then().statusCode(422).contentType("application/problem+json")
                .body("code", equalTo("RefNotFound")).body("field", equalTo("bookId"));
        given().get("/members/{m}/loans", member).then().body("items", empty());
        // so is the restore of a loan whose book is deleted now: the table as it was
        given().post("/members/{m}/loans/{l}/restore", member, loan).then().statusCode(422)
                .contentType("application/problem+json").body("code", equalTo("RefNotFound")).body("field", equalTo("bookId"));
        assertThat(raw("MEMBER#" + member, "LOAN#" + loan)).isNull();
        assertThat(raw("~DELETED#MEMBER#" + member, "LOAN#" + loan)).isNotNull();

        given().get("/books/deleted").then().statusCode(200).body("items.item.bookId", hasItem(book));
        given().post("/books/{b}/restore", book).then().statusCode(200).header("ETag", "\"3\"")
                .body("title", equalTo("The Farthest Shore (1972)"));
        given().get("/books/{b}", book).then().statusCode(200).header("ETag", "\"3\"");
        given().get("/books/deleted").then().statusCode(200).body("items.item.bookId", not(hasItem(book)));
        given().post("/members/{m}/loans/{l}/restore", member, loan).then().statusCode(200)
                .body("bookTitle", equalTo("The Farthest Shore (1972)"));
        given().get("/books/{b}/page", book).then().statusCode(200).body("loans.items.loanId", contains(loan));
    }

    @Test
    void aDeletedMemberIsGoneFromItsReadWithItsHoldsAndTheReleasedEmailIsFreeAtOnce() {
        String ada = "sd-ada-" + k;
        String email = "sd-ada-" + k + "@example.org";
        createMember(ada, email, null).then().statusCode(201);
        given().queryParam("include", "reservations").get("/members/{m}", ada).then().statusCode(200);
        given().delete("/members/{m}", ada).then().statusCode(204);
        given().queryParam("include", "reservations").get("/members/{m}", ada).then().statusCode(404);
        given().get("/members/{m}", ada).then().statusCode(404);
        assertThat(sentinel("email", email)).as("a released email").isNull();

        // the email taken by someone else meanwhile: the restore is a 409 naming the constraint, the table unchanged
        String bea = "sd-bea-" + k;
        createMember(bea, email.toUpperCase(Locale.ROOT), null).then().statusCode(201);
        given().post("/members/{m}/restore", ada).then().statusCode(409).contentType("application/problem+json")
                .body("code", equalTo("UniqueViolation")).body("constraint", equalTo("email"))
                .body("fields", contains("email")).body("detail", not(org.hamcrest.Matchers.containsString(bea)));
        assertThat(raw("MEMBER#" + ada, "PROFILE")).isNull();
        assertThat(raw("~DELETED#MEMBER#" + ada, "PROFILE")).isNotNull();
        assertThat(sentinel("email", email).get("_ownerPk").s()).isEqualTo("MEMBER#" + bea);

        // once the other member is gone too, the restore takes the email back
        given().delete("/members/{m}", bea).then().statusCode(204);
        given().post("/members/{m}/restore", ada).then().statusCode(200).header("ETag", "\"2\"").body("email", equalTo(email));
        assertThat(sentinel("email", email).get("_ownerPk").s()).isEqualTo("MEMBER#" + ada);
        given().queryParam("include", "reservations").get("/members/{m}", ada).then().statusCode(200);
    }

    @Test
    void aRestoreIsA409WhenTheIdWasTakenByANewCreateAndTheTableIsUnchanged() {
        String book = "sd-book3-" + k;
        createBook(book, "Old").then().statusCode(201);
        given().delete("/books/{b}", book).then().statusCode(204);
        // the new book's versions go on after the old one's (a book keeps history): it is at version 2
        createBook(book, "New").then().statusCode(201).header("ETag", "\"2\"");
        given().post("/books/{b}/restore", book).then().statusCode(409).contentType("application/problem+json")
                .body("code", equalTo("Conflict")).body("current.title", equalTo("New")).header("ETag", "\"2\"");
        assertThat(raw("BOOK#" + book, "BOOK").get("title").s()).isEqualTo("New");
        assertThat(raw("~DELETED#BOOK#" + book, "BOOK").get("_item").m().get("title").s()).isEqualTo("Old");
        // an id keeps one tombstone: the new book cannot be deleted while the old one waits, until it is purged
        given().delete("/books/{b}", book).then().statusCode(409).contentType("application/problem+json")
                .body("code", equalTo("Conflict")).body("detail", org.hamcrest.Matchers.containsString("purge it"));
        assertThat(raw("BOOK#" + book, "BOOK")).isNotNull();
        given().delete("/books/deleted/{b}", book).then().statusCode(204);
        given().delete("/books/{b}", book).then().statusCode(204);
        assertThat(raw("~DELETED#BOOK#" + book, "BOOK").get("_item").m().get("title").s()).isEqualTo("New");
    }

    @Test
    void aKeptCardStaysTheDeletedMembersUntilThePurgeWhichIsRefusedWhileLoansReferToThem() {
        String ada = "sd-card-" + k;
        String card = String.format("%08d", Math.abs(k.hashCode()) % 100_000_000);
        createMember(ada, ada + "@example.org", card).then().statusCode(201);
        given().delete("/members/{m}", ada).then().statusCode(204);
        assertThat(sentinel("card", card).get("_ownerPk").s()).as("a kept card").isEqualTo("~DELETED#MEMBER#" + ada);
        // nobody else takes it, not even a new member under the same id
        createMember("sd-other-" + k, "sd-other-" + k + "@example.org", card).then().statusCode(409)
                .body("code", equalTo("UniqueViolation")).body("constraint", equalTo("card"));
        createMember(ada, ada + "@example.org", card).then().statusCode(409).body("code", equalTo("UniqueViolation"));
        given().post("/members/{m}/restore", ada).then().statusCode(200).body("card", equalTo(card));
        assertThat(sentinel("card", card).get("_ownerPk").s()).isEqualTo("MEMBER#" + ada);

        // a member with a loan: deleted softly, but not purged while the loan refers to them
        String book = "sd-book4-" + k;
        createBook(book, "Tales").then().statusCode(201);
        String loan = loan(ada, book, "out");
        given().delete("/members/{m}", ada).then().statusCode(204);
        given().delete("/members/deleted/{m}", ada).then().statusCode(409).contentType("application/problem+json")
                .body("code", equalTo("StillReferenced"));
        assertThat(raw("~DELETED#MEMBER#" + ada, "PROFILE")).isNotNull();
        given().delete("/members/{m}/loans/{l}", ada, loan).then().statusCode(204);
        given().delete("/members/{m}/loans/deleted/{l}", ada, loan).then().statusCode(204);
        assertThat(raw("~DELETED#MEMBER#" + ada, "LOAN#" + loan)).isNull();

        given().delete("/members/deleted/{m}", ada).then().statusCode(204).header("X-DynamoDB-Calls", "6");
        assertThat(raw("~DELETED#MEMBER#" + ada, "PROFILE")).isNull();
        assertThat(sentinel("card", card)).as("the card given up with the purge").isNull();
        given().post("/members/{m}/restore", ada).then().statusCode(404);
        given().delete("/members/deleted/{m}", ada).then().statusCode(404).contentType("application/problem+json");
        createMember("sd-other-" + k, "sd-other-" + k + "@example.org", card).then().statusCode(201);
    }

    /**
     * A purge counts the tombstones of deleted children too (left behind, they could be restored under a later member
     * of the same id), and once the id is live again nothing holds the old tombstone back: what depends on the id is
     * the live member's.
     */
    @Test
    void aPurgeWaitsForDeletedChildrenButNotForAnIdLiveAgain() {
        String ann = "sd-purge-" + k;
        String book = "sd-book5-" + k;
        createBook(book, "Mort").then().statusCode(201);
        createMember(ann, ann + "@example.org", null).then().statusCode(201);
        String loan = loan(ann, book, "out");
        given().delete("/members/{m}/loans/{l}", ann, loan).then().statusCode(204);
        given().delete("/members/{m}", ann).then().statusCode(204);
        given().delete("/members/deleted/{m}", ann).then().statusCode(409).contentType("application/problem+json")
                .body("code", equalTo("StillReferenced"));
        assertThat(raw("~DELETED#MEMBER#" + ann, "PROFILE")).isNotNull();
        given().delete("/members/{m}/loans/deleted/{l}", ann, loan).then().statusCode(204);
        given().delete("/members/deleted/{m}", ann).then().statusCode(204);
        assertThat(raw("~DELETED#MEMBER#" + ann, "PROFILE")).isNull();

        // deleted, then the same id created again with a loan of its own: the old tombstone is purged all the same,
        // and the live member's own delete is no longer held up by it
        given().delete("/members/{m}", ann).then().statusCode(404);
        createMember(ann, ann + "@example.org", null).then().statusCode(201);
        given().delete("/members/{m}", ann).then().statusCode(204);
        createMember(ann, ann + "@example.org", null).then().statusCode(201);
        String second = loan(ann, book, "out");
        given().delete("/members/{m}", ann).then().statusCode(409);
        given().delete("/members/deleted/{m}", ann).then().statusCode(204);
        given().get("/members/{m}/loans/{l}", ann, second).then().statusCode(200);
        given().delete("/members/{m}", ann).then().statusCode(204);
        assertThat(raw("~DELETED#MEMBER#" + ann, "PROFILE")).isNotNull();
    }

    @Test
    void theDeletedListingIsNewestDeletedFirstAndPagedWithCursors() {
        String book = "sd-book5-" + k;
        String member = "sd-m5-" + k;
        createBook(book, "Pages").then().statusCode(201);
        createMember(member, member + "@example.org", null).then().statusCode(201);
        List<String> loans = List.of(loan(member, book, "out"), loan(member, book, "out"), loan(member, book, "returned"));
        for (String loan : loans) {
            given().delete("/members/{m}/loans/{l}", member, loan).then().statusCode(204);
        }
        Response first = given().queryParam("limit", 2).get("/members/{m}/loans/deleted", member);
        first.then().statusCode(200).header("X-DynamoDB-Calls", "1").body("items.item.loanId", contains(loans.get(2), loans.get(1)));
        String next = first.path("next");
        assertThat(next).isNotNull();
        given().queryParam("limit", 2).queryParam("cursor", next).get("/members/{m}/loans/deleted", member).then()
                .statusCode(200).body("items.item.loanId", contains(loans.get(0))).body("next", nullValue());
        // a cursor of another listing, or altered, is a 400
        given().queryParam("cursor", next).get("/members/{m}/loans/deleted", "sd-other-" + k).then().statusCode(400)
                .contentType("application/problem+json");
        given().queryParam("cursor", next + "x").get("/members/{m}/loans/deleted", member).then().statusCode(400);
        // the listing's path is its own, not a loan named "deleted": only GET is allowed there
        // (the contract documents no OPTIONS or 405 per operation: the answers are checked here, not against it)
        given().noFilters().options("/members/{m}/loans/deleted", member).then().statusCode(200)
                .header("Allow", "GET, HEAD, OPTIONS");
        given().noFilters().contentType("application/merge-patch+json").body("{}").patch("/members/{m}/loans/deleted", member)
                .then().statusCode(405).contentType("application/problem+json")
                .header("Allow", org.hamcrest.Matchers.allOf(org.hamcrest.Matchers.containsString("GET"),
                        org.hamcrest.Matchers.not(org.hamcrest.Matchers.containsString("PATCH"))));
        given().noFilters().options("/books/deleted").then().statusCode(200).header("Allow", "GET, HEAD, OPTIONS");
        // two paths as literal as each other both count, as the router counts them: a purge and a book's versions
        given().noFilters().options("/books/deleted/versions").then().statusCode(200)
                .header("Allow", "DELETE, GET, HEAD, OPTIONS");
    }

    @Test
    void aDeleteUnderIfMatchIsA412ShowingTheItemAndRejectedInputsAreProblems() {
        String book = "sd-book6-" + k;
        createBook(book, "Versions").then().statusCode(201);
        given().header("If-Match", "\"9\"").delete("/books/{b}", book).then().statusCode(412)
                .contentType("application/problem+json").body("code", equalTo("VersionConflict"))
                .body("current.title", equalTo("Versions")).header("ETag", "\"1\"");
        assertThat(raw("BOOK#" + book, "BOOK")).isNotNull();
        assertThat(raw("~DELETED#BOOK#" + book, "BOOK")).isNull();
        given().header("If-Match", "\"1\"").delete("/books/{b}", book).then().statusCode(204);
        given().header("If-Match", "\"1\"").delete("/books/{b}", book).then().statusCode(404);

        // 'deleted' is the listing's segment: no item takes it as its id
        createBook("deleted", "Shadow").then().statusCode(400).contentType("application/problem+json")
                .body("errors[0].field", equalTo("bookId"));
        assertThat(raw("BOOK#deleted", "BOOK")).isNull();
        given().post("/books/{b}/restore", "never-" + k).then().statusCode(404).contentType("application/problem+json");
        given().delete("/books/deleted/{b}", "never-" + k).then().statusCode(404).contentType("application/problem+json");
        given().queryParam("limit", 0).get("/books/deleted").then().statusCode(400).contentType("application/problem+json");
    }

    @Test
    void aRestoreAndAPurgeUnderIfMatchActOnlyOnTheVersionDeletedAndA412ShowsIt() {
        String book = "sd-book8-" + k;
        createBook(book, "Earthsea").then().statusCode(201);
        given().contentType("application/merge-patch+json").body("{\"title\":\"Earthsea II\"}").patch("/books/{b}", book)
                .then().statusCode(200).header("ETag", "\"2\"");
        given().delete("/books/{b}", book).then().statusCode(204);
        var tombstone = raw("~DELETED#BOOK#" + book, "BOOK");
        // the listing names the version deleted, the one If-Match takes below (newest deleted first: this one leads)
        given().queryParam("limit", 100).get("/books/deleted").then().statusCode(200)
                .body("items.find { it.item.bookId == '" + book + "' }.version", equalTo(2));

        given().header("If-Match", "\"1\"").post("/books/{b}/restore", book).then().statusCode(412)
                .contentType("application/problem+json").body("code", equalTo("VersionConflict"))
                .body("current.title", equalTo("Earthsea II")).header("ETag", "\"2\"");
        given().header("If-Match", "\"1\"").delete("/books/deleted/{b}", book).then().statusCode(412)
                .contentType("application/problem+json").body("code", equalTo("VersionConflict"));
        given().header("If-Match", "not-a-version").post("/books/{b}/restore", book).then().statusCode(400)
                .contentType("application/problem+json");
        assertThat(raw("~DELETED#BOOK#" + book, "BOOK")).isEqualTo(tombstone);
        assertThat(raw("BOOK#" + book, "BOOK")).isNull();

        given().header("If-Match", "\"2\"").post("/books/{b}/restore", book).then().statusCode(200)
                .body("title", equalTo("Earthsea II")).header("ETag", "\"3\"");
        given().delete("/books/{b}", book).then().statusCode(204);
        given().header("If-Match", "\"3\"").delete("/books/deleted/{b}", book).then().statusCode(204);
        assertThat(raw("~DELETED#BOOK#" + book, "BOOK")).isNull();
    }

    @Test
    void racingTwinsOfADeleteOrARestoreAnswerAsIfTheyCameSecondNeverWithInternalItems() throws Exception {
        String book = "sd-book9-" + k;
        createBook(book, "Racing").then().statusCode(201);
        var pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            var deletes = new java.util.ArrayList<java.util.concurrent.Future<Response>>();
            for (int i = 0; i < 8; i++) {
                deletes.add(pool.submit(() -> given().delete("/books/{b}", book)));
            }
            var deleted = new java.util.ArrayList<Integer>();
            for (var f : deletes) {
                Response r = f.get();
                deleted.add(r.statusCode());
                if (r.statusCode() != 204) {
                    assertThat(r.contentType()).startsWith("application/problem+json");
                    assertThat(r.asString()).doesNotContain("~DELETED#").doesNotContain("TransactionCanceled");
                }
            }
            assertThat(deleted).isSubsetOf(204, 404).containsOnlyOnce(204);

            var restores = new java.util.ArrayList<java.util.concurrent.Future<Response>>();
            for (int i = 0; i < 8; i++) {
                restores.add(pool.submit(() -> given().post("/books/{b}/restore", book)));
            }
            var restored = new java.util.ArrayList<Integer>();
            for (var f : restores) {
                Response r = f.get();
                restored.add(r.statusCode());
                if (r.statusCode() == 409) {
                    // it met the item restored by its twin: a Conflict showing it
                    r.then().contentType("application/problem+json").body("code", equalTo("Conflict"))
                            .body("current.title", equalTo("Racing"));
                }
                if (r.statusCode() != 200) {
                    assertThat(r.asString()).doesNotContain("~DELETED#").doesNotContain("TransactionCanceled");
                }
            }
            assertThat(restored).isSubsetOf(200, 404, 409).containsOnlyOnce(200);
            given().get("/books/{b}", book).then().statusCode(200).header("ETag", "\"2\"");
            assertThat(raw("~DELETED#BOOK#" + book, "BOOK")).isNull();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theRoutesAreInTheContractTheAccessPatternsAndTheConsole() {
        String book = "sd-book7-" + k;
        createBook(book, "Console").then().statusCode(201);
        given().delete("/books/{b}", book).then().statusCode(204);
        // the console (admins) shows the tombstone as a _Deleted item, counted by type
        given().get("/console/api/type-counts").then().statusCode(200)
                .body("counts._Deleted", org.hamcrest.Matchers.greaterThanOrEqualTo(1));

        var patterns = given().get("/access-patterns").then().statusCode(200).extract().jsonPath();
        Map<String, Object> listing = patterns.getMap("find { it.route == 'GET /books/deleted' }");
        assertThat(listing).containsEntry("operation", "Query");
        assertThat(String.valueOf(listing.get("request"))).contains("gsi1").contains("~DELETED#Book");
        Map<String, Object> tombstone = patterns.getMap("find { it.route.contains('POST /books/{bookId}/restore') }");
        assertThat(tombstone).containsEntry("operation", "GetItem");
        assertThat((String) tombstone.get("name")).contains("ONE TransactWriteItems").contains("1 BatchGetItem");
        assertThat(String.valueOf(tombstone.get("request"))).contains("~DELETED#BOOK#earthsea");

        var doc = dev.cairn.platform.Management.management().queryParam("format", "json").get("/q/openapi").then()
                .statusCode(200).extract().jsonPath();
        assertThat(doc.getString("paths.'/books/deleted'.get.responses.'200'.content.'application/json'.schema.$ref"))
                .isEqualTo("#/components/schemas/DeletedBookPage");
        assertThat(doc.getMap("paths.'/books/{bookId}/restore'.post.responses")).containsKeys("200", "404", "409", "422");
        assertThat(doc.getString("paths.'/members/{memberId}/restore'.post.responses.'409'.description"))
                .contains("UniqueViolation");
        assertThat(doc.getMap("paths.'/books/deleted/{bookId}'.delete.responses")).containsKeys("204", "403", "404", "409");
        assertThat(doc.getString("paths.'/books/{bookId}'.delete.description")).startsWith("Soft delete");
    }
}
