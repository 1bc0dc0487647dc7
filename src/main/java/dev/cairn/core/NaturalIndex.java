package dev.cairn.core;

import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A global secondary index keyed on the items' own attributes (DynamoDB's multi-attribute keys): up to four
 * attributes make its partition key and up to four its sort key, in order, with no synthetic key attribute written.
 * An item is in it only when it has every one of them with the declared type; one added to a table that already holds
 * items is filled from them by DynamoDB, with no backfill. Projection ALL, as every index of the table.
 */
public record NaturalIndex(String name, List<Attribute> partition, List<Attribute> sort) {

    /** The most attributes DynamoDB takes for either part of a key. */
    public static final int MAX_ATTRIBUTES = 4;

    /** DynamoDB's rule for index names. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{3,255}");

    /** One key attribute: a string (S) or a number (N), the only types a declared field can give a key. */
    public record Attribute(String name, boolean numeric) {

        public ScalarAttributeType type() {
            return numeric ? ScalarAttributeType.N : ScalarAttributeType.S;
        }
    }

    public NaturalIndex {
        partition = List.copyOf(partition);
        sort = List.copyOf(sort);
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("an index name has 3 to 255 letters, digits, '_', '-' or '.'");
        }
        if (TableSpec.Index.globalIndexes().stream().anyMatch(i -> i.indexName().equals(name))) {
            throw new IllegalArgumentException("'" + name + "' is one of the table's overloaded indexes (gsi1 to gsi4)");
        }
        if (partition.isEmpty() || partition.size() > MAX_ATTRIBUTES || sort.size() > MAX_ATTRIBUTES) {
            throw new IllegalArgumentException("an index key has 1 to " + MAX_ATTRIBUTES + " partition attributes and at most "
                    + MAX_ATTRIBUTES + " sort attributes");
        }
        var seen = new HashSet<String>();
        for (Attribute attribute : attributes(partition, sort)) {
            if (TableSpec.isReserved(attribute.name())) {
                throw new IllegalArgumentException("'" + attribute.name() + "' is a system attribute, not a key attribute");
            }
            if (!seen.add(attribute.name())) {
                throw new IllegalArgumentException("'" + attribute.name() + "' is named twice in one index key");
            }
        }
    }

    /** The partition attributes, then the sort attributes. */
    public List<Attribute> attributes() {
        return attributes(partition, sort);
    }

    private static List<Attribute> attributes(List<Attribute> partition, List<Attribute> sort) {
        var all = new ArrayList<Attribute>(partition);
        all.addAll(sort);
        return all;
    }

    /** The index as CreateTable and UpdateTable take it: HASH attributes then RANGE attributes, in declared order. */
    public GlobalSecondaryIndex definition() {
        return GlobalSecondaryIndex.builder().indexName(name).keySchema(keySchema())
                .projection(Projection.builder().projectionType(ProjectionType.ALL).build()).build();
    }

    public List<KeySchemaElement> keySchema() {
        var schema = new ArrayList<KeySchemaElement>();
        partition.forEach(a -> schema.add(KeySchemaElement.builder().attributeName(a.name()).keyType(KeyType.HASH).build()));
        sort.forEach(a -> schema.add(KeySchemaElement.builder().attributeName(a.name()).keyType(KeyType.RANGE).build()));
        return schema;
    }

    public List<AttributeDefinition> attributeDefinitions() {
        return attributes().stream().map(a -> AttributeDefinition.builder().attributeName(a.name())
                .attributeType(a.type()).build()).toList();
    }
}
