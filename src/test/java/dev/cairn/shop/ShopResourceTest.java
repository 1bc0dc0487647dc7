package dev.cairn.shop;

import dev.cairn.core.key.ShardedIds;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.store.EntityStore;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;

/**
 * The shop, a domain declared only by models/shop.yaml: the order aggregate (a shipping address member, lines that
 * copy their products), the product cascade into those lines, the order lists, the write-sharded customer events
 * read with {@code include}, and the products' second index. Every figure is the X-DynamoDB-Calls the route answers.
 */
@QuarkusTest
class ShopResourceTest {

    @Inject
    EntityStore store;

    static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    List<Map<String, ?>> partition(String pk) {
        return List.copyOf(store.queryAll(QuerySpec.table(pk).consistent().build()).await().atMost(Duration.ofSeconds(10)));
    }

    static void product(String id, String name, String brand, double price) {
        given().contentType(ContentType.JSON)
                .body("{\"id\":\"" + id + "\",\"name\":\"" + name + "\",\"brand\":\"" + brand + "\",\"price\":" + price + "}")
                .post("/products").then().statusCode(201).header("X-DynamoDB-Calls", "1");
    }

    static String orderJson(String id, String customer, String status, String... productIds) {
        var lines = new ArrayList<String>();
        for (int i = 0; i < productIds.length; i++) {
            lines.add("{\"productId\":\"" + productIds[i] + "\",\"quantity\":" + (i + 1) + "}");
        }
        return "{\"id\":\"" + id + "\",\"workspaceId\":\"acme\",\"customerId\":\"" + customer + "\",\"status\":\"" + status + "\","
                + "\"shipTo\":{\"name\":\"Ann\",\"street\":\"1 High St\",\"city\":\"Leeds\",\"postcode\":\"LS1\"},"
                + "\"lines\":[" + String.join(",", lines) + "]}";
    }

    /** Two products and an order of both: the order's id. */
    record Fixture(String p1, String p2, String order) {
        static Fixture create(String status) {
            var f = new Fixture(unique("prod"), unique("prod"), unique("order"));
            product(f.p1, "Kettle", unique("brand"), 25.5);
            product(f.p2, "Teapot", unique("brand"), 12);
            given().contentType(ContentType.JSON).body(orderJson(f.order, "cust-" + f.order, status, f.p1, f.p2))
                    .post("/orders").then().statusCode(201);
            return f;
        }
    }

    @Test
    void anOrderIsOneAggregateCreatedInFourCallsAndReadWithOneQuery() {
        String p1 = unique("prod");
        String p2 = unique("prod");
        product(p1, "Kettle", "steamco", 25.5);
        product(p2, "Teapot", "steamco", 12);
        String id = unique("order");
        // the products (one BatchGetItem), "the partition is empty" (Query) and the newest version an earlier order
        // of the id left retained (Query: orders keep history) side by side, then ONE transaction
        given().contentType(ContentType.JSON).body(orderJson(id, "cust-1", "placed", p1, p2)).post("/orders").then()
                .statusCode(201).header("X-DynamoDB-Calls", "4").header("ETag", "\"1\"")
                .body("id", equalTo(id)).body("shipTo.city", equalTo("Leeds"))
                .body("lines", hasSize(2)).body("lines[0].product.name", equalTo("Kettle"))
                .body("lines[0].product.price", equalTo(25.5f)).body("lines[1].quantity", equalTo(2));
        given().get("/orders/{id}", id).then().statusCode(200).header("X-DynamoDB-Calls", "1").header("ETag", "\"1\"")
                .body("status", equalTo("placed")).body("shipTo.name", equalTo("Ann"))
                .body("lines.product.id", equalTo(List.of(p1, p2))).body("lines[1].product.name", equalTo("Teapot"));
        // the root, the shipping address and one item per line: one partition
        assertThat(partition("ORDER#" + id)).extracting(i -> ((AttributeValue) i.get("sk")).s())
                .containsExactlyInAnyOrder("HEAD", "LINE#" + p1, "LINE#" + p2, "SHIPTO");
        given().contentType(ContentType.JSON).body(orderJson(id, "cust-1", "paid", p1)).post("/orders").then()
                .statusCode(409).body("code", equalTo("Conflict"));
        given().get("/orders/{id}", "missing-" + id).then().statusCode(404).body("code", equalTo("NotFound"));
    }

    @Test
    void aLineChangeMovesTheOrdersETagSoIfMatchGuardsTheWholeAggregate() {
        var f = Fixture.create("placed");
        // a stale version changes nothing
        given().contentType("application/json-patch+json").header("If-Match", "\"9\"")
                .body("[{\"op\":\"replace\",\"path\":\"/lines/1/quantity\",\"value\":5}]")
                .patch("/orders/{id}", f.order).then().statusCode(412).body("code", equalTo("VersionConflict"));
        // a line's quantity: 1 Query + 1 transaction, and the order's version moves
        given().contentType("application/json-patch+json").header("If-Match", "\"1\"")
                .body("[{\"op\":\"replace\",\"path\":\"/lines/1/quantity\",\"value\":5}]")
                .patch("/orders/{id}", f.order).then().statusCode(200).header("X-DynamoDB-Calls", "2")
                .header("ETag", "\"2\"").body("lines[1].quantity", equalTo(5));
        given().contentType("application/merge-patch+json").header("If-Match", "\"1\"").body("{\"status\":\"paid\"}")
                .patch("/orders/{id}", f.order).then().statusCode(412);
        // the shipping address (a member item of its own)
        given().contentType("application/merge-patch+json").header("If-Match", "\"2\"")
                .body("{\"shipTo\":{\"city\":\"York\"}}")
                .patch("/orders/{id}", f.order).then().statusCode(200).header("ETag", "\"3\"")
                .body("shipTo.city", equalTo("York")).body("shipTo.street", equalTo("1 High St"));
        // a line removed: its item is deleted
        given().contentType("application/json-patch+json").body("[{\"op\":\"remove\",\"path\":\"/lines/0\"}]")
                .patch("/orders/{id}", f.order).then().statusCode(200).header("X-DynamoDB-Calls", "2")
                .body("lines", hasSize(1)).body("lines[0].product.id", equalTo(f.p2));
        assertThat(partition("ORDER#" + f.order)).hasSize(3);
        // PUT replaces the whole order (a new product hydrated: + 1 BatchGetItem)
        String p3 = unique("prod");
        product(p3, "Cosy", "warmco", 8);
        given().contentType(ContentType.JSON).header("If-Match", "\"4\"")
                .body(orderJson(f.order, "cust-" + f.order, "paid", f.p2, p3))
                .put("/orders/{id}", f.order).then().statusCode(200).header("X-DynamoDB-Calls", "3").header("ETag", "\"5\"")
                .body("status", equalTo("paid")).body("lines.product.name", equalTo(List.of("Teapot", "Cosy")));
        // delete: every item of the partition, If-Match honoured
        given().header("If-Match", "\"4\"").delete("/orders/{id}", f.order).then().statusCode(412);
        given().header("If-Match", "\"5\"").delete("/orders/{id}", f.order).then().statusCode(204)
                .header("X-DynamoDB-Calls", "2");
        assertThat(partition("ORDER#" + f.order)).isEmpty();
        given().get("/orders/{id}", f.order).then().statusCode(404);
    }

    @Test
    void anUnknownProductIs422RefNotFoundNamingTheLineAndNothingIsWritten() {
        String p1 = unique("prod");
        product(p1, "Kettle", "steamco", 25.5);
        String id = unique("order");
        String ghost = unique("ghost");
        given().contentType(ContentType.JSON).body(orderJson(id, "cust-1", "placed", p1, ghost)).post("/orders").then()
                .statusCode(422).contentType("application/problem+json").body("code", equalTo("RefNotFound"))
                .body("field", equalTo("lines[1].product")).body("refId", equalTo(ghost))
                .body("refEntity", equalTo("Product")).header("X-DynamoDB-Calls", "3");
        // (the reads side by side: the products, the partition, the newest retained version; no write)
        assertThat(partition("ORDER#" + id)).isEmpty();
        // an unknown status is a 400 before any call
        given().contentType(ContentType.JSON).body(orderJson(id, "cust-1", "lost", p1)).post("/orders").then()
                .statusCode(400).body("errors.field", hasItem("status")).header("X-DynamoDB-Calls", "0");
    }

    @Test
    void renamingAProductRewritesTheCopiesInEveryOrderLineAndMovesTheOrdersVersions() {
        var a = Fixture.create("placed");
        String second = unique("order");
        given().contentType(ContentType.JSON).body(orderJson(second, "cust-x", "paid", a.p1)).post("/orders").then()
                .statusCode(201);
        given().contentType("application/merge-patch+json").body("{\"name\":\"Electric Kettle\",\"price\":30}")
                .patch("/products/{id}", a.p1).then().statusCode(200).header("ETag", "\"2\"")
                .body("state", equalTo("done")).body("matched", equalTo(2)).body("updated", equalTo(2))
                .body("failed", equalTo(0)).body("entity.name", equalTo("Electric Kettle"));
        for (String order : List.of(a.order, second)) {
            given().get("/orders/{id}", order).then().statusCode(200).header("X-DynamoDB-Calls", "1").header("ETag", "\"2\"")
                    .body("lines[0].product.name", equalTo("Electric Kettle")).body("lines[0].product.price", equalTo(30));
        }
        given().get("/orders/{id}", a.order).then().body("lines[1].product.name", equalTo("Teapot"));
        given().get("/products/{id}/references", a.p1).then().statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("items", hasSize(2));
        // a product an order line copies is reference data: its delete is refused while a copy exists
        given().delete("/products/{id}", a.p1).then().statusCode(409).body("code", equalTo("StillReferenced"));
    }

    @Test
    void anOrderShowsWhenItWasCreatedAndWhenAnyWriteACascadeIncludedLastChangedIt() {
        var f = Fixture.create("placed");
        var created = given().get("/orders/{id}", f.order).then().statusCode(200).extract().response();
        String createdAt = created.path("createdAt");
        assertThat(createdAt).isNotNull().isEqualTo(created.<String>path("updatedAt"));
        var patched = given().contentType("application/merge-patch+json").body("{\"status\":\"paid\"}")
                .patch("/orders/{id}", f.order).then().statusCode(200).extract().response();
        assertThat(patched.<String>path("createdAt")).isEqualTo(createdAt);
        java.time.Instant changed = java.time.Instant.parse(patched.path("updatedAt"));
        assertThat(changed).isAfter(java.time.Instant.parse(createdAt));
        // a write that changes nothing moves nothing
        given().contentType("application/merge-patch+json").body("{\"status\":\"paid\"}").patch("/orders/{id}", f.order)
                .then().statusCode(200).header("ETag", "\"2\"").body("updatedAt", equalTo(patched.path("updatedAt")));
        // a product's rename rewrites the line's copy: the order changed, so its version and updatedAt move
        given().contentType("application/merge-patch+json").body("{\"name\":\"Steam Kettle\"}")
                .patch("/products/{id}", f.p1).then().statusCode(200).body("updated", equalTo(1));
        var renamed = given().get("/orders/{id}", f.order).then().statusCode(200).header("ETag", "\"3\"")
                .body("lines[0].product.name", equalTo("Steam Kettle")).body("createdAt", equalTo(createdAt))
                .extract().response();
        assertThat(java.time.Instant.parse(renamed.path("updatedAt"))).isAfter(changed);
    }

    @Test
    void theStatusListFollowsAnOrdersStatusNewestFirstWithOneQuery() {
        var older = Fixture.create("placed");
        var newer = Fixture.create("placed");
        List<String> placed = given().queryParam("limit", 100).get("/order-statuses/{s}/orders", "placed").then()
                .statusCode(200).header("X-DynamoDB-Calls", "1").extract().path("items.id");
        assertThat(placed).containsSubsequence(newer.order, older.order);
        given().contentType("application/merge-patch+json").body("{\"status\":\"shipped\"}")
                .patch("/orders/{id}", older.order).then().statusCode(200);
        given().queryParam("limit", 100).get("/order-statuses/{s}/orders", "placed").then().statusCode(200)
                .body("items.id", hasItem(newer.order)).body("items.id", not(hasItem(older.order)));
        given().queryParam("limit", 100).get("/order-statuses/{s}/orders", "shipped").then().statusCode(200)
                .header("X-DynamoDB-Calls", "1").body("items.id", hasItem(older.order))
                .body("items.find { it.id == '" + older.order + "' }.shipCity", equalTo("Leeds"))
                .body("items.find { it.id == '" + older.order + "' }.customerId", equalTo("cust-" + older.order));
        given().get("/order-statuses/{s}/orders", "delivered").then().statusCode(200).header("X-DynamoDB-Calls", "1");
        // a value the status field cannot hold: a 400 naming it, before any call
        given().get("/order-statuses/{s}/orders", "lost").then().statusCode(400).header("X-DynamoDB-Calls", "0")
                .contentType("application/problem+json").body("code", equalTo("ValidationFailed"))
                .body("errors[0].field", equalTo("status"));
        // every order: one Query per shard of the list, in parallel
        List<String> all = given().queryParam("limit", 100).get("/orders").then().statusCode(200)
                .header("X-DynamoDB-Calls", "4").extract().path("items.id");
        assertThat(all).containsSubsequence(newer.order, older.order);
    }

    static void customer(String id, int shards) {
        given().contentType(ContentType.JSON)
                .body("{\"id\":\"" + id + "\",\"name\":\"Big Buyer\",\"email\":\"b@example.org\",\"shards\":" + shards + "}")
                .post("/customers").then().statusCode(201).header("X-DynamoDB-Calls", "1").body("shards", equalTo(shards));
    }

    static String event(String customer, String kind, String note) {
        return given().contentType(ContentType.JSON).body("{\"kind\":\"" + kind + "\",\"note\":\"" + note + "\"}")
                .post("/customers/{c}/events", customer).then().statusCode(201).extract().path("id");
    }

    @Test
    void aHotCustomersEventsAreWriteShardedAndReadNewestFirstWithTheCustomer() {
        String customer = unique("cust");
        customer(customer, 8);
        var notes = new ArrayList<String>();
        var shardsUsed = new HashSet<Integer>();
        for (int i = 0; i < 16; i++) {
            notes.add("e" + i);
            shardsUsed.add(ShardedIds.shardOfId(event(customer, "viewed", "e" + i)));
        }
        assertThat(shardsUsed).hasSizeGreaterThanOrEqualTo(4);
        // a create is ONE PutItem on a replica that has seen the customer's shard count
        given().contentType(ContentType.JSON).body("{\"kind\":\"carted\",\"note\":\"e16\"}")
                .post("/customers/{c}/events", customer).then().statusCode(201).header("X-DynamoDB-Calls", "1");
        notes.add("e16");
        Collections.reverse(notes);
        // include: the customer and its newest events, one Query per shard in parallel
        given().queryParam("include", "events").queryParam("limit", 5).get("/customers/{id}", customer).then()
                .statusCode(200).header("X-DynamoDB-Calls", "8").body("name", equalTo("Big Buyer"))
                .body("events.items.note", equalTo(notes.subList(0, 5)))
                .body("events.items.customerId", everyItem(equalTo(customer)));
        List<String> listed = given().queryParam("limit", 100).get("/customers/{c}/events", customer).then()
                .statusCode(200).header("X-DynamoDB-Calls", "8").extract().path("items.note");
        assertThat(listed).containsExactlyElementsOf(notes);
        given().queryParam("include", "orders").get("/customers/{id}", customer).then().statusCode(400)
                .body("errors[0].field", equalTo("include"));
        given().contentType(ContentType.JSON).body("{\"kind\":\"viewed\"}").post("/customers/{c}/events", unique("nobody"))
                .then().statusCode(404);
        // the shard count only grows
        given().contentType("application/merge-patch+json").body("{\"shards\":2}").patch("/customers/{id}", customer)
                .then().statusCode(400).body("errors[0].field", equalTo("shards"));
    }

    @Test
    void productsAreListedByBrandThroughTheSecondIndexAndByCategoryThroughTheInverse() {
        String brand = unique("brand");
        String a = unique("prod");
        String b = unique("prod");
        product(a, "Alpha", brand, 1);
        product(b, "Beta", brand, 2);
        product(unique("prod"), "Other", unique("brand"), 3);
        given().get("/brands/{brand}/products", brand).then().statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("items.id", equalTo(List.of(a, b).stream().sorted().toList()));
        String category = unique("cat");
        given().contentType(ContentType.JSON).body("{\"id\":\"" + category + "\",\"name\":\"Kitchen\"}").post("/categories")
                .then().statusCode(201);
        given().contentType(ContentType.JSON).body("{}").put("/products/{p}/categories/{c}", a, category).then()
                .statusCode(201).header("X-DynamoDB-Calls", "2").body("categoryName", equalTo("Kitchen"));
        given().get("/products/{p}/categories", a).then().statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("items.categoryId", equalTo(List.of(category)));
        given().get("/categories/{c}/products", category).then().statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("items.productId", equalTo(List.of(a)));
    }
}
