package dev.cairn.shop;

import dev.cairn.core.expr.builder.BuilderSpec;
import dev.cairn.core.expr.builder.Clause;
import dev.cairn.core.expr.builder.Operand;
import dev.cairn.platform.CairnConfig;
import dev.cairn.platform.TestTokens;
import dev.cairn.platform.auth.AuthEnabledProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

/**
 * A caller scoped to one workspace attacks another workspace's orders (tenant: workspaceId on the Order aggregate),
 * with authentication on: probes that must answer exactly as for a missing order, writes that must stay in scope,
 * lists and cursors across scopes, the console, orders stored before the tenant was declared, the places that name
 * orders of every workspace.
 */
@QuarkusTest
@TestProfile(AuthEnabledProfile.class)
class ShopTenancyAttackResourceTest {

    static final String PROBLEM = "application/problem+json";
    final String k = UUID.randomUUID().toString().substring(0, 8);
    final String mine = "atk-a-" + k;
    final String theirs = "atk-b-" + k;

    @Inject DynamoDbAsyncClient dynamo;
    @Inject CairnConfig config;

    static RequestSpecification as(String bearer) {
        return given().header("Authorization", bearer);
    }

    static String scoped(String subject, List<String> workspaces, String role) {
        return TestTokens.bearer(subject, workspaces, role);
    }

    // products and orders are written by an admin of every workspace, as ShopTenancyResourceTest writes them
    static String product() {
        return ShopTenancyResourceTest.product();
    }

    static String order(String id, String workspace, String status, String product) {
        return ShopTenancyResourceTest.order(id, workspace, status, product);
    }

    static String placed(String workspace, String product) {
        return ShopTenancyResourceTest.placed(workspace, product);
    }

    static java.net.http.HttpResponse<String> raw(String method, String path, String bearer) throws Exception {
        var request = java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://localhost:" + io.restassured.RestAssured.port + path))
                .header("Authorization", bearer).method(method, java.net.http.HttpRequest.BodyPublishers.noBody()).build();
        return java.net.http.HttpClient.newHttpClient().send(request, java.net.http.HttpResponse.BodyHandlers.ofString());
    }

    static List<Object> problem(Response answer) {
        return List.of(answer.statusCode(), String.valueOf(answer.contentType()), String.valueOf(answer.<Object>path("code")),
                String.valueOf(answer.<Object>path("title")));
    }

    // --- probes that must read as a missing order ---------------------------------------------------------------

    @Test
    void headOptionsAndConditionalReadsOfAnotherWorkspacesOrderAnswerAsAMissingOne() throws Exception {
        String order = placed(theirs, product());
        String missing = "ao-missing-" + k;
        String reader = scoped("r-" + k, List.of(mine), "cairn-reader");
        // HEAD is in no operation of the document: sent past the contract filter
        var headThere = raw("HEAD", "/orders/" + order, reader);
        var headNowhere = raw("HEAD", "/orders/" + missing, reader);
        assertThat(headThere.statusCode()).isEqualTo(headNowhere.statusCode()).isEqualTo(404);
        assertThat(headThere.headers().firstValue("ETag")).isEmpty();
        var optThere = raw("OPTIONS", "/orders/" + order, reader);
        var optNowhere = raw("OPTIONS", "/orders/" + missing, reader);
        assertThat(optThere.statusCode()).isEqualTo(optNowhere.statusCode());
        assertThat(optThere.headers().firstValue("Allow")).isEqualTo(optNowhere.headers().firstValue("Allow"));
        for (String etag : List.of("\"1\"", "\"2\"", "*")) {
            Response there = as(reader).header("If-None-Match", etag).get("/orders/{id}", order);
            Response nowhere = as(reader).header("If-None-Match", etag).get("/orders/{id}", missing);
            assertThat(problem(there)).as(etag).isEqualTo(problem(nowhere));
            assertThat(there.statusCode()).isEqualTo(404);
        }
        // a writer's JSON Patch "test" of the tenant and If-Match guesses tell nothing either
        String writer = scoped("w-" + k, List.of(mine), "cairn-writer");
        for (String etag : List.of("\"1\"", "\"999\"", "*")) {
            String probe = "[{\"op\":\"test\",\"path\":\"/workspaceId\",\"value\":\"" + theirs + "\"}]";
            Response there = as(writer).contentType("application/json-patch+json").header("If-Match", etag).body(probe)
                    .patch("/orders/{id}", order);
            Response nowhere = as(writer).contentType("application/json-patch+json").header("If-Match", etag).body(probe)
                    .patch("/orders/{id}", missing);
            assertThat(problem(there)).as(etag).isEqualTo(problem(nowhere));
        }
        as(TestTokens.admin()).get("/orders/{id}", order).then().statusCode(200).header("ETag", "\"1\"");
    }

    @Test
    void creatingAnOrderUnderTheIdOfAnotherWorkspacesOrderOverwritesAndShowsNothingOfIt() {
        String product = product();
        String order = placed(theirs, product);
        String writer = scoped("w-" + k, List.of(mine), "cairn-writer");
        // the id is taken (its key names no workspace: docs/security.md says what that tells), and nothing of the
        // other workspace's order is shown or changed
        Response there = as(writer).contentType(ContentType.JSON).body(order(order, mine, "paid", product)).post("/orders");
        assertThat(there.statusCode()).isEqualTo(409);
        assertThat(there.<Object>path("current")).isNull();
        assertThat(there.asString()).doesNotContain(theirs).doesNotContain("Leeds");
        as(TestTokens.admin()).get("/orders/{id}", order).then().statusCode(200).header("ETag", "\"1\"")
                .body("workspaceId", org.hamcrest.Matchers.equalTo(theirs)).body("status", org.hamcrest.Matchers.equalTo("placed"));
        // a writer of the order's own workspace is shown the order as it is now, with its version
        String theirWriter = scoped("tw-" + k, List.of(theirs), "cairn-writer");
        as(theirWriter).contentType(ContentType.JSON).body(order(order, theirs, "paid", product)).post("/orders").then()
                .statusCode(409).body("code", org.hamcrest.Matchers.equalTo("Conflict")).header("ETag", "\"1\"")
                .body("current.status", org.hamcrest.Matchers.equalTo("placed"))
                .body("current.workspaceId", org.hamcrest.Matchers.equalTo(theirs));
    }

    // --- writes that would move or strip the tenant -------------------------------------------------------------

    @Test
    void patchesThatStripOrCopyTheTenantAreRefusedAndWriteNothing() {
        String product = product();
        String writer = scoped("w-" + k, List.of(mine), "cairn-writer");
        String everywhere = scoped("w-all-" + k, List.of("*"), "cairn-writer");
        String order = "ao-own-" + k;
        as(writer).contentType(ContentType.JSON).body(order(order, mine, "placed", product)).post("/orders").then()
                .statusCode(201);
        // customerId holds the other workspace's id: copy it over the tenant
        as(writer).contentType("application/merge-patch+json").body("{\"customerId\":\"" + theirs + "\"}")
                .patch("/orders/{id}", order).then().statusCode(200).header("ETag", "\"2\"");
        as(writer).contentType("application/json-patch+json")
                .body("[{\"op\":\"copy\",\"from\":\"/customerId\",\"path\":\"/workspaceId\"}]")
                .patch("/orders/{id}", order).then().statusCode(403).contentType(PROBLEM);
        for (String who : List.of(writer, everywhere)) {
            as(who).contentType("application/merge-patch+json").body("{\"workspaceId\":null}")
                    .patch("/orders/{id}", order).then().statusCode(org.hamcrest.Matchers.oneOf(400, 422)).contentType(PROBLEM);
            as(who).contentType("application/json-patch+json")
                    .body("[{\"op\":\"move\",\"from\":\"/workspaceId\",\"path\":\"/customerId\"}]")
                    .patch("/orders/{id}", order).then().statusCode(org.hamcrest.Matchers.oneOf(400, 422)).contentType(PROBLEM);
            as(who).contentType("application/json-patch+json")
                    .body("[{\"op\":\"remove\",\"path\":\"/workspaceId\"}]")
                    .patch("/orders/{id}", order).then().statusCode(org.hamcrest.Matchers.oneOf(400, 422)).contentType(PROBLEM);
        }
        // a PUT naming another id in the body, or a non-id workspace
        as(writer).contentType(ContentType.JSON).body(order("ao-else-" + k, mine, "paid", product))
                .put("/orders/{id}", order).then().statusCode(400).contentType(PROBLEM);
        as(writer).get("/orders/{id}", order).then().statusCode(200).header("ETag", "\"2\"")
                .body("workspaceId", equalTo(mine)).body("customerId", equalTo(theirs));
    }

    // --- lists and cursors across scopes ------------------------------------------------------------------------

    @Test
    void listsServeEachScopeItsOwnAndCursorsDoNotCrossScopes() {
        String product = product();
        String ours = placed(mine, product);
        String others = placed(theirs, product);
        String none = scoped("n-" + k, List.of(), "cairn-reader");
        String star = scoped("s-" + k, List.of("*"), "cairn-reader");
        String reader = scoped("r-" + k, List.of(mine), "cairn-reader");
        for (String path : List.of("/orders", "/order-statuses/placed/orders")) {
            as(none).queryParam("limit", 1).get(path).then().statusCode(200).body("items", empty())
                    .body("next", nullValue()).header("X-DynamoDB-Calls", "0");
            // a cursor of every workspace's list is not a cursor of a scoped one
            String starCursor = as(star).queryParam("limit", 1).get(path).then().statusCode(200).extract().path("next");
            assertThat(starCursor).as(path).isNotNull();
            as(reader).queryParam("cursor", starCursor).get(path).then().statusCode(400).contentType(PROBLEM);
            String scopedCursor = as(reader).queryParam("limit", 1).get(path).then().statusCode(200).extract().path("next");
            if (scopedCursor != null) {
                as(star).queryParam("cursor", scopedCursor).get(path).then().statusCode(400).contentType(PROBLEM);
                // the same workspaces in another token (another subject) share the list's scope; a superset does not
                as(scoped("r3-" + k, List.of(mine, theirs), "cairn-reader")).queryParam("cursor", scopedCursor).get(path)
                        .then().statusCode(400).contentType(PROBLEM);
            }
        }
        List<String> seen = as(star).queryParam("limit", 100).get("/order-statuses/placed/orders").then().statusCode(200)
                .extract().path("items.id");
        assertThat(seen).contains(ours, others);
    }

    @Test
    void aTokenOfManyWorkspacesListsOrdersWithoutAServerError() {
        var many = new ArrayList<String>();
        for (int i = 0; i < 700; i++) {
            many.add("w" + i);
        }
        String reader = scoped("m-" + k, many, "cairn-reader");
        Response page = as(reader).queryParam("limit", 1).get("/orders");
        assertThat(page.statusCode()).as(page.asString()).isLessThan(500);
    }

    // --- the console --------------------------------------------------------------------------------------------

    @Test
    void theConsoleShowsAScopedAdminNothingOfAnotherWorkspacesOrder() {
        String order = placed(theirs, product());
        String admin = scoped("a-" + k, List.of(mine), "cairn-admin");
        as(admin).queryParam("kind", "order").queryParam("id", order).get("/console/api/collections").then()
                .statusCode(200).body("items", empty());
        as(admin).queryParam("pk", "ORDER#" + order).get("/console/api/collections").then()
                .statusCode(200).body("items", empty());
        as(admin).queryParam("pk", "ORDERS#STATUS#placed").get("/console/api/indexes/gsi4").then().statusCode(403);
        as(admin).queryParam("pk", "ORDERS#ALL#0").get("/console/api/indexes/gsi3").then().statusCode(403);
        var run = BuilderSpec.query(null, List.of(Clause.test("pk", "=", Operand.of("S", "ORDER#" + order))));
        as(admin).contentType(ContentType.JSON).body(run).post("/console/api/builder/run").then().statusCode(200)
                .header("X-DynamoDB-Calls", "0").body("count", equalTo(0));
    }

    // --- an order stored without its tenant (written before the tenant was declared) ----------------------------

    @Test
    void anOrderWithoutItsTenantFieldIsNotAWorkspaceCalledNull() throws Exception {
        String order = placed(theirs, product());
        // an order written before Order declared its tenant has no workspaceId on its root
        dynamo.updateItem(b -> b.tableName(config.table().name())
                .key(Map.of("pk", AttributeValue.fromS("ORDER#" + order), "sk", AttributeValue.fromS("HEAD")))
                .updateExpression("REMOVE workspaceId")).get(10, TimeUnit.SECONDS);
        // (an admin's GET of it answers a body the document refuses: workspaceId is required in Order)
        var legacy = raw("GET", "/orders/" + order, TestTokens.admin());
        assertThat(legacy.statusCode()).isEqualTo(200);
        assertThat(legacy.body()).contains("\"workspaceId\":null");
        // a workspace literally named "null" is a valid id: it must not own tenantless orders
        String nullWorkspace = scoped("nw-" + k, List.of("null"), "cairn-writer");
        var read = raw("GET", "/orders/" + order, nullWorkspace);
        var claim = given().header("Authorization", nullWorkspace).contentType("application/merge-patch+json")
                .body("{\"workspaceId\":\"null\",\"status\":\"paid\"}").noFilters().patch("/orders/{id}", order);
        var after = raw("GET", "/orders/" + order, TestTokens.admin());
        assertThat(List.of(read.statusCode(), claim.statusCode())).as(read.body() + " / " + claim.asString() + " / " + after.body())
                .containsExactly(404, 404);
    }

    @Test
    void aWorkspaceClaimHoldingTheConsolesNoTenantMarkDoesNotOpenEveryOrder() {
        String order = placed(theirs, product());
        // the console marks an order partition's tenant as "\u0000"; a claim is not checked to be an id
        String admin = scoped("z-" + k, List.of("\u0000"), "cairn-admin");
        as(admin).queryParam("pk", "ORDER#" + order).get("/console/api/collections").then().statusCode(200)
                .body("items", empty());
    }

    // --- an admin scoped to one workspace and the places that name orders of every workspace -------------------

    @Test
    void aScopedAdminIsNotShownWhereAProductsCopiesLiveInOtherWorkspacesOrders() {
        String product = product();
        String order = placed(theirs, product);
        String admin = scoped("a-" + k, List.of(mine), "cairn-admin");
        var soft = new org.assertj.core.api.SoftAssertions();
        Response delete = as(admin).delete("/products/{id}", product);
        soft.assertThat(delete.asString()).as("DELETE /products/%s as an admin of %s: %s", product, mine, delete.statusCode())
                .doesNotContain(order);
        Response references = as(admin).get("/products/{id}/references", product);
        soft.assertThat(references.asString()).as("GET /products/%s/references as an admin of %s", product, mine)
                .doesNotContain(order);
        soft.assertThat(references.statusCode()).as("it spans every workspace").isEqualTo(403);
        soft.assertThat(references.<String>path("code")).isEqualTo("Forbidden");
        soft.assertAll();
    }
}
