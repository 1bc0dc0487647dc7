package dev.cairn.core.expr.builder;

import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the builder checks a spec against: the table's name, its key and each index's key (partition and sort
 * attributes, in order: DynamoDB allows several attributes per key on an index), the types of the key attributes, and
 * what the declared models say about other attributes (their type, and the entities that have them).
 */
public record TableShape(String table, Map<String, Target> targets, Map<String, AttributeType> keyTypes,
                         Map<String, Declared> attributes) {

    /** The name the base table goes by among the targets. */
    public static final String TABLE = "table";

    public record Target(String name, String indexName, List<String> partition, List<String> sort) {
        public boolean isKey(String attribute) {
            return partition.contains(attribute) || sort.contains(attribute);
        }

        public List<String> keys() {
            var out = new ArrayList<>(partition);
            out.addAll(sort);
            return out;
        }
    }

    /** An attribute of the declared models: its type and the entities declaring it. */
    public record Declared(AttributeType type, List<String> entities) {
    }

    public TableShape {
        targets = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(targets));
        keyTypes = Map.copyOf(keyTypes);
        attributes = Map.copyOf(attributes);
    }

    /** The table as it is created, its indexes by name. */
    public static TableShape of(CreateTableRequest table, Map<String, Declared> attributes) {
        var targets = new LinkedHashMap<String, Target>();
        targets.put(TABLE, target(TABLE, null, table.keySchema()));
        table.globalSecondaryIndexes().forEach(gsi -> targets.put(gsi.indexName(), target(gsi.indexName(), gsi.indexName(), gsi.keySchema())));
        table.localSecondaryIndexes().forEach(lsi -> targets.put(lsi.indexName(), target(lsi.indexName(), lsi.indexName(), lsi.keySchema())));
        var types = new LinkedHashMap<String, AttributeType>();
        table.attributeDefinitions().forEach(d -> types.put(d.attributeName(), AttributeType.valueOf(d.attributeTypeAsString())));
        return new TableShape(table.tableName(), targets, types, attributes);
    }

    private static Target target(String name, String indexName, List<KeySchemaElement> schema) {
        return new Target(name, indexName,
                schema.stream().filter(k -> k.keyType() == KeyType.HASH).map(KeySchemaElement::attributeName).toList(),
                schema.stream().filter(k -> k.keyType() == KeyType.RANGE).map(KeySchemaElement::attributeName).toList());
    }

    public Target base() {
        return targets.get(TABLE);
    }

    /** The declared type of an attribute: a key's, else the models', else null. */
    public AttributeType typeOf(String attribute) {
        AttributeType key = keyTypes.get(attribute);
        if (key != null) {
            return key;
        }
        Declared declared = attributes.get(attribute);
        return declared == null ? null : declared.type();
    }
}
