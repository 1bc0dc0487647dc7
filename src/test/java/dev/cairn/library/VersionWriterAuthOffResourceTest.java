package dev.cairn.library;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

/**
 * With auth off every caller is the one unrestricted caller, whose subject is {@code anonymous}: that is who a loan's
 * versions say wrote them.
 */
@QuarkusTest
class VersionWriterAuthOffResourceTest {

    @Test
    void withAuthOffEveryVersionIsWrittenByAnonymous() {
        String k = UUID.randomUUID().toString().substring(0, 8);
        String member = "anon-" + k;
        given().contentType(ContentType.JSON)
                .body("{\"memberId\":\"" + member + "\",\"name\":\"A\",\"email\":\"" + member + "@example.org\",\"address\":{\"city\":\"York\"}}")
                .post("/members").then().statusCode(201);
        given().contentType(ContentType.JSON).body("{\"bookId\":\"ab-" + k + "\",\"title\":\"T\"}").post("/books")
                .then().statusCode(201);
        String loan = given().contentType(ContentType.JSON).body("{\"bookId\":\"ab-" + k + "\",\"due\":\"2026-12-24\"}")
                .post("/members/{m}/loans", member).then().statusCode(201).extract().path("loanId");
        given().contentType("application/merge-patch+json").body("{\"renewals\":1}")
                .patch("/members/{m}/loans/{l}", member, loan).then().statusCode(200);
        given().get("/members/{m}/loans/{l}/versions", member, loan).then().statusCode(200)
                .body("items.version", equalTo(List.of(2, 1)))
                .body("items.writtenBy", equalTo(List.of("anonymous", "anonymous")));
    }
}
