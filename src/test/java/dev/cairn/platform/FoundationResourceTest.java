package dev.cairn.platform;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

@QuarkusTest
class FoundationResourceTest {

    private static String uniqueId() {
        return "t-" + UUID.randomUUID();
    }

    @Test
    void liveAndReadyAreUp() {
        Management.management().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        Management.management().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"))
                .body("checks.name", hasItem("dynamodb"));
    }

    @Test
    void diagnosticsHeadersCountExactlyTheCallsARequestMade() {
        given().get("/test-support/probe/{id}/two-calls", uniqueId()).then().statusCode(200)
                .header("X-DynamoDB-Calls", "2")
                .header("X-DynamoDB-Capacity", not(equalTo("0.0")))
                .header("Server-Timing", startsWith("dynamodb;dur="))
                .body("found", equalTo(false));
    }

    @Test
    void aCreateCostsOneCallAndASecondCreateIsAConflict() {
        String id = uniqueId();
        given().contentType("application/json").body("{\"id\":\"" + id + "\",\"stars\":3}")
                .post("/test-support/probe").then().statusCode(200)
                .header("X-DynamoDB-Calls", "1").body("version", equalTo(1));
        given().contentType("application/json").body("{\"id\":\"" + id + "\",\"stars\":4}")
                .post("/test-support/probe").then().statusCode(409)
                .contentType("application/problem+json")
                .header("X-DynamoDB-Calls", "1")
                .body("code", equalTo("Conflict"))
                .body("status", equalTo(409))
                .body("detail", containsString("already exists"));
    }

    @Test
    void malformedJsonIsAProblem400() {
        given().contentType("application/json").body("{\"id\": \"x\", ")
                .post("/test-support/probe").then().statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("MalformedRequest"))
                .body("status", equalTo(400))
                .body("title", equalTo("Malformed request"))
                .body("type", equalTo("urn:cairn:problem:MalformedRequest"))
                .body(not(containsString("Exception")));
    }

    @Test
    void validationFailureListsEveryField() {
        given().contentType("application/json").body("{\"id\": \" \", \"stars\": 11}")
                .post("/test-support/probe").then().statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("ValidationFailed"))
                .body("errors.field", hasItem("id"))
                .body("errors.field", hasItem("stars"))
                .header("X-DynamoDB-Calls", "0");
    }

    @Test
    void unknownFieldIsRejectedAndNamed() {
        given().contentType("application/json").body("{\"id\": \"a\", \"stars\": 1, \"starz\": 2}")
                .post("/test-support/probe").then().statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("ValidationFailed"))
                .body("errors[0].field", equalTo("starz"));
    }

    @Test
    void wrongTypeNamesTheField() {
        given().contentType("application/json").body("{\"id\": \"a\", \"stars\": \"many\"}")
                .post("/test-support/probe").then().statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("ValidationFailed"))
                .body("errors[0].field", equalTo("stars"));
    }

    @Test
    void unknownRouteIsAProblem404() {
        given().get("/no/such/route").then().statusCode(404)
                .contentType("application/problem+json")
                .body("code", equalTo("NotFound"))
                .body("status", equalTo(404));
    }

    @Test
    void wrongMediaTypeIsAProblem415() {
        given().contentType("text/plain").body("hello")
                .post("/test-support/probe").then().statusCode(415)
                .contentType("application/problem+json")
                .body("code", equalTo("UnsupportedMediaType"));
    }

    @Test
    void wrongMethodIsAProblem405() {
        given().delete("/test-support/probe").then().statusCode(405)
                .contentType("application/problem+json")
                .body("code", equalTo("MethodNotAllowed"));
    }
}
