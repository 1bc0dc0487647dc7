package dev.cairn.shop;

import dev.cairn.platform.TestTokens;
import dev.cairn.platform.auth.AuthEnabledProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;
import dev.cairn.store.EntityStore;
import jakarta.inject.Inject;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import java.util.Map;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;

/**
 * The shop's orders are an aggregate scoped by a tenant field of its root ({@code tenant: workspaceId}) with a declared
 * role ({@code roles: {delete: admin}}), with authentication on: another workspace's order answers every route
 * exactly as a missing one and is left as it was, an order cannot be written into a workspace out of the caller's
 * scope, the lists that mix workspaces show each caller its own (their cursors bound to that scope), and the places
 * that would name orders of every workspace are an admin's.
 */
@QuarkusTest
@TestProfile(AuthEnabledProfile.class)
class ShopTenancyResourceTest {

    @Inject
    EntityStore store;

    @Inject
    DynamoDbAsyncClient client;

    static final String PROBLEM = "application/problem+json";
    final String k = UUID.randomUUID().toString().substring(0, 8);
    final String mine = "shop-a-" + k;
    final String theirs = "shop-b-" + k;

    static RequestSpecification as(String bearer) {
        return given().header("Authorization", bearer);
    }

    static String scoped(String subject, String workspace, String role) {
        return TestTokens.bearer(subject, List.of(workspace), role);
    }

    static String product() {
        String id = "tp-" + UUID.randomUUID().toString().substring(0, 8);
        as(TestTokens.admin()).contentType(ContentType.JSON)
                .body("{\"id\":\"" + id + "\",\"name\":\"Kettle\",\"brand\":\"steamco\",\"price\":25}")
                .post("/products").then().statusCode(201);
        return id;
    }

    static String order(String id, String workspace, String status, String product) {
        return "{\"id\":\"" + id + "\",\"workspaceId\":\"" + workspace + "\",\"customerId\":\"c1\",\"status\":\"" + status
                + "\",\"shipTo\":{\"name\":\"Ann\",\"street\":\"1 High St\",\"city\":\"Leeds\"},"
                + "\"lines\":[{\"productId\":\"" + product + "\",\"quantity\":1}]}";
    }

    static String placed(String workspace, String product) {
        String id = "to-" + UUID.randomUUID().toString().substring(0, 8);
        as(TestTokens.admin()).contentType(ContentType.JSON).body(order(id, workspace, "placed", product))
                .post("/orders").then().statusCode(201);
        return id;
    }

    /** The problem a route answers, without what differs per request (its instance and request id). */
    static List<Object> problem(Response answer) {
        return List.of(answer.statusCode(), answer.path("code"), answer.path("title"));
    }

    /** The diagnostics headers, without the duration: calls, capacity (null: absent), Server-Timing's description. */
    static List<String> diagnostics(Response answer) {
        String timing = answer.header("Server-Timing");
        return java.util.Arrays.asList(answer.header("X-DynamoDB-Calls"), answer.header("X-DynamoDB-Capacity"),
                timing == null ? null : timing.replaceFirst("^dynamodb;dur=[0-9.]+;desc=\"(.*)\"$", "$1"));
    }

    @Test
    void anotherWorkspacesOrderAnswersEveryRouteExactlyAsAMissingOneAndStaysAsItWas() {
        String product = product();
        String order = placed(theirs, product);
        String missing = "to-missing-" + k;
        String reader = scoped("r-" + k, mine, "cairn-reader");
        String writer = scoped("w-" + k, mine, "cairn-writer");
        String admin = scoped("a-" + k, mine, "cairn-admin");

        Response foreign = as(reader).get("/orders/{id}", order);
        Response absent = as(reader).get("/orders/{id}", missing);
        assertThat(problem(foreign)).isEqualTo(problem(absent)).startsWith(404, "NotFound");
        assertThat(foreign.<String>path("detail")).isEqualTo(absent.<String>path("detail").replace(missing, order));
        // and its diagnostics: the same calls, no capacity (which would tell the order's size from nothing)
        assertThat(diagnostics(foreign)).isEqualTo(diagnostics(absent)).containsExactly("1", null, "1 call");
        // writes find it missing before they compare versions (a stale If-Match would otherwise tell it exists)
        for (var write : List.<java.util.function.Function<String, Response>>of(
                id -> as(writer).contentType("application/merge-patch+json").header("If-Match", "\"7\"")
                        .body("{\"status\":\"paid\"}").patch("/orders/{id}", id),
                id -> as(writer).contentType(ContentType.JSON).body(order(id, mine, "paid", product)).put("/orders/{id}", id),
                id -> as(admin).header("If-Match", "\"7\"").delete("/orders/{id}", id))) {
            Response there = write.apply(order);
            Response nowhere = write.apply(missing);
            assertThat(problem(there)).isEqualTo(problem(nowhere)).startsWith(404, "NotFound");
            assertThat(diagnostics(there)).isEqualTo(diagnostics(nowhere));
        }
        // damaged (an item removed behind the service's back), it still answers as a missing one: its tenant cannot
        // be confirmed, so no scoped caller learns it exists; an admin of every workspace gets the 409 and may delete it
        String damaged = placed(theirs, product);
        client.deleteItem(r -> r.tableName(store.table()).key(Map.of("pk", AttributeValue.fromS("ORDER#" + damaged),
                "sk", AttributeValue.fromS("SHIPTO")))).join();
        for (String caller : List.of(reader, scoped("r3-" + k, theirs, "cairn-reader"))) {
            Response broken = as(caller).get("/orders/{id}", damaged);
            Response nowhere = as(caller).get("/orders/{id}", missing);
            assertThat(problem(broken)).isEqualTo(problem(nowhere)).startsWith(404, "NotFound");
            assertThat(diagnostics(broken)).isEqualTo(diagnostics(nowhere));
        }
        Response patched = as(writer).contentType("application/merge-patch+json").body("{\"status\":\"paid\"}")
                .patch("/orders/{id}", damaged);
        assertThat(problem(patched)).startsWith(404, "NotFound");
        as(TestTokens.admin()).get("/orders/{id}", damaged).then().statusCode(409)
                .body("code", equalTo("AggregateAssemblyError"));
        as(TestTokens.admin()).delete("/orders/{id}", damaged).then().statusCode(204);
        as(scoped("r2-" + k, theirs, "cairn-reader")).get("/orders/{id}", order).then().statusCode(200)
                .header("ETag", "\"1\"").body("status", equalTo("placed")).body("workspaceId", equalTo(theirs));
        // the console shows a scoped admin nothing of the partition (its tenant is in the root, not in the key)
        as(admin).queryParam("pk", "ORDER#" + order).get("/console/api/collections").then().statusCode(200)
                .body("items", empty()).header("X-DynamoDB-Calls", "0");
        as(TestTokens.admin()).queryParam("pk", "ORDER#" + order).get("/console/api/collections").then().statusCode(200)
                .body("items.size()", equalTo(3));
    }

    @Test
    void anOrderIsWrittenOnlyIntoAWorkspaceOfTheCallersScope() {
        String product = product();
        String writer = scoped("w-" + k, mine, "cairn-writer");
        String elsewhere = "to-" + k;
        as(writer).contentType(ContentType.JSON).body(order(elsewhere, theirs, "placed", product)).post("/orders").then()
                .statusCode(403).contentType(PROBLEM).body("code", equalTo("Forbidden"))
                .body("detail", equalTo("workspace " + theirs + " is outside the workspaces of your token"));
        as(TestTokens.admin()).get("/orders/{id}", elsewhere).then().statusCode(404);

        String order = "to2-" + k;
        as(writer).contentType(ContentType.JSON).body(order(order, mine, "placed", product)).post("/orders").then()
                .statusCode(201).header("ETag", "\"1\"");
        // moving it out of the scope is refused, by either patch and by a PUT; the order stays where it was
        as(writer).contentType("application/merge-patch+json").body("{\"workspaceId\":\"" + theirs + "\"}")
                .patch("/orders/{id}", order).then().statusCode(403).body("code", equalTo("Forbidden"));
        as(writer).contentType("application/json-patch+json")
                .body("[{\"op\":\"replace\",\"path\":\"/workspaceId\",\"value\":\"" + theirs + "\"}]")
                .patch("/orders/{id}", order).then().statusCode(403);
        as(writer).contentType(ContentType.JSON).body(order(order, theirs, "paid", product)).put("/orders/{id}", order)
                .then().statusCode(403);
        as(writer).get("/orders/{id}", order).then().statusCode(200).header("ETag", "\"1\"")
                .body("workspaceId", equalTo(mine)).body("status", equalTo("placed"));
        // within the scope the order changes as usual
        as(writer).contentType("application/merge-patch+json").body("{\"status\":\"paid\"}").patch("/orders/{id}", order)
                .then().statusCode(200).header("ETag", "\"2\"");
    }

    @Test
    void theListsThatMixWorkspacesShowEachCallerItsOwnAndBindTheirCursorsToIt() {
        String product = product();
        var ours = new ArrayList<String>();
        var others = new ArrayList<String>();
        for (int i = 0; i < 3; i++) {
            ours.add(placed(mine, product));
            others.add(placed(theirs, product));
        }
        String reader = scoped("r-" + k, mine, "cairn-reader");
        for (String path : List.of("/orders", "/order-statuses/placed/orders")) {
            // two orders a page: the table holds other tests' orders too, so pages come out short and cursors cross
            // the filter of every shard
            var listed = new ArrayList<String>();
            String cursor = null;
            String first = null;
            int pages = 0;
            do {
                var request = as(reader).queryParam("limit", 2);
                if (cursor != null) {
                    request.queryParam("cursor", cursor);
                }
                Response page = request.get(path).then().statusCode(200).extract().response();
                listed.addAll(page.path("items.id"));
                assertThat(page.<List<String>>path("items.workspaceId")).allMatch(mine::equals);
                cursor = page.path("next");
                first = first == null ? cursor : first;
                assertThat(++pages).as(path).isLessThan(1000);
            } while (cursor != null);
            // each of ours once, newest first
            var newestFirst = new ArrayList<>(ours);
            java.util.Collections.reverse(newestFirst);
            assertThat(listed).as(path).containsExactlyElementsOf(newestFirst);
            // a cursor of this scope cannot be replayed by a caller of another
            as(scoped("r2-" + k, theirs, "cairn-reader")).queryParam("cursor", first).get(path).then().statusCode(400)
                    .contentType(PROBLEM);
        }
        // a caller of every workspace sees both
        List<String> all = as(TestTokens.admin()).queryParam("limit", 100).get("/order-statuses/placed/orders").then()
                .statusCode(200).extract().path("items.id");
        assertThat(all).containsAll(ours).containsAll(others);
    }

    @Test
    void deletingAnOrderIsAnAdminsAndWhereAProductsCopiesLiveToo() {
        String product = product();
        String order = placed(mine, product);
        String writer = scoped("w-" + k, mine, "cairn-writer");
        as(writer).delete("/orders/{id}", order).then().statusCode(403).contentType(PROBLEM)
                .body("code", equalTo("Forbidden")).body("requiredRole", equalTo("cairn-admin"));
        as(writer).get("/orders/{id}", order).then().statusCode(200);
        // where a product's copies live names orders of every workspace
        as(scoped("r-" + k, mine, "cairn-reader")).get("/products/{id}/references", product).then().statusCode(403)
                .body("requiredRole", equalTo("cairn-admin"));
        as(TestTokens.admin()).get("/products/{id}/references", product).then().statusCode(200)
                .body("items.size()", equalTo(1));
        as(scoped("a-" + k, mine, "cairn-admin")).delete("/orders/{id}", order).then().statusCode(204);
        as(writer).get("/orders/{id}", order).then().statusCode(404);
    }

    @Test
    void anOrdersVersionsNameTheirWritersAndAreReadOnlyWithinItsWorkspaceAsTheOrderIsAlsoOnceDeleted() {
        String product = product();
        String writer = scoped("w-" + k, mine, "cairn-writer");
        String order = "tv-" + k;
        as(writer).contentType(ContentType.JSON).body(order(order, mine, "placed", product)).post("/orders").then()
                .statusCode(201);
        String other = scoped("w2-" + k, mine, "cairn-writer");
        as(other).contentType("application/merge-patch+json").body("{\"status\":\"paid\"}").patch("/orders/{id}", order)
                .then().statusCode(200).header("ETag", "\"2\"");
        String reader = scoped("r-" + k, mine, "cairn-reader");
        as(reader).get("/orders/{id}/versions", order).then().statusCode(200)
                .body("items.version", equalTo(List.of(2, 1))).body("items.writtenBy", equalTo(List.of("w2-" + k, "w-" + k)));
        // another workspace's reader meets the versions exactly as a missing order's
        String foreign = scoped("r3-" + k, theirs, "cairn-reader");
        String missing = "tv-missing-" + k;
        for (String path : List.of("/orders/{id}/versions", "/orders/{id}/versions/1", "/orders/{id}/versions/2")) {
            Response there = as(foreign).get(path, order);
            Response nowhere = as(foreign).get(path, missing);
            assertThat(problem(there)).as(path).isEqualTo(problem(nowhere)).startsWith(404, "NotFound");
            assertThat(there.<String>path("detail")).as(path).isEqualTo(nowhere.<String>path("detail").replace(missing, order));
            assertThat(there.asString()).doesNotContain("paid");
        }
        // deleted by an admin of the workspace: the versions stay, read as before and still kept to the workspace
        as(scoped("a-" + k, mine, "cairn-admin")).delete("/orders/{id}", order).then().statusCode(204);
        as(reader).get("/orders/{id}/versions", order).then().statusCode(200)
                .body("items.version", equalTo(List.of(2, 1))).body("items[0].deletedBy", equalTo("a-" + k));
        assertThat(problem(as(foreign).get("/orders/{id}/versions", order)))
                .isEqualTo(problem(as(foreign).get("/orders/{id}/versions", missing)));
        as(foreign).get("/orders/{id}/versions/2", order).then().statusCode(404);
    }

    @Test
    void anotherWorkspacesDeletedQuoteIsListedRestoredAndPurgedByNoOneOutsideIt() {
        String product = product();
        String writer = scoped("w-" + k, mine, "cairn-writer");
        String quote = "tq-" + k;
        as(writer).contentType(ContentType.JSON).body("{\"id\":\"" + quote + "\",\"workspaceId\":\"" + mine
                + "\",\"customerId\":\"c1\",\"number\":\"TQ-" + k + "\",\"lines\":[{\"productId\":\"" + product
                + "\",\"quantity\":1}]}").post("/quotes").then().statusCode(201);
        as(writer).delete("/quotes/{id}", quote).then().statusCode(204);
        // the deleted listing shows each caller its own workspaces' deleted quotes
        String foreignWriter = scoped("w3-" + k, theirs, "cairn-writer");
        List<String> theirView = as(scoped("r3-" + k, theirs, "cairn-reader")).queryParam("limit", 100)
                .get("/quotes/deleted").then().statusCode(200).extract().path("items.item.id");
        assertThat(theirView).doesNotContain(quote);
        List<String> ourView = as(scoped("r-" + k, mine, "cairn-reader")).queryParam("limit", 100)
                .get("/quotes/deleted").then().statusCode(200).extract().path("items.item.id");
        assertThat(ourView).contains(quote);
        // restore and purge from another workspace: exactly the answers for an id never deleted
        String missing = "tq-missing-" + k;
        Response restore = as(foreignWriter).post("/quotes/{id}/restore", quote);
        Response restoreNothing = as(foreignWriter).post("/quotes/{id}/restore", missing);
        assertThat(problem(restore)).isEqualTo(problem(restoreNothing)).startsWith(404, "NotFound");
        assertThat(restore.<String>path("detail")).isEqualTo(restoreNothing.<String>path("detail").replace(missing, quote));
        String foreignAdmin = scoped("a3-" + k, theirs, "cairn-admin");
        Response purge = as(foreignAdmin).delete("/quotes/deleted/{id}", quote);
        Response purgeNothing = as(foreignAdmin).delete("/quotes/deleted/{id}", missing);
        assertThat(problem(purge)).isEqualTo(problem(purgeNothing)).startsWith(404, "NotFound");
        // a purge is an admin's; a restore a writer's of the quote's workspace
        as(writer).delete("/quotes/deleted/{id}", quote).then().statusCode(403).body("requiredRole", equalTo("cairn-admin"));
        as(writer).post("/quotes/{id}/restore", quote).then().statusCode(200).header("ETag", "\"2\"")
                .body("workspaceId", equalTo(mine));
    }

    @Test
    void aDeletedOrdersIdStaysItsWorkspacesWhileItsVersionsAreKeptAndTheyAreReadOnlyThere() {
        String product = product();
        String writer = scoped("w-" + k, mine, "cairn-writer");
        String order = "tk-" + k;
        as(writer).contentType(ContentType.JSON).body(order(order, mine, "placed", product)).post("/orders").then()
                .statusCode(201);
        as(writer).contentType("application/merge-patch+json").body("{\"status\":\"paid\"}").patch("/orders/{id}", order)
                .then().statusCode(200);
        as(scoped("a-" + k, mine, "cairn-admin")).delete("/orders/{id}", order).then().statusCode(204);
        // another workspace cannot take the id over (it would hide and trim this one's audit trail): refused as an id
        // taken is, without a version or anything of the order
        Response taken = as(scoped("w3-" + k, theirs, "cairn-writer")).contentType(ContentType.JSON)
                .body(order(order, theirs, "placed", product)).post("/orders");
        assertThat(taken.statusCode()).isEqualTo(409);
        assertThat(taken.<String>path("code")).isEqualTo("Conflict");
        assertThat(taken.header("ETag")).isNull();
        assertThat(taken.asString()).doesNotContain("paid").doesNotContain("current");
        String reader = scoped("r-" + k, mine, "cairn-reader");
        as(reader).get("/orders/{id}/versions", order).then().statusCode(200).body("items.version", equalTo(List.of(2, 1)));
        // its own workspace may create it again, numbering after the kept versions
        as(writer).contentType(ContentType.JSON).body(order(order, mine, "placed", product)).post("/orders").then()
                .statusCode(201).header("ETag", "\"3\"");

        // moved to another workspace by an admin of every workspace, then deleted there: the first workspace's reader
        // still meets its old versions as missing, as it did while the order lived elsewhere
        String moved = "tm-" + k;
        as(writer).contentType(ContentType.JSON).body(order(moved, mine, "placed", product)).post("/orders").then()
                .statusCode(201);
        as(TestTokens.admin()).contentType("application/merge-patch+json").body("{\"workspaceId\":\"" + theirs + "\"}")
                .patch("/orders/{id}", moved).then().statusCode(200);
        as(reader).get("/orders/{id}/versions/1", moved).then().statusCode(404);
        as(TestTokens.admin()).delete("/orders/{id}", moved).then().statusCode(204);
        as(reader).get("/orders/{id}/versions/1", moved).then().statusCode(404);
        as(reader).get("/orders/{id}/versions/2", moved).then().statusCode(404);
        as(scoped("r3-" + k, theirs, "cairn-reader")).get("/orders/{id}/versions/2", moved).then().statusCode(200)
                .body("deletedBy", org.hamcrest.Matchers.notNullValue());
    }
}
