package dev.cairn.platform;

import dev.cairn.core.TableSpec;
import dev.cairn.store.DynamoGateway;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

@QuarkusTest
class TableProvisioningResourceTest {

    @Inject
    DynamoGateway gateway;

    @Inject
    TableProvisioner provisioner;

    @Inject
    Catalog catalog;

    @Inject
    dev.cairn.declared.DeclaredModels models;

    @Test
    void theTableWasCreatedAtStartupExactlyAsDefinedInCode() {
        TableDescription table = describe();
        var expected = TableSpec.createTableRequest("cairn", catalog.naturalIndexes());
        assertThat(expected.globalSecondaryIndexes()).extracting(g -> g.indexName()).contains("loansByMemberStatus");
        assertThat(table.tableStatusAsString()).isEqualTo("ACTIVE");
        assertThat(table.keySchema()).containsExactlyElementsOf(expected.keySchema());
        assertThat(table.attributeDefinitions()).containsExactlyInAnyOrderElementsOf(expected.attributeDefinitions());
        assertThat(table.globalSecondaryIndexes()).extracting(g -> g.indexName() + " " + g.keySchema() + " " + g.projection())
                .containsExactlyInAnyOrderElementsOf(expected.globalSecondaryIndexes().stream()
                        .map(g -> g.indexName() + " " + g.keySchema() + " " + g.projection()).toList());
        assertThat(table.hasLocalSecondaryIndexes()).isFalse();
    }

    @Test
    void provisioningAgainIsIdempotent() {
        provisioner.ensureTable("cairn").await().atMost(Duration.ofSeconds(10));
        assertThat(describe().tableStatusAsString()).isEqualTo("ACTIVE");
    }

    @Test
    void aTableOfAnOlderReleaseGetsTheIndexesItLacks() {
        String table = "older-" + java.util.UUID.randomUUID();
        var current = TableSpec.createTableRequest(table, catalog.naturalIndexes());
        // What release 1 created: only gsi1 and gsi2.
        var older = current.toBuilder()
                .attributeDefinitions(current.attributeDefinitions().stream()
                                .filter(a -> a.attributeName().equals("pk") || a.attributeName().equals("sk")
                                || a.attributeName().startsWith("gsi1") || a.attributeName().startsWith("gsi2")).toList())
                .globalSecondaryIndexes(current.globalSecondaryIndexes().subList(0, 2)).build();
        gateway.createTable(older).await().atMost(Duration.ofSeconds(10));
        provisioner.ensureTable(table).await().atMost(Duration.ofSeconds(30));
        TableDescription upgraded = describe(table);
        assertThat(upgraded.globalSecondaryIndexes()).extracting(g -> g.indexName() + " " + g.indexStatusAsString())
                .containsExactlyInAnyOrder("gsi1 ACTIVE", "gsi2 ACTIVE", "gsi3 ACTIVE", "gsi4 ACTIVE", "loansByMemberStatus ACTIVE");
        assertThat(upgraded.attributeDefinitions()).containsExactlyInAnyOrderElementsOf(current.attributeDefinitions());
    }

    /**
     * A natural index added to a table that already holds items lists them at once: no key attribute was ever written
     * for it, so nothing is backfilled — DynamoDB fills the new index from the items' own attributes. (NaturalIndexAddedIT
     * shows the same through the packaged app's listing route.)
     */
    @Test
    void aNaturalIndexAddedToAPopulatedTableListsTheItemsAlreadyThereWithoutABackfill() {
        String table = "populated-" + java.util.UUID.randomUUID();
        gateway.createTable(TableSpec.createTableRequest(table)).await().atMost(Duration.ofSeconds(10));
        var loan = models.plan().entity("Loan");
        var now = java.time.Instant.now();
        for (String[] l : java.util.List.of(new String[]{"L1", "2026-12-20", "out"}, new String[]{"L2", "2026-12-10", "out"},
                new String[]{"L3", "2026-12-15", "returned"})) {
            var item = loan.spec().toItem(new dev.cairn.core.model.Doc(java.util.Map.of("memberId", "m1", "loanId", l[0],
                    "bookId", "b1", "due", l[1], "status", l[2], "renewals", 0L)), 1, now, now);
            gateway.putItem(software.amazon.awssdk.services.dynamodb.model.PutItemRequest.builder().tableName(table)
                    .item(item).build(), dev.cairn.store.SdkErrors::translate).await().atMost(Duration.ofSeconds(10));
        }
        assertThat(describe(table).globalSecondaryIndexes()).extracting(g -> g.indexName()).doesNotContain("loansByMemberStatus");

        provisioner.ensureTable(table).await().atMost(Duration.ofSeconds(30));

        var index = loan.model().indexes().get(0);
        var query = loan.naturalQuery(index, java.util.Map.of("memberId", "m1", "status", "out"), name -> null, 20, false);
        var listed = gateway.query(query.toRequest(table, null)).await().atMost(Duration.ofSeconds(10)).items();
        assertThat(listed).extracting(i -> i.get("due").s()).containsExactly("2026-12-10", "2026-12-20");
        assertThat(listed).allMatch(i -> i.get("_version").n().equals("1"));
    }

    private TableDescription describe() {
        return describe("cairn");
    }

    private TableDescription describe(String name) {
        return gateway.describeTable(DescribeTableRequest.builder().tableName(name).build())
                .await().atMost(Duration.ofSeconds(10)).table();
    }
}
