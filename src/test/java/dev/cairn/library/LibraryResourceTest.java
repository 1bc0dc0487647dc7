package dev.cairn.library;

import dev.cairn.Eventually;
import dev.cairn.core.expr.Update;
import dev.cairn.core.write.WriteAction;
import dev.cairn.declared.DeclaredModels;
import dev.cairn.platform.Pages;
import dev.cairn.store.EntityStore;
import jakarta.inject.Inject;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

/** The library domain exists only as src/main/resources/models/library.yaml: everything here is served from it. */
@QuarkusTest
class LibraryResourceTest {

    @Inject
    EntityStore store;

    @Inject
    DeclaredModels models;

    static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID();
    }

    static void author(String id, String name) {
        given().contentType(ContentType.JSON).body("{\"authorId\":\"" + id + "\",\"name\":\"" + name + "\"}")
                .post("/authors").then().statusCode(201);
    }

    static void book(String id, String title) {
        given().contentType(ContentType.JSON).body("{\"bookId\":\"" + id + "\",\"title\":\"" + title + "\",\"genres\":[\"fiction\"]}")
                .post("/books").then().statusCode(201);
    }

    static void member(String id) {
        given().contentType(ContentType.JSON)
                .body("{\"memberId\":\"" + id + "\",\"name\":\"Ada\",\"email\":\"" + id + "@example.org\",\"address\":{\"city\":\"Leeds\"}}")
                .post("/members").then().statusCode(201);
    }

    static String loan(String member, String book) {
        return given().contentType(ContentType.JSON).body("{\"bookId\":\"" + book + "\",\"due\":\"2026-12-24\"}")
                .post("/members/{m}/loans", member).then().statusCode(201).extract().path("loanId");
    }

    @Test
    void anEntityIsCreatedOnceReadReplacedPatchedAndDeletedWithItsVersion() {
        String id = unique("book");
        // an ISBN of this test's own: the library's ISBNs are unique
        String isbn = String.format("978%010d", java.util.concurrent.ThreadLocalRandom.current().nextLong(10_000_000_000L));
        given().contentType(ContentType.JSON)
                .body("{\"bookId\":\"" + id + "\",\"title\":\"Dune\",\"isbn\":\"" + isbn + "\",\"published\":\"1965-08-01\",\"genres\":[\"fiction\",\"science\"],\"available\":true}")
                // 2 calls: the put, and (a book keeps history) 1 Query for versions an earlier book of the id left
                .post("/books").then().statusCode(201).header("X-DynamoDB-Calls", "2").header("ETag", "\"1\"")
                .header("Location", containsString("/books/" + id)).body("title", equalTo("Dune"))
                .body("genres", contains("fiction", "science"));
        given().contentType(ContentType.JSON).body("{\"bookId\":\"" + id + "\",\"title\":\"Other\"}")
                .post("/books").then().statusCode(409).body("code", equalTo("Conflict"));
        given().get("/books/{id}", id).then().statusCode(200).header("X-DynamoDB-Calls", "1").header("ETag", "\"1\"")
                .body("isbn", equalTo(isbn)).body("published", equalTo("1965-08-01")).body("available", equalTo(true));
        given().contentType(ContentType.JSON).body("{\"title\":\"Dune (1965)\",\"genres\":[\"fiction\",\"science\"],\"available\":true}")
                .put("/books/{id}", id).then()
                .statusCode(200).header("ETag", "\"2\"").body("entity.title", equalTo("Dune (1965)"))
                .body("entity.isbn", nullValue()).body("mode", equalTo("eventual"));
        given().contentType("application/json-patch+json")
                .body("[{\"op\":\"add\",\"path\":\"/genres/-\",\"value\":\"history\"},{\"op\":\"replace\",\"path\":\"/available\",\"value\":false}]")
                .patch("/books/{id}", id).then().statusCode(200).header("ETag", "\"3\"")
                .body("entity.genres", contains("fiction", "science", "history")).body("entity.available", equalTo(false));
        given().contentType("application/merge-patch+json").header("If-Match", "\"1\"").body("{\"title\":\"x\"}")
                .patch("/books/{id}", id).then().statusCode(412).body("code", equalTo("VersionConflict"));
        given().header("If-Match", "\"3\"").delete("/books/{id}", id).then().statusCode(204);
        given().get("/books/{id}", id).then().statusCode(404).body("detail", equalTo("book " + id + " does not exist"));
        given().delete("/books/{id}", id).then().statusCode(404);
    }

    @Test
    void aMergePatchChangesOrRemovesOneFieldOfANestedObjectAsTheContractSays() {
        // Every exchange is checked against the served document: a nested object's required fields are not required
        // in a merge patch (the object merges into the stored one), so these bodies must be valid there too.
        String id = unique("member");
        member(id);
        given().contentType("application/merge-patch+json").body("{\"address\":{\"postcode\":\"LS1 4AP\"}}")
                .patch("/members/{id}", id).then().statusCode(200)
                .body("address.city", equalTo("Leeds")).body("address.postcode", equalTo("LS1 4AP"));
        given().contentType("application/merge-patch+json").body("{\"address\":{\"postcode\":null}}")
                .patch("/members/{id}", id).then().statusCode(200)
                .body("address.city", equalTo("Leeds")).body("address.postcode", nullValue());
        // removing a member the address does not have is a no-op, as at the top level; giving it a value is refused
        given().contentType("application/merge-patch+json").body("{\"address\":{\"floor\":null}}")
                .patch("/members/{id}", id).then().statusCode(200).body("address.city", equalTo("Leeds"));
        given().contentType("application/merge-patch+json").body("{\"address\":{\"floor\":\"3\"}}")
                .patch("/members/{id}", id).then().statusCode(400).body("errors.field", hasItem("address.floor"));
        given().get("/members/{id}", id).then().statusCode(200).body("address.floor", nullValue())
                .body("address.postcode", nullValue());
        var patch = dev.cairn.platform.contract.ContractEveryRequest.servedDocument()
                .path("components").path("schemas").path("MemberMergePatch").path("properties").path("address");
        assertThat(patch.path("required").isMissingNode()).as(patch.toString()).isTrue();
        assertThat(patch.path("properties").path("city").path("type").toString()).contains("null");
        assertThat(patch.path("description").asText()).contains("a non-null unknown member is refused (400)")
                .contains("it must then hold city");
        // a member without an address: the merge makes one, which must hold its city
        String bare = unique("member");
        given().contentType(ContentType.JSON).body("{\"memberId\":\"" + bare + "\",\"name\":\"Bo\",\"email\":\"" + bare
                + "@example.org\"}").post("/members").then().statusCode(201);
        given().contentType("application/merge-patch+json").body("{\"address\":{\"postcode\":\"LS1\"}}")
                .patch("/members/{id}", bare).then().statusCode(400).body("errors.field", hasItem("address.city"));
        given().get("/members/{id}", bare).then().statusCode(200).body("address", nullValue());
    }

    @Test
    void badBodiesAreRefusedNamingEveryFieldAndWriteNothing() {
        String id = unique("member");
        given().contentType(ContentType.JSON)
                .body("{\"memberId\":\"" + id + "\",\"name\":\"\",\"email\":\"not-an-email\",\"address\":{\"street\":5},\"shoeSize\":44}")
                .post("/members").then().statusCode(400).contentType("application/problem+json")
                .body("code", equalTo("ValidationFailed"))
                .body("errors.field", hasItem("name")).body("errors.field", hasItem("email"))
                .body("errors.field", hasItem("address.city")).body("errors.field", hasItem("address.street"))
                .body("errors.field", hasItem("shoeSize"));
        given().get("/members/{id}", id).then().statusCode(404);
        given().contentType(ContentType.JSON).body("{\"bookId\":\"" + unique("b") + "\",\"title\":\"T\",\"genres\":[\"cookery\"]}")
                .post("/books").then().statusCode(400).body("errors[0].field", equalTo("genres[0]"));
        given().contentType(ContentType.JSON).body("[1]").post("/books").then().statusCode(400)
                .body("code", equalTo("MalformedRequest"));
        given().contentType(ContentType.JSON).body("{\"bookId\":").post("/books").then().statusCode(400)
                .body("code", equalTo("MalformedRequest"));
        given().contentType(ContentType.TEXT).body("x").post("/books").then().statusCode(415);
    }

    @Test
    void anAuthorshipEdgeCopiesBothNamesAndIsListedFromBothEnds() {
        String book = unique("book");
        String author = unique("author");
        String other = unique("author");
        book(book, "Good Omens");
        author(author, "Terry Pratchett");
        author(other, "Neil Gaiman");
        given().contentType(ContentType.JSON).put("/books/{b}/authors/{a}", book, author).then().statusCode(201)
                .header("X-DynamoDB-Calls", "2").header("Location", containsString("/books/" + book + "/authors/" + author))
                .body("bookTitle", equalTo("Good Omens")).body("authorName", equalTo("Terry Pratchett"))
                .body("role", equalTo("author"));
        given().contentType(ContentType.JSON).body("{\"role\":\"editor\"}").put("/books/{b}/authors/{a}", book, other)
                .then().statusCode(201).body("role", equalTo("editor"));
        given().contentType(ContentType.JSON).put("/books/{b}/authors/{a}", book, author).then().statusCode(409);
        given().contentType(ContentType.JSON).put("/books/{b}/authors/{a}", book, unique("ghost")).then().statusCode(404)
                .body("detail", containsString("does not exist"));
        given().get("/books/{b}/authors", book).then().statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("items", hasSize(2)).body("items.authorName", hasItem("Neil Gaiman"));
        given().get("/authors/{a}/books", author).then().statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("items.bookTitle", contains("Good Omens"));
        given().contentType("application/merge-patch+json").body("{\"authorName\":\"Forged\"}")
                .patch("/books/{b}/authors/{a}", book, author).then().statusCode(400).body("errors[0].field", equalTo("authorName"));
        given().contentType("application/merge-patch+json").body("{\"role\":\"translator\"}")
                .patch("/books/{b}/authors/{a}", book, author).then().statusCode(200).header("ETag", "\"2\"")
                .body("role", equalTo("translator"));
        given().delete("/authors/{a}", author).then().statusCode(409).body("code", equalTo("StillReferenced"));
        given().delete("/books/{b}/authors/{a}", book, author).then().statusCode(204).header("X-DynamoDB-Calls", "1");
        given().delete("/authors/{a}", author).then().statusCode(204);
        given().get("/authors/{a}", author).then().statusCode(404);
    }

    @Test
    void loansAreChildrenOfTheirMemberNewestFirstWithTheBooksTitleKeptInSync() {
        String member = unique("member");
        String book = unique("book");
        member(member);
        book(book, "Earthsea");
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            created.add(loan(member, book));
        }
        assertThat(created).isSorted();
        given().contentType(ContentType.JSON).body("{\"bookId\":\"" + book + "\",\"due\":\"2026-12-24\"}")
                .post("/members/{m}/loans", unique("nobody")).then().statusCode(404).body("detail", containsString("member"));
        // a ref in the body that names nothing is the request's fault: 422 RefNotFound naming the field
        given().contentType(ContentType.JSON).body("{\"bookId\":\"" + unique("nothing") + "\",\"due\":\"2026-12-24\"}")
                .post("/members/{m}/loans", member).then().statusCode(422).body("code", equalTo("RefNotFound"))
                .body("field", equalTo("bookId")).body("refEntity", equalTo("Book")).body("detail", containsString("book"));
        given().contentType(ContentType.JSON).body("{\"bookId\":\"" + book + "\",\"due\":\"2026-12-24\",\"loanId\":\"mine\"}")
                .post("/members/{m}/loans", member).then().statusCode(400).body("errors[0].field", equalTo("loanId"));

        List<String> listed = new ArrayList<>();
        for (Response page : Pages.walk(() -> given().queryParam("limit", 2), r -> r.get("/members/{m}/loans", member))) {
            page.then().header("X-DynamoDB-Calls", "1");
            listed.addAll(page.path("items.loanId"));
        }
        Collections.reverse(created);
        assertThat(listed).containsExactlyElementsOf(created);
        given().get("/members/{m}/loans/{l}", member, created.get(0)).then().statusCode(200)
                .body("bookTitle", equalTo("Earthsea")).body("renewals", equalTo(0)).body("memberId", equalTo(member));

        given().contentType("application/merge-patch+json").queryParam("cascade", "transactional")
                .body("{\"title\":\"A Wizard of Earthsea\"}").patch("/books/{b}", book).then().statusCode(200)
                .body("matched", equalTo(5)).body("updated", equalTo(5));
        given().get("/members/{m}/loans", member).then().body("items.bookTitle", everyItem(equalTo("A Wizard of Earthsea")));
        given().contentType("application/merge-patch+json").body("{\"returned\":\"2026-12-01T10:00:00Z\",\"renewals\":4}")
                .patch("/members/{m}/loans/{l}", member, created.get(0)).then().statusCode(400).body("errors[0].field", equalTo("renewals"));
        given().contentType("application/merge-patch+json").body("{\"returned\":\"2026-12-01T10:00:00Z\"}")
                .patch("/members/{m}/loans/{l}", member, created.get(0)).then().statusCode(200)
                .body("returned", equalTo("2026-12-01T10:00:00Z"));
        String otherBook = unique("book");
        book(otherBook, "Tehanu");
        given().contentType(ContentType.JSON).body("{\"bookId\":\"" + otherBook + "\",\"due\":\"2027-01-01\"}")
                .put("/members/{m}/loans/{l}", member, created.get(1)).then().statusCode(400).body("errors[0].field", equalTo("bookId"));
        given().contentType(ContentType.JSON).body("{\"bookId\":\"" + book + "\",\"due\":\"2027-01-01\"}")
                .put("/members/{m}/loans/{l}", member, created.get(1)).then().statusCode(200)
                .body("due", equalTo("2027-01-01")).body("renewals", equalTo(0)).body("bookTitle", equalTo("A Wizard of Earthsea"));
        given().contentType("application/json-patch+json").body("[{\"op\":\"test\",\"path\":\"/returned\",\"value\":null},"
                        + "{\"op\":\"replace\",\"path\":\"/returned\",\"value\":\"2027-01-02T09:00:00Z\"}]")
                .patch("/members/{m}/loans/{l}", member, created.get(1)).then().statusCode(200)
                .body("returned", equalTo("2027-01-02T09:00:00Z"));
        // soft-deleted (library.yaml): the loans still name them, so neither is purged for good
        given().delete("/members/{m}", member).then().statusCode(204);
        given().delete("/members/deleted/{m}", member).then().statusCode(409).body("code", equalTo("StillReferenced"));
        given().delete("/books/{b}", book).then().statusCode(204);
        given().delete("/books/deleted/{b}", book).then().statusCode(409).body("code", equalTo("StillReferenced"));
    }

    @Test
    void aBooksPageIsTheBookItsAuthorsAndItsLoansSideBySide() {
        String book = unique("book");
        String author = unique("author");
        String member = unique("member");
        book(book, "The Dispossessed");
        author(author, "Ursula K. Le Guin");
        member(member);
        given().contentType(ContentType.JSON).put("/books/{b}/authors/{a}", book, author).then().statusCode(201);
        String first = loan(member, book);
        String second = loan(member, book);
        given().get("/books/{b}/page", book).then().statusCode(200).header("X-DynamoDB-Calls", "3").header("ETag", "\"1\"")
                .body("title", equalTo("The Dispossessed"))
                .body("authors.items.authorName", contains("Ursula K. Le Guin"))
                .body("loans.items.loanId", contains(second, first)).body("loans.next", nullValue());
        given().queryParam("limit", 1).get("/books/{b}/page", book).then().statusCode(200)
                .body("loans.items", hasSize(1)).body("loans.next", notNullValue());
        given().get("/books/{b}/loans", book).then().statusCode(200).body("items.loanId", contains(second, first));
        given().get("/books/{b}/page", unique("nothing")).then().statusCode(404);
    }

    @Test
    void aStaleCopyOfADeclaredSourceIsRepairedByTheReconcileJob() {
        String member = unique("member");
        String book = unique("book");
        member(member);
        book(book, "The Left Hand of Darkness");
        String first = loan(member, book);
        String second = loan(member, book);
        // The book renamed straight in the table, its version bumped and no cascade run: both loans' copies are stale.
        var bookKey = models.plan().entity("Book").key(List.of(book));
        store.write(WriteAction.updateItem(bookKey, Update.create().set("title", AttributeValue.fromS("Left Hand"))
                .add("_version", AttributeValue.fromN("1")), WriteAction.Expectation.present(null), "book"))
                .await().atMost(Duration.ofSeconds(10));
        given().get("/members/{m}/loans/{l}", member, first).then().body("bookTitle", equalTo("The Left Hand of Darkness"));

        String location = given().contentType(ContentType.JSON).body("{\"entity\":\"book\",\"id\":\"" + book + "\"}")
                .post("/maintenance/reconcile").then().statusCode(202).extract().header("Location");
        Eventually.within(Duration.ofSeconds(60), () -> given().get(location).then().statusCode(200)
                .body("state", equalTo("done")).body("repaired", equalTo(2)));
        given().get("/members/{m}/loans", member).then().body("items.bookTitle", everyItem(equalTo("Left Hand")));
        given().get("/books/{b}/authors", book).then().body("items", hasSize(0));
    }

    @Test
    void aDeclaredPathWithAnotherMethodIs405AndAnUndeclaredOneIs404() {
        given().contentType(ContentType.JSON).body("{}").post("/books/x/authors").then().statusCode(405)
                .header("Allow", equalTo("GET")).contentType("application/problem+json");
        given().get("/shelves/x").then().statusCode(404).body("code", equalTo("NotFound"));
        given().get("/books/earthsea-" + UUID.randomUUID() + "/").then().statusCode(404).body("code", equalTo("NotFound"))
                .body("detail", containsString("book"));
    }
}
