package dev.cairn.workspace;

import dev.cairn.platform.Pages;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

@QuarkusTest
class WorkspaceResourceTest {

    static String uniqueId() {
        return "ws-" + UUID.randomUUID();
    }

    static String workspaceJson(String id) {
        return "{\"id\":\"" + id.replace("\\", "\\\\").replace("\"", "\\\"") + "\",\"displayName\":\"Acme\",\"region\":\"eu-west-1\",\"seatLimit\":25}";
    }

    static void createWorkspace(String id) {
        given().contentType(ContentType.JSON).body(workspaceJson(id)).post("/workspaces").then().statusCode(201);
    }

    static String createProject(String workspaceId, String title, String status) {
        return given().contentType(ContentType.JSON)
                .body("{\"title\":\"" + title + "\",\"status\":\"" + status + "\",\"createdBy\":\"ann\"}")
                .post("/workspaces/{id}/projects", workspaceId).then().statusCode(201)
                .extract().path("id");
    }

    @Test
    void createAnswers201WithLocationAndETagInOneCallAndADuplicateIs409() {
        String id = uniqueId();
        given().contentType(ContentType.JSON).body(workspaceJson(id)).post("/workspaces").then()
                .statusCode(201)
                .header("Location", endsWith("/workspaces/" + id))
                .header("ETag", "\"1\"")
                .header("X-DynamoDB-Calls", "1")
                .body("id", equalTo(id)).body("seatLimit", equalTo(25)).body("createdAt", notNullValue());
        given().contentType(ContentType.JSON).body(workspaceJson(id).replace("Acme", "Other")).post("/workspaces").then()
                .statusCode(409).contentType("application/problem+json").body("code", equalTo("Conflict"));
        given().get("/workspaces/{id}", id).then().statusCode(200)
                .header("X-DynamoDB-Calls", "1").header("ETag", "\"1\"")
                .body("displayName", equalTo("Acme"));
    }

    @Test
    void invalidWorkspaceIsRejectedWithEveryFieldNamed() {
        given().contentType(ContentType.JSON).body("{\"id\":\" \",\"displayName\":\"\",\"seatLimit\":-5}")
                .post("/workspaces").then().statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("ValidationFailed"))
                .body("errors.field", hasItem("id")).body("errors.field", hasItem("displayName"))
                .body("errors.field", hasItem("region")).body("errors.field", hasItem("seatLimit"));
    }

    @Test
    void missingWorkspaceIs404() {
        given().get("/workspaces/{id}", uniqueId()).then().statusCode(404)
                .contentType("application/problem+json").body("code", equalTo("NotFound"))
                .header("X-DynamoDB-Calls", "1");
    }

    @Test
    void idsDifferingInCaseOrCarryingDelimitersStayApart() {
        String base = uniqueId();
        createWorkspace("CASE-" + base);
        given().get("/workspaces/{id}", "case-" + base).then().statusCode(404);
        String hashed = base + "#PROJ";
        createWorkspace(hashed);
        given().get("/workspaces/{id}", hashed).then().statusCode(200)
                .body("id", equalTo(hashed));
        given().get("/workspaces/{id}/projects", base).then().statusCode(404);
        createWorkspace(base);
        given().get("/workspaces/{id}/projects", base).then().statusCode(200).body("items", hasSize(0));
    }

    @Test
    void mergePatchChangesOnlyTheGivenFieldsAndHonoursIfMatch() {
        String id = uniqueId();
        createWorkspace(id);
        given().contentType("application/merge-patch+json").body("{\"seatLimit\": 50}")
                .patch("/workspaces/{id}", id).then().statusCode(200)
                .header("ETag", "\"2\"").header("X-DynamoDB-Calls", "2")
                .body("seatLimit", equalTo(50)).body("displayName", equalTo("Acme"));
        given().contentType("application/merge-patch+json").header("If-Match", "\"1\"").body("{\"seatLimit\": 60}")
                .patch("/workspaces/{id}", id).then().statusCode(412)
                .contentType("application/problem+json").body("code", equalTo("VersionConflict"))
                .body("actualVersion", equalTo(2));
        given().contentType("application/merge-patch+json").header("If-Match", "\"2\"").body("{\"region\": \"us-east-2\"}")
                .patch("/workspaces/{id}", id).then().statusCode(200).header("ETag", "\"3\"");
        given().get("/workspaces/{id}", id).then().body("seatLimit", equalTo(50)).body("region", equalTo("us-east-2"));
    }

    @Test
    void badPatchesAreRejectedAndChangeNothing() {
        String id = uniqueId();
        createWorkspace(id);
        given().contentType("application/merge-patch+json").body("{\"seatLimit\": -1}")
                .patch("/workspaces/{id}", id).then().statusCode(400).body("errors[0].field", equalTo("seatLimit"));
        given().contentType("application/merge-patch+json").body("{\"seatLimt\": 3}")
                .patch("/workspaces/{id}", id).then().statusCode(400).body("errors[0].field", equalTo("seatLimt"));
        given().contentType("application/merge-patch+json").body("{\"id\": \"other\"}")
                .patch("/workspaces/{id}", id).then().statusCode(400).body("errors[0].field", equalTo("id"));
        given().contentType("application/merge-patch+json").body("{\"displayName\": null}")
                .patch("/workspaces/{id}", id).then().statusCode(400).body("errors[0].field", equalTo("displayName"));
        given().contentType("application/merge-patch+json").body("[1,2]")
                .patch("/workspaces/{id}", id).then().statusCode(400).body("code", equalTo("MalformedRequest"));
        given().contentType("application/merge-patch+json").header("If-Match", "three").body("{\"seatLimit\": 3}")
                .patch("/workspaces/{id}", id).then().statusCode(400).body("code", equalTo("MalformedRequest"));
        given().contentType("application/merge-patch+json").body("{\"seatLimit\": 3}")
                .patch("/workspaces/{id}", uniqueId()).then().statusCode(404);
        given().get("/workspaces/{id}", id).then().header("ETag", "\"1\"").body("seatLimit", equalTo(25));
    }

    @Test
    void projectsAreCreatedWithTimeOrderedIdsAndListedNewestFirstAcrossPages() {
        String id = uniqueId();
        createWorkspace(id);
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            created.add(createProject(id, "p" + i, "ACTIVE"));
        }
        assertThat(created).isSorted().doesNotHaveDuplicates();
        List<String> listed = new ArrayList<>();
        List<Response> pages = Pages.walk(() -> given().queryParam("limit", 3), r -> r.get("/workspaces/{id}/projects", id));
        for (Response page : pages) {
            page.then().header("X-DynamoDB-Calls", "1");
            listed.addAll(page.path("items.id"));
        }
        assertThat(pages).hasSize(3);
        assertThat(listed).containsExactlyElementsOf(reversed(created));
    }

    @Test
    void projectCreateIsOneTransactionAndAMissingWorkspaceIs404WithNothingWritten() {
        String id = uniqueId();
        createWorkspace(id);
        given().contentType(ContentType.JSON).body("{\"title\":\"Apollo\",\"status\":\"ACTIVE\",\"createdBy\":\"ann\"}")
                .post("/workspaces/{id}/projects", id).then().statusCode(201)
                .header("X-DynamoDB-Calls", "1").header("ETag", "\"1\"")
                .body("workspaceId", equalTo(id)).body("title", equalTo("Apollo")).body("status", equalTo("ACTIVE"))
                .body("createdBy", equalTo("ann")).body("createdAt", notNullValue())
                .header("Location", containsString("/workspaces/" + id + "/projects/"));
        String missing = uniqueId();
        given().contentType(ContentType.JSON).body("{\"title\":\"Ghost\",\"status\":\"ACTIVE\",\"createdBy\":\"ann\"}")
                .post("/workspaces/{id}/projects", missing).then().statusCode(404)
                .contentType("application/problem+json").body("code", equalTo("NotFound"));
        given().get("/workspaces/{id}/projects", missing).then().statusCode(404).header("X-DynamoDB-Calls", "1");
        given().contentType(ContentType.JSON).body("{\"title\":\"X\",\"status\":\"DONE\",\"createdBy\":\"ann\"}")
                .post("/workspaces/{id}/projects", id).then().statusCode(400).body("errors[0].field", equalTo("status"));
    }

    @Test
    void includeProjectsReadsTheWorkspaceAndItsNewestProjectsInOneQueryAndContinuesTheListing() {
        String id = uniqueId();
        createWorkspace(id);
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            created.add(createProject(id, "p" + i, "PAUSED"));
        }
        Response first = given().queryParam("include", "projects").get("/workspaces/{id}", id).then()
                .statusCode(200).header("X-DynamoDB-Calls", "1").header("ETag", "\"1\"")
                .body("id", equalTo(id)).body("displayName", equalTo("Acme"))
                .body("projects.items", hasSize(20)).body("projects.next", notNullValue())
                .extract().response();
        List<String> listed = new ArrayList<>(first.path("projects.items.id"));
        given().queryParam("cursor", (String) first.path("projects.next")).get("/workspaces/{id}/projects", id).then()
                .statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("items", hasSize(5)).body("next", nullValue())
                .extract().<List<String>>path("items.id").forEach(listed::add);
        assertThat(listed).containsExactlyElementsOf(reversed(created));
        given().queryParam("include", "projects").queryParam("limit", 2).get("/workspaces/{id}", id).then()
                .statusCode(200).body("projects.items", hasSize(2)).body("projects.items[0].id", equalTo(created.get(24)));
        given().queryParam("include", "projects").get("/workspaces/{id}", uniqueId()).then().statusCode(404);
        given().queryParam("include", "teams").get("/workspaces/{id}", id).then().statusCode(400)
                .body("errors[0].field", equalTo("include"));
        given().queryParam("include", "").get("/workspaces/{id}", id).then().statusCode(400)
                .body("errors[0].field", equalTo("include"));
    }

    @Test
    void oneProjectIsOneGetItemAndCanBePatchedAndDeleted() {
        String id = uniqueId();
        createWorkspace(id);
        String projectId = createProject(id, "Gemini", "ACTIVE");
        given().get("/workspaces/{id}/projects/{p}", id, projectId).then().statusCode(200)
                .header("X-DynamoDB-Calls", "1").body("title", equalTo("Gemini"));
        given().contentType("application/merge-patch+json").body("{\"status\":\"ARCHIVED\"}")
                .patch("/workspaces/{id}/projects/{p}", id, projectId).then().statusCode(200)
                .body("status", equalTo("ARCHIVED")).body("title", equalTo("Gemini")).header("ETag", "\"2\"");
        given().contentType("application/merge-patch+json").body("{\"workspaceId\":\"elsewhere\"}")
                .patch("/workspaces/{id}/projects/{p}", id, projectId).then().statusCode(400);
        given().header("If-Match", "\"1\"").delete("/workspaces/{id}/projects/{p}", id, projectId).then().statusCode(412);
        given().delete("/workspaces/{id}/projects/{p}", id, projectId).then().statusCode(204).header("X-DynamoDB-Calls", "1");
        given().get("/workspaces/{id}/projects/{p}", id, projectId).then().statusCode(404);
        given().delete("/workspaces/{id}/projects/{p}", id, projectId).then().statusCode(404);
        given().contentType("application/merge-patch+json").body("{\"status\":\"ACTIVE\"}")
                .patch("/workspaces/{id}/projects/{p}", id, projectId).then().statusCode(404);
    }

    @Test
    void projectsByStatusComeFromTheStatusIndexNewestFirstAndFollowStatusChanges() {
        String id = uniqueId();
        createWorkspace(id);
        String older = createProject(id, "old", "ARCHIVED");
        String newer = createProject(id, "new", "ARCHIVED");
        Response archived = given().queryParam("status", "ARCHIVED").queryParam("limit", 100).get("/projects").then()
                .statusCode(200).header("X-DynamoDB-Calls", "4") // one Query per status shard (4 here)
                .extract().response();
        List<String> archivedIds = archived.path("items.id");
        assertThat(archivedIds).contains(older, newer);
        assertThat(archivedIds.indexOf(newer)).isLessThan(archivedIds.indexOf(older));
        given().contentType("application/merge-patch+json").body("{\"status\":\"ACTIVE\"}")
                .patch("/workspaces/{id}/projects/{p}", id, newer).then().statusCode(200);
        List<String> after = given().queryParam("status", "ARCHIVED").queryParam("limit", 100).get("/projects").then()
                .statusCode(200).extract().path("items.id");
        assertThat(after).contains(older).doesNotContain(newer);
        given().queryParam("status", "DONE").get("/projects").then().statusCode(400).body("errors[0].field", equalTo("status"));
        given().get("/projects").then().statusCode(400).body("errors[0].field", equalTo("status"));
    }

    @Test
    void pagingParametersAreValidated() {
        String id = uniqueId();
        createWorkspace(id);
        given().queryParam("limit", 0).get("/workspaces/{id}/projects", id).then().statusCode(400)
                .body("errors[0].field", equalTo("limit"));
        given().queryParam("limit", 100000).get("/workspaces/{id}/projects", id).then().statusCode(400);
        given().queryParam("limit", "ten").get("/workspaces/{id}/projects", id).then().statusCode(400);
        given().queryParam("cursor", "bm90LWEtY3Vyc29y").get("/workspaces/{id}/projects", id).then().statusCode(400)
                .contentType("application/problem+json").body("code", equalTo("InvalidCursor"))
                .header("X-DynamoDB-Calls", "0");
        given().get("/workspaces/{id}/projects", "x".repeat(129)).then().statusCode(400)
                .body("errors[0].field", equalTo("id"));
    }

    static List<String> reversed(List<String> list) {
        var copy = new ArrayList<>(list);
        java.util.Collections.reverse(copy);
        return copy;
    }
}
