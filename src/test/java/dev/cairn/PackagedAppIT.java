package dev.cairn;

import dev.cairn.platform.TestTokens;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.nio.file.Path;
import java.util.UUID;

import static dev.cairn.platform.Management.management;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.hasSize;

/** The packaged jar (prod profile) against DynamoDB Local: the artifact that ships is the artifact tested. */
@QuarkusIntegrationTest
class PackagedAppIT {

    private static final String ADMIN = TestTokens.admin();

    /** The prod profile has authentication on: API requests here carry an admin token of the test issuer. */
    static RequestSpecification given() {
        return RestAssured.given().header("Authorization", ADMIN);
    }

    static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    static void post(String path, String body) {
        given().contentType(ContentType.JSON).body(body).post(path).then().statusCode(201);
    }

    @Test
    void healthDocsAndMetricsAnswer() {
        management().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        management().get("/q/health/live").then().statusCode(200);
        management().queryParam("format", "json").get("/q/openapi").then().statusCode(200).body(containsString("/matches/{id}"));
        // No Swagger UI in prod unless asked for (quarkus.swagger-ui.enabled); dev and test serve it.
        management().get("/q/swagger-ui/").then().statusCode(404);
        management().get("/q/metrics").then().statusCode(200).body(containsString("cairn_dynamodb_calls"));
        given().get("/q/health/ready").then().statusCode(404);
        given().get("/no/such/route").then().statusCode(404).contentType("application/problem+json");
    }

    /** The packaged app reads its stored document back on the first request, not at start: the same contract. */
    @Test
    void theDocumentsServedAreTheStoredContract() throws Exception {
        var json = new ObjectMapper();
        String served = management().queryParam("format", "json").get("/q/openapi").then().statusCode(200)
                .extract().asString();
        assertThat(json.readTree(served)).isEqualTo(json.readTree(Path.of("src/test/openapi/openapi.json").toFile()));
        String rendition = management().get("/q/openapi-3.0").then().statusCode(200).extract().asString();
        assertThat(json.readTree(rendition)).isEqualTo(json.readTree(Path.of("src/test/openapi/openapi-3.0.json").toFile()));
        management().get("/q/openapi").then().statusCode(200).body(containsString("openapi: 3.1.0"))
                .body(containsString("/matches/{id}:"));
    }

    @Test
    void authenticationIsOnInProd() {
        RestAssured.given().get("/workspaces/{id}", unique("ws")).then().statusCode(401)
                .contentType("application/problem+json").header("WWW-Authenticate", "Bearer");
        RestAssured.given().header("Authorization", "Bearer " + TestTokens.expired()).get("/access-patterns")
                .then().statusCode(401);
        given().get("/workspaces/{id}", unique("ws")).then().statusCode(404);
    }

    @Test
    void workspacesAndProjects() {
        String ws = unique("ws");
        post("/workspaces", "{\"id\":\"" + ws + "\",\"displayName\":\"Acme\",\"region\":\"eu-west-1\",\"seatLimit\":5}");
        post("/workspaces/" + ws + "/projects", "{\"title\":\"P\",\"status\":\"ACTIVE\",\"createdBy\":\"ann\"}");
        given().queryParam("include", "projects").get("/workspaces/{id}", ws).then().statusCode(200)
                .header("X-DynamoDB-Calls", "1").body("projects.items", hasSize(1));
    }

    @Test
    void studentsCoursesAndTheRoster() {
        String s = unique("stu");
        String c = unique("crs");
        post("/students", "{\"id\":\"" + s + "\",\"name\":\"Ada\",\"year\":1,\"major\":\"CS\"}");
        post("/courses", "{\"id\":\"" + c + "\",\"title\":\"Algebra\",\"credits\":5,\"term\":\"t\"}");
        given().contentType(ContentType.JSON).body("{}").put("/students/{s}/enrollments/{c}", s, c).then().statusCode(201)
                .header("X-DynamoDB-Calls", "2");
        given().get("/courses/{c}/students", c).then().statusCode(200).body("items[0].studentName", equalTo("Ada"));
    }

    @Test
    void usersPostsAndComments() {
        String u = unique("user");
        post("/users", "{\"id\":\"" + u + "\",\"firstName\":\"A\",\"lastName\":\"B\"}");
        String postId = given().contentType(ContentType.JSON).body("{\"title\":\"T\",\"content\":\"C\"}")
                .post("/users/{u}/posts", u).then().statusCode(201).extract().path("postId");
        post("/posts/" + postId + "/comments", "{\"userId\":\"" + u + "\",\"content\":\"hi\"}");
        given().queryParam("include", "comments").get("/posts/{p}", postId).then().statusCode(200)
                .header("X-DynamoDB-Calls", "1").body("comments.items", hasSize(1));
    }

    /** Two teams, coaches and players, a venue and a match of them (ids suffixed with k); answers the match id. */
    static String createMatch(String k) {
        post("/teams", "{\"id\":\"t1-" + k + "\",\"name\":\"Australia\",\"country\":\"Australia\",\"ranking\":1}");
        post("/teams", "{\"id\":\"t2-" + k + "\",\"name\":\"India\",\"country\":\"India\",\"ranking\":2}");
        post("/coaches", "{\"id\":\"c1-" + k + "\",\"name\":\"McDonald\"}");
        post("/coaches", "{\"id\":\"c2-" + k + "\",\"name\":\"Gambhir\"}");
        post("/venues", "{\"id\":\"v-" + k + "\",\"name\":\"MCG\",\"city\":\"Melbourne\"}");
        post("/players", "{\"id\":\"p1-" + k + "\",\"firstName\":\"Pat\",\"lastName\":\"Cummins\",\"role\":\"bowler\"}");
        post("/players", "{\"id\":\"p2-" + k + "\",\"firstName\":\"Virat\",\"lastName\":\"Kohli\",\"role\":\"batter\"}");
        String id = "m-" + k;
        given().contentType(ContentType.JSON).body("{\"id\":\"" + id + "\",\"name\":\"Test\",\"venueId\":\"v-" + k + "\","
                        + "\"team1\":{\"teamId\":\"t1-" + k + "\",\"coachId\":\"c1-" + k + "\",\"homeTeam\":true,"
                        + "\"players\":[{\"playerId\":\"p1-" + k + "\",\"battingPosition\":8,\"isCaptain\":true}]},"
                        + "\"team2\":{\"teamId\":\"t2-" + k + "\",\"coachId\":\"c2-" + k + "\",\"homeTeam\":false,"
                        + "\"players\":[{\"playerId\":\"p2-" + k + "\",\"battingPosition\":4,\"isCaptain\":true}]}}")
                .post("/matches").then().statusCode(201).header("X-DynamoDB-Calls", "3");
        return id;
    }

    @Test
    void aMatchIsCreatedReadPatchedAndCascaded() {
        String k = unique("k");
        String id = createMatch(k);
        given().contentType("application/json-patch+json")
                .body("[{\"op\":\"replace\",\"path\":\"/team1/players/0/battingPosition\",\"value\":9}]")
                .patch("/matches/{id}", id).then().statusCode(200).header("X-DynamoDB-Calls", "2");
        given().contentType("application/merge-patch+json").body("{\"lastName\":\"Cummins AO\"}")
                .patch("/players/{p}", "p1-" + k).then().statusCode(200).body("updated", equalTo(1));
        given().get("/matches/{id}", id).then().statusCode(200).header("X-DynamoDB-Calls", "1").header("ETag", "\"3\"")
                .body("team1.players[0].player.lastName", equalTo("Cummins AO"))
                .body("team1.players[0].battingPosition", equalTo(9));
    }
}
