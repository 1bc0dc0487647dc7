package dev.cairn.core.query;

import dev.cairn.core.NaturalIndex;
import dev.cairn.core.expr.Placeholders;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The key condition of a Query on a {@link NaturalIndex}, by DynamoDB's rules for multi-attribute keys: every
 * partition attribute is equal to a value; the sort attributes are conditioned left to right, each with an equality,
 * and only the last one conditioned may take a range ({@code >=}, {@code <=}, or both: BETWEEN). A condition that
 * breaks a rule cannot be made (DynamoDB would refuse it with a 400).
 */
public record NaturalKeyCondition(NaturalIndex index, List<AttributeValue> partition, List<AttributeValue> sortEquals,
                                  AttributeValue from, AttributeValue to) {

    public NaturalKeyCondition {
        partition = List.copyOf(partition);
        sortEquals = List.copyOf(sortEquals);
        if (partition.size() != index.partition().size()) {
            throw new IllegalArgumentException("every partition attribute of " + index.name() + " needs a value");
        }
        if (sortEquals.size() > index.sort().size()) {
            throw new IllegalArgumentException(index.name() + " has " + index.sort().size() + " sort attributes");
        }
        if ((from != null || to != null) && sortEquals.size() >= index.sort().size()) {
            throw new IllegalArgumentException("a range takes the sort attribute after the equal ones, and "
                    + index.name() + " has no sort attribute left");
        }
    }

    /** Every partition attribute equal, no sort condition. */
    public static NaturalKeyCondition partition(NaturalIndex index, List<AttributeValue> partition) {
        return new NaturalKeyCondition(index, partition, List.of(), null, null);
    }

    /** {@code a = :v0 AND b = :v1 AND c = :v2 AND d BETWEEN :v3 AND :v4}, in key schema order. */
    public String render(Placeholders p) {
        var parts = new ArrayList<String>();
        for (int i = 0; i < partition.size(); i++) {
            parts.add(p.name(index.partition().get(i).name()) + " = " + p.value(partition.get(i)));
        }
        for (int i = 0; i < sortEquals.size(); i++) {
            parts.add(p.name(index.sort().get(i).name()) + " = " + p.value(sortEquals.get(i)));
        }
        if (from != null || to != null) {
            String name = p.name(index.sort().get(sortEquals.size()).name());
            parts.add(from != null && to != null ? name + " BETWEEN " + p.value(from) + " AND " + p.value(to)
                    : from != null ? name + " >= " + p.value(from) : name + " <= " + p.value(to));
        }
        return String.join(" AND ", parts);
    }

    /** Adds the index's key attributes of an item to the start key that continues after it. */
    void addKeyOf(Map<String, AttributeValue> item, Map<String, AttributeValue> key) {
        index.attributes().forEach(a -> key.put(a.name(), item.get(a.name())));
    }
}
