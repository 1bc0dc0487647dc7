package dev.cairn.reliability;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every route against hostile input: each answer is a 4xx application/problem+json with a code (zero 5xx), and
 * the table is exactly as it was after all the rejected writes.
 */
@QuarkusTest
class HostileInputResourceTest {

    @Inject
    DynamoDbAsyncClient client;

    final String k = UUID.randomUUID().toString().substring(0, 8);
    String projectId;
    String postId;
    final Map<String, Integer> triedPerRoute = new LinkedHashMap<>();

    static final List<String> HOSTILE_IDS = List.of(" ", "   ", "x".repeat(129), "é".repeat(130), "\u0001ctrl", "tab\tid",
            "a#b", "#", "%", "%23", "$x", "quote\"d", "it's", "🏏🏏", "\u202Eevil", "a/b", "..", "null", "-1");

    static final String DEEP_ARRAY = "[".repeat(1500) + "]".repeat(1500);
    static final String DEEP_OBJECT = "{\"a\":".repeat(1500) + "1" + "}".repeat(1500);

    static final List<String> BAD_BODIES = List.of("{\"id\":", "{\"id\": \"x\", \"name\": \"A\"", "not json", "", "null",
            "[]", "[{\"id\":\"x\"}]", "42", "\"text\"", "{}", "{\"id\":null}", "{\"unknownField\":1}",
            "{\"id\":\"\"}", "{\"id\":123,\"name\":[1],\"seatLimit\":\"ten\",\"year\":{}}", "{\"seatLimit\":-5,\"credits\":1e99}",
            "{\"battingPosition\":99999999999}", DEEP_ARRAY, DEEP_OBJECT, "{\"id\":\"a\",\"id\":\"b\"", "\uFEFF{}");

    @BeforeEach
    void data() {
        post("/workspaces", "{\"id\":\"hw-" + k + "\",\"displayName\":\"A\",\"region\":\"r\",\"seatLimit\":3}");
        projectId = given().contentType(ContentType.JSON).body("{\"title\":\"T\",\"status\":\"ACTIVE\",\"createdBy\":\"x\"}")
                .post("/workspaces/hw-" + k + "/projects").then().statusCode(201).extract().path("id");
        post("/students", "{\"id\":\"hs-" + k + "\",\"name\":\"S\",\"year\":1,\"major\":\"M\"}");
        post("/courses", "{\"id\":\"hc-" + k + "\",\"title\":\"C\",\"credits\":1,\"term\":\"t\"}");
        given().contentType(ContentType.JSON).body("{}").put("/students/hs-" + k + "/enrollments/hc-" + k).then().statusCode(201);
        post("/users", "{\"id\":\"hu-" + k + "\",\"firstName\":\"F\",\"lastName\":\"L\"}");
        postId = given().contentType(ContentType.JSON).body("{\"title\":\"T\",\"content\":\"C\"}")
                .post("/users/hu-" + k + "/posts").then().statusCode(201).extract().path("postId");
        post("/teams", "{\"id\":\"ht1-" + k + "\",\"name\":\"A\",\"country\":\"A\",\"ranking\":1}");
        post("/teams", "{\"id\":\"ht2-" + k + "\",\"name\":\"B\",\"country\":\"B\",\"ranking\":2}");
        post("/coaches", "{\"id\":\"hco-" + k + "\",\"name\":\"C\"}");
        post("/venues", "{\"id\":\"hv-" + k + "\",\"name\":\"V\",\"city\":\"X\"}");
        post("/players", "{\"id\":\"hp1-" + k + "\",\"firstName\":\"A\",\"lastName\":\"B\",\"role\":\"batter\"}");
        post("/players", "{\"id\":\"hp2-" + k + "\",\"firstName\":\"C\",\"lastName\":\"D\",\"role\":\"bowler\"}");
        post("/matches", match("hm-" + k));
        post("/squads/hq-" + k + "/selections", "{\"selectionNumber\":1,\"teamId\":\"ht1-" + k + "\",\"playerId\":\"hp1-" + k
                + "\",\"squadRole\":\"batter\",\"isCaptain\":false}");
    }

    String match(String id) {
        return "{\"id\":\"" + id + "\",\"name\":\"M\",\"venueId\":\"hv-" + k + "\",\"team1\":{\"teamId\":\"ht1-" + k
                + "\",\"coachId\":\"hco-" + k + "\",\"homeTeam\":true,\"players\":[{\"playerId\":\"hp1-" + k
                + "\",\"battingPosition\":1,\"isCaptain\":true}]},\"team2\":{\"teamId\":\"ht2-" + k + "\",\"coachId\":\"hco-" + k
                + "\",\"homeTeam\":false,\"players\":[{\"playerId\":\"hp2-" + k + "\",\"battingPosition\":1,\"isCaptain\":true}]}}";
    }

    /** method, path, content type of the route's body (null: no body) */
    record Route(String method, String path, String contentType) {
    }

    List<Route> writeRoutes() {
        String ws = "hw-" + k;
        return List.of(
                new Route("POST", "/workspaces", "application/json"),
                new Route("PATCH", "/workspaces/" + ws, "application/merge-patch+json"),
                new Route("POST", "/workspaces/" + ws + "/projects", "application/json"),
                new Route("PATCH", "/workspaces/" + ws + "/projects/" + projectId, "application/merge-patch+json"),
                new Route("POST", "/students", "application/json"),
                new Route("POST", "/courses", "application/json"),
                new Route("PATCH", "/students/hs-" + k, "application/merge-patch+json"),
                new Route("PATCH", "/courses/hc-" + k, "application/merge-patch+json"),
                new Route("PUT", "/students/hs-" + k + "/enrollments/hc-" + k, "application/json"),
                new Route("PATCH", "/students/hs-" + k + "/enrollments/hc-" + k, "application/merge-patch+json"),
                new Route("POST", "/users", "application/json"),
                new Route("PATCH", "/users/hu-" + k, "application/merge-patch+json"),
                new Route("POST", "/users/hu-" + k + "/posts", "application/json"),
                new Route("PATCH", "/users/hu-" + k + "/posts/" + postId, "application/merge-patch+json"),
                new Route("POST", "/posts/" + postId + "/comments", "application/json"),
                new Route("POST", "/teams", "application/json"),
                new Route("POST", "/players", "application/json"),
                new Route("POST", "/coaches", "application/json"),
                new Route("POST", "/venues", "application/json"),
                new Route("PATCH", "/teams/ht1-" + k, "application/merge-patch+json"),
                new Route("PATCH", "/players/hp1-" + k, "application/merge-patch+json"),
                new Route("PATCH", "/coaches/hco-" + k, "application/merge-patch+json"),
                new Route("PATCH", "/venues/hv-" + k, "application/merge-patch+json"),
                new Route("POST", "/squads/hq-" + k + "/selections", "application/json"),
                new Route("PATCH", "/squads/hq-" + k + "/selections/1", "application/merge-patch+json"),
                new Route("POST", "/matches", "application/json"),
                new Route("PUT", "/matches/hm-" + k, "application/json"),
                new Route("PATCH", "/matches/hm-" + k, "application/merge-patch+json"),
                new Route("PATCH", "/matches/hm-" + k, "application/json-patch+json"));
    }

    List<String> readRoutes() {
        return List.of("/workspaces/%s", "/workspaces/%s/projects", "/workspaces/hw-" + k + "/projects/%s", "/students/%s",
                "/courses/%s", "/students/%s/courses", "/courses/%s/students", "/students/hs-" + k + "/enrollments/%s",
                "/users/%s", "/users/%s/posts", "/posts/%s", "/posts/%s/comments", "/teams/%s", "/players/%s", "/coaches/%s",
                "/venues/%s", "/players/%s/matches", "/players/%s/selections", "/players/%s/references",
                "/squads/%s/selections", "/squads/hq-" + k + "/selections/%s", "/matches/%s");
    }

    @Test
    void hostileBodiesToEveryWriteRouteAreProblemsAndWriteNothing() {
        var before = TableDump.quiet(client);
        for (Route route : writeRoutes()) {
            for (String body : BAD_BODIES) {
                if ((body.equals("{}") || body.equals("\uFEFF{}")) && route.contentType().equals("application/merge-patch+json")) {
                    continue; // an empty merge patch is a valid no-op
                }
                check(route, request().contentType(route.contentType()).body(body), route.method(), route.path());
            }
            // wrong content type, no body at all, a 5 MB body, malformed If-Match, bad JSON Patch documents
            check(route, request().contentType("text/plain").body("hello"), route.method(), route.path());
            check(route, request(), route.method(), route.path());
            if (!route.method().equals("POST")) {
                check(route, request().contentType(route.contentType()).header("If-Match", "not-a-tag").body("{}"),
                        route.method(), route.path());
                check(route, request().contentType(route.contentType()).header("If-Match", "\"999\"").body("{}"),
                        route.method(), route.path());
            }
        }
        Route jsonPatch = new Route("PATCH", "/matches/hm-" + k, "application/json-patch+json");
        for (String patch : List.of("[{\"op\":\"explode\",\"path\":\"/name\"}]", "[{\"op\":\"replace\",\"path\":\"/nowhere/x\",\"value\":1}]",
                "[{\"op\":\"test\",\"path\":\"/name\",\"value\":\"other\"}]", "[{\"op\":\"remove\",\"path\":\"/team1\"}]",
                "[{\"op\":\"replace\",\"path\":\"/id\",\"value\":\"stolen\"}]", "[{\"op\":\"add\"}]", "{\"op\":\"replace\"}",
                "[{\"op\":\"replace\",\"path\":\"/team1/players/0/battingPosition\",\"value\":-1}]",
                "[{\"op\":\"copy\",\"from\":\"/team1/players/0\",\"path\":\"/team1/players/-\"}]")) {
            check(jsonPatch, request().contentType(jsonPatch.contentType()).body(patch), "PATCH", jsonPatch.path());
        }
        var after = TableDump.of(client);
        var added = new java.util.TreeSet<>(after);
        added.removeAll(before);
        var removed = new java.util.TreeSet<>(before);
        removed.removeAll(after);
        assertThat(added).as("items added or changed by rejected writes").isEmpty();
        assertThat(removed).as("items removed or changed by rejected writes").isEmpty();
        assertThat(triedPerRoute.values()).allMatch(n -> n >= BAD_BODIES.size());
        System.out.println("hostile inputs per write route: " + triedPerRoute);
    }

    @Test
    void hostileIdsCursorsAndLimitsOnEveryReadRouteAreNeverServerErrors() {
        for (String template : readRoutes()) {
            for (String id : HOSTILE_IDS) {
                Response response = given().urlEncodingEnabled(true).get(template.replace("%s", "{id}"), id);
                assertThat(response.statusCode()).as(template + " with id [" + id + "]").isBetween(200, 499);
                if (response.statusCode() >= 400) {
                    assertThat(response.contentType()).as(template + " " + id).startsWith("application/problem+json");
                    assertThat(response.<String>path("code")).isNotBlank();
                }
            }
        }
        for (String list : List.of("/workspaces/hw-" + k + "/projects", "/students/hs-" + k + "/courses",
                "/courses/hc-" + k + "/students", "/users/hu-" + k + "/posts", "/posts/" + postId + "/comments",
                "/squads/hq-" + k + "/selections", "/projects?status=ACTIVE&x=1")) {
            for (Map.Entry<String, String> param : List.of(Map.entry("limit", "0"), Map.entry("limit", "100000"),
                    Map.entry("limit", "abc"), Map.entry("limit", "-1"), Map.entry("cursor", "garbage"),
                    Map.entry("cursor", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"), Map.entry("cursor", "%%%"))) {
                given().queryParam(param.getKey(), param.getValue()).get(list).then().statusCode(400)
                        .contentType("application/problem+json");
            }
        }
    }

    /**
     * An integer parameter is what its schema says, plain ASCII decimal: a sign, a leading zero, other scripts' digits
     * or an empty value are a 400 naming it, never read as the number they might stand for.
     */
    @Test
    void integerParametersTakeOnlyPlainAsciiDecimalDigits() {
        String squad = "/squads/hq-" + k + "/selections";
        for (String path : List.of("/workspaces/hw-" + k + "/projects", "/workspaces/hw-" + k, "/users/hu-" + k + "/posts",
                "/posts/" + postId, "/courses/hc-" + k + "/students", squad, "/projects?status=ACTIVE")) {
            given().queryParam("limit", "5").get(path).then().statusCode(200);
            for (String limit : List.of("+5", "05", "\uFF15", "\u0665", "")) {
                given().queryParam("limit", limit).get(path).then().statusCode(400).contentType("application/problem+json")
                        .body("errors[0].field", org.hamcrest.Matchers.equalTo("limit"));
            }
        }
        given().get(squad + "/1").then().statusCode(200);
        for (String number : List.of("01", "+1", "\uFF11")) {
            given().get(squad + "/{n}", number).then().statusCode(400).contentType("application/problem+json")
                    .body("errors[0].field", org.hamcrest.Matchers.equalTo("number")); // the path parameter's name
        }
    }

    /**
     * "." and ".." are ids no URL can name (a path's dot segments are resolved before any route sees it): every create
     * that takes an id refuses them with a 400 naming the field, as it refuses a blank id, and writes nothing.
     */
    @Test
    void dotSegmentAndBlankIdsAreRefusedByEveryCreateAndWriteNothing() {
        var before = TableDump.quiet(client);
        for (String id : List.of(".", "..", " ")) {
            var creates = new LinkedHashMap<String, Map.Entry<String, String>>();
            creates.put("/workspaces", Map.entry("id", "{\"id\":\"%s\",\"displayName\":\"A\",\"region\":\"r\",\"seatLimit\":3}"));
            creates.put("/teams", Map.entry("id", "{\"id\":\"%s\",\"name\":\"A\",\"country\":\"A\",\"ranking\":1}"));
            creates.put("/players", Map.entry("id", "{\"id\":\"%s\",\"firstName\":\"A\",\"lastName\":\"B\",\"role\":\"batter\"}"));
            creates.put("/coaches", Map.entry("id", "{\"id\":\"%s\",\"name\":\"C\"}"));
            creates.put("/venues", Map.entry("id", "{\"id\":\"%s\",\"name\":\"V\",\"city\":\"X\"}"));
            creates.put("/matches", Map.entry("id", match("%s")));
            creates.put("/students", Map.entry("id", "{\"id\":\"%s\",\"name\":\"S\",\"year\":1,\"major\":\"M\"}"));
            creates.put("/courses", Map.entry("id", "{\"id\":\"%s\",\"title\":\"C\",\"credits\":1,\"term\":\"t\"}"));
            creates.put("/users", Map.entry("id", "{\"id\":\"%s\",\"firstName\":\"F\",\"lastName\":\"L\"}"));
            creates.put("/authors", Map.entry("authorId", "{\"authorId\":\"%s\",\"name\":\"N\"}"));
            creates.put("/books", Map.entry("bookId", "{\"bookId\":\"%s\",\"title\":\"T\",\"genres\":[\"fiction\"]}"));
            creates.put("/members", Map.entry("memberId",
                    "{\"memberId\":\"%s\",\"name\":\"Ada\",\"email\":\"ada@example.org\",\"address\":{\"city\":\"Leeds\"}}"));
            creates.forEach((path, body) -> {
                Response response = given().contentType(ContentType.JSON).body(body.getValue().replace("%s", id)).post(path);
                assertThat(response.statusCode()).as("POST " + path + " with id [" + id + "] -> " + response.asString()).isEqualTo(400);
                assertThat(response.contentType()).startsWith("application/problem+json");
                assertThat(response.<List<String>>path("errors.field")).as("POST " + path).containsExactly(body.getKey());
            });
        }
        assertThat(TableDump.of(client)).as("the table after the refused creates").isEqualTo(before);
    }

    /**
     * Ids that are not text or are blank as Java counts it: half a surrogate pair (two of them would name one item),
     * ideographic and line-separator spaces. Refused by the typed and the declared models alike, nothing written.
     */
    @Test
    void idsThatAreNotTextOrAreUnicodeBlankAreRefusedByTypedAndDeclaredModelsAndWriteNothing() {
        var before = TableDump.quiet(client);
        for (String id : List.of("\\ud800", "\\udbff", "a\\udc00", "\\u3000", "\\u2028\\u2029", " \\u2003 ")) {
            Response team = given().contentType(ContentType.JSON)
                    .body("{\"id\":\"" + id + "\",\"name\":\"A\",\"country\":\"A\",\"ranking\":1}").post("/teams");
            assertThat(team.statusCode()).as("POST /teams with id " + id + " -> " + team.asString()).isEqualTo(400);
            assertThat(team.<List<String>>path("errors.field")).containsExactly("id");
            Response author = given().contentType(ContentType.JSON)
                    .body("{\"authorId\":\"" + id + "\",\"name\":\"N\"}").post("/authors");
            assertThat(author.statusCode()).as("POST /authors with authorId " + id + " -> " + author.asString()).isEqualTo(400);
            assertThat(author.<List<String>>path("errors.field")).containsExactly("authorId");
        }
        // A pair is text: a character outside the Basic Multilingual Plane is an id like any other.
        String pair = "t-" + k + "-\\ud83c\\udfcf";
        given().contentType(ContentType.JSON).body("{\"id\":\"" + pair + "\",\"name\":\"A\",\"country\":\"A\",\"ranking\":1}")
                .post("/teams").then().statusCode(201);
        var after = TableDump.quiet(client);
        after.removeIf(item -> item.contains("t-" + k + "-"));
        assertThat(after).as("the table after the refused creates").isEqualTo(before);
    }

    /** An enum parameter sent empty is none of its values: a 400 naming it, never read as its default. */
    @Test
    void enumParametersSentEmptyAreRefusedNotReadAsTheirDefault() {
        for (String jobs : List.of("/cascades", "/maintenance/reconcile")) {
            given().get(jobs).then().statusCode(200);
            given().queryParam("state", "").get(jobs).then().statusCode(400).contentType("application/problem+json")
                    .body("errors[0].field", org.hamcrest.Matchers.equalTo("state"));
        }
        given().contentType("application/merge-patch+json").queryParam("cascade", "").body("{\"name\":\"Renamed\"}")
                .patch("/teams/ht1-" + k).then().statusCode(400).contentType("application/problem+json")
                .body("errors[0].field", org.hamcrest.Matchers.equalTo("cascade"));
        given().get("/teams/ht1-" + k).then().statusCode(200).body("name", org.hamcrest.Matchers.equalTo("A"));
    }

    /**
     * A body over quarkus.http.limits.max-body-size is refused before it is read, as problem+json: for a client
     * that sends it at once, and for one that asks first with Expect: 100-continue (checked on a raw socket; the
     * JDK 17 HttpClient cannot take a final answer to 100-continue).
     */
    @Test
    void aBodyOverTheLimitIsRefusedWith413ProblemAndWritesNothing() throws Exception {
        var before = TableDump.quiet(client);
        String id = "big-" + k;
        String body = "{\"id\":\"" + id + "\",\"displayName\":\"" + "x".repeat(5 * 1024 * 1024) + "\",\"region\":\"r\",\"seatLimit\":1}";
        var http = java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1)
                .connectTimeout(java.time.Duration.ofSeconds(5)).build();
        for (int round = 0; round < 10; round++) { // the answer must win the race against the client's sending
            var response = http.sendAsync(java.net.http.HttpRequest.newBuilder(
                                    java.net.URI.create(io.restassured.RestAssured.baseURI + ":" + io.restassured.RestAssured.port + "/workspaces"))
                            .header("Content-Type", "application/json").timeout(java.time.Duration.ofSeconds(20))
                            .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString()).get(30, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(response.statusCode()).isEqualTo(413);
            assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(response.body()).contains("\"code\":\"PayloadTooLarge\"").contains("\"status\":413");
        }

        try (var socket = new java.net.Socket("127.0.0.1", io.restassured.RestAssured.port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("POST /workspaces HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length() + "\r\nExpect: 100-continue\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            String answer = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(answer).startsWith("HTTP/1.1 413").containsIgnoringCase("content-type: application/problem+json")
                    .contains("\"code\":\"PayloadTooLarge\"").doesNotContain("100 Continue");
        }
        given().get("/workspaces/{id}", id).then().statusCode(404);
        assertThat(TableDump.of(client)).isEqualTo(before);
    }

    RequestSpecification request() {
        return given();
    }

    void check(Route route, RequestSpecification request, String method, String path) {
        Response response = request.request(method, path);
        String what = method + " " + path;
        triedPerRoute.merge(what + " (" + route.contentType() + ")", 1, Integer::sum);
        if (response.statusCode() == 200 && route.contentType().endsWith("patch+json")) {
            return; // a merge patch that amounts to no change (e.g. removing a field the item does not have): the
                    // final table dump proves it wrote nothing
        }
        assertThat(response.statusCode()).as(what + " -> " + response.asString()).isBetween(400, 499);
        assertThat(response.contentType()).as(what).startsWith("application/problem+json");
        assertThat(response.<String>path("code")).as(what).isNotBlank();
        assertThat(response.asString()).as(what).doesNotContain("Exception").doesNotContain("at dev.cairn");
    }

    static void post(String path, String body) {
        given().contentType(ContentType.JSON).body(body).post(path).then().statusCode(201);
    }
}
