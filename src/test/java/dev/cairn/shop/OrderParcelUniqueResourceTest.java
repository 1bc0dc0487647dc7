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
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

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
 * A unique value on an aggregate's MEMBERS: the shop's order parcels declare {@code unique: {barcode: {fields:
 * [barcode], scope: workspaceId, case: insensitive}}}, scoped by the root's workspace. Each value is a sentinel owned by
 * the parcel's item, taken, passed on and given up in the order's commit with its root: a value taken elsewhere refuses
 * the whole write and leaves the table as it was, on every route that writes an order.
 */
@QuarkusTest
class OrderParcelUniqueResourceTest {

    @Inject
    EntityStore store;

    @Inject
    DynamoDbAsyncClient client;

    @Inject
    DeclaredModels models;

    final String k = UUID.randomUUID().toString().substring(0, 8);
    final String ws = "parcel-a-" + k;
    final String other = "parcel-b-" + k;

    static String orderJson(String id, String workspace, List<String> products, String... barcodes) {
        var lines = new ArrayList<String>();
        for (String product : products) {
            lines.add("{\"productId\":\"" + product + "\",\"quantity\":1}");
        }
        var parcels = new ArrayList<String>();
        for (int i = 0; i < barcodes.length; i++) {
            parcels.add("{\"no\":" + (i + 1) + ",\"barcode\":\"" + barcodes[i] + "\",\"weightGrams\":500}");
        }
        return "{\"id\":\"" + id + "\",\"workspaceId\":\"" + workspace + "\",\"customerId\":\"c1\",\"status\":\"placed\","
                + "\"shipTo\":{\"name\":\"Ann\",\"street\":\"1 High St\",\"city\":\"Leeds\"},"
                + "\"lines\":[" + String.join(",", lines) + "],\"parcels\":[" + String.join(",", parcels) + "]}";
    }

    String product() {
        String id = "pp-" + UUID.randomUUID().toString().substring(0, 8);
        given().contentType(ContentType.JSON).body("{\"id\":\"" + id + "\",\"name\":\"Kettle\",\"brand\":\"steamco\",\"price\":25}")
                .post("/products").then().statusCode(201);
        return id;
    }

    /** The item (pk and sk) holding this barcode in the workspace, read from its sentinel in the table; null: free. */
    String holder(String workspace, String barcode) {
        var constraint = models.plan().aggregate("Order").memberUnique().get("OrderParcel").get(0);
        PrimaryKey key = constraint.sentinel("OrderParcel", Map.of("barcode", barcode, "workspaceId", workspace))
                .orElseThrow();
        var item = client.getItem(r -> r.tableName(store.table()).key(key.toAttributes()).consistentRead(true)).join();
        return item.hasItem() && !item.item().isEmpty() ? item.item().get(UniqueSentinels.OWNER_PK).s() + " "
                + item.item().get(UniqueSentinels.OWNER_SK).s() : null;
    }

    /** The sort key of an order's parcel item. */
    String parcel(String order, int no) {
        return partition(order).stream().filter(i -> "OrderParcel".equals(i.get("_type").s())
                        && i.get("no").n().equals(String.valueOf(no)))
                .map(i -> "ORDER#" + order + " " + i.get("sk").s()).findFirst().orElseThrow();
    }

    List<Map<String, AttributeValue>> partition(String order) {
        return List.copyOf(store.queryAll(QuerySpec.table("ORDER#" + order).consistent().build())
                .await().atMost(Duration.ofSeconds(10)));
    }

    @Test
    void aBarcodeIsOneParcelsWithinAWorkspaceInAnyCaseAndAnotherWorkspaceMayUseIt() {
        String p = product();
        String a = "pa-" + k;
        String b = "pb-" + k;
        given().contentType(ContentType.JSON).body(orderJson(a, ws, List.of(p), "BC1-" + k, "BC2-" + k)).post("/orders")
                .then().statusCode(201).body("parcels.barcode", containsInAnyOrder("BC1-" + k, "BC2-" + k));
        assertThat(holder(ws, "bc1-" + k)).isEqualTo(parcel(a, 1));
        assertThat(holder(ws, "bc2-" + k)).isEqualTo(parcel(a, 2));
        // the same barcode in another case on another order: refused whole, naming the constraint, never the order
        String refused = given().contentType(ContentType.JSON).body(orderJson(b, ws, List.of(p), "free-" + k, "bc2-" + k))
                .post("/orders").then().statusCode(409).contentType("application/problem+json")
                .body("code", equalTo("UniqueViolation")).body("constraint", equalTo("barcode"))
                .body("fields", containsInAnyOrder("barcode", "workspaceId")).extract().asString();
        assertThat(refused).doesNotContain(a);
        assertThat(partition(b)).isEmpty();
        assertThat(holder(ws, "free-" + k)).isNull();
        // another workspace has its own scope
        given().contentType(ContentType.JSON).body(orderJson(b, other, List.of(p), "BC2-" + k)).post("/orders").then()
                .statusCode(201);
        assertThat(holder(other, "BC2-" + k)).isEqualTo(parcel(b, 1));
        // two parcels of one order with one barcode: the write's own violation, nothing written
        String c = "pc-" + k;
        given().contentType(ContentType.JSON).body(orderJson(c, ws, List.of(p), "twin-" + k, "TWIN-" + k)).post("/orders")
                .then().statusCode(409).body("code", equalTo("UniqueViolation")).body("constraint", equalTo("barcode"));
        assertThat(partition(c)).isEmpty();
        assertThat(holder(ws, "twin-" + k)).isNull();
    }

    @Test
    void aPatchAPutAndAJsonPatchMoveSwapAndFreeBarcodesAndATakenOneLeavesTheOrderAsItWas() {
        String p = product();
        String a = "pd-" + k;
        String b = "pe-" + k;
        given().contentType(ContentType.JSON).body(orderJson(a, ws, List.of(p), "A1-" + k, "A2-" + k)).post("/orders")
                .then().statusCode(201);
        given().contentType(ContentType.JSON).body(orderJson(b, ws, List.of(p), "B1-" + k)).post("/orders").then()
                .statusCode(201);
        String first = parcel(a, 1);
        String second = parcel(a, 2);
        // a merge patch that swaps the two barcodes: each passed from one parcel to the other in ONE write
        given().contentType("application/merge-patch+json")
                .body("{\"parcels\":[{\"no\":1,\"barcode\":\"A2-" + k + "\"},{\"no\":2,\"barcode\":\"A1-" + k + "\"}]}")
                .patch("/orders/{id}", a).then().statusCode(200).header("ETag", "\"2\"");
        assertThat(holder(ws, "A1-" + k)).isEqualTo(second);
        assertThat(holder(ws, "A2-" + k)).isEqualTo(first);
        // a JSON Patch to a barcode another order holds: 409, the order (its version, its items) as it was
        var before = partition(a);
        given().contentType("application/json-patch+json")
                .body("[{\"op\":\"replace\",\"path\":\"/parcels/0/barcode\",\"value\":\"b1-" + k + "\"}]")
                .patch("/orders/{id}", a).then().statusCode(409).body("code", equalTo("UniqueViolation"))
                .body("constraint", equalTo("barcode"));
        assertThat(partition(a)).isEqualTo(before);
        assertThat(holder(ws, "B1-" + k)).isEqualTo(parcel(b, 1));
        given().get("/orders/{id}", a).then().statusCode(200).header("ETag", "\"2\"");
        // a JSON Patch to a free one moves it: the old value is free at once
        given().contentType("application/json-patch+json")
                .body("[{\"op\":\"replace\",\"path\":\"/parcels/0/barcode\",\"value\":\"A3-" + k + "\"}]")
                .patch("/orders/{id}", a).then().statusCode(200).header("ETag", "\"3\"");
        assertThat(holder(ws, "A3-" + k)).isEqualTo(first);
        assertThat(holder(ws, "A2-" + k)).isNull();
        // a PUT without the second parcel gives its value up
        given().contentType(ContentType.JSON).body(orderJson(a, ws, List.of(p), "A3-" + k)).put("/orders/{id}", a)
                .then().statusCode(200).header("ETag", "\"4\"");
        assertThat(holder(ws, "A1-" + k)).isNull();
        assertThat(holder(ws, "A3-" + k)).isEqualTo(first);
        // the freed value is anyone's: the other order takes it
        given().contentType("application/merge-patch+json").body("{\"parcels\":[{\"no\":1,\"barcode\":\"A1-" + k + "\"}]}")
                .patch("/orders/{id}", b).then().statusCode(200);
        assertThat(holder(ws, "A1-" + k)).isEqualTo(parcel(b, 1));
        assertThat(holder(ws, "B1-" + k)).isNull();
        // an unchanged barcode moves nothing (a change elsewhere in the order)
        given().contentType("application/merge-patch+json").body("{\"status\":\"paid\"}").patch("/orders/{id}", b)
                .then().statusCode(200);
        assertThat(holder(ws, "A1-" + k)).isEqualTo(parcel(b, 1));
        // a delete frees every value the order's parcels held (an admin's)
        given().delete("/orders/{id}", a).then().statusCode(204);
        assertThat(holder(ws, "A3-" + k)).isNull();
    }

    @Test
    void anOrderWrittenInStepsTakesItsParcelsValuesOnlyAtItsCommitAndARefusedOneLeavesNone() {
        // 78 lines, 20 parcels and the address: one group of 99 items, written in steps (begin, group, commit)
        var products = new ArrayList<String>();
        for (int i = 0; i < 78; i++) {
            products.add(product());
        }
        var barcodes = new String[20];
        for (int i = 0; i < 20; i++) {
            barcodes[i] = "big" + i + "-" + k;
        }
        String holderOrder = "pf-" + k;
        given().contentType(ContentType.JSON).body(orderJson(holderOrder, ws, List.of(products.get(0)), "big19-" + k))
                .post("/orders").then().statusCode(201);
        String big = "pg-" + k;
        // its last parcel's barcode is taken: the commit is refused, the group undone, no value taken
        given().contentType(ContentType.JSON).body(orderJson(big, ws, products, barcodes)).post("/orders").then()
                .statusCode(409).body("code", equalTo("UniqueViolation")).body("constraint", equalTo("barcode"));
        given().get("/orders/{id}", big).then().statusCode(404);
        for (int i = 0; i < 19; i++) {
            assertThat(holder(ws, barcodes[i])).as(barcodes[i]).isNull();
        }
        // freed, the same order is created whole: each of its 20 values held by its own parcel
        given().delete("/orders/{id}", holderOrder).then().statusCode(204);
        given().contentType(ContentType.JSON).body(orderJson(big, ws, products, barcodes)).post("/orders").then()
                .statusCode(201).body("parcels.size()", equalTo(20)).body("lines.size()", equalTo(78));
        for (int i = 0; i < 20; i++) {
            assertThat(holder(ws, barcodes[i])).as(barcodes[i]).isEqualTo(parcel(big, i + 1));
        }
        // its delete (in steps too) frees them all
        given().delete("/orders/{id}", big).then().statusCode(204);
        for (int i = 0; i < 20; i++) {
            assertThat(holder(ws, barcodes[i])).as(barcodes[i]).isNull();
        }
    }

    @Test
    void deletingADamagedOrderGivesUpTheBarcodesItsParcelsHold() {
        String p = product();
        String a = "ph-" + k;
        given().contentType(ContentType.JSON).body(orderJson(a, ws, List.of(p), "DMG-" + k)).post("/orders").then()
                .statusCode(201);
        client.deleteItem(r -> r.tableName(store.table()).key(PrimaryKey.of("ORDER#" + a, "SHIPTO").toAttributes())).join();
        given().get("/orders/{id}", a).then().statusCode(409).body("code", equalTo("AggregateAssemblyError"));
        assertThat(holder(ws, "DMG-" + k)).isNotNull();
        given().delete("/orders/{id}", a).then().statusCode(204);
        assertThat(partition(a)).isEmpty();
        assertThat(holder(ws, "DMG-" + k)).isNull();
    }

    @Test
    void aStoredTwinOfAValueIsGivenUpByTheWritesThatLeaveItAndNeverBlocksTheOrder() {
        String p = product();
        String a = "pt-" + k;
        given().contentType(ContentType.JSON).body(orderJson(a, ws, List.of(p), "TW1-" + k, "TW2-" + k)).post("/orders")
                .then().statusCode(201);
        String first = parcel(a, 1);
        // the second parcel made to hold the first's value behind the service's back (stored before the constraint was
        // declared, or folded otherwise since): the order still reads, and every write goes on
        String second = parcel(a, 2).substring(parcel(a, 2).indexOf(' ') + 1);
        client.updateItem(r -> r.tableName(store.table()).key(PrimaryKey.of("ORDER#" + a, second).toAttributes())
                .updateExpression("SET barcode = :b").expressionAttributeValues(Map.of(":b", AttributeValue.fromS("tw1-" + k))))
                .join();
        given().get("/orders/{id}", a).then().statusCode(200);
        given().contentType("application/merge-patch+json").body("{\"status\":\"paid\"}").patch("/orders/{id}", a)
                .then().statusCode(200);
        assertThat(holder(ws, "TW1-" + k)).isEqualTo(first);
        // a write that gives the value to a third parcel is refused: the twin may stay as it was, not spread
        given().contentType("application/merge-patch+json")
                .body("{\"parcels\":[{\"no\":1,\"barcode\":\"TW1-" + k + "\"},{\"no\":2,\"barcode\":\"tw1-" + k
                        + "\"},{\"no\":3,\"barcode\":\"Tw1-" + k + "\"}]}")
                .patch("/orders/{id}", a).then().statusCode(409).body("code", equalTo("UniqueViolation"));
        // a write that leaves the twin out passes the value to the parcel that keeps it
        given().contentType("application/merge-patch+json").body("{\"parcels\":[{\"no\":2,\"barcode\":\"tw1-" + k + "\"}]}")
                .patch("/orders/{id}", a).then().statusCode(200);
        // the value passed to the parcel that keeps it, whichever held it
        assertThat(holder(ws, "TW1-" + k)).isEqualTo("ORDER#" + a + " " + second);
        given().delete("/orders/{id}", a).then().statusCode(204);
        assertThat(holder(ws, "TW1-" + k)).isNull();
    }

    @Test
    void aVersionKeptBeforeTheParcelsWereDeclaredAnswersThemEmpty() {
        String p = product();
        String a = "pv-" + k;
        given().contentType(ContentType.JSON).body(orderJson(a, ws, List.of(p))).post("/orders").then().statusCode(201);
        given().contentType("application/merge-patch+json").body("{\"status\":\"paid\"}").patch("/orders/{id}", a)
                .then().statusCode(200);
        // version 1's snapshot as one kept before parcels existed: its view has no parcels at all
        var key = PrimaryKey.of("~VERSION#ORDER#" + a, String.format("%019d", 1));
        var stored = client.getItem(r -> r.tableName(store.table()).key(key.toAttributes()).consistentRead(true)).join().item();
        String json = stored.get("_json").s();
        assertThat(json).contains("\"parcels\":[]");
        client.updateItem(r -> r.tableName(store.table()).key(key.toAttributes()).updateExpression("SET #j = :j")
                .expressionAttributeNames(Map.of("#j", "_json"))
                .expressionAttributeValues(Map.of(":j", AttributeValue.fromS(json.replace(",\"parcels\":[]", "")
                        .replace("\"parcels\":[],", ""))))).join();
        given().get("/orders/{id}/versions/{n}", a, 1).then().statusCode(200).body("item.parcels.size()", equalTo(0))
                .body("item.status", equalTo("placed"));
        given().get("/orders/{id}/versions", a).then().statusCode(200).body("items[1].item.parcels.size()", equalTo(0));
    }
}
