package dev.cairn.core.key;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.TableSpec;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/** A table item's key. Construction enforces DynamoDB's key size limits, so an oversized id is bad input (400). */
public record PrimaryKey(String pk, String sk) {

    public static final int MAX_PARTITION_KEY_BYTES = 2048;
    public static final int MAX_SORT_KEY_BYTES = 1024;

    public PrimaryKey {
        requireWithin("partition key", pk, MAX_PARTITION_KEY_BYTES);
        requireWithin("sort key", sk, MAX_SORT_KEY_BYTES);
    }

    public static PrimaryKey of(String pk, String sk) {
        return new PrimaryKey(pk, sk);
    }

    public static PrimaryKey from(Map<String, AttributeValue> item) {
        return new PrimaryKey(item.get(TableSpec.PK).s(), item.get(TableSpec.SK).s());
    }

    public Map<String, AttributeValue> toAttributes() {
        return Map.of(TableSpec.PK, AttributeValue.fromS(pk), TableSpec.SK, AttributeValue.fromS(sk));
    }

    /** Checks a key value against a DynamoDB key size limit; an empty key is rejected too. */
    public static void requireWithin(String what, String value, int maxBytes) {
        if (value == null || value.isEmpty()) {
            throw new CairnException(CairnError.ValidationFailed.of(what, "must not be empty"));
        }
        // Quick path: a UTF-8 character takes at most 3 bytes per UTF-16 char.
        if (value.length() * 3 > maxBytes && value.getBytes(StandardCharsets.UTF_8).length > maxBytes) {
            throw new CairnException(CairnError.ValidationFailed.of("id",
                    "too long: the " + what + " it produces exceeds DynamoDB's " + maxBytes + "-byte limit"));
        }
    }

    @Override
    public String toString() {
        return pk + " / " + sk;
    }
}
