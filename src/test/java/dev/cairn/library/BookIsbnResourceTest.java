package dev.cairn.library;

import dev.cairn.core.key.PrimaryKey;
import dev.cairn.store.EntityStore;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/**
 * A unique value on an entity others copy from (library.yaml: a book's ISBN is unique, and loans copy its title): its
 * changes run through the cascade, and the ISBN moves in the book's own transaction in both cascade modes — with the
 * cascade job's record (eventual) or with every copy (transactional). A refused move writes nothing: not the book, not
 * a copy, not a job.
 */
@QuarkusTest
class BookIsbnResourceTest {

    @Inject EntityStore store;

    final String k = UUID.randomUUID().toString().substring(0, 8);

    static String isbn() {
        return String.format("978%010d", ThreadLocalRandom.current().nextLong(10_000_000_000L));
    }

    static Response createBook(String id, String title, String isbn) {
        return given().contentType(ContentType.JSON).body("{\"bookId\":\"" + id + "\",\"title\":\"" + title + "\",\"isbn\":\""
                + isbn + "\"}").post("/books");
    }

    Map<String, AttributeValue> sentinel(String isbn) {
        return store.getItem(PrimaryKey.of("UNIQUE#Book#isbn#*#" + isbn, "UNIQUE"), true).await().atMost(Duration.ofSeconds(10));
    }

    Map<String, AttributeValue> raw(String pk, String sk) {
        return store.getItem(PrimaryKey.of(pk, sk), true).await().atMost(Duration.ofSeconds(10));
    }

    static Response patch(String book, String body, String mode) {
        return given().contentType("application/merge-patch+json").queryParam("cascade", mode).body(body)
                .patch("/books/{b}", book);
    }

    @Test
    void anIsbnMovesWithItsBookInBothCascadeModesAndATakenOneRefusesTheWholeChange() throws InterruptedException {
        String dune = "bi-dune-" + k;
        String other = "bi-other-" + k;
        String first = isbn();
        String second = isbn();
        createBook(dune, "Dune", first).then().statusCode(201);
        createBook(other, "Dune again", first).then().statusCode(409).contentType("application/problem+json")
                .body("code", equalTo("UniqueViolation")).body("constraint", equalTo("isbn"));
        assertThat(raw("BOOK#" + other, "BOOK")).isNull();
        assertThat(sentinel(first)).containsEntry("_ownerPk", AttributeValue.fromS("BOOK#" + dune));

        String member = "bi-m-" + k;
        given().contentType(ContentType.JSON).body("{\"memberId\":\"" + member + "\",\"name\":\"Paul\",\"email\":\"" + member
                + "@example.org\",\"address\":{\"city\":\"Arrakeen\"}}").post("/members").then().statusCode(201);
        String loan = given().contentType(ContentType.JSON).body("{\"bookId\":\"" + dune + "\",\"due\":\"2026-12-24\"}")
                .post("/members/{m}/loans", member).then().statusCode(201).extract().path("loanId");

        // transactional: the title's copy and the ISBN's move in ONE transaction
        patch(dune, "{\"title\":\"Dune (1965)\",\"isbn\":\"" + second + "\"}", "transactional").then().statusCode(200)
                .header("ETag", "\"2\"").body("mode", equalTo("transactional"));
        assertThat(sentinel(first)).isNull();
        assertThat(sentinel(second)).containsEntry("_ownerPk", AttributeValue.fromS("BOOK#" + dune));
        given().get("/members/{m}/loans/{l}", member, loan).then().statusCode(200).body("bookTitle", equalTo("Dune (1965)"));

        // the ISBN given up is free at once
        createBook(other, "Children of Dune", first).then().statusCode(201);

        // a taken ISBN refuses the whole change, in either mode: the book, its copies and the jobs stay as they were
        for (String mode : new String[]{"transactional", "eventual"}) {
            patch(dune, "{\"title\":\"Dune Messiah\",\"isbn\":\"" + first + "\"}", mode).then().statusCode(409)
                    .contentType("application/problem+json").body("code", equalTo("UniqueViolation"))
                    .body("constraint", equalTo("isbn"));
            given().get("/books/{b}", dune).then().statusCode(200).header("ETag", "\"2\"")
                    .body("title", equalTo("Dune (1965)")).body("isbn", equalTo(second));
            given().get("/members/{m}/loans/{l}", member, loan).then().body("bookTitle", equalTo("Dune (1965)"));
            assertThat(sentinel(first)).containsEntry("_ownerPk", AttributeValue.fromS("BOOK#" + other));
            assertThat(sentinel(second)).containsEntry("_ownerPk", AttributeValue.fromS("BOOK#" + dune));
        }

        // eventual: the ISBN moves with the job's record, the copy follows by the job
        String third = isbn();
        Response eventual = patch(dune, "{\"title\":\"Dune Messiah\",\"isbn\":\"" + third + "\"}", "eventual");
        eventual.then().header("ETag", "\"3\"").body("mode", equalTo("eventual"));
        assertThat(eventual.statusCode()).isIn(200, 202);
        assertThat(sentinel(second)).isNull();
        assertThat(sentinel(third)).containsEntry("_ownerPk", AttributeValue.fromS("BOOK#" + dune));
        Instant until = Instant.now().plus(Duration.ofSeconds(30));
        while (!"Dune Messiah".equals(given().get("/members/{m}/loans/{l}", member, loan).then().extract().path("bookTitle"))) {
            assertThat(Instant.now()).as("the loan's copy follows the rename").isBefore(until);
            Thread.sleep(50);
        }

        // a soft-deleted book keeps its ISBN until it is purged
        given().delete("/members/{m}/loans/{l}", member, loan).then().statusCode(204);
        given().delete("/books/{b}", dune).then().statusCode(204);
        assertThat(sentinel(third)).containsEntry("_ownerPk", AttributeValue.fromS("~DELETED#BOOK#" + dune));
        createBook("bi-third-" + k, "Heretics", third).then().statusCode(409).body("code", equalTo("UniqueViolation"));
    }
}
