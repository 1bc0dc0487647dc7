package dev.cairn.shop;

import dev.cairn.core.aggregate.AggregateVersions;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.store.EntityStore;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

/**
 * Version history on an aggregate: the shop's orders declare {@code history: { keep: 20 }}. Every write that changes
 * an order — merge patch, JSON Patch, PUT, a product's cascade into its lines (either mode), a delete, a write too
 * large for one transaction — keeps the version it replaces, the WHOLE order as its GET answered it, in the write's
 * commit transaction; {@code GET /orders/{id}/versions} lists them newest first (the current one first), paged, and
 * {@code …/versions/{n}} answers one with its number as the ETag. A refused write keeps nothing; a delete's versions
 * stay, and an order created again under the id continues their numbering.
 */
@QuarkusTest
class OrderHistoryResourceTest {

    static final String MERGE = "application/merge-patch+json";

    @Inject
    EntityStore store;

    final String k = UUID.randomUUID().toString().substring(0, 8);
    final String ws = "hist-" + k;

    static String product(String name) {
        String id = "hp-" + UUID.randomUUID().toString().substring(0, 8);
        given().contentType(ContentType.JSON).body("{\"id\":\"" + id + "\",\"name\":\"" + name
                + "\",\"brand\":\"steamco\",\"price\":25}").post("/products").then().statusCode(201);
        return id;
    }

    String order(String id, List<String> products) {
        var lines = new ArrayList<String>();
        products.forEach(p -> lines.add("{\"productId\":\"" + p + "\",\"quantity\":1}"));
        return "{\"id\":\"" + id + "\",\"workspaceId\":\"" + ws + "\",\"customerId\":\"c1\",\"status\":\"placed\","
                + "\"shipTo\":{\"name\":\"Ann\",\"street\":\"1 High St\",\"city\":\"Leeds\"},"
                + "\"lines\":[" + String.join(",", lines) + "]}";
    }

    static Map<String, Object> get(String id) {
        return given().get("/orders/{id}", id).then().statusCode(200).extract().jsonPath().getMap("");
    }

    static JsonPath versions(String id) {
        return given().get("/orders/{id}/versions?limit=100", id).then().statusCode(200).extract().jsonPath();
    }

    /** The snapshot items of an order, straight from the table. */
    List<Map<String, ?>> snapshots(String id) {
        return List.copyOf(store.queryAll(AggregateVersions.listing("ORDER#" + id, null))
                .await().atMost(Duration.ofSeconds(10)));
    }

    @Test
    void everyKindOfWriteKeepsTheWholeOrderItReplacesWithWhoWroteItAndWhen() {
        String p1 = product("Kettle");
        String p2 = product("Teapot");
        String id = "ho-" + k;
        given().contentType(ContentType.JSON).body(order(id, List.of(p1))).post("/orders").then().statusCode(201)
                .header("ETag", "\"1\"");
        var shown = new ArrayList<Map<String, Object>>();
        shown.add(get(id));
        // a create replaces nothing: only the current version
        assertThat(versions(id).getList("items")).hasSize(1);
        assertThat(snapshots(id)).isEmpty();

        given().contentType(MERGE).body("{\"status\":\"paid\"}").patch("/orders/{id}", id).then().statusCode(200)
                .header("ETag", "\"2\"");
        shown.add(get(id));
        given().contentType("application/json-patch+json")
                .body("[{\"op\":\"add\",\"path\":\"/lines/-\",\"value\":{\"productId\":\"" + p2 + "\",\"quantity\":3}}]")
                .patch("/orders/{id}", id).then().statusCode(200).header("ETag", "\"3\"");
        shown.add(get(id));
        given().contentType(ContentType.JSON).header("If-Match", "\"3\"").body(order(id, List.of(p2)))
                .put("/orders/{id}", id).then().statusCode(200).header("ETag", "\"4\"");
        shown.add(get(id));
        // the product's rename rewrites the line that copies it: the cascade's write keeps version 4
        given().contentType(MERGE).body("{\"name\":\"Teapot XL\"}").patch("/products/{id}", p2).then().statusCode(200)
                .body("updated", equalTo(1));
        shown.add(get(id));

        JsonPath all = versions(id);
        assertThat(all.getList("items.version", Integer.class)).containsExactly(5, 4, 3, 2, 1);
        assertThat(all.getList("items.current", Boolean.class)).containsExactly(true, false, false, false, false);
        assertThat(all.getList("items.writtenBy", String.class))
                .containsExactly("cascade:Product/" + p2, "anonymous", "anonymous", "anonymous", "anonymous");
        for (int i = 0; i < 5; i++) {
            // each version is the order exactly as its GET answered it then: lines, copies and timestamps
            Map<String, Object> item = all.getMap("items[" + (4 - i) + "].item");
            assertThat(item).isEqualTo(shown.get(i));
            assertThat(all.getString("items[" + (4 - i) + "].writtenAt")).isEqualTo(shown.get(i).get("updatedAt"));
        }
        assertThat(all.getList("items[1].item.lines.product.name", String.class)).containsExactly("Teapot");
        assertThat(all.getList("items[0].item.lines.product.name", String.class)).containsExactly("Teapot XL");
        // one version: its number is its ETag; the current one answers as the order does
        given().get("/orders/{id}/versions/{n}", id, 3).then().statusCode(200).header("ETag", "\"3\"")
                .body("version", equalTo(3)).body("current", equalTo(false)).body("item.lines", hasSize(2));
        given().get("/orders/{id}/versions/{n}", id, 5).then().statusCode(200).header("ETag", "\"5\"")
                .body("current", equalTo(true)).body("item.status", equalTo("placed"));
        // the snapshots are items of their own partition, never the order's: its read stays ONE Query of its items
        assertThat(snapshots(id)).hasSize(4);
        given().get("/orders/{id}", id).then().statusCode(200).header("X-DynamoDB-Calls", "1");
    }

    @Test
    void aTransactionalCascadeKeepsTheVersionItReplacesInItsOneTransaction() {
        String p = product("Kettle");
        String id = "ht-" + k;
        given().contentType(ContentType.JSON).body(order(id, List.of(p))).post("/orders").then().statusCode(201);
        var before = get(id);
        given().contentType(MERGE).body("{\"price\":31}").patch("/products/{id}?cascade=transactional", p).then()
                .statusCode(200).body("updated", equalTo(1));
        given().get("/orders/{id}/versions/{n}", id, 1).then().statusCode(200)
                .body("item.lines[0].product.price", equalTo(25)).body("writtenBy", equalTo("anonymous"));
        assertThat(given().get("/orders/{id}/versions/{n}", id, 1).then().extract().jsonPath().getMap("item"))
                .isEqualTo(before);
        given().get("/orders/{id}/versions/{n}", id, 2).then().statusCode(200).body("current", equalTo(true))
                .body("writtenBy", equalTo("cascade:Product/" + p)).body("item.lines[0].product.price", equalTo(31));
    }

    @Test
    void aRefusedWriteKeepsNothingAndAnUnchangedOneWritesNoVersion() {
        String p = product("Kettle");
        String id = "hr-" + k;
        given().contentType(ContentType.JSON).body(order(id, List.of(p))).post("/orders").then().statusCode(201);
        given().contentType(MERGE).header("If-Match", "\"7\"").body("{\"status\":\"paid\"}").patch("/orders/{id}", id)
                .then().statusCode(412);
        given().contentType(MERGE).body("{\"status\":\"placed\"}").patch("/orders/{id}", id).then().statusCode(200)
                .header("ETag", "\"1\"");
        given().contentType(MERGE).body("{\"lines\":[{\"productId\":\"hp-missing-" + k + "\",\"quantity\":1}]}")
                .patch("/orders/{id}", id).then().statusCode(422);
        assertThat(snapshots(id)).isEmpty();
        assertThat(versions(id).getList("items")).hasSize(1);
    }

    @Test
    void aDeletesVersionsStayWithWhoDeletedItAndAnOrderCreatedAgainContinuesTheirNumbers() {
        String p = product("Kettle");
        String id = "hd-" + k;
        given().contentType(ContentType.JSON).body(order(id, List.of(p))).post("/orders").then().statusCode(201);
        given().contentType(MERGE).body("{\"status\":\"paid\"}").patch("/orders/{id}", id).then().statusCode(200);
        var last = get(id);
        given().delete("/orders/{id}", id).then().statusCode(204);
        given().get("/orders/{id}", id).then().statusCode(404);
        JsonPath gone = versions(id);
        assertThat(gone.getList("items.version", Integer.class)).containsExactly(2, 1);
        assertThat(gone.getList("items.current", Boolean.class)).containsExactly(false, false);
        assertThat(gone.getString("items[0].deletedBy")).isEqualTo("anonymous");
        assertThat(gone.getString("items[0].deletedAt")).isNotNull();
        assertThat(gone.getMap("items[0].item")).isEqualTo(last);
        assertThat(gone.getString("items[1].deletedBy")).isNull();
        // created again: version 3, so the old versions are never overwritten
        given().contentType(ContentType.JSON).body(order(id, List.of(p))).post("/orders").then().statusCode(201)
                .header("ETag", "\"3\"");
        given().contentType(MERGE).body("{\"status\":\"shipped\"}").patch("/orders/{id}", id).then().statusCode(200)
                .header("ETag", "\"4\"");
        assertThat(versions(id).getList("items.version", Integer.class)).containsExactly(4, 3, 2, 1);
        given().get("/orders/{id}/versions/{n}", id, 2).then().statusCode(200).body("item.status", equalTo("paid"))
                .body("deletedBy", equalTo("anonymous"));
    }

    @Test
    void theLastTwentyPreviousVersionsAreKeptPagedNewestFirstAndOthersAreNotRetained() {
        String p = product("Kettle");
        String id = "hk-" + k;
        given().contentType(ContentType.JSON).body(order(id, List.of(p))).post("/orders").then().statusCode(201);
        for (int i = 0; i < 22; i++) {
            given().contentType(MERGE).body("{\"reference\":\"R" + i + "-" + k + "\"}").patch("/orders/{id}", id).then()
                    .statusCode(200).header("ETag", "\"" + (i + 2) + "\"");
        }
        // version 23 is current; 22 back to 3 are kept (20), 2 and 1 fell out of the window in the same transactions
        assertThat(snapshots(id)).hasSize(20);
        var seen = new ArrayList<Integer>();
        String cursor = null;
        int pages = 0;
        do {
            var page = given().queryParam("limit", 6).queryParams(cursor == null ? Map.of() : Map.of("cursor", cursor))
                    .get("/orders/{id}/versions", id).then().statusCode(200).extract().jsonPath();
            seen.addAll(page.getList("items.version", Integer.class));
            cursor = page.getString("next");
            pages++;
        } while (cursor != null && pages < 10);
        var expected = new ArrayList<Integer>();
        for (int v = 23; v >= 3; v--) {
            expected.add(v);
        }
        assertThat(seen).isEqualTo(expected);
        assertThat(pages).isEqualTo(4);
        given().get("/orders/{id}/versions/{n}", id, 2).then().statusCode(404).body("code", equalTo("NotFound"))
                .body("detail", org.hamcrest.Matchers.containsString("version 2"));
        given().get("/orders/{id}/versions/{n}", id, 3).then().statusCode(200).body("item.reference", equalTo("R1-" + k));
        given().get("/orders/{id}/versions/{n}", id, "two").then().statusCode(400).contentType("application/problem+json");
        given().get("/orders/{id}/versions/{n}", id, 0).then().statusCode(400).contentType("application/problem+json");
        given().get("/orders/{id}/versions", "ho-missing-" + k).then().statusCode(404);
        // a page is bounded: at most 100 versions, a larger limit is refused naming it (one page read 21 at once)
        given().queryParam("limit", 100).get("/orders/{id}/versions", id).then().statusCode(200)
                .body("items.size()", equalTo(21)).body("next", org.hamcrest.Matchers.nullValue());
        for (Object limit : List.of(101, 1000, 0, "all")) {
            given().queryParam("limit", limit).get("/orders/{id}/versions", id).then().statusCode(400)
                    .contentType("application/problem+json").body("code", equalTo("ValidationFailed"))
                    .body("errors[0].field", equalTo("limit"));
        }
    }

    @Test
    void aWriteTooLargeForOneTransactionKeepsTheVersionItReplacesInItsCommit() {
        var products = new ArrayList<String>();
        for (int i = 0; i < 98; i++) {
            products.add(product("Item " + i));
        }
        String id = "hl-" + k;
        given().contentType(ContentType.JSON).body(order(id, products)).post("/orders").then().statusCode(201);
        var before = get(id);
        // every line's quantity: 98 line writes and the root, more than one transaction holds
        var ops = new ArrayList<String>();
        for (int i = 0; i < 98; i++) {
            ops.add("{\"op\":\"replace\",\"path\":\"/lines/" + i + "/quantity\",\"value\":2}");
        }
        given().contentType("application/json-patch+json").body("[" + String.join(",", ops) + "]")
                .patch("/orders/{id}", id).then().statusCode(200).header("ETag", "\"2\"");
        JsonPath kept = given().get("/orders/{id}/versions/{n}", id, 1).then().statusCode(200).extract().jsonPath();
        assertThat(kept.getMap("item")).isEqualTo(before);
        assertThat(kept.getList("item.lines.quantity", Integer.class)).hasSize(98).containsOnly(1);
        given().get("/orders/{id}", id).then().statusCode(200).body("lines.quantity", org.hamcrest.Matchers.everyItem(equalTo(2)));
        given().get("/orders/{id}/versions", id).then().body("items[0].writtenBy", equalTo("anonymous"))
                .body("items[1].deletedBy", nullValue());
    }

    @Test
    void aCreateRacingADeleteNeverReusesTheDeletedOrdersVersionsNorOverwritesThem() throws Exception {
        String p = product("Kettle");
        var pool = java.util.concurrent.Executors.newFixedThreadPool(5);
        try {
            for (int round = 0; round < 12; round++) {
                String id = "hx" + round + "-" + k;
                given().contentType(ContentType.JSON).body(order(id, List.of(p))).post("/orders").then().statusCode(201);
                given().contentType(MERGE).body("{\"status\":\"paid\"}").patch("/orders/{id}", id).then().statusCode(200);
                var go = new java.util.concurrent.CountDownLatch(1);
                var answers = new ArrayList<java.util.concurrent.Future<io.restassured.response.Response>>();
                answers.add(pool.submit(() -> {
                    go.await();
                    return given().delete("/orders/{id}", id);
                }));
                for (int i = 0; i < 4; i++) {
                    answers.add(pool.submit(() -> {
                        go.await();
                        return given().contentType(ContentType.JSON).body(order(id, List.of(p))
                                .replace("\"placed\"", "\"delivered\"")).post("/orders");
                    }));
                }
                go.countDown();
                var created = new ArrayList<String>();
                for (var answer : answers) {
                    var response = answer.get(30, java.util.concurrent.TimeUnit.SECONDS);
                    if (response.statusCode() == 201) {
                        created.add(response.header("ETag"));
                    }
                }
                assertThat(answers.get(0).get().statusCode()).as("round %d: the delete", round).isEqualTo(204);
                // the deleted order's last version stays as its delete kept it; a new order numbers after it
                given().get("/orders/{id}/versions/{n}", id, 2).then().statusCode(200)
                        .body("deletedBy", equalTo("anonymous")).body("item.status", equalTo("paid"));
                assertThat(created).as("round %d: the creates that won", round).hasSizeLessThanOrEqualTo(1)
                        .allMatch("\"3\""::equals);
                if (!created.isEmpty()) {
                    given().contentType(MERGE).body("{\"status\":\"cancelled\"}").patch("/orders/{id}", id).then()
                            .statusCode(200).header("ETag", "\"4\"");
                    given().get("/orders/{id}/versions/{n}", id, 2).then().statusCode(200).body("deletedBy", equalTo("anonymous"));
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
