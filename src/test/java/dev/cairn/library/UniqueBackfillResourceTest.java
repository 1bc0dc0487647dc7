package dev.cairn.library;

import dev.cairn.core.key.PrimaryKey;
import dev.cairn.store.EntityStore;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/**
 * The unique backfill (library.yaml: a member's email is unique, case-insensitive; its card too): members stored before
 * a constraint was declared hold their values without sentinels — made here by removing the sentinels a create wrote,
 * straight from the table. The backfill job takes each value for its item, leaves a value another item holds to it and
 * names both, and a second run finds nothing to do.
 */
@QuarkusTest
class UniqueBackfillResourceTest {

    @Inject EntityStore store;
    @Inject DynamoDbAsyncClient client;

    final String k = UUID.randomUUID().toString().substring(0, 8);
    final String card = digits();
    final String otherCard = digits();
    final String newCard = digits();

    /** A card number of this test's own (eight digits, as the library's pattern wants). */
    static String digits() {
        return String.format("%08d", java.util.concurrent.ThreadLocalRandom.current().nextInt(100_000_000));
    }

    static void createMember(String id, String email, String card) {
        given().contentType(ContentType.JSON).body("{\"memberId\":\"" + id + "\",\"name\":\"Ged\",\"email\":\"" + email
                + "\",\"card\":\"" + card + "\",\"address\":{\"city\":\"Gont\"}}").post("/members").then().statusCode(201);
    }

    static PrimaryKey sentinel(String constraint, String value) {
        return PrimaryKey.of("UNIQUE#Member#" + constraint + "#*#" + value, "UNIQUE");
    }

    Map<String, AttributeValue> raw(PrimaryKey key) {
        return store.getItem(key, true).await().atMost(Duration.ofSeconds(10));
    }

    /** As if the item had been stored before the constraint: its sentinel is not there. */
    void forget(PrimaryKey key) {
        client.deleteItem(r -> r.tableName(store.table()).key(key.toAttributes())).join();
        assertThat(raw(key)).isNull();
    }

    @Test
    void aBackfillTakesEveryValueStoredWithoutItsSentinelLeavesATakenOneToItsHolderAndRunsAgainForNothing()
            throws InterruptedException {
        String ada = "ub-ada-" + k;
        String bea = "ub-bea-" + k;
        String email = ada + "@example.org";
        createMember(ada, email, card);
        forget(sentinel("email", email));
        forget(sentinel("card", card));
        // with no sentinel another member could take the value: here one does
        createMember(bea, email.toUpperCase(Locale.ROOT), otherCard);

        Map<String, Object> first = backfill();
        assertThat((Integer) first.get("items")).isGreaterThanOrEqualTo(2);
        assertThat((Integer) first.get("taken")).as("at least ada's card").isGreaterThanOrEqualTo(1);
        // ada's card is hers now, with her item as its owner
        assertThat(raw(sentinel("card", card))).containsEntry("_ownerPk", AttributeValue.fromS("MEMBER#" + ada));
        // the email stays bea's, and the failure names ada, the constraint and the holder
        assertThat(raw(sentinel("email", email))).containsEntry("_ownerPk", AttributeValue.fromS("MEMBER#" + bea));
        @SuppressWarnings("unchecked")
        var failures = (List<Map<String, String>>) first.get("failures");
        assertThat(failures).anySatisfy(failure -> {
            assertThat(failure).containsEntry("id", ada).containsEntry("constraint", "email");
            assertThat(failure.get("reason")).contains("MEMBER#" + bea);
        });
        assertThat((Integer) first.get("failed")).isGreaterThanOrEqualTo(1);

        // the value taken now guards: another member cannot take ada's card
        given().contentType(ContentType.JSON).body("{\"memberId\":\"ub-cy-" + k + "\",\"name\":\"Cy\",\"email\":\"cy-" + k
                        + "@example.org\",\"card\":\"" + card + "\",\"address\":{\"city\":\"Roke\"}}").post("/members")
                .then().statusCode(409).contentType("application/problem+json").body("code", equalTo("UniqueViolation"))
                .body("constraint", equalTo("card"));
        // and ada can now change her card, releasing the value she held
        given().contentType("application/merge-patch+json").body("{\"card\":\"" + newCard + "\"}").patch("/members/{m}", ada)
                .then().statusCode(200);
        assertThat(raw(sentinel("card", card))).isNull();
        assertThat(raw(sentinel("card", newCard))).containsEntry("_ownerPk", AttributeValue.fromS("MEMBER#" + ada));

        Map<String, Object> again = backfill();
        assertThat(again.get("taken")).as("a second run finds nothing to take").isEqualTo(0);
        assertThat((Integer) again.get("unchanged")).isGreaterThanOrEqualTo(1);
    }

    @Test
    void aBackfillNeedsAnEntityWithUniqueValuesAndAnythingElseIsA404Problem() {
        given().post("/maintenance/entities/{e}/unique-backfills", "Author").then().statusCode(404)
                .contentType("application/problem+json").body("code", equalTo("NotFound"));
        given().post("/maintenance/entities/{e}/unique-backfills", "NoSuch" + k).then().statusCode(404)
                .contentType("application/problem+json");
        given().post("/maintenance/jobs/{id}/cancel", "no-such-job-" + k).then().statusCode(404)
                .contentType("application/problem+json");
    }

    /** Starts the backfill (202 + Location) and follows it to its end: the job as it ended. */
    static Map<String, Object> backfill() throws InterruptedException {
        var started = given().post("/maintenance/entities/{e}/unique-backfills", "Member").then().statusCode(202)
                .body("kind", equalTo("unique-backfill")).body("entity", equalTo("Member")).extract();
        return dev.cairn.platform.MaintenanceJobs.followed(started);
    }
}
