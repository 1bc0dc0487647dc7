package dev.cairn.platform.auth;

import dev.cairn.platform.Pages;
import dev.cairn.platform.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/** Bearer JWTs, roles and tenant scope, with authentication on and tokens signed by the test key pair. */
@QuarkusTest
@TestProfile(AuthEnabledProfile.class)
class AuthResourceTest {

    static final String PROBLEM = "application/problem+json";

    static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    static RequestSpecification as(String bearer) {
        return given().header("Authorization", bearer);
    }

    static String workspaceJson(String id) {
        return "{\"id\":\"" + id + "\",\"displayName\":\"W\",\"region\":\"eu-west-1\",\"seatLimit\":5}";
    }

    static void createWorkspaceWithActiveProjects(String id, int projects) {
        as(TestTokens.admin()).contentType(ContentType.JSON).body(workspaceJson(id)).post("/workspaces").then().statusCode(201);
        for (int i = 0; i < projects; i++) {
            as(TestTokens.admin()).contentType(ContentType.JSON)
                    .body("{\"title\":\"P" + i + "\",\"status\":\"ACTIVE\",\"createdBy\":\"ann\"}")
                    .post("/workspaces/{id}/projects", id).then().statusCode(201);
        }
    }

    @Test
    void aRequestWithoutATokenIs401ProblemWithABearerChallenge() {
        given().get("/workspaces/{id}", unique("ws")).then().statusCode(401).contentType(PROBLEM)
                .header("WWW-Authenticate", "Bearer").body("code", equalTo("Unauthenticated"))
                .body("status", equalTo(401)).body("detail", equalTo("a bearer token is required"));
        given().get("/access-patterns").then().statusCode(401).contentType(PROBLEM);
        given().contentType(ContentType.JSON).body(workspaceJson(unique("ws"))).post("/workspaces")
                .then().statusCode(401).contentType(PROBLEM);
    }

    @ParameterizedTest
    @ValueSource(strings = {"expired", "wrongIssuer", "wrongSignature", "algNone", "garbage", "notBearer",
            "foreignAudience", "noAudience", "tenYearLifetime", "olderThanMaxAge", "noIssuedAt", "issuedInTheFuture"})
    void aRefusedTokenIs401WithInvalidTokenAndWritesNothing(String kind) {
        String header = kind.equals("notBearer") ? "Basic " + java.util.Base64.getEncoder().encodeToString("admin:admin".getBytes())
                : "Bearer " + refusedToken(kind);
        String ws = unique("ws");
        Response refused = as(header).contentType(ContentType.JSON).body(workspaceJson(ws)).post("/workspaces");
        refused.then().statusCode(401).contentType(PROBLEM).body("code", equalTo("Unauthenticated"));
        assertThat(refused.header("WWW-Authenticate")).startsWith("Bearer");
        as(TestTokens.admin()).get("/workspaces/{id}", ws).then().statusCode(404);
    }

    static String refusedToken(String kind) {
        return switch (kind) {
            case "expired" -> TestTokens.expired();
            case "wrongIssuer" -> TestTokens.wrongIssuer();
            case "wrongSignature" -> TestTokens.wrongSignature();
            case "algNone" -> TestTokens.algNone();
            case "garbage" -> "not.a.jwt";
            // Same issuer and key, minted for another service (another client of a shared user pool), or for none.
            case "foreignAudience" -> adminClaims().audience("billing-service").sign(TestTokens.privateKey());
            case "noAudience" -> adminClaims().remove("aud").sign(TestTokens.privateKey());
            case "tenYearLifetime" -> TestTokens.admin(Duration.ZERO, Duration.ofDays(3650));
            // Expired 10 s ago (inside the skew) after a lifetime under the hour: only its age refuses it.
            case "olderThanMaxAge" -> TestTokens.admin(Duration.ofSeconds(3605), Duration.ofSeconds(3595));
            case "noIssuedAt" -> TestTokens.withoutIssuedAt();
            // An hour-long token "issued" in a year: its lifetime and age pass, yet it would work for a year from now.
            case "issuedInTheFuture" -> TestTokens.admin(Duration.ofDays(-365), Duration.ofHours(1));
            default -> throw new IllegalArgumentException(kind);
        };
    }

    static JwtClaimsBuilder adminClaims() {
        return TestTokens.claims("admin", List.of("*"), "cairn-admin");
    }

    @Test
    void tokensAtTheLimitsOfTheirTimesAndAudiencesAreAccepted() {
        // 30 s of clock skew: expired 10 s ago, or issued 10 s ahead by a clock that runs fast.
        as("Bearer " + TestTokens.admin(Duration.ofSeconds(600), Duration.ofSeconds(590))).get("/access-patterns")
                .then().statusCode(200);
        as("Bearer " + TestTokens.admin(Duration.ofSeconds(-10), Duration.ofMinutes(10))).get("/access-patterns")
                .then().statusCode(200);
        // Outside the skew: expired a minute ago, issued a minute ahead.
        as("Bearer " + TestTokens.admin(Duration.ofSeconds(660), Duration.ofSeconds(600))).get("/access-patterns")
                .then().statusCode(401);
        as("Bearer " + TestTokens.admin(Duration.ofSeconds(-60), Duration.ofMinutes(10))).get("/access-patterns")
                .then().statusCode(401);
        // The longest lifetime there is, and a token for several audiences, this service among them.
        as("Bearer " + TestTokens.admin(Duration.ZERO, Duration.ofHours(1))).get("/access-patterns").then().statusCode(200);
        as("Bearer " + adminClaims().audience(Set.of("billing-service", TestTokens.AUDIENCE)).sign(TestTokens.privateKey()))
                .get("/access-patterns").then().statusCode(200);
    }

    @Test
    void aMissingRouteIs405Or404BeforeAnyTokenIsAsked() {
        given().delete("/players").then().statusCode(405).contentType(PROBLEM).header("Allow", containsString("POST"));
        as(TestTokens.bearer("rita", List.of("*"), "cairn-reader")).contentType("application/json").body("{}").put("/teams/{id}", unique("t"))
                .then().statusCode(405).contentType(PROBLEM);
        given().contentType("application/json").body("{}").post("/books/x/authors").then().statusCode(405)
                .header("Allow", equalTo("GET"));
        given().get("/shelves/x").then().statusCode(404).contentType(PROBLEM);
        given().get("/books/{id}", unique("b")).then().statusCode(401);
    }

    @Test
    void aReaderReadsButCannotWrite() {
        String ws = unique("ws");
        createWorkspaceWithActiveProjects(ws, 1);
        String reader = TestTokens.bearer("rita", List.of("*"), "cairn-reader");
        as(reader).get("/workspaces/{id}", ws).then().statusCode(200).body("id", equalTo(ws));
        as(reader).contentType(ContentType.JSON).body("{\"seatLimit\":9}").patch("/workspaces/{id}", ws)
                .then().statusCode(403).contentType(PROBLEM).body("code", equalTo("Forbidden"))
                .body("requiredRole", equalTo("cairn-writer"));
        as(reader).contentType(ContentType.JSON).body(workspaceJson(unique("ws"))).post("/workspaces")
                .then().statusCode(403).contentType(PROBLEM);
        as(reader).get("/workspaces/{id}", ws).then().statusCode(200).body("seatLimit", equalTo(5));
    }

    @Test
    void aWriterWritesButNeedsAdminForTransactionalCascadesAndReferencedDeletes() {
        String ws = unique("ws");
        String writer = TestTokens.bearer("wendy", List.of("*"), "cairn-writer");
        as(writer).contentType(ContentType.JSON).body(workspaceJson(ws)).post("/workspaces").then().statusCode(201);
        as(writer).contentType(ContentType.JSON).body("{\"seatLimit\":9}").patch("/workspaces/{id}", ws)
                .then().statusCode(200).body("seatLimit", equalTo(9));

        String team = unique("team");
        as(writer).contentType(ContentType.JSON).body("{\"id\":\"" + team + "\",\"name\":\"T\",\"country\":\"AU\",\"ranking\":3}")
                .post("/teams").then().statusCode(201);
        as(writer).contentType(ContentType.JSON).body("{\"name\":\"T2\"}").queryParam("cascade", "transactional")
                .patch("/teams/{id}", team).then().statusCode(403).contentType(PROBLEM)
                .body("requiredRole", equalTo("cairn-admin"));
        // The binding reads the parameter whatever the case of its name: so does the role check.
        for (String name : List.of("CASCADE", "Cascade")) {
            as(writer).contentType(ContentType.JSON).body("{\"name\":\"T2\"}").queryParam(name, "transactional")
                    .patch("/teams/{id}", team).then().statusCode(403).contentType(PROBLEM)
                    .body("requiredRole", equalTo("cairn-admin"));
        }
        as(writer).get("/teams/{id}", team).then().statusCode(200).body("name", equalTo("T"));
        as(writer).delete("/teams/{id}", team).then().statusCode(403).body("requiredRole", equalTo("cairn-admin"));
        as(writer).contentType(ContentType.JSON).body("{\"name\":\"T2\"}").queryParam("cascade", "eventual")
                .patch("/teams/{id}", team).then().statusCode(200);

        String admin = TestTokens.admin();
        as(admin).contentType(ContentType.JSON).body("{\"name\":\"T3\"}").queryParam("cascade", "transactional")
                .patch("/teams/{id}", team).then().statusCode(200);
        as(admin).delete("/teams/{id}", team).then().statusCode(204);
    }

    @Test
    void aTokenWithoutCairnRolesIsForbiddenEverywhere() {
        String nobody = TestTokens.bearer("nobody", List.of("*"), "some-other-app");
        as(nobody).get("/workspaces/{id}", unique("ws")).then().statusCode(403).contentType(PROBLEM)
                .body("requiredRole", equalTo("cairn-reader"));
    }

    @Test
    void aTenantCannotReadListChangeOrDeleteAnotherTenantsWorkspace() {
        String mine = unique("ws-a");
        String theirs = unique("ws-b");
        createWorkspaceWithActiveProjects(mine, 1);
        createWorkspaceWithActiveProjects(theirs, 1);
        String theirProject = as(TestTokens.admin()).get("/workspaces/{id}/projects", theirs).then().statusCode(200)
                .extract().path("items[0].id");
        String tenant = TestTokens.bearer("alice", List.of(mine), "cairn-writer");
        String missing = unique("ws-missing");

        // Out of scope answers exactly like a missing workspace: same status, code and detail shape.
        Response outOfScope = as(tenant).get("/workspaces/{id}", theirs);
        Response absent = as(TestTokens.admin()).get("/workspaces/{id}", missing);
        outOfScope.then().statusCode(404).contentType(PROBLEM).body("code", equalTo("NotFound"));
        assertThat(outOfScope.jsonPath().getString("detail").replace(theirs, "X"))
                .isEqualTo(absent.jsonPath().getString("detail").replace(missing, "X"));

        as(tenant).get("/workspaces/{id}", mine).then().statusCode(200);
        as(tenant).queryParam("include", "projects").get("/workspaces/{id}", theirs).then().statusCode(404);
        as(tenant).get("/workspaces/{id}/projects", theirs).then().statusCode(404);
        as(tenant).get("/workspaces/{id}/projects/{p}", theirs, theirProject).then().statusCode(404);
        as(tenant).contentType(ContentType.JSON).body("{\"seatLimit\":1}").patch("/workspaces/{id}", theirs)
                .then().statusCode(404);
        as(tenant).contentType(ContentType.JSON).body("{\"title\":\"x\"}")
                .patch("/workspaces/{id}/projects/{p}", theirs, theirProject).then().statusCode(404);
        as(tenant).contentType(ContentType.JSON).body("{\"title\":\"P\",\"status\":\"ACTIVE\",\"createdBy\":\"x\"}")
                .post("/workspaces/{id}/projects", theirs).then().statusCode(404);
        as(tenant).delete("/workspaces/{id}/projects/{p}", theirs, theirProject).then().statusCode(404);
        as(tenant).contentType(ContentType.JSON).body(workspaceJson(unique("ws-c"))).post("/workspaces")
                .then().statusCode(403).contentType(PROBLEM).body("code", equalTo("Forbidden"));

        // Nothing of theirs changed.
        as(TestTokens.admin()).get("/workspaces/{id}", theirs).then().statusCode(200).body("seatLimit", equalTo(5));
        as(TestTokens.admin()).get("/workspaces/{id}/projects/{p}", theirs, theirProject).then().statusCode(200)
                .body("title", equalTo("P0"));
    }

    @Test
    void aDottedOrEncodedPathIsAuthorizedAsTheRouteItServes() throws Exception {
        String mine = unique("ws-a");
        String theirs = unique("ws-b");
        createWorkspaceWithActiveProjects(mine, 1);
        createWorkspaceWithActiveProjects(theirs, 1);
        String tenant = TestTokens.bearer("alice", List.of(mine), "cairn-writer");
        // Sent byte for byte (HTTP clients remove dot segments themselves): each path is served as the route it
        // normalizes to and authorized as that same route, so another tenant's workspace reached through dot segments
        // or escaped letters is as missing as by its plain path ...
        for (String path : List.of("/workspaces/" + mine + "/../" + theirs + "/projects",
                "/workspaces/" + mine + "/%2E%2E/" + theirs + "/projects", "/workspaces/./" + theirs + "/projects",
                "/workspaces/" + escapedLetters(theirs) + "/projects", "/x/../workspaces/" + theirs)) {
            assertThat(raw(tenant, path)).as(path).startsWith("HTTP/1.1 404").contains("\"code\":\"NotFound\"");
        }
        // ... and one's own, so reached, is one's own.
        assertThat(raw(tenant, "/workspaces/" + theirs + "/%2e%2e/" + mine + "/projects")).startsWith("HTTP/1.1 200")
                .contains("\"workspaceId\":\"" + mine + "\"").doesNotContain(theirs);
        assertThat(raw(tenant, "/workspaces/" + escapedLetters(mine))).startsWith("HTTP/1.1 200")
                .contains("\"id\":\"" + mine + "\"");
        // Without a token, every form is the 401 the plain path is.
        assertThat(raw(null, "/workspaces/" + theirs + "/../" + mine + "/projects")).startsWith("HTTP/1.1 401");
        assertThat(raw(null, "/workspaces/" + escapedLetters(mine))).startsWith("HTTP/1.1 401");
        // A segment that only another reading of the path takes for a dot segment ("..;") names no route: the 404 of a
        // path no model declares, with or without a token, never a 405 naming the route that other reading finds.
        for (String bearer : java.util.Arrays.asList(tenant, null)) {
            String answer = raw(bearer, "/workspaces/" + mine + "/..;/" + theirs + "/projects");
            assertThat(answer).startsWith("HTTP/1.1 404").contains("\"code\":\"NotFound\"").doesNotContainIgnoringCase("allow:");
        }
    }

    /** The id with each letter percent-encoded (an unreserved character, which the server decodes). */
    private static String escapedLetters(String id) {
        var out = new StringBuilder();
        id.chars().forEach(c -> out.append(Character.isLetter(c) ? String.format("%%%02X", c) : String.valueOf((char) c)));
        return out.toString();
    }

    /** One GET with the path exactly as given, over a socket: the status line, headers and body as text. */
    private static String raw(String bearer, String path) throws java.io.IOException {
        try (var socket = new java.net.Socket("127.0.0.1", io.restassured.RestAssured.port)) {
            socket.setSoTimeout(10_000);
            String request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + (bearer == null ? "" : "Authorization: " + bearer + "\r\n") + "Connection: close\r\n\r\n";
            socket.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    @Test
    void theStatusListingShowsOnlyTheCallersWorkspacesAndStarSeesAll() {
        String mine = unique("ws-a");
        String theirs = unique("ws-b");
        createWorkspaceWithActiveProjects(mine, 2);
        createWorkspaceWithActiveProjects(theirs, 2);

        List<String> seenByTenant = activeWorkspaces(TestTokens.bearer("alice", List.of(mine), "cairn-reader"));
        assertThat(seenByTenant).contains(mine).doesNotContain(theirs).containsOnly(mine);
        List<String> seenByAll = activeWorkspaces(TestTokens.bearer("root", List.of("*"), "cairn-reader"));
        assertThat(seenByAll).contains(mine, theirs);

        String noScope = TestTokens.bearer("nobody", null, "cairn-reader");
        as(noScope).queryParam("status", "ACTIVE").get("/projects").then().statusCode(200)
                .body("items.size()", equalTo(0)).header("X-DynamoDB-Calls", "0");
        as(noScope).get("/workspaces/{id}", mine).then().statusCode(404);
    }

    private static List<String> activeWorkspaces(String bearer) {
        var seen = new java.util.ArrayList<String>();
        Pages.walk(() -> as(bearer).queryParam("status", "ACTIVE").queryParam("limit", "100"), r -> r.get("/projects"))
                .forEach(page -> seen.addAll(page.path("items.workspaceId")));
        return seen;
    }

    @Test
    void aCursorTakenByOneTenantGivesAnotherNoData() {
        String mine = unique("ws-a");
        String theirs = unique("ws-b");
        createWorkspaceWithActiveProjects(mine, 3);
        createWorkspaceWithActiveProjects(theirs, 3);
        String alice = TestTokens.bearer("alice", List.of(mine), "cairn-reader");
        String bob = TestTokens.bearer("bob", List.of(theirs), "cairn-reader");

        String aliceCursor = as(alice).queryParam("limit", "1").get("/workspaces/{id}/projects", mine)
                .then().statusCode(200).extract().path("next");
        assertThat(aliceCursor).isNotNull();
        as(bob).queryParam("cursor", aliceCursor).get("/workspaces/{id}/projects", mine).then().statusCode(404);
        as(bob).queryParam("cursor", aliceCursor).get("/workspaces/{id}/projects", theirs).then().statusCode(400)
                .contentType(PROBLEM).body("code", equalTo("InvalidCursor"));

        String aliceStatusCursor = as(alice).queryParam("status", "ACTIVE").queryParam("limit", "1").get("/projects")
                .then().statusCode(200).extract().path("next");
        assertThat(aliceStatusCursor).isNotNull();
        as(bob).queryParam("status", "ACTIVE").queryParam("cursor", aliceStatusCursor).get("/projects")
                .then().statusCode(400).contentType(PROBLEM).body("code", equalTo("InvalidCursor"));
    }

    @Test
    void theConsolePageIsPublicButItsApiIsForAdminsOnly() {
        given().get("/console").then().statusCode(200);
        given().get("/console/api/access-patterns").then().statusCode(401).contentType(PROBLEM);
        as(TestTokens.bearer("wendy", List.of("*"), "cairn-writer")).get("/console/api/access-patterns")
                .then().statusCode(403).body("requiredRole", equalTo("cairn-admin"));
        as(TestTokens.admin()).get("/console/api/access-patterns").then().statusCode(200);
        as(TestTokens.admin()).queryParam("pk", "NO#SUCH").get("/console/api/collections").then().statusCode(200);
    }

    @Test
    void aTokenMintedByTheReadmeScriptIsAccepted() throws Exception {
        var process = new ProcessBuilder("bash", "deploy/auth/mint-token.sh", "-k", "src/test/resources/auth/test-private-key.pem",
                "-i", TestTokens.ISSUER, "-a", TestTokens.AUDIENCE, "-g", "cairn-reader", "-w", "*").redirectErrorStream(true).start();
        String token = new String(process.getInputStream().readAllBytes()).trim();
        assertThat(process.waitFor()).isZero();
        as("Bearer " + token).get("/access-patterns").then().statusCode(200);
        as("Bearer " + token).contentType(ContentType.JSON).body(workspaceJson(unique("ws"))).post("/workspaces")
                .then().statusCode(403);
    }

    @Test
    void onlyAnAdminStartsOrReadsAReconcile() {
        String writer = TestTokens.bearer("wendy", List.of("*"), "cairn-writer");
        String body = "{\"entity\":\"player\",\"id\":\"" + unique("nobody") + "\"}";
        as(writer).contentType(ContentType.JSON).body(body).post("/maintenance/reconcile").then().statusCode(403)
                .contentType(PROBLEM).body("requiredRole", equalTo("cairn-admin"));
        as(writer).get("/maintenance/reconcile").then().statusCode(403).contentType(PROBLEM);
        String job = as(TestTokens.admin()).contentType(ContentType.JSON).body(body).post("/maintenance/reconcile")
                .then().statusCode(202).body("scope", equalTo("source")).extract().path("id");
        as(writer).get("/maintenance/jobs/{id}", job).then().statusCode(403).contentType(PROBLEM);
        as(TestTokens.admin()).get("/maintenance/jobs/{id}", job).then().statusCode(200).body("kind", equalTo("reconcile"));
    }

    @Test
    void anIdWithAnEncodedSlashNeedsATokenLikeAnyOther() {
        String id = unique("a") + "/b";
        String encoded = id.replace("/", "%2F");
        // Without a token: the same 401 as for any id, on reads and writes, before anything is read or written.
        given().urlEncodingEnabled(false).get("/users/" + encoded).then().statusCode(401).contentType(PROBLEM);
        given().urlEncodingEnabled(false).get("/students/" + encoded + "/courses").then().statusCode(401);
        given().urlEncodingEnabled(false).delete("/books/" + encoded).then().statusCode(401);
        // With one, the user whose id it is acts as itself, and its Location reads it back.
        String self = TestTokens.bearer(id, List.of(), "cairn-writer");
        String location = as(self).contentType(ContentType.JSON)
                .body("{\"id\":\"" + id + "\",\"firstName\":\"S\",\"lastName\":\"L\"}").post("/users")
                .then().statusCode(201).extract().header("Location");
        assertThat(location).endsWith("/users/" + encoded);
        as(self).urlEncodingEnabled(false).get(location).then().statusCode(200).body("id", equalTo(id));
        as(self).urlEncodingEnabled(false).contentType("application/merge-patch+json").body("{\"firstName\":\"T\"}")
                .patch("/users/" + encoded).then().statusCode(200).body("firstName", equalTo("T"));
        as(TestTokens.bearer(unique("other"), List.of(), "cairn-writer")).urlEncodingEnabled(false)
                .contentType("application/merge-patch+json").body("{\"firstName\":\"X\"}")
                .patch("/users/" + encoded).then().statusCode(403);
    }

    @Test
    void theCallerIsTheTokensSubjectNeverAnEditableUsername() {
        String victim = unique("victim");
        as(TestTokens.admin()).contentType(ContentType.JSON)
                .body("{\"id\":\"" + victim + "\",\"firstName\":\"V\",\"lastName\":\"L\"}").post("/users")
                .then().statusCode(201);
        String spoof = "Bearer " + io.smallrye.jwt.build.Jwt.issuer(TestTokens.ISSUER).audience(TestTokens.AUDIENCE)
                .subject(unique("mallory")).claim("preferred_username", victim).groups(java.util.Set.of("cairn-writer"))
                .claim("workspaces", List.of("*")).sign(TestTokens.privateKey());
        as(spoof).contentType("application/merge-patch+json").body("{\"firstName\":\"pwned\"}")
                .patch("/users/{id}", victim).then().statusCode(403).contentType(PROBLEM);
        as(TestTokens.admin()).get("/users/{id}", victim).then().statusCode(200).body("firstName", equalTo("V"));
    }
}
