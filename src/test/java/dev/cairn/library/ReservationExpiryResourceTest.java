package dev.cairn.library;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.TableSpec;
import dev.cairn.core.entity.Stored;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.model.DeclaredEntity;
import dev.cairn.core.model.Doc;
import dev.cairn.declared.DeclaredModels;
import dev.cairn.platform.TestClock;
import dev.cairn.store.EntityStore;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.cairn.library.LibraryResourceTest.book;
import static dev.cairn.library.LibraryResourceTest.member;
import static dev.cairn.library.LibraryResourceTest.unique;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;

/**
 * The library's reservations declare {@code ttl: expiresAt}: past it a hold is gone from every read at once (before
 * DynamoDB's TTL deletes it), a write meets it as missing, and a cascade leaves it alone. The tests move the expiry,
 * or the clock: a hold is patched into the past, or the test moves the application's clock past its expiry.
 */
@QuarkusTest
class ReservationExpiryResourceTest {

    static final String FUTURE = "2036-12-01T17:00:00Z";
    /**
     * An expiry more than five years past, which DynamoDB's TTL never deletes by (the service and DynamoDB Local
     * alike): the item stays in the table, so what hides it is Cairn's check alone.
     */
    static final String PAST = "2020-01-01T00:00:00Z";

    @Inject
    EntityStore store;

    @Inject
    DeclaredModels models;

    @Inject
    DynamoDbAsyncClient client;

    @Inject
    TestClock clock;

    static String hold(String member, String book, String expiresAt) {
        return given().contentType(ContentType.JSON).body("{\"bookId\":\"" + book + "\",\"expiresAt\":\"" + expiresAt + "\"}")
                .post("/members/{m}/reservations", member).then().statusCode(201).extract().path("reservationId");
    }

    static void lapse(String member, String hold) {
        given().contentType("application/merge-patch+json").body("{\"expiresAt\":\"" + PAST + "\"}")
                .patch("/members/{m}/reservations/{r}", member, hold).then().statusCode(200).body("expiresAt", equalTo(PAST));
    }

    DeclaredEntity reservations() {
        return models.plan().entity("Reservation");
    }

    /** The item as DynamoDB holds it, read past Cairn (null: not there). */
    Map<String, AttributeValue> raw(String member, String hold) {
        PrimaryKey key = reservations().key(List.of(member, hold));
        var item = client.getItem(r -> r.tableName(store.table()).key(key.toAttributes()).consistentRead(true)).join();
        return item.hasItem() && !item.item().isEmpty() ? item.item() : null;
    }

    @Test
    void theExpiryIsStoredAsEpochSecondsInTheTablesTtlAttributeWhichProvisioningEnabledAndAnsweredAsRfc3339() {
        String member = unique("member");
        String book = unique("book");
        member(member);
        book(book, "Mort");
        // a fraction of a second is dropped: DynamoDB's TTL counts whole seconds
        String hold = given().contentType(ContentType.JSON)
                .body("{\"bookId\":\"" + book + "\",\"expiresAt\":\"2036-12-01T17:00:00.750Z\"}")
                .post("/members/{m}/reservations", member).then().statusCode(201).body("expiresAt", equalTo(FUTURE))
                .extract().path("reservationId");
        Map<String, AttributeValue> item = raw(member, hold);
        assertThat(item.get(TableSpec.EXPIRES_AT))
                .isEqualTo(AttributeValue.fromN(Long.toString(Instant.parse(FUTURE).getEpochSecond())));
        assertThat(item).doesNotContainKey("expiresAt");
        given().get("/members/{m}/reservations/{r}", member, hold).then().statusCode(200).body("expiresAt", equalTo(FUTURE))
                .body("bookTitle", equalTo("Mort"));
        var ttl = client.describeTimeToLive(r -> r.tableName(store.table())).join().timeToLiveDescription();
        assertThat(ttl.attributeName()).isEqualTo(TableSpec.EXPIRES_AT);
        assertThat(ttl.timeToLiveStatus()).isEqualTo(TimeToLiveStatus.ENABLED);
        // a new hold already past its expiry would be gone at once: refused, as an update to a past expiry is not
        for (String past : List.of(PAST, "0001-01-01T00:00:00Z")) {
            given().contentType(ContentType.JSON).body("{\"bookId\":\"" + book + "\",\"expiresAt\":\"" + past + "\"}")
                    .post("/members/{m}/reservations", member).then().statusCode(400)
                    .contentType("application/problem+json").body("errors[0].field", equalTo("expiresAt"));
        }
        // the expiry is required here: a replacement without it, or a bad one, is refused and writes nothing
        given().contentType(ContentType.JSON).body("{\"bookId\":\"" + book + "\",\"note\":\"kept\"}")
                .put("/members/{m}/reservations/{r}", member, hold).then().statusCode(400);
        given().contentType("application/merge-patch+json").body("{\"expiresAt\":\"not a time\"}")
                .patch("/members/{m}/reservations/{r}", member, hold).then().statusCode(400);
        // beyond RFC 3339 (the contract's date-time), though Instant.parse takes them: refused, never echoed
        for (String beyond : List.of("+10000-01-01T00:00:00Z", "+999999999-12-31T23:59:59Z", "2036-12-01T24:00:00Z",
                "-0001-01-01T00:00:00Z")) {
            given().contentType("application/merge-patch+json").body("{\"expiresAt\":\"" + beyond + "\"}")
                    .patch("/members/{m}/reservations/{r}", member, hold).then().statusCode(400)
                    .contentType("application/problem+json").body("errors[0].field", equalTo("expiresAt"));
        }
        assertThat(raw(member, hold).get(TableSpec.EXPIRES_AT)).isEqualTo(item.get(TableSpec.EXPIRES_AT));
    }

    @Test
    void anExpiredHoldIsGoneAtOnceFromItsGetTheListingsTheIndexAndTheMembersPageWhileDynamoDbStillHoldsIt() {
        String member = unique("member");
        String book = unique("book");
        member(member);
        book(book, "Sourcery");
        String live = hold(member, book, FUTURE);
        String lapsing = hold(member, book, FUTURE);
        given().get("/members/{m}/reservations", member).then().statusCode(200).body("items.reservationId", contains(live, lapsing));
        given().get("/books/{b}/reservations", book).then().statusCode(200).body("items.reservationId", contains(live, lapsing));
        given().queryParam("include", "reservations").get("/members/{m}", member).then().statusCode(200)
                .body("reservations.items.reservationId", contains(live, lapsing));

        lapse(member, lapsing);

        Response gone = given().get("/members/{m}/reservations/{r}", member, lapsing);
        String never = unique("never");
        Response missing = given().get("/members/{m}/reservations/{r}", member, never);
        gone.then().statusCode(404).contentType("application/problem+json");
        missing.then().statusCode(404);
        // exactly the answer of a hold that never was
        assertThat(gone.path("code").toString()).isEqualTo(missing.path("code"));
        assertThat(gone.path("title").toString()).isEqualTo(missing.path("title"));
        assertThat(gone.path("detail").toString()).isEqualTo(missing.path("detail").toString().replace(never, lapsing));
        assertThat(gone.getHeader("ETag")).isNull();
        given().get("/members/{m}/reservations", member).then().statusCode(200).body("items.reservationId", contains(live));
        given().get("/books/{b}/reservations", book).then().statusCode(200).body("items.reservationId", contains(live));
        given().queryParam("include", "reservations").get("/members/{m}", member).then().statusCode(200)
                .body("reservations.items.reservationId", contains(live));
        // a page of one: the expired hold still costs its read, so a page may be short, and its cursor goes on
        Response first = given().queryParam("limit", 1).get("/members/{m}/reservations", member);
        first.then().statusCode(200).body("items.reservationId", contains(live));

        // DynamoDB has not deleted it: it carries the TTL attribute DynamoDB deletes it by, in the past
        Map<String, AttributeValue> item = raw(member, lapsing);
        assertThat(item).isNotNull();
        assertThat(Long.parseLong(item.get(TableSpec.EXPIRES_AT).n())).isEqualTo(Instant.parse(PAST).getEpochSecond());
    }

    /**
     * A hold that lapses by the clock, with no write at its expiry: the test moves the application's clock past it,
     * and from that instant the hold is gone from its get, both listings and the member's page, and a write meets it
     * as missing. Then DynamoDB's TTL removes it: the embedded DynamoDB Local (3.3.1) carries a TTL deletion job, but it
     * left a hold four minutes past its expiry in place (2026-11-27), so the test issues the DeleteItem the TTL process
     * performs, and the hold stays gone with the clock put back.
     */
    @Test
    void aHoldLapsesByTheClockAtOnceAndStaysGoneOnceDynamoDbRemovesIt() {
        String member = unique("member");
        String book = unique("book");
        member(member);
        book(book, "Eric");
        Instant inAnHour = clock.instant().truncatedTo(ChronoUnit.SECONDS).plus(Duration.ofHours(1));
        String hold = hold(member, book, inAnHour.toString());
        assertThat(raw(member, hold).get(TableSpec.EXPIRES_AT)).isEqualTo(AttributeValue.fromN(Long.toString(inAnHour.getEpochSecond())));
        given().get("/members/{m}/reservations/{r}", member, hold).then().statusCode(200);
        try {
            clock.advance(Duration.ofMinutes(59));
            given().get("/members/{m}/reservations/{r}", member, hold).then().statusCode(200);
            clock.advance(Duration.ofMinutes(1));
            // at its expiry, to the second: gone from every read, while DynamoDB still holds it
            given().get("/members/{m}/reservations/{r}", member, hold).then().statusCode(404).body("code", equalTo("NotFound"));
            given().get("/members/{m}/reservations", member).then().statusCode(200).body("items", empty());
            given().get("/books/{b}/reservations", book).then().statusCode(200).body("items", empty());
            given().get("/members/{m}?include=reservations", member).then().statusCode(200).body("reservations.items", empty());
            given().contentType("application/merge-patch+json").body("{\"note\":\"late\"}")
                    .patch("/members/{m}/reservations/{r}", member, hold).then().statusCode(404);
            assertThat(raw(member, hold)).isNotNull();

            // DynamoDB's TTL deletes it (a DeleteItem of the service's own): it is gone from the table and its index
            PrimaryKey key = reservations().key(List.of(member, hold));
            client.deleteItem(r -> r.tableName(store.table()).key(key.toAttributes())).join();
        } finally {
            clock.reset();
        }
        assertThat(raw(member, hold)).isNull();
        given().get("/members/{m}/reservations/{r}", member, hold).then().statusCode(404);
        given().get("/members/{m}/reservations", member).then().statusCode(200).body("items", empty());
        given().get("/books/{b}/reservations", book).then().statusCode(200).body("items", empty());
    }

    @Test
    void aWriteToAnExpiredHoldMeetsItAsMissingAndACreateMayTakeItsKeyButNeverALiveOnes() {
        String member = unique("member");
        String book = unique("book");
        member(member);
        book(book, "Pyramids");
        String hold = hold(member, book, FUTURE);
        lapse(member, hold);
        Map<String, AttributeValue> before = raw(member, hold);

        given().contentType("application/merge-patch+json").body("{\"note\":\"late\"}")
                .patch("/members/{m}/reservations/{r}", member, hold).then().statusCode(404).body("code", equalTo("NotFound"));
        given().contentType("application/json-patch+json").body("[{\"op\":\"add\",\"path\":\"/note\",\"value\":\"late\"}]")
                .patch("/members/{m}/reservations/{r}", member, hold).then().statusCode(404);
        given().contentType(ContentType.JSON).body("{\"bookId\":\"" + book + "\",\"expiresAt\":\"" + FUTURE + "\"}")
                .put("/members/{m}/reservations/{r}", member, hold).then().statusCode(404);
        given().header("If-Match", "\"2\"").delete("/members/{m}/reservations/{r}", member, hold).then().statusCode(404);
        given().delete("/members/{m}/reservations/{r}", member, hold).then().statusCode(404);
        // none of them wrote: the expired item is as it was
        assertThat(raw(member, hold)).isEqualTo(before);

        // the store's create at that key succeeds (its condition counts an expired item as absent) ...
        DeclaredEntity reservations = reservations();
        Stored<Doc> expired = reservations.spec().fromItem(before);
        var values = new LinkedHashMap<>(expired.value().values());
        values.put("expiresAt", FUTURE);
        values.put("note", "again");
        Stored<Doc> created = store.create(reservations.spec(), new Doc(values)).await().atMost(Duration.ofSeconds(10));
        assertThat(created.version()).isEqualTo(1);
        given().get("/members/{m}/reservations/{r}", member, hold).then().statusCode(200).header("ETag", "\"1\"")
                .body("note", equalTo("again")).body("expiresAt", equalTo(FUTURE));
        // ... and the same create over the live item it made is a conflict
        assertThatThrownBy(() -> store.create(reservations.spec(), new Doc(values)).await().atMost(Duration.ofSeconds(10)))
                .isInstanceOfSatisfying(CairnException.class, e -> assertThat(e.error()).isInstanceOf(CairnError.Conflict.class));
    }

    @Test
    void aCascadeFromTheBookUpdatesTheLiveHoldsCopyAndSkipsTheExpiredOne() {
        String member = unique("member");
        String book = unique("book");
        member(member);
        book(book, "Moving Pictures");
        String live = hold(member, book, FUTURE);
        String lapsed = hold(member, book, FUTURE);
        lapse(member, lapsed);
        given().contentType("application/merge-patch+json").queryParam("cascade", "transactional")
                .body("{\"title\":\"Moving Pictures (1990)\"}").patch("/books/{b}", book).then().statusCode(200)
                .body("matched", equalTo(1)).body("updated", equalTo(1));
        given().get("/members/{m}/reservations/{r}", member, live).then().statusCode(200)
                .body("bookTitle", equalTo("Moving Pictures (1990)"));
        assertThat(raw(member, lapsed).get("bookTitle").s()).isEqualTo("Moving Pictures");
        assertThat(raw(member, live).get("bookTitle").s()).isEqualTo("Moving Pictures (1990)");
    }
}
