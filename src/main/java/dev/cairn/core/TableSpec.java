package dev.cairn.core;

import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import java.util.List;
import java.util.Set;

/**
 * The one table every entity lives in, defined once: generic {@code pk}/{@code sk} keys, two overloaded GSIs
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
        GSI2("gsi2", "gsi2pk", "gsi2sk");

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
    public static final Set<String> RESERVED = Set.of(PK, SK, "gsi1pk", "gsi1sk", "gsi2pk", "gsi2sk");

    private TableSpec() {
    }

    public static boolean isReserved(String attributeName) {
        return RESERVED.contains(attributeName) || attributeName.startsWith("_");
    }

    public static CreateTableRequest createTableRequest(String tableName) {
        return CreateTableRequest.builder()
                .tableName(tableName)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(List.of(
                        stringAttribute(PK), stringAttribute(SK),
                        stringAttribute(Index.GSI1.pkName()), stringAttribute(Index.GSI1.skName()),
                        stringAttribute(Index.GSI2.pkName()), stringAttribute(Index.GSI2.skName())))
                .keySchema(keySchema(PK, SK))
                .globalSecondaryIndexes(globalIndex(Index.GSI1), globalIndex(Index.GSI2))
                .build();
    }

    /** Finished jobs expire through the table's TTL on this attribute (epoch seconds). */
    public static final String EXPIRES_AT = "_expiresAt";

    public static software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveRequest timeToLiveRequest(String tableName) {
        return software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveRequest.builder().tableName(tableName)
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
