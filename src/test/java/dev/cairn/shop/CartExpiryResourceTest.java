package dev.cairn.shop;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.TableSpec;
import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.aggregate.AggregateWrites;
import dev.cairn.declared.DeclaredModels;
import dev.cairn.platform.TestClock;
import dev.cairn.store.AggregateStore;
import dev.cairn.store.EntityStore;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static dev.cairn.shop.ShopResourceTest.product;
import static dev.cairn.shop.ShopResourceTest.unique;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

/**
 * The shop's carts declare {@code ttl: expiresAt}: every item of a cart (its root and each line) carries the root's
 * expiry as the table's TTL attribute, so at that instant the whole cart is gone from every route (before DynamoDB
 * deletes it), a write meets it as missing, a cascade skips its lines, and DynamoDB's TTL deletes every item of it.
 * The tests move the application's clock, or the expiry.
 */
@QuarkusTest
class CartExpiryResourceTest {

    /** More than five years past: DynamoDB's TTL never deletes by it, so what hides the cart is Cairn's check alone. */
    static final String PAST = "2020-01-01T00:00:00Z";

    @Inject
    EntityStore store;

    @Inject
    AggregateStore aggregates;

    @Inject
    DeclaredModels models;

    @Inject
    DynamoDbAsyncClient client;

    @Inject
    TestClock clock;

    @AfterEach
    void putTheClockBack() {
        clock.reset();
    }

    static String cartJson(String id, String customer, String expiresAt, String... productIds) {
        var lines = new ArrayList<String>();
        for (int i = 0; i < productIds.length; i++) {
            lines.add("{\"productId\":\"" + productIds[i] + "\",\"quantity\":" + (i + 1) + "}");
        }
        return "{\"id\":\"" + id + "\",\"workspaceId\":\"acme\",\"customerId\":\"" + customer + "\",\"expiresAt\":\""
                + expiresAt + "\",\"lines\":[" + String.join(",", lines) + "]}";
    }

    static void cart(String id, String customer, String expiresAt, String... productIds) {
        given().contentType(ContentType.JSON).body(cartJson(id, customer, expiresAt, productIds)).post("/carts").then()
                .statusCode(201).body("expiresAt", equalTo(expiresAt));
    }

    /** An hour from the application's clock, to the second. */
    String inAnHour() {
        return clock.instant().truncatedTo(ChronoUnit.SECONDS).plus(Duration.ofHours(1)).toString();
    }

    static AttributeValue epoch(String instant) {
        return AttributeValue.fromN(Long.toString(Instant.parse(instant).getEpochSecond()));
    }

    /** The cart's items as DynamoDB holds them, read past Cairn (no expiry check), by sort key. */
    Map<String, Map<String, AttributeValue>> raw(String cart) {
        var items = client.query(r -> r.tableName(store.table()).consistentRead(true).keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS("CART#" + cart)))).join().items();
        var bySk = new TreeMap<String, Map<String, AttributeValue>>();
        items.forEach(item -> bySk.put(item.get(TableSpec.SK).s(), item));
        return bySk;
    }

    /** What DynamoDB's TTL does to an expired item: a DeleteItem of the service's own, for each item past {@code now}. */
    void removeExpired(String cart, Instant now) {
        raw(cart).values().stream()
                .filter(item -> item.containsKey(TableSpec.EXPIRES_AT)
                        && Long.parseLong(item.get(TableSpec.EXPIRES_AT).n()) <= now.getEpochSecond())
                .forEach(item -> client.deleteItem(r -> r.tableName(store.table())
                        .key(Map.of(TableSpec.PK, item.get(TableSpec.PK), TableSpec.SK, item.get(TableSpec.SK)))).join());
    }

    Aggregate carts() {
        return models.plan().aggregate("Cart").aggregate();
    }

    /** Every cart the list of all shows, page after page. */
    List<String> everyListedCart() {
        var ids = new ArrayList<String>();
        String cursor = null;
        do {
            var request = given().queryParam("limit", 100);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            Response page = request.get("/carts");
            page.then().statusCode(200);
            ids.addAll(page.path("items.id"));
            cursor = page.path("cursor");
        } while (cursor != null);
        return ids;
    }

    @Test
    void everyItemOfACartCarriesItsRootsExpiryInTheTablesTtlAttributeAnsweredAsRfc3339() {
        String p1 = unique("prod");
        String p2 = unique("prod");
        product(p1, "Kettle", unique("brand"), 25.5);
        product(p2, "Teapot", unique("brand"), 12);
        String id = unique("cart");
        // a fraction of a second is dropped: DynamoDB's TTL counts whole seconds, and every answer shows the second
        given().contentType(ContentType.JSON).body(cartJson(id, "cust-" + id, "2036-12-01T17:00:00.750Z", p1, p2))
                .post("/carts").then().statusCode(201).header("X-DynamoDB-Calls", "3")
                .body("expiresAt", equalTo("2036-12-01T17:00:00Z"));
        given().get("/carts/{id}", id).then().statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("expiresAt", equalTo("2036-12-01T17:00:00Z")).body("lines.product.id", contains(p1, p2));
        var items = raw(id);
        assertThat(items.keySet()).containsExactlyInAnyOrder("HEAD", "LINE#" + p1, "LINE#" + p2);
        items.forEach((sk, item) -> {
            assertThat(item.get(TableSpec.EXPIRES_AT)).as(sk).isEqualTo(epoch("2036-12-01T17:00:00Z"));
            assertThat(item).as(sk).doesNotContainKey("expiresAt");
        });
        // the expiry is required here: a replacement without it, or a bad one, is refused and writes nothing
        given().contentType(ContentType.JSON).body(cartJson(id, "cust-" + id, "2036-12-01T17:00:00Z", p1)
                        .replace(",\"expiresAt\":\"2036-12-01T17:00:00Z\"", ""))
                .put("/carts/{id}", id).then().statusCode(400);
        given().contentType("application/merge-patch+json").body("{\"expiresAt\":\"not a time\"}")
                .patch("/carts/{id}", id).then().statusCode(400).contentType("application/problem+json");
        assertThat(raw(id)).isEqualTo(items);
    }

    @Test
    void anExpiredCartIsGoneAtOnceFromEveryRouteWhileDynamoDbStillHoldsEveryItemAndGoneForGoodOnceItRemovesThem() {
        String p1 = unique("prod");
        String p2 = unique("prod");
        product(p1, "Kettle", unique("brand"), 25.5);
        product(p2, "Teapot", unique("brand"), 12);
        String customer = unique("cust");
        String lapsing = unique("cart");
        String live = unique("cart");
        String expiry = inAnHour();
        cart(lapsing, customer, expiry, p1, p2);
        cart(live, customer, clock.instant().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.SECONDS).toString(), p1);
        given().get("/customers/{c}/carts", customer).then().statusCode(200).body("items.id", contains(live, lapsing))
                .body("items[1].expiresAt", equalTo(expiry));
        assertThat(everyListedCart()).contains(live, lapsing);
        given().get("/products/{p}/references", p2).then().statusCode(200).body("items.pk", contains("CART#" + lapsing));

        clock.advance(Duration.ofMinutes(59));
        given().get("/carts/{id}", lapsing).then().statusCode(200);
        clock.advance(Duration.ofMinutes(1));
        var before = raw(lapsing);

        // at its expiry, to the second: exactly the answer of a cart that never was
        Response gone = given().get("/carts/{id}", lapsing);
        String never = unique("never");
        Response missing = given().get("/carts/{id}", never);
        gone.then().statusCode(404).contentType("application/problem+json").header("X-DynamoDB-Calls", "1");
        missing.then().statusCode(404);
        assertThat(gone.path("code").toString()).isEqualTo(missing.path("code"));
        assertThat(gone.path("title").toString()).isEqualTo(missing.path("title"));
        assertThat(gone.path("detail").toString()).isEqualTo(missing.path("detail").toString().replace(never, lapsing));
        assertThat(gone.getHeader("ETag")).isNull();
        // its lists leave it out: by customer (one index partition) and the sharded list of all
        given().get("/customers/{c}/carts", customer).then().statusCode(200).body("items.id", contains(live));
        assertThat(everyListedCart()).contains(live).doesNotContain(lapsing);
        // where copies of a product live: its lines are gone too (each carries the root's expiry)
        given().get("/products/{p}/references", p2).then().statusCode(200).body("items", empty());
        given().get("/products/{p}/references", p1).then().statusCode(200)
                .body("items.pk", contains("CART#" + live));
        // every write meets it as missing, and nothing is written
        given().contentType(ContentType.JSON).body(cartJson(lapsing, customer, inAnHour(), p1))
                .put("/carts/{id}", lapsing).then().statusCode(404).body("code", equalTo("NotFound"));
        given().contentType("application/merge-patch+json").body("{\"expiresAt\":\"" + inAnHour() + "\"}")
                .patch("/carts/{id}", lapsing).then().statusCode(404).body("code", equalTo("NotFound"));
        given().contentType("application/json-patch+json")
                .body("[{\"op\":\"replace\",\"path\":\"/lines/0/quantity\",\"value\":7}]")
                .patch("/carts/{id}", lapsing).then().statusCode(404).body("code", equalTo("NotFound"));
        given().header("If-Match", "\"1\"").delete("/carts/{id}", lapsing).then().statusCode(404);
        given().delete("/carts/{id}", lapsing).then().statusCode(404);
        // a cascade skips its lines: a product's rename finds only the live cart's copy
        given().contentType("application/merge-patch+json").body("{\"name\":\"Steam Kettle\"}")
                .patch("/products/{id}", p1).then().statusCode(200).body("matched", equalTo(1)).body("updated", equalTo(1));
        given().get("/carts/{id}", live).then().statusCode(200).body("lines[0].product.name", equalTo("Steam Kettle"));
        assertThat(raw(lapsing)).isEqualTo(before);
        assertThat(before.keySet()).containsExactlyInAnyOrder("HEAD", "LINE#" + p1, "LINE#" + p2);

        // DynamoDB's TTL deletes every item of it (its root and each line are expired alike)
        removeExpired(lapsing, clock.instant());
        assertThat(raw(lapsing)).isEmpty();
        clock.reset();
        given().get("/carts/{id}", lapsing).then().statusCode(404);
        given().get("/customers/{c}/carts", customer).then().statusCode(200).body("items.id", contains(live));
        assertThat(everyListedCart()).doesNotContain(lapsing);
        given().get("/products/{p}/references", p2).then().statusCode(200).body("items", empty());
        // the product no live cart copies any more can go
        given().delete("/products/{id}", p2).then().statusCode(204);
    }

    @Test
    void aNewExpiryMovesOnEveryItemByMergePatchJsonPatchAndPutAndAPastOneExpiresTheWholeCartAtOnce() {
        String p1 = unique("prod");
        String p2 = unique("prod");
        product(p1, "Kettle", unique("brand"), 25.5);
        product(p2, "Teapot", unique("brand"), 12);
        String id = unique("cart");
        String customer = unique("cust");
        cart(id, customer, "2036-12-01T17:00:00Z", p1, p2);
        // a merge patch of the expiry alone rewrites every item (1 Query + 1 transaction)
        given().contentType("application/merge-patch+json").body("{\"expiresAt\":\"2037-01-01T00:00:00Z\"}")
                .patch("/carts/{id}", id).then().statusCode(200).header("X-DynamoDB-Calls", "2").header("ETag", "\"2\"")
                .body("expiresAt", equalTo("2037-01-01T00:00:00Z"));
        raw(id).forEach((sk, item) -> assertThat(item.get(TableSpec.EXPIRES_AT)).as(sk).isEqualTo(epoch("2037-01-01T00:00:00Z")));
        // a JSON Patch
        given().contentType("application/json-patch+json")
                .body("[{\"op\":\"replace\",\"path\":\"/expiresAt\",\"value\":\"2037-02-01T00:00:00Z\"}]")
                .patch("/carts/{id}", id).then().statusCode(200).header("ETag", "\"3\"");
        raw(id).forEach((sk, item) -> assertThat(item.get(TableSpec.EXPIRES_AT)).as(sk).isEqualTo(epoch("2037-02-01T00:00:00Z")));
        // a PUT, with a line more: the new line carries it as well
        String p3 = unique("prod");
        product(p3, "Cosy", unique("brand"), 8);
        given().contentType(ContentType.JSON).header("If-Match", "\"3\"")
                .body(cartJson(id, customer, "2037-03-01T00:00:00Z", p1, p2, p3)).put("/carts/{id}", id).then()
                .statusCode(200).header("ETag", "\"4\"").body("expiresAt", equalTo("2037-03-01T00:00:00Z"));
        assertThat(raw(id).keySet()).containsExactlyInAnyOrder("HEAD", "LINE#" + p1, "LINE#" + p2, "LINE#" + p3);
        raw(id).forEach((sk, item) -> assertThat(item.get(TableSpec.EXPIRES_AT)).as(sk).isEqualTo(epoch("2037-03-01T00:00:00Z")));
        // a change of one line writes that line (and the root): both still carry the cart's expiry
        var beforeLine = raw(id);
        given().contentType("application/json-patch+json")
                .body("[{\"op\":\"replace\",\"path\":\"/lines/1/quantity\",\"value\":9}]")
                .patch("/carts/{id}", id).then().statusCode(200).header("ETag", "\"5\"");
        var afterLine = raw(id);
        assertThat(afterLine.get("LINE#" + p1)).isEqualTo(beforeLine.get("LINE#" + p1));
        assertThat(afterLine.get("LINE#" + p3)).isEqualTo(beforeLine.get("LINE#" + p3));
        afterLine.forEach((sk, item) -> assertThat(item.get(TableSpec.EXPIRES_AT)).as(sk).isEqualTo(epoch("2037-03-01T00:00:00Z")));

        // an expiry in the past expires the whole cart at once: its answer is the last one it gets
        given().contentType("application/merge-patch+json").body("{\"expiresAt\":\"" + PAST + "\"}")
                .patch("/carts/{id}", id).then().statusCode(200).body("expiresAt", equalTo(PAST));
        given().get("/carts/{id}", id).then().statusCode(404);
        given().get("/customers/{c}/carts", customer).then().statusCode(200).body("items", empty());
        var expired = raw(id);
        assertThat(expired).hasSize(4);
        expired.forEach((sk, item) -> assertThat(item.get(TableSpec.EXPIRES_AT)).as(sk).isEqualTo(epoch(PAST)));
    }

    /** A cart created already past its expiry would answer 201 and be gone at once: the create is refused, nothing written. */
    @Test
    void aCreateWhoseExpiryIsAlreadyPastIsA400AndWritesNothing() {
        String p1 = unique("prod");
        product(p1, "Kettle", unique("brand"), 25.5);
        String id = unique("cart");
        String customer = unique("cust");
        // (later in the current second is stored as that second, already past: refused as well)
        for (String expiry : List.of(PAST, "0001-01-01T00:00:00Z", clock.instant().truncatedTo(ChronoUnit.SECONDS).toString(),
                clock.instant().truncatedTo(ChronoUnit.SECONDS).plusMillis(999).toString())) {
            given().contentType(ContentType.JSON).body(cartJson(id, customer, expiry, p1)).post("/carts").then()
                    .statusCode(400).contentType("application/problem+json").body("code", equalTo("ValidationFailed"))
                    .body("errors[0].field", equalTo("expiresAt"));
        }
        assertThat(raw(id)).isEmpty();
        given().contentType(ContentType.JSON).body(cartJson(id, customer, inAnHour(), p1)).post("/carts").then()
                .statusCode(201);
    }

    /**
     * A create may take the id of an expired cart, never a live one's (its root is put only where none is, or where
     * the one there is past its expiry, in the create's own transaction). It does not delete the old cart's other
     * items (it cannot see them: they are expired): each keeps its own past expiry, so no read ever mixes it into the
     * new cart — a line the new cart has is overwritten whole, a line it has not stays hidden — and DynamoDB's TTL
     * removes it by that expiry while the new cart's items, carrying the new one, stay.
     */
    @Test
    void aCreateTakesTheIdOfAnExpiredCartNeverALiveOnesAndTheOldItemsNeverMixIntoTheNewCart() {
        String p1 = unique("prod");
        String p2 = unique("prod");
        String p3 = unique("prod");
        product(p1, "Kettle", unique("brand"), 25.5);
        product(p2, "Teapot", unique("brand"), 12);
        product(p3, "Cosy", unique("brand"), 8);
        String id = unique("cart");
        String customer = unique("cust");
        String first = inAnHour();
        cart(id, customer, first, p1, p2);
        // live: a create of its id is a 409, and writes nothing
        var old = raw(id);
        given().contentType(ContentType.JSON).body(cartJson(id, customer, inAnHour(), p3)).post("/carts").then()
                .statusCode(409).body("code", equalTo("Conflict"));
        assertThat(raw(id)).isEqualTo(old);

        clock.advance(Duration.ofHours(1));
        String second = inAnHour();
        given().contentType(ContentType.JSON).body(cartJson(id, customer, second, p2, p3)).post("/carts").then()
                .statusCode(201).header("ETag", "\"1\"").body("lines.product.id", contains(p2, p3));
        given().get("/carts/{id}", id).then().statusCode(200).header("ETag", "\"1\"").body("expiresAt", equalTo(second))
                .body("lines.product.id", contains(p2, p3)).body("lines.quantity", contains(1, 2));
        var items = raw(id);
        assertThat(items.keySet()).containsExactlyInAnyOrder("HEAD", "LINE#" + p1, "LINE#" + p2, "LINE#" + p3);
        // the new cart's items carry the new expiry; the old line it has not keeps the old one (hidden, and removed by it)
        for (String sk : List.of("HEAD", "LINE#" + p2, "LINE#" + p3)) {
            assertThat(items.get(sk).get(TableSpec.EXPIRES_AT)).as(sk).isEqualTo(epoch(second));
        }
        assertThat(items.get("LINE#" + p1)).isEqualTo(old.get("LINE#" + p1));
        assertThat(items.get("LINE#" + p1).get(TableSpec.EXPIRES_AT)).isEqualTo(epoch(first));
        given().get("/customers/{c}/carts", customer).then().statusCode(200).body("items.id", contains(id))
                .body("items[0].expiresAt", equalTo(second));
        given().get("/products/{p}/references", p1).then().statusCode(200).body("items", empty());
        // a patch reads and diffs the new cart alone: the old line is no part of it
        given().contentType("application/json-patch+json")
                .body("[{\"op\":\"replace\",\"path\":\"/lines/0/quantity\",\"value\":4}]")
                .patch("/carts/{id}", id).then().statusCode(200).header("ETag", "\"2\"")
                .body("lines.product.id", contains(p2, p3)).body("lines.quantity", contains(4, 2));

        // DynamoDB's TTL removes what expired (the old line), and the new cart stays whole
        removeExpired(id, clock.instant());
        assertThat(raw(id).keySet()).containsExactlyInAnyOrder("HEAD", "LINE#" + p2, "LINE#" + p3);
        given().get("/carts/{id}", id).then().statusCode(200).header("ETag", "\"2\"").body("lines.product.id", contains(p2, p3));
        // an old line the new cart adds back is written whole, with the new expiry
        given().contentType("application/json-patch+json")
                .body("[{\"op\":\"add\",\"path\":\"/lines/-\",\"value\":{\"productId\":\"" + p1 + "\",\"quantity\":1}}]")
                .patch("/carts/{id}", id).then().statusCode(200).body("lines.product.id", contains(p2, p3, p1));
        assertThat(raw(id).get("LINE#" + p1).get(TableSpec.EXPIRES_AT)).isEqualTo(epoch(second));
    }

    /** A cart too large for one transaction (each line's copied product is checked too) takes an expired id as well. */
    @Test
    void aCartWrittenInSeveralTransactionsTakesTheIdOfAnExpiredOneAndCarriesItsExpiryOnEveryItem() {
        var products = new ArrayList<String>();
        for (int i = 0; i < 60; i++) {
            String p = unique("prod");
            product(p, "Spoon " + i, "spoonco", 1);
            products.add(p);
        }
        String id = unique("cart");
        String customer = unique("cust");
        cart(id, customer, inAnHour(), products.get(0));
        clock.advance(Duration.ofHours(2));
        String expiry = inAnHour();
        // 61 items and 60 source guards: more than one transaction holds
        given().contentType(ContentType.JSON).body(cartJson(id, customer, expiry, products.toArray(String[]::new)))
                .post("/carts").then().statusCode(201);
        given().get("/carts/{id}", id).then().statusCode(200).body("lines.size()", equalTo(60)).body("expiresAt", equalTo(expiry));
        var items = raw(id);
        assertThat(items).hasSize(61);
        items.forEach((sk, item) -> assertThat(item.get(TableSpec.EXPIRES_AT)).as(sk).isEqualTo(epoch(expiry)));
        // and it expires whole
        clock.advance(Duration.ofHours(1));
        given().get("/carts/{id}", id).then().statusCode(404);
        given().get("/customers/{c}/carts", customer).then().statusCode(200).body("items", empty());
    }

    /**
     * A write too large for one transaction commits last, on the root: where the aggregate expires, that commit needs
     * the root unexpired at its own instant, so a cart that expired while its write was in flight is not brought back
     * by it. The write below begins live (its plan's instant is before the expiry, and its first transaction passes)
     * and commits after the expiry (the application's clock): it is a NotFound, it is undone, and the cart stays as
     * it was, expired.
     */
    @Test
    void aWriteInSeveralTransactionsWhoseCartExpiresBeforeItsCommitIsUndoneAndBringsNothingBack() {
        var products = new ArrayList<String>();
        for (int i = 0; i < 98; i++) {
            String p = unique("prod");
            product(p, "Fork " + i, "forkco", 1);
            products.add(p);
        }
        String id = unique("cart");
        String customer = unique("cust");
        String expiry = inAnHour();
        cart(id, customer, expiry, products.toArray(String[]::new));
        Aggregate engine = carts();
        var snapshot = aggregates.readForWrite(engine, id).await().atMost(Duration.ofSeconds(10));
        var current = snapshot.assembled();
        var before = raw(id);
        assertThat(before).hasSize(99);
        Instant decided = clock.instant();
        clock.advance(Duration.ofHours(1));
        Aggregate.Items items = engine.decompose(current.view(), current.refVersions(), current.version(),
                current.createdAt(), current.updatedAt());
        var extended = new LinkedHashMap<>(current.view());
        extended.put("expiresAt", "2036-12-01T17:00:00Z");
        Aggregate.Items after = engine.decompose(extended, current.refVersions(), current.version() + 1,
                current.createdAt(), decided);
        // 99 puts (a new expiry rewrites every item) and two source checks: more than one transaction holds
        var guards = products.subList(0, 2).stream().map(p -> dev.cairn.core.write.WriteAction.copiedSource("Product", p,
                dev.cairn.core.key.PrimaryKey.of("PROD#" + p, "PRODUCT"), 1, decided)).toList();
        var plan = AggregateWrites.update(engine, items, after, current.version(), decided).guardedBy(guards);
        assertThat(plan.fitsOneTransaction()).isFalse();
        assertThatThrownBy(() -> aggregates.write(engine, plan, snapshot.bySk()).await().atMost(Duration.ofSeconds(30)))
                .isInstanceOfSatisfying(CairnException.class, e -> assertThat(e.error()).isInstanceOf(CairnError.NotFound.class));
        // undone: every item as it was (the root keeps only the trace of the undo), no undo log left behind
        var now = raw(id);
        assertThat(now.keySet()).isEqualTo(before.keySet());
        now.forEach((sk, item) -> {
            var stored = new LinkedHashMap<>(item);
            stored.remove(dev.cairn.core.aggregate.AggregateTxn.LAST_UNDONE);
            assertThat(stored).as(sk).isEqualTo(before.get(sk));
        });
        given().get("/carts/{id}", id).then().statusCode(404);
        clock.reset();
        given().get("/carts/{id}", id).then().statusCode(200).body("expiresAt", equalTo(expiry)).header("ETag", "\"1\"");
    }

    @Test
    void theAccessPatternsOfACartSayTheyLeaveExpiredItemsOutAndAnOrdersSayNothing() {
        Response patterns = given().get("/access-patterns");
        patterns.then().statusCode(200).header("X-DynamoDB-Calls", "0");
        for (String route : List.of("GET /carts/{id}", "GET /carts", "GET /customers/{customerId}/carts",
                "GET /products/{id}/references")) {
            assertThat(patterns.<String>path("find { it.route == '" + route + "' }.filter")).as(route)
                    .startsWith("items past their expiry: those whose _expiresAt (epoch seconds) is at or before now");
        }
        // the expiry is read by the whole cart's Query (its projection), so the check can see it
        assertThat(patterns.<Map<String, String>>path("find { it.route == 'GET /carts/{id}' }.request.ExpressionAttributeNames"))
                .containsValue(TableSpec.EXPIRES_AT);
        for (String route : List.of("GET /orders/{id}", "GET /orders")) {
            assertThat(patterns.<String>path("find { it.route == '" + route + "' }.filter")).as(route).isNull();
        }
    }

    /**
     * Every write is conditioned on the root at the instant it is made: a cart read live and written after its expiry
     * (the clock moved between the read and the write) is a NotFound, and nothing is written.
     */
    @Test
    void aCartThatExpiresBetweenTheReadAndTheWriteIsNotFoundAndNothingIsWritten() {
        String p1 = unique("prod");
        product(p1, "Kettle", unique("brand"), 25.5);
        String id = unique("cart");
        cart(id, unique("cust"), inAnHour(), p1);
        Aggregate engine = carts();
        var snapshot = aggregates.readForWrite(engine, id).await().atMost(Duration.ofSeconds(10));
        var current = snapshot.assembled();
        var before = raw(id);
        clock.advance(Duration.ofHours(1));
        Instant now = clock.instant();
        Aggregate.Items items = engine.decompose(current.view(), current.refVersions(), current.version(),
                current.createdAt(), current.updatedAt());
        var changed = new LinkedHashMap<>(current.view());
        changed.put("customerId", "someone-else");
        Aggregate.Items after = engine.decompose(changed, current.refVersions(), current.version() + 1,
                current.createdAt(), now);
        assertThatThrownBy(() -> aggregates.write(engine, AggregateWrites.update(engine, items, after, current.version(), now),
                snapshot.bySk()).await().atMost(Duration.ofSeconds(10)))
                .isInstanceOfSatisfying(CairnException.class, e -> assertThat(e.error()).isInstanceOf(CairnError.NotFound.class));
        assertThatThrownBy(() -> aggregates.write(engine, AggregateWrites.delete(engine, items, current.version(), now),
                snapshot.bySk()).await().atMost(Duration.ofSeconds(10)))
                .isInstanceOfSatisfying(CairnException.class, e -> assertThat(e.error()).isInstanceOf(CairnError.NotFound.class));
        assertThat(raw(id)).isEqualTo(before);
        given().get("/customers/{c}/carts", "someone-else").then().statusCode(200).body("items.id", not(hasItem(id)));
        // the same change at an instant the cart lives is written: the expiry alone refused it
        clock.reset();
        Instant live = clock.instant();
        Aggregate.Items afterLive = engine.decompose(changed, current.refVersions(), current.version() + 1,
                current.createdAt(), live);
        aggregates.write(engine, AggregateWrites.update(engine, items, afterLive, current.version(), live), snapshot.bySk())
                .await().atMost(Duration.ofSeconds(10));
        given().get("/carts/{id}", id).then().statusCode(200).header("ETag", "\"2\"").body("customerId", equalTo("someone-else"));
    }
}
