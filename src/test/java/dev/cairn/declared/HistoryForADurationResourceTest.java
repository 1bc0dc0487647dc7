package dev.cairn.declared;

import dev.cairn.core.TableSpec;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.platform.TestClock;
import dev.cairn.store.EntityStore;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/**
 * History kept for a duration ({@code history: { for: <duration> }}), on an entity (the shop's categories: a year) and on
 * an aggregate (the shop's quotes: 30 days): each version a write replaces is kept with DynamoDB's TTL attribute set to
 * its retention's end, and from that instant on it is gone from {@code …/versions} and {@code …/versions/{n}} at once,
 * though DynamoDB has not removed it yet. The tests move the application's clock.
 */
@QuarkusTest
class HistoryForADurationResourceTest {

    static final String MERGE = "application/merge-patch+json";

    @Inject
    TestClock clock;

    @Inject
    EntityStore store;

    final String k = UUID.randomUUID().toString().substring(0, 8);

    @AfterEach
    void putTheClockBack() {
        clock.reset();
    }

    /** The snapshot items as stored (expired ones too): version -> its TTL attribute (epoch seconds). */
    Map<Long, Long> stored(String pk, String skPrefix) {
        var out = new TreeMap<Long, Long>();
        for (Map<String, AttributeValue> item : store.queryAllIncludingExpired(QuerySpec.table(pk).consistent().build())
                .await().atMost(Duration.ofSeconds(10))) {
            String sk = item.get(TableSpec.SK).s();
            // (the tail a delete leaves beside an aggregate's versions is no version)
            if (sk.startsWith(skPrefix) && sk.substring(sk.lastIndexOf('#') + 1).matches("[0-9]+")
                    && item.containsKey(TableSpec.EXPIRES_AT)) {
                out.put(Long.parseLong(sk.substring(sk.lastIndexOf('#') + 1)), Long.parseLong(item.get(TableSpec.EXPIRES_AT).n()));
            }
        }
        return out;
    }

    static List<Integer> versions(String path) {
        return given().queryParam("limit", 100).get(path).then().statusCode(200).extract().path("items.version");
    }

    @Test
    void aCategorysVersionsAreKeptAYearEachAndHiddenOnceTheirYearIsOverBeforeDynamoDbRemovesThem() {
        String id = "ha-" + k;
        Instant start = clock.instant();
        given().contentType(ContentType.JSON).body("{\"id\":\"" + id + "\",\"name\":\"Garden\"}").post("/categories")
                .then().statusCode(201);
        given().contentType(MERGE).body("{\"name\":\"Garden tools\"}").patch("/categories/{id}", id).then().statusCode(200);
        clock.advance(Duration.ofDays(200));
        Instant later = clock.instant();
        given().contentType(MERGE).body("{\"name\":\"Garden and patio\"}").patch("/categories/{id}", id).then()
                .statusCode(200);
        String path = "/categories/" + id + "/versions";
        assertThat(versions(path)).containsExactly(3, 2, 1);
        // each kept version's TTL is the end of its year, from the write that replaced it
        Map<Long, Long> stored = stored("CAT#" + id, "~VERSION#");
        assertThat(stored).containsOnlyKeys(1L, 2L);
        assertThat(stored.get(1L)).isBetween(start.plus(Duration.ofDays(365)).getEpochSecond() - 2,
                start.plus(Duration.ofDays(365)).getEpochSecond() + 2);
        assertThat(stored.get(2L)).isBetween(later.plus(Duration.ofDays(365)).getEpochSecond() - 2,
                later.plus(Duration.ofDays(365)).getEpochSecond() + 2);
        // a year after the first change: version 1 is gone from every read, still stored until DynamoDB removes it
        clock.advance(Duration.ofDays(166));
        assertThat(versions(path)).containsExactly(3, 2);
        given().get(path + "/{n}", 1).then().statusCode(404).body("code", equalTo("NotFound"));
        given().get(path + "/{n}", 2).then().statusCode(200).body("item.name", equalTo("Garden tools"));
        assertThat(stored("CAT#" + id, "~VERSION#")).containsOnlyKeys(1L, 2L);
        // and a year after the second: only the category as it is
        clock.advance(Duration.ofDays(200));
        assertThat(versions(path)).containsExactly(3);
        given().get(path + "/{n}", 2).then().statusCode(404);
    }

    @Test
    void aQuotesVersionsAreKeptThirtyDaysEachAsAWholeAndHiddenOnceTheirTimeIsOver() {
        String p = "hp-" + k;
        given().contentType(ContentType.JSON).body("{\"id\":\"" + p + "\",\"name\":\"Kettle\",\"brand\":\"steamco\",\"price\":25}")
                .post("/products").then().statusCode(201);
        String id = "hq-" + k;
        Instant start = clock.instant();
        given().contentType(ContentType.JSON).body("{\"id\":\"" + id + "\",\"workspaceId\":\"hw-" + k + "\",\"customerId\":\"c1\","
                + "\"number\":\"H-" + k + "\",\"lines\":[{\"productId\":\"" + p + "\",\"quantity\":1}]}").post("/quotes")
                .then().statusCode(201);
        given().contentType(MERGE).body("{\"lines\":[{\"productId\":\"" + p + "\",\"quantity\":2}]}")
                .patch("/quotes/{id}", id).then().statusCode(200).header("ETag", "\"2\"");
        clock.advance(Duration.ofDays(20));
        given().contentType(MERGE).body("{\"lines\":[{\"productId\":\"" + p + "\",\"quantity\":3}]}")
                .patch("/quotes/{id}", id).then().statusCode(200).header("ETag", "\"3\"");
        String path = "/quotes/" + id + "/versions";
        assertThat(versions(path)).containsExactly(3, 2, 1);
        Map<Long, Long> stored = stored("~VERSION#QUOTE#" + id, "");
        assertThat(stored).containsOnlyKeys(1L, 2L);
        assertThat(stored.get(1L)).isBetween(start.plus(Duration.ofDays(30)).getEpochSecond() - 2,
                start.plus(Duration.ofDays(30)).getEpochSecond() + 2);
        // day 31: version 1 (the whole quote, its line at quantity 1) is gone from every read, still stored
        clock.advance(Duration.ofDays(11));
        assertThat(versions(path)).containsExactly(3, 2);
        given().get(path + "/{n}", 1).then().statusCode(404).body("code", equalTo("NotFound"));
        given().get(path + "/{n}", 2).then().statusCode(200).body("item.lines[0].quantity", equalTo(2));
        assertThat(stored("~VERSION#QUOTE#" + id, "")).containsOnlyKeys(1L, 2L);
        // a withdrawal keeps the version it deletes for its 30 days too
        given().delete("/quotes/{id}", id).then().statusCode(204);
        assertThat(versions(path)).containsExactly(3, 2);
        given().get(path + "/{n}", 3).then().statusCode(200).body("item.lines[0].quantity", equalTo(3));
        clock.advance(Duration.ofDays(31));
        given().get(path).then().statusCode(404);
        assertThat(stored("~VERSION#QUOTE#" + id, "")).containsOnlyKeys(1L, 2L, 3L);
    }
}
