package dev.cairn.platform.console;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

/** cairn.console.enabled=false: no page, no script, no API. */
@QuarkusTest
@TestProfile(ConsoleDisabledTest.Disabled.class)
class ConsoleDisabledTest {

    public static class Disabled implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("cairn.console.enabled", "false");
        }
    }

    @Test
    void everyConsoleRouteIsNotFound() {
        given().get("/console").then().statusCode(404).contentType("application/problem+json").body("code", equalTo("NotFound"));
        given().get("/console/assets/console.js").then().statusCode(404);
        given().get("/console/api/access-patterns").then().statusCode(404);
        given().queryParam("pk", "A").get("/console/api/collections").then().statusCode(404).header("X-DynamoDB-Calls", "0");
        given().get("/console/api/builder/shape").then().statusCode(404);
        given().contentType("application/json").body("{\"operation\":\"Scan\",\"limit\":1}").post("/console/api/builder/run")
                .then().statusCode(404).header("X-DynamoDB-Calls", "0");
    }
}
