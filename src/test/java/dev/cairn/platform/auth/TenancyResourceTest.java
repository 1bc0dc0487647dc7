package dev.cairn.platform.auth;

import dev.cairn.core.CairnException;
import dev.cairn.platform.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

import static dev.cairn.platform.auth.AuthResourceTest.as;
import static dev.cairn.platform.auth.AuthResourceTest.unique;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

/**
 * The tenancy model with authentication on: workspaces are tenants (another tenant's data answers as missing,
 * in the API and in the console), users act only as themselves, author fields come from the token, and job
 * details are for operators.
 */
@QuarkusTest
@TestProfile(AuthEnabledProfile.class)
class TenancyResourceTest {

    private static final String PROBLEM = "application/problem+json";

    private static RequestSpecification json(String bearer, String body) {
        return as(bearer).contentType(ContentType.JSON).body(body);
    }

    private static void workspaceWithProjects(String id, int projects) {
        json(TestTokens.admin(), "{\"id\":\"" + id + "\",\"displayName\":\"W\",\"region\":\"eu-west-1\",\"seatLimit\":5}")
                .post("/workspaces").then().statusCode(201);
        for (int i = 0; i < projects; i++) {
            json(TestTokens.admin(), "{\"title\":\"P" + i + "\",\"status\":\"PAUSED\",\"createdBy\":\"ann\"}")
                    .post("/workspaces/{id}/projects", id).then().statusCode(201);
        }
    }

    private static void user(String id) {
        json(TestTokens.admin(), "{\"id\":\"" + id + "\",\"firstName\":\"N\",\"lastName\":\"L\"}")
                .post("/users").then().statusCode(201);
    }

    @Test
    void theConsoleShowsUniqueValueSentinelsOnlyToAnAdminOfEveryWorkspace() {
        String member = unique("m");
        String email = member + "@example.org";
        json(TestTokens.admin(), "{\"memberId\":\"" + member + "\",\"name\":\"N\",\"email\":\"" + email
                + "\",\"address\":{\"city\":\"Leeds\"}}").post("/members").then().statusCode(201);
        String sentinel = "UNIQUE#Member#email#*#" + email;
        // a sentinel names a value and holds its owner's key: no single workspace's to see
        as(TestTokens.bearer("ada", List.of(unique("ws")), "cairn-admin")).queryParam("pk", sentinel)
                .get("/console/api/collections").then().statusCode(200).body("items", empty()).header("X-DynamoDB-Calls", "0");
        as(TestTokens.admin()).queryParam("pk", sentinel).get("/console/api/collections").then().statusCode(200)
                .body("items.size()", equalTo(1));
    }

    @Test
    void theConsoleShowsAScopedAdminNothingOfAnotherTenant() {
        String mine = unique("ws-a");
        String theirs = unique("ws-b");
        workspaceWithProjects(mine, 1);
        workspaceWithProjects(theirs, 2);
        String scopedAdmin = TestTokens.bearer("ada", List.of(mine), "cairn-admin");

        as(scopedAdmin).queryParam("pk", "WS#" + theirs).get("/console/api/collections").then().statusCode(200)
                .body("items", empty()).body("next", nullValue()).header("X-DynamoDB-Calls", "0");
        as(scopedAdmin).queryParam("kind", "workspace").queryParam("id", theirs).get("/console/api/collections")
                .then().statusCode(200).body("items", empty());
        as(scopedAdmin).queryParam("pk", "WS#" + mine).get("/console/api/collections").then().statusCode(200)
                .body("items.size()", equalTo(2));

        // The status index (four shards) mixes tenants: even filtered, its pages' shape would tell a scoped admin how
        // many projects other tenants have, and when; the index view is for admins of every workspace.
        as(scopedAdmin).queryParam("pk", "STATUS#PAUSED").get("/console/api/indexes/{index}", "gsi1").then()
                .statusCode(403).contentType(PROBLEM).body("code", equalTo("Forbidden"));
        assertThat(statusIndexRows(TestTokens.admin())).anyMatch(pk -> pk.contains(theirs));
        // The table's counts span every tenant: a scoped admin sees its layout, not its counts, and cannot count types.
        as(scopedAdmin).get("/console/api/table").then().statusCode(200).body("indexes.size()", equalTo(5))
                .body("itemCount", nullValue()).body("indexes[0].itemCount", nullValue());
        as(scopedAdmin).get("/console/api/type-counts").then().statusCode(403).contentType(PROBLEM)
                .body("code", equalTo("Forbidden"));
        // Maintenance spans every tenant: a reconcile's pages would count theirs, its Scan reads theirs.
        as(scopedAdmin).contentType("application/json").body("{}").post("/maintenance/reconcile").then().statusCode(403)
                .contentType(PROBLEM).body("code", equalTo("Forbidden"));
        as(scopedAdmin).get("/maintenance/reconcile").then().statusCode(403).contentType(PROBLEM);
        as(scopedAdmin).get("/maintenance/jobs/{id}", "any").then().statusCode(403).contentType(PROBLEM);
    }

    private static List<String> statusIndexRows(String bearer) {
        var pks = new ArrayList<String>();
        for (String shard : List.of("STATUS#PAUSED", "STATUS#PAUSED#01", "STATUS#PAUSED#02", "STATUS#PAUSED#03")) {
            pks.addAll(as(bearer).queryParam("pk", shard).queryParam("limit", "100")
                    .get("/console/api/indexes/{index}", "gsi1").then().statusCode(200).extract().<List<String>>path("items.pk"));
        }
        return pks;
    }

    @Test
    void aCursorOfAFilteredListingCarriesNoKeyOfAnotherTenant() {
        String mine = unique("ws-a");
        String theirs = unique("ws-b");
        workspaceWithProjects(mine, 1);
        // Theirs are newer: the status index reads them first, so the last key READ is theirs.
        json(TestTokens.admin(), "{\"id\":\"" + theirs + "\",\"displayName\":\"W\",\"region\":\"eu-west-1\",\"seatLimit\":5}")
                .post("/workspaces").then().statusCode(201);
        for (int i = 0; i < 3; i++) {
            json(TestTokens.admin(), "{\"title\":\"T\",\"status\":\"ARCHIVED\",\"createdBy\":\"ann\"}")
                    .post("/workspaces/{id}/projects", theirs).then().statusCode(201);
        }
        json(TestTokens.admin(), "{\"title\":\"M\",\"status\":\"ARCHIVED\",\"createdBy\":\"ann\"}")
                .post("/workspaces/{id}/projects", mine).then().statusCode(201);
        for (int i = 0; i < 3; i++) {
            json(TestTokens.admin(), "{\"title\":\"T\",\"status\":\"ARCHIVED\",\"createdBy\":\"ann\"}")
                    .post("/workspaces/{id}/projects", theirs).then().statusCode(201);
        }
        String tenant = TestTokens.bearer("alice", List.of(mine), "cairn-reader");
        String next = as(tenant).queryParam("status", "ARCHIVED").queryParam("limit", "1").get("/projects")
                .then().statusCode(200).extract().path("next");
        assertThat(next).isNotNull();
        byte[] raw = Base64.getUrlDecoder().decode(next);
        assertThat(readable(raw)).doesNotContain(theirs, "WS#", "PROJ#", "STATUS#");
        assertThat(readable(inflated(raw))).doesNotContain(theirs, "WS#", "PROJ#");
        // The cursor still works for its owner.
        as(tenant).queryParam("status", "ARCHIVED").queryParam("cursor", next).get("/projects").then().statusCode(200);
    }

    private static String readable(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /** What a curious caller gets by inflating the cursor as if it were the plain deflated key. */
    private static byte[] inflated(byte[] raw) {
        var inflater = new Inflater(true);
        try {
            inflater.setInput(raw);
            byte[] out = new byte[8192];
            int n = inflater.inflate(out);
            return Arrays.copyOf(out, n);
        } catch (DataFormatException e) {
            return new byte[0];
        } finally {
            inflater.end();
        }
    }

    @Test
    void aUserChangesAndPostsOnlyAsItself() {
        String victim = unique("victim");
        String alice = unique("alice");
        user(victim);
        user(alice);
        String post = json(TestTokens.admin(), "{\"title\":\"Mine\",\"content\":\"hello\"}")
                .post("/users/{uid}/posts", victim).then().statusCode(201).extract().path("postId");
        String asAlice = TestTokens.bearer(alice, List.of("*"), "cairn-writer");

        Response patchOther = json(asAlice, "{\"firstName\":\"pwned\"}").contentType("application/merge-patch+json")
                .patch("/users/{id}", victim);
        patchOther.then().statusCode(403).contentType(PROBLEM).body("code", equalTo("Forbidden"))
                .body("requiredRole", equalTo("cairn-admin"));
        json(asAlice, "{\"title\":\"x\",\"content\":\"spoof\"}").post("/users/{uid}/posts", victim)
                .then().statusCode(403).contentType(PROBLEM);
        json(asAlice, "{\"title\":\"pwned\"}").contentType("application/merge-patch+json")
                .patch("/users/{uid}/posts/{postId}", victim, post).then().statusCode(403).contentType(PROBLEM);
        json(asAlice, "{\"id\":\"" + unique("bob") + "\",\"firstName\":\"B\",\"lastName\":\"L\"}").post("/users")
                .then().statusCode(403).contentType(PROBLEM);
        json(asAlice, "{\"userId\":\"" + victim + "\",\"content\":\"spoof\"}").post("/posts/{postId}/comments", post)
                .then().statusCode(403).contentType(PROBLEM);

        // Nothing of the victim's changed, and nothing was posted in its name.
        as(TestTokens.admin()).get("/users/{id}", victim).then().statusCode(200).body("firstName", equalTo("N"));
        as(TestTokens.admin()).get("/users/{uid}/posts", victim).then().statusCode(200).body("items.size()", equalTo(1))
                .body("items[0].title", equalTo("Mine"));
        as(TestTokens.admin()).get("/posts/{postId}/comments", post).then().statusCode(200).body("items", empty());

        // Alice's own writes pass, and a comment without userId is hers.
        json(asAlice, "{\"firstName\":\"Alice\"}").contentType("application/merge-patch+json").patch("/users/{id}", alice)
                .then().statusCode(200).body("firstName", equalTo("Alice"));
        json(asAlice, "{\"title\":\"own\",\"content\":\"c\"}").post("/users/{uid}/posts", alice).then().statusCode(201);
        json(asAlice, "{\"content\":\"nice\"}").post("/posts/{postId}/comments", post).then().statusCode(201)
                .body("userId", equalTo(alice));
        json(asAlice, "{\"id\":\"" + unique("other") + "\",\"firstName\":\"B\",\"lastName\":\"L\"}").post("/users")
                .then().statusCode(403);
    }

    @Test
    void anAdminMayActForAnotherUser() {
        String someone = unique("someone");
        user(someone);
        json(TestTokens.admin(), "{\"firstName\":\"Renamed\"}").contentType("application/merge-patch+json")
                .patch("/users/{id}", someone).then().statusCode(200).body("firstName", equalTo("Renamed"));
    }

    @Test
    void theAuthorOfAProjectComesFromTheToken() {
        String ws = unique("ws");
        workspaceWithProjects(ws, 0);
        String writer = TestTokens.bearer("wendy", List.of(ws), "cairn-writer");

        String id = json(writer, "{\"title\":\"T\",\"status\":\"ACTIVE\"}").post("/workspaces/{id}/projects", ws)
                .then().statusCode(201).body("createdBy", equalTo("wendy")).extract().path("id");
        json(writer, "{\"title\":\"T\",\"status\":\"ACTIVE\",\"createdBy\":\"wendy\"}").post("/workspaces/{id}/projects", ws)
                .then().statusCode(201).body("createdBy", equalTo("wendy"));
        json(writer, "{\"title\":\"Forged\",\"status\":\"ACTIVE\",\"createdBy\":\"ceo\"}").post("/workspaces/{id}/projects", ws)
                .then().statusCode(403).contentType(PROBLEM).body("code", equalTo("Forbidden"));
        json(writer, "{\"createdBy\":\"ceo\"}").contentType("application/merge-patch+json")
                .patch("/workspaces/{id}/projects/{p}", ws, id).then().statusCode(400).contentType(PROBLEM);

        List<String> titles = as(writer).queryParam("limit", "100").get("/workspaces/{id}/projects", ws).then()
                .statusCode(200).extract().path("items.title");
        assertThat(titles).containsExactly("T", "T");
    }

    @Test
    void aReaderWithoutWorkspacesReadsSharedDomainsButNoWorkspace() {
        String someone = unique("someone");
        user(someone);
        String ws = unique("ws");
        workspaceWithProjects(ws, 0);
        String noScope = TestTokens.bearer("nobody", null, "cairn-reader");
        as(noScope).get("/users/{id}", someone).then().statusCode(200);
        as(noScope).get("/workspaces/{id}", ws).then().statusCode(404).contentType(PROBLEM);
    }

    @Test
    void cascadeJobsAreListedForOperatorsAndShowOthersNoKeysOrHosts() {
        String team = unique("team");
        String player = unique("player");
        String admin = TestTokens.admin();
        json(admin, "{\"id\":\"" + team + "\",\"name\":\"T\",\"country\":\"AU\",\"ranking\":3}").post("/teams")
                .then().statusCode(201);
        json(admin, "{\"id\":\"" + player + "\",\"firstName\":\"F\",\"lastName\":\"L\",\"role\":\"batter\"}")
                .post("/players").then().statusCode(201);
        json(admin, "{\"selectionNumber\":1,\"teamId\":\"" + team + "\",\"playerId\":\"" + player
                + "\",\"squadRole\":\"bowler\",\"isCaptain\":false}").post("/squads/{s}/selections", unique("squad"))
                .then().statusCode(201);
        String writer = TestTokens.bearer("wendy", List.of("*"), "cairn-writer");
        String job = json(writer, "{\"name\":\"T2\"}").contentType("application/merge-patch+json")
                .queryParam("cascade", "eventual").patch("/teams/{id}", team).then().statusCode(200)
                .body("matched", equalTo(1)).extract().path("job");
        assertThat(job).isNotNull();

        as(writer).queryParam("state", "done").get("/cascades").then().statusCode(403).contentType(PROBLEM)
                .body("requiredRole", equalTo("cairn-admin"));
        as(TestTokens.bearer("rita", List.of("*"), "cairn-reader")).get("/cascades").then().statusCode(403);
        as(admin).queryParam("state", "done").get("/cascades").then().statusCode(200);

        Map<String, Object> seenByWriter = as(writer).get("/cascades/{id}", job).then().statusCode(200)
                .body("matched", equalTo(1)).extract().path("");
        assertThat(seenByWriter.get("failedKeys")).isEqualTo(List.of());
        assertThat(seenByWriter).containsEntry("owner", null).containsEntry("leaseUntil", null);
    }

    @Test
    void withoutABoundCallerNothingIsAllowed() {
        assertThatThrownBy(Caller::current).isInstanceOfSatisfying(CairnException.class,
                e -> assertThat(e.error().code()).isEqualTo("Unauthenticated"));
    }
}
