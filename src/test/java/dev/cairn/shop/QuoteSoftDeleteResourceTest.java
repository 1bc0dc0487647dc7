package dev.cairn.shop;

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
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/**
 * Soft delete of an aggregate: the shop's quotes declare {@code softDelete: true} (with {@code history} and a unique
 * {@code number} per workspace that a deleted quote releases). A delete takes the WHOLE quote — root and every line —
 * out of every read, list and index in its commit and keeps it as one tombstone; {@code GET /quotes/deleted} lists
 * tombstones, {@code POST /quotes/{id}/restore} brings the quote back as it was (copies fresh, a new version) and
 * {@code DELETE /quotes/deleted/{id}} purges it. Every refusal leaves the table as it was.
 */
@QuarkusTest
class QuoteSoftDeleteResourceTest {

    static final String MERGE = "application/merge-patch+json";

    @Inject
    EntityStore store;

    final String k = UUID.randomUUID().toString().substring(0, 8);
    final String ws = "qs-" + k;

    static String product(String name) {
        String id = "qp-" + UUID.randomUUID().toString().substring(0, 8);
        given().contentType(ContentType.JSON).body("{\"id\":\"" + id + "\",\"name\":\"" + name
                + "\",\"brand\":\"steamco\",\"price\":25}").post("/products").then().statusCode(201);
        return id;
    }

    String quote(String id, String number, List<String> products) {
        var lines = new ArrayList<String>();
        products.forEach(p -> lines.add("{\"productId\":\"" + p + "\",\"quantity\":1}"));
        return "{\"id\":\"" + id + "\",\"workspaceId\":\"" + ws + "\",\"customerId\":\"c1\",\"number\":\"" + number + "\","
                + "\"lines\":[" + String.join(",", lines) + "]}";
    }

    List<Map<String, ?>> partition(String pk) {
        return List.copyOf(store.queryAll(QuerySpec.table(pk).consistent().build()).await().atMost(Duration.ofSeconds(10)));
    }

    static List<String> listed() {
        return given().queryParam("limit", 100).get("/quotes").then().statusCode(200).extract().path("items.id");
    }

    static List<Map<String, Object>> deleted(String id) {
        List<Map<String, Object>> all = given().queryParam("limit", 100).get("/quotes/deleted").then().statusCode(200)
                .extract().path("items");
        return all.stream().filter(d -> id.equals(((Map<?, ?>) d.get("item")).get("id"))).toList();
    }

    static List<String> referencing(String product) {
        return given().get("/products/{id}/references", product).then().statusCode(200).extract().path("items.pk");
    }

    @Test
    void aDeleteTakesTheWholeQuoteOutOfEveryReadListAndIndexAndARestoreBringsItBackWithCopiesTakenFresh() {
        String p1 = product("Kettle");
        String p2 = product("Teapot");
        String id = "qa-" + k;
        given().contentType(ContentType.JSON).body(quote(id, "N-" + k, List.of(p1, p2))).post("/quotes").then()
                .statusCode(201).header("ETag", "\"1\"");
        given().contentType(MERGE).body("{\"customerId\":\"c2\"}").patch("/quotes/{id}", id).then().statusCode(200)
                .header("ETag", "\"2\"");
        Map<String, Object> before = given().get("/quotes/{id}", id).then().statusCode(200).extract().jsonPath().getMap("");
        assertThat(listed()).contains(id);
        assertThat(referencing(p1)).contains("QUOTE#" + id);

        given().delete("/quotes/{id}", id).then().statusCode(204);
        given().get("/quotes/{id}", id).then().statusCode(404);
        assertThat(partition("QUOTE#" + id)).as("every item of the quote, root and lines").isEmpty();
        assertThat(listed()).doesNotContain(id);
        assertThat(referencing(p1)).doesNotContain("QUOTE#" + id);
        var tombstone = deleted(id);
        assertThat(tombstone).hasSize(1);
        assertThat(tombstone.get(0).get("item")).isEqualTo(before);
        assertThat(tombstone.get(0)).containsEntry("deletedBy", "anonymous").containsEntry("version", 2);
        // its last version is kept by its history, marked with who deleted it
        given().get("/quotes/{id}/versions/{n}", id, 2).then().statusCode(200).body("deletedBy", equalTo("anonymous"));
        // a product renamed while the quote is deleted: the cascade finds no copy of it there
        given().contentType(MERGE).body("{\"name\":\"Electric Kettle\"}").patch("/products/{id}", p1).then().statusCode(200);

        JsonPath restored = given().header("If-Match", "\"2\"").post("/quotes/{id}/restore", id).then().statusCode(200)
                .header("ETag", "\"3\"").extract().jsonPath();
        assertThat(restored.getString("createdAt")).isEqualTo(before.get("createdAt"));
        assertThat(restored.getString("customerId")).isEqualTo("c2");
        assertThat(restored.getList("lines.product.name", String.class)).containsExactly("Electric Kettle", "Teapot");
        Map<String, Object> again = given().get("/quotes/{id}", id).then().statusCode(200).header("ETag", "\"3\"")
                .extract().jsonPath().getMap("");
        assertThat(again).isEqualTo(restored.getMap(""));
        assertThat(listed()).contains(id);
        assertThat(referencing(p1)).contains("QUOTE#" + id);
        assertThat(deleted(id)).isEmpty();
        given().get("/quotes/{id}/versions", id).then().statusCode(200).body("items.version", equalTo(List.of(3, 2, 1)));
        // and the cascade reaches it again
        given().contentType(MERGE).body("{\"name\":\"Steam Kettle\"}").patch("/products/{id}", p1).then().statusCode(200)
                .body("updated", equalTo(1));
        given().get("/quotes/{id}", id).then().body("lines[0].product.name", equalTo("Steam Kettle"));
    }

    @Test
    void aDeletedQuotesNumberIsFreeAndARestoreFailsClearlyOnceAnotherTookIt() {
        String p = product("Kettle");
        String a = "qn-" + k;
        String b = "qm-" + k;
        given().contentType(ContentType.JSON).body(quote(a, "N-" + k, List.of(p))).post("/quotes").then().statusCode(201);
        given().contentType(ContentType.JSON).body(quote(b, "N-" + k, List.of(p))).post("/quotes").then().statusCode(409)
                .body("code", equalTo("UniqueViolation")).body("constraint", equalTo("number"));
        given().delete("/quotes/{id}", a).then().statusCode(204);
        // released by the delete: another quote takes it
        given().contentType(ContentType.JSON).body(quote(b, "N-" + k, List.of(p))).post("/quotes").then().statusCode(201);
        given().post("/quotes/{id}/restore", a).then().statusCode(409).contentType("application/problem+json")
                .body("code", equalTo("UniqueViolation")).body("constraint", equalTo("number"))
                .body(org.hamcrest.Matchers.not(containsString(b)));
        // refused whole: still deleted, nothing of it written
        assertThat(partition("QUOTE#" + a)).isEmpty();
        assertThat(deleted(a)).hasSize(1);
        // once the other gives the number up, the restore goes through
        given().contentType(MERGE).body("{\"number\":\"M-" + k + "\"}").patch("/quotes/{id}", b).then().statusCode(200);
        given().post("/quotes/{id}/restore", a).then().statusCode(200).body("number", equalTo("N-" + k));
    }

    /** A quote of one line per product, the first line with {@code voucher}. */
    String quoteWithVoucher(String id, String number, String voucher, List<String> products) {
        var lines = new ArrayList<String>();
        for (int i = 0; i < products.size(); i++) {
            lines.add("{\"productId\":\"" + products.get(i) + "\",\"quantity\":1"
                    + (i == 0 ? ",\"voucher\":\"" + voucher + "\"" : "") + "}");
        }
        return "{\"id\":\"" + id + "\",\"workspaceId\":\"" + ws + "\",\"customerId\":\"c1\",\"number\":\"" + number + "\","
                + "\"lines\":[" + String.join(",", lines) + "]}";
    }

    /** The owner (pk and sk) of the voucher's sentinel in this test's workspace, read from the table; null: free. */
    String voucherHolder(String voucher) {
        var items = partition("UNIQUE#QuoteLine#voucher#" + ws + "#" + voucher.toLowerCase(java.util.Locale.ROOT));
        return items.isEmpty() ? null : ((software.amazon.awssdk.services.dynamodb.model.AttributeValue) items.get(0)
                .get("_ownerPk")).s() + " " + ((software.amazon.awssdk.services.dynamodb.model.AttributeValue) items.get(0)
                .get("_ownerSk")).s();
    }

    @Test
    void aLinesVoucherIsKeptByTheWithdrawnQuoteUntilItIsPurgedAndTakenBackByItsRestore() {
        String p = product("Kettle");
        String q = product("Toaster");
        String a = "qv-" + k;
        String b = "qw-" + k;
        given().contentType(ContentType.JSON).body(quoteWithVoucher(a, "V-" + k, "VOUCH-" + k, List.of(p, q)))
                .post("/quotes").then().statusCode(201).body("lines.find { it.product.id == '" + p + "' }.voucher",
                        equalTo("VOUCH-" + k));
        String line = voucherHolder("VOUCH-" + k);
        assertThat(line).startsWith("QUOTE#" + a + " LINE#");
        // another quote's line, in another case: refused whole, naming the constraint
        given().contentType(ContentType.JSON).body(quoteWithVoucher(b, "W-" + k, "vouch-" + k, List.of(q)))
                .post("/quotes").then().statusCode(409).body("code", equalTo("UniqueViolation"))
                .body("constraint", equalTo("voucher"));
        assertThat(partition("QUOTE#" + b)).isEmpty();
        // withdrawn, the quote keeps it (softDelete: keep): its tombstone holds it, so it is still taken
        given().delete("/quotes/{id}", a).then().statusCode(204);
        assertThat(voucherHolder("VOUCH-" + k)).isEqualTo("~DELETED#QUOTE#" + a + " HEAD");
        given().contentType(ContentType.JSON).body(quoteWithVoucher(b, "W-" + k, "vouch-" + k, List.of(q)))
                .post("/quotes").then().statusCode(409).body("constraint", equalTo("voucher"));
        // a restore takes it back for its line
        given().post("/quotes/{id}/restore", a).then().statusCode(200);
        assertThat(voucherHolder("VOUCH-" + k)).isEqualTo(line);
        // withdrawn again and purged: free for good, and another quote's line takes it
        given().delete("/quotes/{id}", a).then().statusCode(204);
        given().delete("/quotes/deleted/{id}", a).then().statusCode(204);
        assertThat(voucherHolder("VOUCH-" + k)).isNull();
        given().contentType(ContentType.JSON).body(quoteWithVoucher(b, "W-" + k, "vouch-" + k, List.of(q)))
                .post("/quotes").then().statusCode(201);
        assertThat(voucherHolder("VOUCH-" + k)).startsWith("QUOTE#" + b + " LINE#");
    }

    /** A quote of one line per product, each line with its own voucher. */
    String quoteAllVouchered(String id, String number, List<String> products) {
        var lines = new ArrayList<String>();
        for (int i = 0; i < products.size(); i++) {
            lines.add("{\"productId\":\"" + products.get(i) + "\",\"quantity\":1,\"voucher\":\"V" + i + "-" + id + "\"}");
        }
        return "{\"id\":\"" + id + "\",\"workspaceId\":\"" + ws + "\",\"customerId\":\"c1\",\"number\":\"" + number + "\","
                + "\"lines\":[" + String.join(",", lines) + "]}";
    }

    @Test
    void aQuoteHoldsNoMoreVouchersThanItsWithdrawalKeepsInOneCommitSoEveryQuoteWrittenCanBeWithdrawn() {
        var products = new ArrayList<String>();
        for (int i = 0; i < 94; i++) {
            products.add(product("Item " + i));
        }
        String big = "qb-" + k;
        // 94 vouchers, the number's sentinel, the tombstone, the version deleted and the tail: more than one commit holds
        given().contentType(ContentType.JSON).body(quoteAllVouchered(big, "B-" + k, products)).post("/quotes").then()
                .statusCode(422).body("code", equalTo("AggregateTransactionOverflow")).body("group", equalTo("unique values"))
                .body("limit", equalTo(93));
        assertThat(partition("QUOTE#" + big)).isEmpty();
        // 93 are written, and withdrawn, restored, withdrawn and purged whole
        given().contentType(ContentType.JSON).body(quoteAllVouchered(big, "B-" + k, products.subList(0, 93)))
                .post("/quotes").then().statusCode(201);
        assertThat(voucherHolder("V92-" + big)).startsWith("QUOTE#" + big + " LINE#");
        // a change that would give it a 94th is refused as the create was, the quote as it was
        given().contentType("application/json-patch+json").body("[{\"op\":\"add\",\"path\":\"/lines/-\",\"value\":"
                + "{\"productId\":\"" + products.get(93) + "\",\"quantity\":1,\"voucher\":\"V93-" + big + "\"}}]")
                .patch("/quotes/{id}", big).then().statusCode(422).body("code", equalTo("AggregateTransactionOverflow"));
        given().delete("/quotes/{id}", big).then().statusCode(204);
        assertThat(voucherHolder("V92-" + big)).isEqualTo("~DELETED#QUOTE#" + big + " HEAD");
        given().post("/quotes/{id}/restore", big).then().statusCode(200).body("lines.size()", equalTo(93));
        assertThat(voucherHolder("V0-" + big)).startsWith("QUOTE#" + big + " LINE#");
        given().delete("/quotes/{id}", big).then().statusCode(204);
        given().delete("/quotes/deleted/{id}", big).then().statusCode(204);
        assertThat(voucherHolder("V0-" + big)).isNull();
        assertThat(voucherHolder("V92-" + big)).isNull();
    }

    @Test
    void anIdTakenMeanwhileRefusesTheRestoreAndAWaitingTombstoneRefusesTheNextDeleteUntilItIsPurged() {
        String p = product("Kettle");
        String id = "qi-" + k;
        given().contentType(ContentType.JSON).body(quote(id, "I-" + k, List.of(p))).post("/quotes").then().statusCode(201);
        given().delete("/quotes/{id}", id).then().statusCode(204);
        // a new quote under the id (its history continues after the deleted one's versions)
        given().contentType(ContentType.JSON).body(quote(id, "J-" + k, List.of(p))).post("/quotes").then().statusCode(201)
                .header("ETag", "\"2\"");
        given().post("/quotes/{id}/restore", id).then().statusCode(409).body("code", equalTo("Conflict"));
        given().get("/quotes/{id}", id).then().statusCode(200).body("number", equalTo("J-" + k));
        given().delete("/quotes/{id}", id).then().statusCode(409).body("code", equalTo("Conflict"))
                .body("detail", containsString("purge it before deleting this one"));
        given().get("/quotes/{id}", id).then().statusCode(200);
        // a stale If-Match on the purge is refused; the right one purges for good
        given().header("If-Match", "\"9\"").delete("/quotes/deleted/{id}", id).then().statusCode(412);
        given().header("If-Match", "\"1\"").delete("/quotes/deleted/{id}", id).then().statusCode(204);
        assertThat(deleted(id)).isEmpty();
        assertThat(partition("~DELETED#QUOTE#" + id)).isEmpty();
        given().delete("/quotes/deleted/{id}", id).then().statusCode(404);
        given().post("/quotes/{id}/restore", id).then().statusCode(404);
        // now the live one may be deleted in its turn
        given().delete("/quotes/{id}", id).then().statusCode(204);
    }

    @Test
    void aRestoreOfAQuoteWhoseProductWasDeletedIs422AndTheIdDeletedIsNoQuotes() {
        String p = product("Kettle");
        String id = "qr-" + k;
        given().contentType(ContentType.JSON).body(quote(id, "R-" + k, List.of(p))).post("/quotes").then().statusCode(201);
        given().delete("/quotes/{id}", id).then().statusCode(204);
        // no copy of the product is left: it may be deleted
        given().delete("/products/{id}", p).then().statusCode(204);
        given().post("/quotes/{id}/restore", id).then().statusCode(422).body("code", equalTo("RefNotFound"))
                .body("field", equalTo("lines[0].product")).body("refId", equalTo(p));
        assertThat(deleted(id)).hasSize(1);
        assertThat(partition("QUOTE#" + id)).isEmpty();
        given().header("If-Match", "\"5\"").post("/quotes/{id}/restore", id).then().statusCode(412);
        given().contentType(ContentType.JSON).body(quote("deleted", "D-" + k, List.of(product("Pot")))).post("/quotes")
                .then().statusCode(400).body("errors.field", org.hamcrest.Matchers.hasItem("id"));
    }

    @Test
    void aQuoteTooLargeForOneTransactionIsDeletedAndRestoredWhole() {
        var products = new ArrayList<String>();
        for (int i = 0; i < 98; i++) {
            products.add(product("Item " + i));
        }
        String id = "ql-" + k;
        given().contentType(ContentType.JSON).body(quote(id, "L-" + k, products)).post("/quotes").then().statusCode(201);
        Map<String, Object> before = given().get("/quotes/{id}", id).then().statusCode(200).extract().jsonPath().getMap("");
        given().delete("/quotes/{id}", id).then().statusCode(204);
        assertThat(partition("QUOTE#" + id)).isEmpty();
        assertThat(deleted(id).get(0).get("item")).isEqualTo(before);
        JsonPath restored = given().post("/quotes/{id}/restore", id).then().statusCode(200).header("ETag", "\"2\"")
                .extract().jsonPath();
        assertThat(restored.getList("lines")).hasSize(98);
        assertThat(partition("QUOTE#" + id)).hasSize(99);
        assertThat(deleted(id)).isEmpty();
    }

    @Test
    void twinDeletesAndTwinRestoresAnswerAsTheirTwinLeftTheQuote() throws Exception {
        String p = product("Kettle");
        var pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 3; round++) {
                String id = "qt" + round + "-" + k;
                given().contentType(ContentType.JSON).body(quote(id, "T" + round + "-" + k, List.of(p))).post("/quotes")
                        .then().statusCode(201);
                var deletes = twins(pool, () -> given().delete("/quotes/{id}", id));
                assertThat(deletes.stream().map(io.restassured.response.Response::statusCode).sorted().toList())
                        .as("round %d: the twin deletes", round).containsExactly(204, 404);
                var restores = twins(pool, () -> given().post("/quotes/{id}/restore", id));
                var statuses = restores.stream().map(io.restassured.response.Response::statusCode).sorted().toList();
                // The loser overlapped its twin (409: it met the quote restored) or came after it (404: nothing
                // deleted is left to restore), as the contract says; on a busy machine the twins do not always overlap.
                assertThat(statuses).as("round %d: the twin restores", round).isIn(List.of(200, 409), List.of(200, 404));
                var lost = restores.stream().filter(r -> r.statusCode() != 200).findFirst().orElseThrow();
                if (lost.statusCode() == 409) {
                    // the loser sees the quote its twin restored, with its version
                    assertThat(lost.<String>path("code")).isEqualTo("Conflict");
                    assertThat(lost.<String>path("current.id")).isEqualTo(id);
                    assertThat(lost.header("ETag")).isEqualTo("\"2\"");
                } else {
                    assertThat(lost.<String>path("code")).isEqualTo("NotFound");
                }
                assertThat(partition("QUOTE#" + id)).hasSize(2);
                assertThat(deleted(id)).isEmpty();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aRestoreTakesNoBody() {
        String id = "qb-" + k;
        given().contentType(ContentType.JSON).body(quote(id, "B-" + k, List.of(product("Kettle")))).post("/quotes").then()
                .statusCode(201);
        given().delete("/quotes/{id}", id).then().statusCode(204);
        given().contentType(ContentType.JSON).body("{\"number\":\"other\"}").post("/quotes/{id}/restore", id).then()
                .statusCode(400).contentType("application/problem+json").body("errors.field", org.hamcrest.Matchers.hasItem("body"));
        assertThat(deleted(id)).hasSize(1);
        given().post("/quotes/{id}/restore", id).then().statusCode(200);
    }

    /** Two requests sent at the same instant: their answers. */
    static List<io.restassured.response.Response> twins(java.util.concurrent.ExecutorService pool,
            java.util.concurrent.Callable<io.restassured.response.Response> request) throws Exception {
        var go = new java.util.concurrent.CountDownLatch(1);
        var answers = new ArrayList<java.util.concurrent.Future<io.restassured.response.Response>>();
        for (int i = 0; i < 2; i++) {
            answers.add(pool.submit(() -> {
                go.await();
                return request.call();
            }));
        }
        go.countDown();
        var out = new ArrayList<io.restassured.response.Response>();
        for (var answer : answers) {
            out.add(answer.get(30, java.util.concurrent.TimeUnit.SECONDS));
        }
        return out;
    }
}
