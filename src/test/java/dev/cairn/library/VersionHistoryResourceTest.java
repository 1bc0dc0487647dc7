package dev.cairn.library;

import dev.cairn.core.CairnException;
import dev.cairn.core.CairnError;
import dev.cairn.core.TableSpec;
import dev.cairn.core.expr.SortCondition;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.model.Doc;
import dev.cairn.core.model.HistoryModel;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.core.write.TransactionPlan;
import dev.cairn.core.write.VersionSnapshots;
import dev.cairn.core.write.WriteAction;
import dev.cairn.declared.DeclaredModels;
import dev.cairn.Eventually;
import dev.cairn.platform.TestTokens;
import dev.cairn.platform.auth.AuthEnabledProfile;
import dev.cairn.store.EntityStore;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

/**
 * A loan keeps its last 20 previous versions (library.yaml: {@code history: { keep: 20 }}): every write route — create,
 * merge patch, JSON Patch, PUT, delete and a book's rename cascading into the loan — stores the version it replaces in
 * its own transaction, with who wrote it and when; {@code GET …/versions} lists them newest first (the current one
 * first), paged, read by exactly who may read the loan; the snapshots are read straight from the table, and no live
 * read ever shows one.
 */
@QuarkusTest
@TestProfile(AuthEnabledProfile.class)
class VersionHistoryResourceTest {

    static final String MERGE = "application/merge-patch+json";

    @Inject EntityStore store;
    @Inject DeclaredModels models;
    @Inject DynamoDbAsyncClient client;

    final String k = UUID.randomUUID().toString().substring(0, 8);
    final String admin = "librarian-" + k;

    static RequestSpecification as(String subject, String role) {
        return given().header("Authorization", TestTokens.bearer(subject, List.of("*"), role));
    }

    RequestSpecification asAdmin() {
        return as(admin, "cairn-admin");
    }

    String member(String name) {
        String member = name + "-" + k;
        as(member, "cairn-writer").contentType(ContentType.JSON)
                .body("{\"memberId\":\"" + member + "\",\"name\":\"M\",\"email\":\"" + member + "@example.org\",\"address\":{\"city\":\"Leeds\"}}")
                .post("/members").then().statusCode(201);
        return member;
    }

    String book(String title) {
        String book = "vb-" + UUID.randomUUID().toString().substring(0, 8);
        asAdmin().contentType(ContentType.JSON).body("{\"bookId\":\"" + book + "\",\"title\":\"" + title + "\"}")
                .post("/books").then().statusCode(201);
        return book;
    }

    String loan(String member, String book) {
        return as(member, "cairn-writer").contentType(ContentType.JSON)
                .body("{\"bookId\":\"" + book + "\",\"due\":\"2026-12-24\"}").post("/members/{m}/loans", member)
                .then().statusCode(201).extract().path("loanId");
    }

    void renew(String member, String loan, String due) {
        as(member, "cairn-writer").contentType(MERGE).body("{\"due\":\"" + due + "\"}")
                .patch("/members/{m}/loans/{l}", member, loan).then().statusCode(200);
    }

    JsonPath versions(String member, String loan, String subject, String query) {
        return as(subject, "cairn-reader").get("/members/{m}/loans/{l}/versions" + query, member, loan)
                .then().statusCode(200).extract().jsonPath();
    }

    /** The loan's snapshot items as stored (expired ones too), oldest first: a raw Query, not the API. */
    List<Map<String, AttributeValue>> snapshots(String member, String loan) {
        var request = QueryRequest.builder().tableName(store.table()).consistentRead(true)
                .keyConditionExpression("pk = :pk AND begins_with(sk, :v)")
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS("MEMBER#" + member),
                        ":v", AttributeValue.fromS("~VERSION#LOAN#" + loan + "#"))).build();
        return client.query(request).join().items();
    }

    List<Long> snapshotVersions(String member, String loan) {
        return snapshots(member, loan).stream().map(item -> Long.parseLong(item.get(TableSpec.VERSION).n())).toList();
    }

    Map<String, AttributeValue> raw(PrimaryKey key) {
        var found = client.getItem(GetItemRequest.builder().tableName(store.table()).key(key.toAttributes())
                .consistentRead(true).build()).join();
        return found.hasItem() && !found.item().isEmpty() ? found.item() : null;
    }

    PrimaryKey loanKey(String member, String loan) {
        return PrimaryKey.of("MEMBER#" + member, "LOAN#" + loan);
    }

    @Test
    void everyWriteRouteAndACascadeKeepThePreviousVersionWithItsWriterAndTime() {
        String member = member("vm");
        String book = book("Old Title");
        String loan = loan(member, book);
        JsonPath created = versions(member, loan, member, "");
        assertThat(created.getList("items.version", Integer.class)).containsExactly(1);
        assertThat(created.getBoolean("items[0].current")).isTrue();
        assertThat(created.getString("items[0].writtenBy")).isEqualTo(member);
        assertThat(created.getString("items[0].item.bookTitle")).isEqualTo("Old Title");
        assertThat(snapshots(member, loan)).isEmpty();   // a create replaces nothing

        // merge patch (the member), JSON Patch (the librarian), PUT (the member)
        // a change: its read, then ONE transaction (the write and the snapshot)
        as(member, "cairn-writer").contentType(MERGE).body("{\"renewals\":1}")
                .patch("/members/{m}/loans/{l}", member, loan).then().statusCode(200).header("ETag", "\"2\"")
                .header("X-DynamoDB-Calls", "2");
        asAdmin().contentType("application/json-patch+json").body("[{\"op\":\"replace\",\"path\":\"/renewals\",\"value\":2}]")
                .patch("/members/{m}/loans/{l}", member, loan).then().statusCode(200).header("ETag", "\"3\"");
        as(member, "cairn-writer").contentType(ContentType.JSON)
                .body("{\"bookId\":\"" + book + "\",\"due\":\"2027-01-10\",\"renewals\":2,\"status\":\"returned\","
                        + "\"returned\":\"2026-11-27T10:00:00Z\"}")
                .put("/members/{m}/loans/{l}", member, loan).then().statusCode(200).header("ETag", "\"4\"");
        assertThat(snapshotVersions(member, loan)).containsExactly(1L, 2L, 3L);

        // the book's rename rewrites the loan's copy: the loan's version with the old title is kept
        asAdmin().contentType(MERGE).queryParam("cascade", "transactional").body("{\"title\":\"New Title\"}")
                .patch("/books/{b}", book).then().statusCode(200);
        assertThat(snapshotVersions(member, loan)).containsExactly(1L, 2L, 3L, 4L);

        JsonPath all = versions(member, loan, member, "");
        assertThat(all.getList("items.version", Integer.class)).containsExactly(5, 4, 3, 2, 1);
        assertThat(all.getList("items.current", Boolean.class)).containsExactly(true, false, false, false, false);
        assertThat(all.getList("items.writtenBy", String.class))
                .containsExactly("cascade:Book/" + book, member, admin, member, member);
        assertThat(all.getList("items.item.bookTitle", String.class))
                .containsExactly("New Title", "Old Title", "Old Title", "Old Title", "Old Title");
        assertThat(all.getList("items.item.renewals", Integer.class)).containsExactly(2, 2, 2, 1, 0);
        assertThat(all.getString("items[1].item.status")).isEqualTo("returned");
        assertThat(all.getString("next")).isNull();
        List<Instant> times = all.getList("items.writtenAt", String.class).stream().map(Instant::parse).toList();
        for (int i = 1; i < times.size(); i++) {
            assertThat(times.get(i)).isBeforeOrEqualTo(times.get(i - 1));
        }
        assertThat(times.get(0)).isAfter(Instant.now().minusSeconds(300));

        // one version: its number is its ETag; a version never written is a 404, a number that is none a 400
        as(member, "cairn-reader").get("/members/{m}/loans/{l}/versions/{n}", member, loan, 4).then().statusCode(200)
                .header("ETag", "\"4\"").header("X-DynamoDB-Calls", "2").body("version", equalTo(4)).body("current", equalTo(false))
                .body("item.bookTitle", equalTo("Old Title")).body("writtenBy", equalTo(member));
        as(member, "cairn-reader").get("/members/{m}/loans/{l}/versions/{n}", member, loan, 5).then().statusCode(200)
                .body("current", equalTo(true)).body("item.bookTitle", equalTo("New Title"));
        as(member, "cairn-reader").get("/members/{m}/loans/{l}/versions/{n}", member, loan, 6).then().statusCode(404)
                .contentType("application/problem+json").body("code", equalTo("NotFound"));
        as(member, "cairn-reader").get("/members/{m}/loans/{l}/versions/{n}", member, loan, "abc").then().statusCode(400)
                .contentType("application/problem+json");
        as(member, "cairn-reader").get("/members/{m}/loans/{l}/versions/{n}", member, loan, "0").then().statusCode(400);
        // the contract's whole range (up to 2147483647) is a version number, merely one not kept; past it a 400
        as(member, "cairn-reader").get("/members/{m}/loans/{l}/versions/{n}", member, loan, "2147483647").then()
                .statusCode(404).body("code", equalTo("NotFound"));
        as(member, "cairn-reader").get("/members/{m}/loans/{l}/versions/{n}", member, loan, "2147483648").then()
                .statusCode(400);

        // the eventual cascade (a job) keeps the version it replaces too
        asAdmin().contentType(MERGE).queryParam("cascade", "eventual").body("{\"title\":\"Third Title\"}")
                .patch("/books/{b}", book).then().statusCode(org.hamcrest.Matchers.oneOf(200, 202));
        Eventually.within(Duration.ofSeconds(20), () -> assertThat(snapshotVersions(member, loan))
                .containsExactly(1L, 2L, 3L, 4L, 5L));
        JsonPath after = versions(member, loan, member, "?limit=2");
        assertThat(after.getList("items.item.bookTitle", String.class)).containsExactly("Third Title", "New Title");
        assertThat(after.getString("items[0].writtenBy")).isEqualTo("cascade:Book/" + book);

        // a delete keeps the last version, marked with who deleted it and when; the versions outlive the loan
        as(member, "cairn-writer").delete("/members/{m}/loans/{l}", member, loan).then().statusCode(204)
                .header("X-DynamoDB-Calls", "2");
        as(member, "cairn-reader").get("/members/{m}/loans/{l}", member, loan).then().statusCode(404);
        JsonPath gone = versions(member, loan, member, "");
        assertThat(gone.getList("items.version", Integer.class)).containsExactly(6, 5, 4, 3, 2, 1);
        assertThat(gone.getList("items.current", Boolean.class)).doesNotContain(true);
        assertThat(gone.getString("items[0].deletedBy")).isEqualTo(member);
        assertThat(gone.getString("items[0].deletedAt")).isNotNull();
        assertThat(gone.getString("items[1].deletedBy")).isNull();
        as(member, "cairn-reader").get("/members/{m}/loans/{l}/versions/{n}", member, loan, 6).then().statusCode(200)
                .body("deletedBy", equalTo(member)).body("item.bookTitle", equalTo("Third Title"));
    }

    @Test
    void aBookOthersCopyFromKeepsTheVersionsItsCascadingRenamesReplaceInBothModes() throws InterruptedException {
        String member = member("vc");
        String book = book("First");
        String loan = loan(member, book);
        asAdmin().contentType(MERGE).queryParam("cascade", "transactional").body("{\"title\":\"Second\"}")
                .patch("/books/{b}", book).then().statusCode(200).header("ETag", "\"2\"").body("mode", equalTo("transactional"));
        var eventual = asAdmin().contentType(MERGE).queryParam("cascade", "eventual").body("{\"title\":\"Third\"}")
                .patch("/books/{b}", book);
        eventual.then().header("ETag", "\"3\"").body("mode", equalTo("eventual"));
        assertThat(eventual.statusCode()).isIn(200, 202);

        // the versions each rename replaced, stored in the book's own write, with its writer
        var versions = as(admin, "cairn-reader").get("/books/{b}/versions", book).then().statusCode(200).extract().jsonPath();
        assertThat(versions.getList("items.version", Integer.class)).containsExactly(3, 2, 1);
        assertThat(versions.getList("items.item.title", String.class)).containsExactly("Third", "Second", "First");
        assertThat(versions.getList("items.writtenBy", String.class)).containsExactly(admin, admin, admin);
        as(admin, "cairn-reader").get("/books/{b}/versions/{n}", book, 2).then().statusCode(200)
                .body("item.title", equalTo("Second"));
        var request = QueryRequest.builder().tableName(store.table()).consistentRead(true)
                .keyConditionExpression("pk = :pk AND begins_with(sk, :v)")
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS("BOOK#" + book),
                        ":v", AttributeValue.fromS("~VERSION#BOOK#"))).build();
        assertThat(client.query(request).join().items()).extracting(item -> item.get(TableSpec.VERSION).n())
                .containsExactly("1", "2");
        // and the copies followed, as without history
        java.time.Instant until = java.time.Instant.now().plusSeconds(30);
        while (!"Third".equals(as(member, "cairn-reader").get("/members/{m}/loans/{l}", member, loan).then().extract()
                .path("bookTitle"))) {
            assertThat(java.time.Instant.now()).as("the loan's copy follows the rename").isBefore(until);
            Thread.sleep(50);
        }
    }

    @Test
    void aTransactionalRenameIsNotRefusedByLoansWrittenMeanwhile() throws Exception {
        String title;
        String member = member("vt");
        String book = book("Busy");
        var loans = new java.util.ArrayList<String>();
        for (int i = 0; i < 6; i++) {
            loans.add(loan(member, book));
        }
        // the loans keep history, so the rename checks each at its version read: renewals race it all along
        var stop = new java.util.concurrent.atomic.AtomicBoolean();
        var pool = java.util.concurrent.Executors.newFixedThreadPool(3);
        try {
            for (int t = 0; t < 3; t++) {
                int thread = t;
                pool.submit(() -> {
                    int n = 0;
                    while (!stop.get()) {
                        String loan = loans.get((thread + n++) % loans.size());
                        as(member, "cairn-writer").contentType(MERGE).body("{\"renewals\":" + (n % 3) + "}")
                                .patch("/members/{m}/loans/{l}", member, loan);
                    }
                    return null;
                });
            }
            int renamed = -1;
            for (int i = 0; i < 12; i++) {
                String etag = asAdmin().get("/books/{b}", book).then().statusCode(200).extract().header("ETag");
                var answer = asAdmin().contentType(MERGE).header("If-Match", etag).queryParam("cascade", "transactional")
                        .body("{\"title\":\"Busy " + i + "\"}").patch("/books/{b}", book);
                // the If-Match named the current version: never a 412 for a loan's version, never internal actions;
                // a holder written without a pause all along may leave it a 503 to retry, with nothing written
                assertThat(answer.statusCode()).as("rename %d: %s", i, answer.asString()).isIn(200, 503);
                if (answer.statusCode() == 503) {
                    assertThat(answer.header("Retry-After")).isNotNull();
                    asAdmin().get("/books/{b}", book).then().header("ETag", etag);
                } else {
                    renamed = i;
                }
            }
            assertThat(renamed).as("at least one rename went through amid the renewals").isNotNegative();
            title = "Busy " + renamed;
        } finally {
            stop.set(true);
            pool.shutdown();
            pool.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS);
        }
        for (String loan : loans) {
            as(member, "cairn-reader").get("/members/{m}/loans/{l}", member, loan).then().statusCode(200)
                    .body("bookTitle", equalTo(title));
        }
    }

    @Test
    void keepNDropsTheOldestSnapshotInTheSameWrite() {
        String member = member("vk");
        String book = book("Kept");
        String loan = loan(member, book);
        for (int day = 1; day <= 20; day++) {
            renew(member, loan, "2027-01-" + String.format("%02d", day));
        }
        // 21 versions: 20 snapshots (1..20), nothing dropped yet
        assertThat(snapshotVersions(member, loan)).hasSize(20).startsWith(1L).endsWith(20L);
        renew(member, loan, "2027-01-21");
        // the write that made version 22 kept version 21 and deleted version 1, in its own transaction
        assertThat(snapshotVersions(member, loan)).hasSize(20).startsWith(2L).endsWith(21L);
        renew(member, loan, "2027-01-22");
        assertThat(snapshotVersions(member, loan)).hasSize(20).startsWith(3L).endsWith(22L);
        JsonPath listed = versions(member, loan, member, "?limit=100");
        assertThat(listed.getList("items.version", Integer.class)).hasSize(21).startsWith(23, 22).endsWith(3);
        as(member, "cairn-reader").get("/members/{m}/loans/{l}/versions/{n}", member, loan, 2).then().statusCode(404)
                .body("detail", equalTo("version 2 of loan " + loan + " is not retained"));
    }

    @Test
    void theDurationFormExpiresEachSnapshotByTheTablesTtlAttributeAndReadsHideItAtOnce() {
        String member = member("vd");
        String loan = loan(member, book("Timed"));
        PrimaryKey key = loanKey(member, loan);
        var live = new HashMap<>(raw(key));
        Instant now = Instant.now();
        // the library keeps loans by count; the duration form's snapshot, written as a write of such an entity does
        var timed = new HistoryModel(null, Duration.ofDays(90), 0);
        live.put(TableSpec.VERSION, AttributeValue.fromN("40"));
        store.transact(TransactionPlan.of(VersionSnapshots.snapshot(timed, "Loan", live, now, null))).await().indefinitely();
        var kept = raw(VersionSnapshots.key(key, 40));
        assertThat(kept.get(TableSpec.EXPIRES_AT)).isEqualTo(
                AttributeValue.fromN(Long.toString(now.plus(Duration.ofDays(90)).getEpochSecond())));
        as(member, "cairn-reader").get("/members/{m}/loans/{l}/versions/{n}", member, loan, 40).then().statusCode(200);
        // one replaced 91 days ago: past its expiry, gone from every read before DynamoDB deletes it
        live.put(TableSpec.VERSION, AttributeValue.fromN("41"));
        store.transact(TransactionPlan.of(VersionSnapshots.snapshot(timed, "Loan", live, now.minus(Duration.ofDays(91)),
                null))).await().indefinitely();
        assertThat(raw(VersionSnapshots.key(key, 41))).isNotNull();
        as(member, "cairn-reader").get("/members/{m}/loans/{l}/versions/{n}", member, loan, 41).then().statusCode(404);
        assertThat(versions(member, loan, member, "").getList("items.version", Integer.class)).containsExactly(1, 40);
    }

    @Test
    void noLiveReadEverSeesASnapshot() {
        String member = member("vl");
        String book = book("Listed");
        String kept = loan(member, book);
        String deleted = loan(member, book);
        for (int i = 1; i <= 3; i++) {
            renew(member, kept, "2027-02-0" + i);
            renew(member, deleted, "2027-03-0" + i);
        }
        as(member, "cairn-writer").delete("/members/{m}/loans/{l}", member, deleted).then().statusCode(204);
        assertThat(snapshots(member, kept)).hasSize(3);
        assertThat(snapshots(member, deleted)).hasSize(4);

        // the member's listing (begins_with LOAN#), by status (its own index), the member with its holds (one Query
        // from PROFILE up), the book's loans (gsi1) and its page (a view)
        as(member, "cairn-reader").get("/members/{m}/loans", member).then().statusCode(200)
                .body("items.loanId", equalTo(List.of(kept))).body("next", nullValue());
        as(member, "cairn-reader").get("/members/{m}/loans/by-status/{s}", member, "out").then().statusCode(200)
                .body("items.loanId", equalTo(List.of(kept)));
        String page = as(member, "cairn-reader").queryParam("include", "reservations").queryParam("limit", 1).get("/members/{m}", member)
                .then().statusCode(200).body("reservations.items", equalTo(List.of())).body("reservations.next", nullValue())
                .extract().asString();
        assertThat(page).doesNotContain("VERSION").doesNotContain(kept);
        Eventually.within(Duration.ofSeconds(10), () -> asAdmin().get("/books/{b}/loans", book).then().statusCode(200)
                .body("items.loanId", equalTo(List.of(kept))));
        asAdmin().get("/books/{b}/page", book).then().statusCode(200).body("loans.items.loanId", equalTo(List.of(kept)));
        // the engine's own Queries too: a member's purge counts its dependents (members are soft-deleted, so the
        // count is the purge's), and it finds the live loan, then the deleted ones, then nothing once they are purged,
        // though the loans' versions stay in the member's partition
        as(member, "cairn-writer").delete("/members/{m}", member).then().statusCode(204);
        asAdmin().delete("/members/deleted/{m}", member).then().statusCode(409).body("code", equalTo("StillReferenced"));
        as(member, "cairn-writer").delete("/members/{m}/loans/{l}", member, kept).then().statusCode(204);
        asAdmin().delete("/members/deleted/{m}", member).then().statusCode(409);   // the deleted loans wait to be purged
        asAdmin().delete("/members/{m}/loans/deleted/{l}", member, kept).then().statusCode(204);
        asAdmin().delete("/members/{m}/loans/deleted/{l}", member, deleted).then().statusCode(204);
        asAdmin().delete("/members/deleted/{m}", member).then().statusCode(204);
        assertThat(snapshots(member, kept)).hasSize(4);
        asAdmin().get("/members/{m}/loans/{l}/versions", member, kept).then().statusCode(200)
                .body("items[0].deletedBy", equalTo(member));
    }

    /**
     * Loans are soft-deleted and keep history: the soft delete keeps the last version marked with its deleter, in its
     * tombstone's transaction, and a restore writes the next version, so the numbering goes on without a gap.
     */
    @Test
    void aSoftDeleteKeepsTheLastVersionAndARestoreGoesOnFromIt() {
        String member = member("vs");
        String book = book("Restored");
        String loan = loan(member, book);
        renew(member, loan, "2027-04-01");
        as(member, "cairn-writer").delete("/members/{m}/loans/{l}", member, loan).then().statusCode(204);
        assertThat(snapshots(member, loan)).hasSize(2);
        asAdmin().get("/members/{m}/loans/{l}/versions", member, loan).then().statusCode(200)
                .body("items.version", equalTo(List.of(2, 1))).body("items[0].deletedBy", equalTo(member));

        as(member, "cairn-writer").post("/members/{m}/loans/{l}/restore", member, loan).then().statusCode(200)
                .header("ETag", "\"3\"");
        assertThat(snapshots(member, loan)).hasSize(2);
        asAdmin().get("/members/{m}/loans/{l}/versions", member, loan).then().statusCode(200)
                .body("items.version", equalTo(List.of(3, 2, 1))).body("items[0].current", equalTo(true))
                .body("items[0].writtenBy", equalTo(member)).body("items[1].deletedBy", equalTo(member));
    }

    @Test
    void theVersionsAreReadByExactlyWhoMayReadTheLoan() {
        String member = member("va");
        String loan = loan(member, book("Private"));
        renew(member, loan, "2027-04-01");
        String other = member("vo");
        as(other, "cairn-reader").get("/members/{m}/loans/{l}/versions", member, loan).then().statusCode(404)
                .contentType("application/problem+json");
        as(other, "cairn-reader").get("/members/{m}/loans/{l}/versions/{n}", member, loan, 1).then().statusCode(404);
        as(other, "cairn-admin").get("/members/{m}/loans/{l}/versions", member, loan).then().statusCode(200)
                .body("items.version", equalTo(List.of(2, 1)));
        as(member, "cairn-reader").get("/members/{m}/loans/{l}/versions", member, loan).then().statusCode(200)
                .body("items.version", equalTo(List.of(2, 1)));
        // an unknown loan, a member's own: 404
        as(member, "cairn-reader").get("/members/{m}/loans/{l}/versions", member, "01JNOSUCHLOAN0000000000000").then()
                .statusCode(404).body("code", equalTo("NotFound"));
    }

    @Test
    void theAccessPatternsShowTheVersionsReadsAndWhatEachWriteCostsMore() {
        String route = "GET /members/{memberId}/loans/{loanId}/versions";
        asAdmin().get("/access-patterns").then().statusCode(200)
                .body("find { it.route == '" + route + "' && it.operation == 'Query' }.request.KeyConditionExpression",
                        equalTo("#n0 = :v0 AND begins_with(#n1, :v1)"))
                .body("find { it.route == '" + route + "' && it.operation == 'Query' }.request.ExpressionAttributeValues.':v1'.S",
                        org.hamcrest.Matchers.startsWith("~VERSION#LOAN#"))
                .body("find { it.route == '" + route + "' && it.operation == 'Query' }.request.ScanIndexForward", equalTo(false))
                .body("find { it.route == '" + route + "' && it.operation == 'Query' }.name",
                        org.hamcrest.Matchers.containsString("+1 Put of that version's snapshot"))
                .body("find { it.route == '" + route + "' && it.operation == 'GetItem' }.request.Key.sk.S",
                        org.hamcrest.Matchers.startsWith("LOAN#"))
                .body("find { it.route == '" + route + "/{version}' }.request.Key.sk.S",
                        org.hamcrest.Matchers.startsWith("~VERSION#LOAN#"))
                // the member read with its holds stops before the engine's own items
                .body("find { it.route == 'GET /members/{memberId}?include=reservations' }.request.ExpressionAttributeValues.':v2'.S",
                        equalTo("~"));
    }

    @Test
    void theVersionsArePagedWithCursors() {
        String member = member("vp");
        String loan = loan(member, book("Paged"));
        for (int day = 1; day <= 4; day++) {
            renew(member, loan, "2027-05-0" + day);
        }
        // the first page: the live item and the snapshots' Query side by side; a later page: the Query
        as(member, "cairn-reader").get("/members/{m}/loans/{l}/versions?limit=2", member, loan).then().statusCode(200)
                .header("X-DynamoDB-Calls", "2");
        JsonPath first = versions(member, loan, member, "?limit=2");
        assertThat(first.getList("items.version", Integer.class)).containsExactly(5, 4);
        as(member, "cairn-reader").get("/members/{m}/loans/{l}/versions?limit=2&cursor=" + first.getString("next"), member, loan)
                .then().statusCode(200).header("X-DynamoDB-Calls", "1");
        JsonPath second = versions(member, loan, member, "?limit=2&cursor=" + first.getString("next"));
        assertThat(second.getList("items.version", Integer.class)).containsExactly(3, 2);
        JsonPath third = versions(member, loan, member, "?limit=2&cursor=" + second.getString("next"));
        assertThat(third.getList("items.version", Integer.class)).containsExactly(1);
        assertThat(third.getString("next")).isNull();
        // a page of one holds the current version alone; the next starts right below it
        JsonPath one = versions(member, loan, member, "?limit=1");
        assertThat(one.getList("items.version", Integer.class)).containsExactly(5);
        JsonPath below = versions(member, loan, member, "?limit=3&cursor=" + one.getString("next"));
        assertThat(below.getList("items.version", Integer.class)).containsExactly(4, 3, 2);
        as(member, "cairn-reader").get("/members/{m}/loans/{l}/versions?cursor=forged", member, loan).then()
                .statusCode(400).contentType("application/problem+json");
    }

    @Test
    void aLostVersionCheckStoresNoSnapshot() {
        String member = member("vi");
        String loan = loan(member, book("Checked"));
        renew(member, loan, "2027-06-01");
        renew(member, loan, "2027-06-02");
        PrimaryKey key = loanKey(member, loan);
        var itemBefore = raw(key);
        var snapshotsBefore = snapshots(member, loan);
        as(member, "cairn-writer").contentType(MERGE).header("If-Match", "\"1\"").body("{\"renewals\":3}")
                .patch("/members/{m}/loans/{l}", member, loan).then().statusCode(412);
        as(member, "cairn-writer").header("If-Match", "\"2\"").delete("/members/{m}/loans/{l}", member, loan)
                .then().statusCode(412);
        assertThat(raw(key)).isEqualTo(itemBefore);
        assertThat(snapshots(member, loan)).isEqualTo(snapshotsBefore);

        // the write itself is version-checked: one that read version 3 and lost the race to another stores nothing
        var stale = new HashMap<>(itemBefore);
        stale.put("_probe", AttributeValue.fromS("stale"));
        renew(member, loan, "2027-06-03");   // version 4, keeping version 3
        var itemNow = raw(key);
        var snapshotsNow = snapshots(member, loan);
        var spec = models.plan().entity("Loan").spec();
        Doc changed = spec.fromItem(stale).value().with("renewals", 3L);
        Instant now = Instant.now();
        var actions = new java.util.ArrayList<WriteAction>();
        actions.add(WriteAction.put(spec, changed, WriteAction.Expectation.present(3L), now,
                VersionSnapshots.writer("stale-writer")));
        actions.addAll(VersionSnapshots.snapshot(models.plan().entity("Loan").model().history(), "Loan", stale, now, null));
        assertThatThrownBy(() -> store.transact(TransactionPlan.of(actions)).await().indefinitely())
                .isInstanceOfSatisfying(CairnException.class,
                        e -> assertThat(e.error()).isInstanceOf(CairnError.VersionConflict.class));
        assertThat(raw(key)).isEqualTo(itemNow);
        assertThat(snapshots(member, loan)).isEqualTo(snapshotsNow);
        assertThat(snapshotsNow.stream().map(s -> s.get(VersionSnapshots.DOC).m())).noneMatch(doc -> doc.containsKey("_probe"));
    }
}
