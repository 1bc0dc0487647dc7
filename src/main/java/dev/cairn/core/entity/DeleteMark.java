package dev.cairn.core.entity;

import dev.cairn.core.expr.Condition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.Map;

/**
 * The mark a referenced entity carries while it is being deleted: {@code _deleting}, the epoch millisecond until
 * which the delete holds it. The delete marks first, then looks for copies, then deletes only under its own mark;
 * a write that copies the entity sees a live mark as "gone" and its source guard fails under one, so no copy can be
 * committed between the delete's look and the delete itself. A mark left by a deleter that died simply expires.
 */
public final class DeleteMark {

    public static final String ATTRIBUTE = "_deleting";

    private DeleteMark() {
    }

    public static AttributeValue until(Instant until) {
        return AttributeValue.fromN(Long.toString(until.toEpochMilli()));
    }

    /** Whether the item is held by a delete now. */
    public static boolean live(Map<String, AttributeValue> item, Instant now) {
        AttributeValue mark = item == null ? null : item.get(ATTRIBUTE);
        return mark != null && mark.n() != null && Long.parseLong(mark.n()) > now.toEpochMilli();
    }

    /** No delete holds the item at {@code now}: no mark, or one that expired. */
    public static Condition absentOrExpired(Instant now) {
        return Condition.any(Condition.attributeNotExists(ATTRIBUTE), Condition.le(ATTRIBUTE, until(now)));
    }

    /** The item is held by exactly this mark, and it is still live at {@code now}. */
    public static Condition heldBy(AttributeValue mark, Instant now) {
        return Condition.all(Condition.eq(ATTRIBUTE, mark), Condition.gt(ATTRIBUTE, until(now)));
    }
}
