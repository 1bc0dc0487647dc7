package dev.cairn.core.write;

import dev.cairn.core.CairnError;
import dev.cairn.core.TableSpec;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.write.WriteAction.Expectation;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writes of items that expire ({@link Expectation#live}): an item past its expiry counts as absent, in the write's
 * condition and in how a failed condition is explained.
 */
class ExpiringWriteTest {

    static final PrimaryKey KEY = PrimaryKey.of("MEMBER#m1", "PROFILE#HOLD#h1");
    static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
    static final long SECONDS = NOW.getEpochSecond();

    static Map<String, AttributeValue> item(long expiresAt, long version) {
        var item = new HashMap<>(KEY.toAttributes());
        item.put(TableSpec.VERSION, AttributeValue.fromN(Long.toString(version)));
        item.put(TableSpec.EXPIRES_AT, AttributeValue.fromN(Long.toString(expiresAt)));
        return item;
    }

    /** The condition with its placeholders filled in, as one reads it. */
    static String readable(String expression, Map<String, String> names, Map<String, AttributeValue> values) {
        String out = expression;
        for (var name : names.entrySet()) {
            out = out.replace(name.getKey(), name.getValue());
        }
        for (var value : values == null ? Map.<String, AttributeValue>of().entrySet() : values.entrySet()) {
            out = out.replace(value.getKey(), value.getValue().n() != null ? value.getValue().n() : value.getValue().s());
        }
        return out;
    }

    @Test
    void aCreateMayTakeTheKeyOfAnExpiredItemButNeverOfALiveOne() {
        var put = WriteAction.putItem(KEY, item(SECONDS + 60, 1), Expectation.ABSENT.live(NOW), "Reservation#h1")
                .toPutRequest("t");
        assertThat(readable(put.conditionExpression(), put.expressionAttributeNames(), put.expressionAttributeValues()))
                .isEqualTo("(attribute_not_exists(pk)) OR (_expiresAt <= " + SECONDS + ")");
        // without live(...) nothing changes: the plain create of every other entity
        var plain = WriteAction.putItem(KEY, item(SECONDS + 60, 1), Expectation.ABSENT, "Reservation#h1").toPutRequest("t");
        assertThat(readable(plain.conditionExpression(), plain.expressionAttributeNames(), plain.expressionAttributeValues()))
                .isEqualTo("attribute_not_exists(pk)");
    }

    @Test
    void anyOtherWriteNeedsTheItemPresentAndUnexpired() {
        var delete = WriteAction.deleteItem(KEY, Expectation.ifMatch(3L).live(NOW), "Reservation#h1").toDeleteRequest("t");
        assertThat(readable(delete.conditionExpression(), delete.expressionAttributeNames(), delete.expressionAttributeValues()))
                .isEqualTo("((attribute_exists(pk)) AND ((attribute_not_exists(_expiresAt)) OR (_expiresAt > " + SECONDS
                        + "))) AND (_version = 3)");
        var anyVersion = WriteAction.deleteItem(KEY, Expectation.present(null).live(NOW), "Reservation#h1").toDeleteRequest("t");
        assertThat(readable(anyVersion.conditionExpression(), anyVersion.expressionAttributeNames(),
                anyVersion.expressionAttributeValues()))
                .isEqualTo("(attribute_exists(pk)) AND ((attribute_not_exists(_expiresAt)) OR (_expiresAt > " + SECONDS + "))");
    }

    @Test
    void aFailedConditionOnAnExpiredItemIsNotFoundAndShowsNothingWhileALiveOneIsAConflict() {
        var delete = WriteAction.deleteItem(KEY, Expectation.ifMatch(3L).live(NOW), "Reservation#h1");
        assertThat(delete.explainFailure(item(SECONDS, 3))).isInstanceOf(CairnError.NotFound.class);
        assertThat(delete.explainFailure(item(SECONDS + 1, 4))).isInstanceOf(CairnError.VersionConflict.class);
        var create = WriteAction.putItem(KEY, item(SECONDS + 60, 1), Expectation.ABSENT.live(NOW), "Reservation#h1");
        assertThat(create.explainFailure(item(SECONDS + 1, 1)))
                .isInstanceOfSatisfying(CairnError.Conflict.class, c -> assertThat(c.found()).isNotNull());
    }
}
