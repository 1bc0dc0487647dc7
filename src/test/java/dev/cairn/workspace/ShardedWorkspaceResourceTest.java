package dev.cairn.workspace;

import dev.cairn.core.key.ShardedIds;
import dev.cairn.core.key.WriteShards;
import dev.cairn.declared.DeclaredShards;
import dev.cairn.platform.CairnConfig;
import dev.cairn.platform.Pages;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/** Write-sharded workspaces and the sharded status index: parallel fan-out reads that page like one partition. */
@QuarkusTest
class ShardedWorkspaceResourceTest {

    @Inject
    DeclaredShards shards;

    @Inject
    CairnConfig config;

    static String uniqueId() {
        return "shard-" + UUID.randomUUID().toString().substring(0, 8);
    }

    static void createWorkspace(String id, int shards) {
        given().contentType(ContentType.JSON)
                .body("{\"id\":\"" + id + "\",\"displayName\":\"S\",\"region\":\"eu-west-1\",\"seatLimit\":5,\"shards\":" + shards + "}")
                .post("/workspaces").then().statusCode(201).body("shards", equalTo(shards));
    }

    static String createProject(String workspaceId, String title, String status) {
        return given().contentType(ContentType.JSON)
                .body("{\"title\":\"" + title + "\",\"status\":\"" + status + "\",\"createdBy\":\"ann\"}")
                .post("/workspaces/{id}/projects", workspaceId).then().statusCode(201).extract().path("id");
    }

    /** Every page of a workspace's listing, as the list of pages' titles; also checks each page's call count. */
    static List<List<String>> pages(String workspaceId, int limit, int maxCallsPerPage) {
        var pages = new ArrayList<List<String>>();
        for (Response page : Pages.walk(() -> given().queryParam("limit", limit), r -> r.get("/workspaces/{id}/projects", workspaceId))) {
            assertThat(Integer.parseInt(page.header("X-DynamoDB-Calls"))).isBetween(1, maxCallsPerPage);
            pages.add(page.path("items.title"));
        }
        return pages;
    }

    @Test
    void aShardedWorkspaceListsExactlyLikeAnUnshardedOnePageByPage() {
        String plain = uniqueId();
        String sharded = uniqueId();
        createWorkspace(plain, 1);
        createWorkspace(sharded, 8);
        var titles = new ArrayList<String>();
        var shardedIds = new ArrayList<String>();
        for (int i = 0; i < 23; i++) {
            String title = "p" + i;
            titles.add(title);
            createProject(plain, title, "PAUSED");
            shardedIds.add(createProject(sharded, title, "PAUSED"));
        }
        // The projects really are spread: their ids name several different shards.
        var usedShards = new HashSet<Integer>();
        shardedIds.forEach(id -> usedShards.add(ShardedIds.shardOfId(id)));
        assertThat(usedShards).hasSizeGreaterThanOrEqualTo(5);

        var newestFirst = new ArrayList<>(titles);
        java.util.Collections.reverse(newestFirst);
        for (int limit : new int[]{1, 3, 7, 20, 100}) {
            List<List<String>> expected = pages(plain, limit, 1);
            List<List<String>> actual = pages(sharded, limit, 8);
            assertThat(actual).as("page size %d", limit).isEqualTo(expected);
            assertThat(actual.stream().flatMap(List::stream).toList()).as("page size %d", limit).isEqualTo(newestFirst);
        }
    }

    @Test
    void theFirstPageIsOneParallelRoundOfOneQueryPerShardAndAProjectIsStillOneGetItem() {
        String id = uniqueId();
        createWorkspace(id, 8);
        String project = createProject(id, "alpha", "ACTIVE");
        given().get("/workspaces/{id}/projects", id).then().statusCode(200).header("X-DynamoDB-Calls", "8")
                .body("items.id", equalTo(List.of(project)));
        given().queryParam("include", "projects").get("/workspaces/{id}", id).then().statusCode(200)
                .header("X-DynamoDB-Calls", "8").body("shards", equalTo(8)).body("projects.items[0].id", equalTo(project));
        given().get("/workspaces/{id}/projects/{p}", id, project).then().statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("title", equalTo("alpha"));
        given().contentType("application/merge-patch+json").body("{\"title\":\"beta\"}")
                .patch("/workspaces/{id}/projects/{p}", id, project).then().statusCode(200).body("title", equalTo("beta"));
        given().delete("/workspaces/{id}/projects/{p}", id, project).then().statusCode(204).header("X-DynamoDB-Calls", "1");
        given().get("/workspaces/{id}/projects/{p}", id, project).then().statusCode(404);
        // A project create into a workspace this replica knows is one conditional PutItem.
        given().contentType(ContentType.JSON).body("{\"title\":\"g\",\"status\":\"ACTIVE\",\"createdBy\":\"ann\"}")
                .post("/workspaces/{id}/projects", id).then().statusCode(201).header("X-DynamoDB-Calls", "1");
    }

    @Test
    void shardsThatRunOutEarlyAreNotReadAgain() {
        String id = uniqueId();
        createWorkspace(id, 8);
        var created = new ArrayList<String>();
        for (int i = 0; i < 6; i++) {
            created.add(createProject(id, "p" + i, "ACTIVE"));
        }
        long holding = created.stream().map(ShardedIds::shardOfId).distinct().count();
        Response first = given().queryParam("limit", 2).get("/workspaces/{id}/projects", id).then().statusCode(200)
                .header("X-DynamoDB-Calls", "8").extract().response();
        // Empty shards answered "nothing" on the first page: the second page reads at most the shards holding projects.
        Response second = given().queryParam("limit", 2).queryParam("cursor", (String) first.path("next"))
                .get("/workspaces/{id}/projects", id).then().statusCode(200).extract().response();
        assertThat(Integer.parseInt(second.header("X-DynamoDB-Calls"))).isLessThanOrEqualTo((int) holding).isLessThan(8);
        var listed = new ArrayList<String>(first.path("items.id"));
        listed.addAll(second.path("items.id"));
        String cursor = second.path("next");
        while (cursor != null) {
            Response next = given().queryParam("limit", 2).queryParam("cursor", cursor).get("/workspaces/{id}/projects", id)
                    .then().statusCode(200).extract().response();
            listed.addAll(next.path("items.id"));
            cursor = next.path("next");
        }
        var newestFirst = new ArrayList<>(created);
        java.util.Collections.reverse(newestFirst);
        assertThat(listed).isEqualTo(newestFirst);
    }

    @Test
    void growingTheShardCountMovesNothingAndEveryProjectStaysListedAndReadable() {
        String id = uniqueId();
        createWorkspace(id, 1);
        var created = new ArrayList<String>();
        for (int i = 0; i < 4; i++) {
            created.add(createProject(id, "before" + i, "ACTIVE"));
        }
        // A cursor taken before the change goes on over the shards it started with.
        String oldCursor = given().queryParam("limit", 2).get("/workspaces/{id}/projects", id).then().statusCode(200)
                .extract().path("next");
        given().contentType("application/merge-patch+json").body("{\"shards\":8}").patch("/workspaces/{id}", id)
                .then().statusCode(200).body("shards", equalTo(8));
        for (int i = 0; i < 12; i++) {
            created.add(createProject(id, "after" + i, "ACTIVE"));
        }
        assertThat(created.subList(4, 16).stream().map(ShardedIds::shardOfId).distinct().count()).isGreaterThan(1);
        var newestFirst = new ArrayList<>(created);
        java.util.Collections.reverse(newestFirst);
        List<String> listed = pages(id, 5, 8).stream().flatMap(List::stream).toList();
        assertThat(listed).hasSize(16).isEqualTo(newestFirst.stream().map(p -> titleOf(id, p)).toList());
        for (String project : created) {
            given().get("/workspaces/{id}/projects/{p}", id, project).then().statusCode(200).header("X-DynamoDB-Calls", "1");
        }
        given().queryParam("limit", 2).queryParam("cursor", oldCursor).get("/workspaces/{id}/projects", id).then()
                .statusCode(200).header("X-DynamoDB-Calls", "1").body("items.title", equalTo(List.of("before1", "before0")));

        given().contentType("application/merge-patch+json").body("{\"shards\":4}").patch("/workspaces/{id}", id)
                .then().statusCode(400).contentType("application/problem+json").body("errors[0].field", equalTo("shards"));
        given().contentType("application/merge-patch+json").body("{\"shards\":33}").patch("/workspaces/{id}", id)
                .then().statusCode(400).body("errors[0].field", equalTo("shards"));
        given().get("/workspaces/{id}", id).then().statusCode(200).body("shards", equalTo(8));
    }

    private static String titleOf(String workspace, String project) {
        return given().get("/workspaces/{id}/projects/{p}", workspace, project).then().statusCode(200).extract().path("title");
    }

    @Test
    void aReplicaThatHasNotSeenTheGrowthReadsTheMissingShardsInASecondRound() {
        String id = uniqueId();
        createWorkspace(id, 4);
        var created = new ArrayList<String>();
        for (int i = 0; i < 10; i++) {
            created.add(createProject(id, "p" + i, "ACTIVE"));
        }
        shards.forget("Workspace", id);
        var newestFirst = new ArrayList<>(created);
        java.util.Collections.reverse(newestFirst);
        given().queryParam("limit", 100).get("/workspaces/{id}/projects", id).then().statusCode(200)
                .header("X-DynamoDB-Calls", "4").body("items.id", equalTo(newestFirst));
        shards.forget("Workspace", id);
        // An unknown workspace's project create reads the workspace first: 2 calls, then 1.
        given().contentType(ContentType.JSON).body("{\"title\":\"x\",\"status\":\"ACTIVE\",\"createdBy\":\"ann\"}")
                .post("/workspaces/{id}/projects", id).then().statusCode(201).header("X-DynamoDB-Calls", "2");
        given().contentType(ContentType.JSON).body("{\"title\":\"y\",\"status\":\"ACTIVE\",\"createdBy\":\"ann\"}")
                .post("/workspaces/{id}/projects", id).then().statusCode(201).header("X-DynamoDB-Calls", "1");
    }

    @Test
    void theStatusListingFansOutOverTheStatusShardsNewestFirstWithoutDuplicates() {
        String id = uniqueId();
        createWorkspace(id, 2);
        var created = new ArrayList<String>();
        for (int i = 0; i < 14; i++) {
            created.add(createProject(id, "s" + i, "ARCHIVED"));
        }
        assertThat(created.stream().map(p -> WriteShards.of(p, config.workspace().statusShards())).distinct().count())
                .as("spread over the status shards").isGreaterThan(1);
        var listed = new ArrayList<String>();
        var allIds = new ArrayList<String>();
        for (Response page : Pages.walk(() -> given().queryParam("status", "ARCHIVED").queryParam("limit", 7), r -> r.get("/projects"))) {
            assertThat(Integer.parseInt(page.header("X-DynamoDB-Calls"))).isBetween(1, config.workspace().statusShards());
            List<Map<String, String>> items = page.path("items");
            items.forEach(item -> {
                allIds.add(item.get("id"));
                if (item.get("workspaceId").equals(id)) {
                    listed.add(item.get("id"));
                }
            });
        }
        assertThat(allIds).doesNotHaveDuplicates();
        assertThat(allIds).isSortedAccordingTo(java.util.Comparator.reverseOrder());
        var newestFirst = new ArrayList<>(created);
        java.util.Collections.reverse(newestFirst);
        assertThat(listed).isEqualTo(newestFirst);
    }
}
