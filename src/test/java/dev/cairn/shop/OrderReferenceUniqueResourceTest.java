package dev.cairn.shop;

import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.core.write.UniqueSentinels;
import dev.cairn.declared.DeclaredModels;
import dev.cairn.store.EntityStore;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;

/**
 * A unique value on an aggregate's root: the shop's orders declare {@code unique: {reference: {fields: [reference],
 * scope: workspaceId, case: insensitive}}}. Its sentinel is owned by the root and written in the write's commit
 * transaction — the one transaction of a small order, the last of a large one — so a taken value refuses the whole
 * create or change and leaves the table as it was; a change moves it, a delete frees it, and another workspace may
 * use the same reference.
 */
@QuarkusTest
class OrderReferenceUniqueResourceTest {

    @Inject
    EntityStore store;

    @Inject
    DynamoDbAsyncClient client;

    @Inject
    DeclaredModels models;

    final String k = UUID.randomUUID().toString().substring(0, 8);
    final String ws = "ref-a-" + k;
    final String other = "ref-b-" + k;

    static String orderJson(String id, String workspace, String reference, List<String> products) {
        var lines = new ArrayList<String>();
        for (String product : products) {
            lines.add("{\"productId\":\"" + product + "\",\"quantity\":1}");
        }
        return "{\"id\":\"" + id + "\",\"workspaceId\":\"" + workspace + "\",\"customerId\":\"c1\",\"status\":\"placed\","
                + (reference == null ? "" : "\"reference\":\"" + reference + "\",")
                + "\"shipTo\":{\"name\":\"Ann\",\"street\":\"1 High St\",\"city\":\"Leeds\"},"
                + "\"lines\":[" + String.join(",", lines) + "]}";
    }

    String product() {
        String id = "rp-" + UUID.randomUUID().toString().substring(0, 8);
        given().contentType(ContentType.JSON).body("{\"id\":\"" + id + "\",\"name\":\"Kettle\",\"brand\":\"steamco\",\"price\":25}")
                .post("/products").then().statusCode(201);
        return id;
    }

    /** The root key holding this reference in the workspace, read from its sentinel straight from the table; null: free. */
    String holder(String workspace, String reference) {
        var constraint = models.plan().aggregate("Order").model().unique().get(0);
        PrimaryKey key = constraint.sentinel("Order", Map.of("reference", reference, "workspaceId", workspace)).orElseThrow();
        var item = client.getItem(r -> r.tableName(store.table()).key(key.toAttributes()).consistentRead(true)).join();
        return item.hasItem() && !item.item().isEmpty() ? item.item().get(UniqueSentinels.OWNER_PK).s() : null;
    }

    List<Map<String, ?>> partition(String order) {
        return List.copyOf(store.queryAll(QuerySpec.table("ORDER#" + order).consistent().build())
                .await().atMost(Duration.ofSeconds(10)));
    }

    @Test
    void aReferenceIsOneOrdersWithinAWorkspaceInAnyCaseAndAnotherWorkspaceMayUseIt() {
        String p = product();
        String a = "ra-" + k;
        String b = "rb-" + k;
        given().contentType(ContentType.JSON).body(orderJson(a, ws, "PO-" + k, List.of(p))).post("/orders").then()
                .statusCode(201).body("reference", equalTo("PO-" + k));
        assertThat(holder(ws, "po-" + k)).isEqualTo("ORDER#" + a);
        // the same reference in another case: refused whole, naming the constraint and never the order holding it
        String refused = given().contentType(ContentType.JSON).body(orderJson(b, ws, "po-" + k, List.of(p)))
                .post("/orders").then().statusCode(409).contentType("application/problem+json")
                .body("code", equalTo("UniqueViolation")).body("constraint", equalTo("reference"))
                .body("fields", containsInAnyOrder("reference", "workspaceId")).extract().asString();
        assertThat(refused).doesNotContain(a);
        assertThat(partition(b)).isEmpty();
        // another workspace has its own scope
        given().contentType(ContentType.JSON).body(orderJson(b, other, "PO-" + k, List.of(p))).post("/orders").then()
                .statusCode(201);
        assertThat(holder(other, "PO-" + k)).isEqualTo("ORDER#" + b);
        // an order without a reference holds none
        String c = "rc-" + k;
        given().contentType(ContentType.JSON).body(orderJson(c, ws, null, List.of(p))).post("/orders").then().statusCode(201);
        // a create of an id taken is the order's own 409 Conflict (not the value's), showing the order as it is now
        given().contentType(ContentType.JSON).body(orderJson(a, ws, "other-" + k, List.of(p))).post("/orders").then()
                .statusCode(409).body("code", equalTo("Conflict")).header("ETag", "\"1\"")
                .body("current.id", equalTo(a)).body("current.reference", equalTo("PO-" + k))
                .body("current.lines.size()", equalTo(1));
        assertThat(holder(ws, "other-" + k)).isNull();
    }

    @Test
    void aChangeMovesTheReferenceInItsOwnTransactionATakenOneLeavesTheOrderAsItWasAndADeleteFreesIt() {
        String p = product();
        String a = "rd-" + k;
        String b = "re-" + k;
        given().contentType(ContentType.JSON).body(orderJson(a, ws, "A-" + k, List.of(p))).post("/orders").then().statusCode(201);
        given().contentType(ContentType.JSON).body(orderJson(b, ws, "B-" + k, List.of(p))).post("/orders").then().statusCode(201);
        // a merge patch to a free reference moves it: the old one is free at once
        given().contentType("application/merge-patch+json").body("{\"reference\":\"A2-" + k + "\"}")
                .patch("/orders/{id}", a).then().statusCode(200).header("ETag", "\"2\"");
        assertThat(holder(ws, "A-" + k)).isNull();
        assertThat(holder(ws, "A2-" + k)).isEqualTo("ORDER#" + a);
        // to a taken one (a JSON Patch, then a PUT): refused, the order and both sentinels as they were
        var before = partition(b);
        given().contentType("application/json-patch+json").body("[{\"op\":\"replace\",\"path\":\"/reference\",\"value\":\"a2-" + k + "\"}]")
                .patch("/orders/{id}", b).then().statusCode(409).body("code", equalTo("UniqueViolation"));
        given().contentType(ContentType.JSON).body(orderJson(b, ws, "A2-" + k, List.of(p))).put("/orders/{id}", b).then()
                .statusCode(409).body("code", equalTo("UniqueViolation"));
        assertThat(partition(b)).isEqualTo(before);
        assertThat(holder(ws, "B-" + k)).isEqualTo("ORDER#" + b);
        // removing the reference frees it
        given().contentType("application/merge-patch+json").body("{\"reference\":null}").patch("/orders/{id}", b).then()
                .statusCode(200).header("ETag", "\"2\"");
        assertThat(holder(ws, "B-" + k)).isNull();
        // a delete frees the order's value
        given().delete("/orders/{id}", a).then().statusCode(204);
        assertThat(holder(ws, "A2-" + k)).isNull();
        given().contentType("application/merge-patch+json").body("{\"reference\":\"A2-" + k + "\"}")
                .patch("/orders/{id}", b).then().statusCode(200);
        assertThat(holder(ws, "A2-" + k)).isEqualTo("ORDER#" + b);
    }

    @Test
    void aReferenceMustHoldAVisibleCharacterAndNoControlCharacters() {
        String p = product();
        for (String reference : List.of(" ", "\\u200b", "\\t\\u00a0", "PO\\u0000" + k)) {
            String id = "rh-" + UUID.randomUUID().toString().substring(0, 8);
            given().contentType(ContentType.JSON).body(orderJson(id, ws, reference, List.of(p))).post("/orders").then()
                    .statusCode(400).contentType("application/problem+json").body("code", equalTo("ValidationFailed"))
                    .body("errors[0].field", equalTo("reference"));
            assertThat(partition(id)).as(reference).isEmpty();
        }
    }

    /**
     * An order that cannot be assembled (an item of it removed behind the service's back) is deleted by purging its
     * partition: the reference its root held is given up first, so a later order can take it.
     */
    @Test
    void deletingADamagedOrderGivesItsReferenceUp() {
        String p = product();
        String a = "rk-" + k;
        given().contentType(ContentType.JSON).body(orderJson(a, ws, "DMG-" + k, List.of(p))).post("/orders").then().statusCode(201);
        client.deleteItem(r -> r.tableName(store.table()).key(PrimaryKey.of("ORDER#" + a, "SHIPTO").toAttributes())).join();
        given().get("/orders/{id}", a).then().statusCode(409).body("code", equalTo("AggregateAssemblyError"));
        given().delete("/orders/{id}", a).then().statusCode(204);
        assertThat(partition(a)).isEmpty();
        assertThat(holder(ws, "DMG-" + k)).isNull();
        given().contentType(ContentType.JSON).body(orderJson("rl-" + k, ws, "dmg-" + k, List.of(p))).post("/orders").then()
                .statusCode(201);
        assertThat(holder(ws, "DMG-" + k)).isEqualTo("ORDER#rl-" + k);
    }

    /**
     * An order of 98 lines is more than one transaction holds (its items and the products' guards): it is written in
     * steps under a lease, and its reference goes in the last, the commit. A taken one fails that commit; the steps
     * before are undone and the partition is empty, as if the create had never begun.
     */
    @Test
    void aLargeOrderWrittenInStepsTakesItsReferenceInTheCommitAndIsUndoneWhenItIsTaken() {
        var products = new ArrayList<String>();
        for (int i = 0; i < 98; i++) {
            products.add(product());
        }
        String small = "rf-" + k;
        String large = "rg-" + k;
        given().contentType(ContentType.JSON).body(orderJson(small, ws, "BIG-" + k, products.subList(0, 1)))
                .post("/orders").then().statusCode(201);
        given().contentType(ContentType.JSON).body(orderJson(large, ws, "big-" + k, products)).post("/orders").then()
                .statusCode(409).body("code", equalTo("UniqueViolation")).body("constraint", equalTo("reference"));
        assertThat(partition(large)).isEmpty();
        assertThat(holder(ws, "BIG-" + k)).isEqualTo("ORDER#" + small);
        // with a free reference the same order is created, and holds it
        given().contentType(ContentType.JSON).body(orderJson(large, ws, "LARGE-" + k, products)).post("/orders").then()
                .statusCode(201);
        given().get("/orders/{id}", large).then().statusCode(200).body("lines.size()", equalTo(98))
                .body("reference", equalTo("LARGE-" + k));
        assertThat(holder(ws, "LARGE-" + k)).isEqualTo("ORDER#" + large);
        // and a change of it in steps (every line's quantity, and the reference) moves it in the commit
        var lines = new StringBuilder("[{\"op\":\"replace\",\"path\":\"/reference\",\"value\":\"LARGER-" + k + "\"}");
        for (int i = 0; i < 98; i++) {
            lines.append(",{\"op\":\"replace\",\"path\":\"/lines/").append(i).append("/quantity\",\"value\":2}");
        }
        given().contentType("application/json-patch+json").body(lines.append("]").toString()).patch("/orders/{id}", large)
                .then().statusCode(200).body("reference", equalTo("LARGER-" + k));
        assertThat(holder(ws, "LARGE-" + k)).isNull();
        assertThat(holder(ws, "LARGER-" + k)).isEqualTo("ORDER#" + large);
    }
}
