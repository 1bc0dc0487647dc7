package dev.cairn.core.lease;

import dev.cairn.core.expr.Condition;
import dev.cairn.core.expr.Update;
import dev.cairn.core.item.Timestamps;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.write.WriteAction.Expectation;
import dev.cairn.core.write.WriteAction;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.Map;

/**
 * An owner's time-limited claim on one item (a job record, an aggregate root): the ONE lease protocol of Cairn.
 * A lease is two attributes, the owner token and the expiry in epoch milliseconds (a number, so expiry compares
 * correctly inside a condition). Every step is a conditional write, so a stale owner can never act:
 * <ul>
 *   <li>{@link #claim}: succeeds when nobody holds the item, the holder's lease has expired, or we hold it already;</li>
 *   <li>{@link #renew} and {@link #release}: only while we hold it;</li>
 *   <li>{@link #guard}: a condition check that rides in a transaction, so the transaction commits only while we hold it.</li>
 * </ul>
 * A takeover after expiry is a claim; the old owner's next guarded write then fails.
 */
public record Lease(String owner, Instant until) {

    public static final String OWNER = "_lease";
    public static final String UNTIL = "_leaseUntil";

    /** The lease an item carries, or null when it carries none. */
    public static Lease of(Map<String, AttributeValue> item) {
        AttributeValue owner = item == null ? null : item.get(OWNER);
        if (owner == null || owner.s() == null) {
            return null;
        }
        return new Lease(owner.s(), untilOf(item.get(UNTIL)));
    }

    private static Instant untilOf(AttributeValue value) {
        if (value == null) {
            return Instant.EPOCH;
        }
        if (value.n() != null) {
            return Instant.ofEpochMilli(Long.parseLong(value.n()));
        }
        // Written by versions before the lease became a number: ISO-8601.
        return value.s() == null ? Instant.EPOCH : Timestamps.instant(value.s());
    }

    public boolean expiredAt(Instant now) {
        return !until.isAfter(now);
    }

    public boolean heldBy(String token) {
        return owner.equals(token);
    }

    /** The item is free to claim: no lease, or an expired one. */
    public static Condition freeAt(Instant now) {
        return Condition.attributeNotExists(OWNER).or(Condition.lt(UNTIL, millis(now)));
    }

    /** The item is under our lease. */
    public static Condition ownedBy(String token) {
        return Condition.eq(OWNER, AttributeValue.fromS(token));
    }

    /** Attributes that put a fresh item under our lease (e.g. a job record or a root written by its creator). */
    public static Map<String, AttributeValue> attributes(String token, Instant until) {
        return Map.of(OWNER, AttributeValue.fromS(token), UNTIL, millis(until));
    }

    /** Takes the lease of an existing item when it is free, expired, or ours already. */
    public static WriteAction claim(String label, PrimaryKey key, String token, Instant now, Instant until, Update also) {
        return WriteAction.updateItem(key, set(also, token, until), Expectation.present(null), freeAt(now).or(ownedBy(token)), label);
    }

    /** Extends our lease (and writes {@code also}, e.g. a checkpoint, in the same request). */
    public static WriteAction renew(String label, PrimaryKey key, String token, Instant until, Update also) {
        return WriteAction.updateItem(key, set(also, token, until), Expectation.present(null), ownedBy(token), label);
    }

    /** Drops our lease (and writes {@code also} in the same request). */
    public static WriteAction release(String label, PrimaryKey key, String token, Update also) {
        Update update = (also == null ? Update.create() : also).remove(OWNER).remove(UNTIL);
        return WriteAction.updateItem(key, update, Expectation.present(null), ownedBy(token), label);
    }

    /** A condition check for a transaction: it commits only while we hold the lease. */
    public static WriteAction guard(String label, PrimaryKey key, String token) {
        return WriteAction.checkItem(key, Expectation.NONE, ownedBy(token), label);
    }

    public static AttributeValue millis(Instant instant) {
        return AttributeValue.fromN(Long.toString(instant.toEpochMilli()));
    }

    private static Update set(Update also, String token, Instant until) {
        return (also == null ? Update.create() : also).set(OWNER, AttributeValue.fromS(token)).set(UNTIL, millis(until));
    }
}
