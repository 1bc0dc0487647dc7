package dev.cairn.core;

import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveRequest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one table every entity lives in, defined once: generic {@code pk}/{@code sk} keys, four overloaded GSIs
 * with projection ALL, on-demand billing, and deliberately no LSI (an LSI caps every item collection at 10 GB
 * and cannot be added later). System attribute names start with {@code _} so no domain field can clash.
 */
public final class TableSpec {

    public static final String PK = "pk";
    public static final String SK = "sk";
    public static final String TYPE = "_type";
    public static final String VERSION = "_version";
    public static final String CREATED_AT = "_createdAt";
    public static final String UPDATED_AT = "_updatedAt";

    /** The global secondary indexes; {@link #TABLE} stands for the base table in queries. */
    public enum Index {
        TABLE(null, PK, SK),
        GSI1("gsi1", "gsi1pk", "gsi1sk"),
        GSI2("gsi2", "gsi2pk", "gsi2sk"),
        /** Lists of aggregate roots: a root has one key per index, and a match is on four lists. */
        GSI3("gsi3", "gsi3pk", "gsi3sk"),
        GSI4("gsi4", "gsi4pk", "gsi4sk");

        /** The global secondary indexes of the table, in creation order. */
        public static List<Index> globalIndexes() {
            return List.of(GSI1, GSI2, GSI3, GSI4);
        }

        private final String indexName;
        private final String pkName;
        private final String skName;

        Index(String indexName, String pkName, String skName) {
            this.indexName = indexName;
            this.pkName = pkName;
            this.skName = skName;
        }

        /** The DynamoDB index name, or null for the base table. */
        public String indexName() {
            return indexName;
        }

        public String pkName() {
            return pkName;
        }

        public String skName() {
            return skName;
        }
    }

    /** Attribute names a domain codec may never use. */
    public static final Set<String> RESERVED = Set.of(PK, SK, "gsi1pk", "gsi1sk", "gsi2pk", "gsi2sk", "gsi3pk", "gsi3sk",
            "gsi4pk", "gsi4sk");

    private TableSpec() {
    }

    /** The entity type an item says it holds (every item carries it). */
    public static String typeOf(Map<String, AttributeValue> item) {
        AttributeValue type = item.get(TYPE);
        return type == null ? null : type.s();
    }

    public static boolean isReserved(String attributeName) {
        return RESERVED.contains(attributeName) || attributeName.startsWith("_");
    }

    public static CreateTableRequest createTableRequest(String tableName) {
        return createTableRequest(tableName, List.of());
    }

    /**
     * The table with the overloaded indexes and the declared {@link NaturalIndex natural} ones (their attributes
     * defined once each: two indexes naming one attribute must give it one type).
     */
    public static CreateTableRequest createTableRequest(String tableName, List<NaturalIndex> natural) {
        var attributes = new LinkedHashMap<String, AttributeDefinition>();
        List.of(stringAttribute(PK), stringAttribute(SK)).forEach(a -> attributes.put(a.attributeName(), a));
        Index.globalIndexes().forEach(index -> indexAttributes(index).forEach(a -> attributes.put(a.attributeName(), a)));
        natural.forEach(index -> index.attributeDefinitions().forEach(a -> {
            AttributeDefinition before = attributes.putIfAbsent(a.attributeName(), a);
            if (before != null && before.attributeType() != a.attributeType()) {
                throw new IllegalArgumentException("attribute " + a.attributeName() + " is keyed as "
                        + before.attributeTypeAsString() + " and as " + a.attributeTypeAsString());
            }
        }));
        var indexes = new ArrayList<>(Index.globalIndexes().stream().map(TableSpec::globalIndex).toList());
        natural.forEach(index -> indexes.add(index.definition()));
        return CreateTableRequest.builder()
                .tableName(tableName)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(List.copyOf(attributes.values()))
                .keySchema(keySchema(PK, SK))
                .globalSecondaryIndexes(indexes)
                .build();
    }

    /**
     * Adds a declared natural index to a table that lacks it. DynamoDB fills it from the items already stored that
     * have its attributes: nothing to backfill, as no item carries a key written for it.
     */
    public static UpdateTableRequest addIndexRequest(String tableName, NaturalIndex index) {
        return UpdateTableRequest.builder().tableName(tableName)
                .attributeDefinitions(index.attributeDefinitions())
                .globalSecondaryIndexUpdates(u -> u.create(c -> c.indexName(index.name()).keySchema(index.keySchema())
                        .projection(Projection.builder().projectionType(ProjectionType.ALL).build())))
                .build();
    }

    /**
     * Adds one index a table made by an older release lacks (DynamoDB creates one GSI per UpdateTable and fills it
     * from the items already stored; items written before their index keys existed need a backfill).
     */
    public static UpdateTableRequest addIndexRequest(String tableName, Index index) {
        return UpdateTableRequest.builder().tableName(tableName)
                .attributeDefinitions(indexAttributes(index))
                .globalSecondaryIndexUpdates(u -> u.create(c -> c.indexName(index.indexName())
                        .keySchema(keySchema(index.pkName(), index.skName()))
                        .projection(Projection.builder().projectionType(ProjectionType.ALL).build())))
                .build();
    }

    private static List<AttributeDefinition> indexAttributes(Index index) {
        return List.of(stringAttribute(index.pkName()), stringAttribute(index.skName()));
    }

    /** Finished jobs expire through the table's TTL on this attribute (epoch seconds). */
    public static final String EXPIRES_AT = "_expiresAt";

    public static UpdateTimeToLiveRequest timeToLiveRequest(String tableName) {
        return UpdateTimeToLiveRequest.builder().tableName(tableName)
                .timeToLiveSpecification(t -> t.enabled(true).attributeName(EXPIRES_AT)).build();
    }

    private static GlobalSecondaryIndex globalIndex(Index index) {
        return GlobalSecondaryIndex.builder()
                .indexName(index.indexName())
                .keySchema(keySchema(index.pkName(), index.skName()))
                .projection(Projection.builder().projectionType(ProjectionType.ALL).build())
                .build();
    }

    private static List<KeySchemaElement> keySchema(String hash, String range) {
        return List.of(
                KeySchemaElement.builder().attributeName(hash).keyType(KeyType.HASH).build(),
                KeySchemaElement.builder().attributeName(range).keyType(KeyType.RANGE).build());
    }

    private static AttributeDefinition stringAttribute(String name) {
        return AttributeDefinition.builder().attributeName(name).attributeType(ScalarAttributeType.S).build();
    }
}
