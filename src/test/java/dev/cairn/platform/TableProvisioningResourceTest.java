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

    @Test
    void theTableWasCreatedAtStartupExactlyAsDefinedInCode() {
        TableDescription table = describe();
        var expected = TableSpec.createTableRequest("cairn");
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
        var current = TableSpec.createTableRequest(table);
        // What release 1 created: only gsi1 and gsi2.
        var older = current.toBuilder()
                .attributeDefinitions(current.attributeDefinitions().stream()
                        .filter(a -> !a.attributeName().startsWith("gsi3") && !a.attributeName().startsWith("gsi4")).toList())
                .globalSecondaryIndexes(current.globalSecondaryIndexes().subList(0, 2)).build();
        gateway.createTable(older).await().atMost(Duration.ofSeconds(10));
        provisioner.ensureTable(table).await().atMost(Duration.ofSeconds(30));
        TableDescription upgraded = describe(table);
        assertThat(upgraded.globalSecondaryIndexes()).extracting(g -> g.indexName() + " " + g.indexStatusAsString())
                .containsExactlyInAnyOrder("gsi1 ACTIVE", "gsi2 ACTIVE", "gsi3 ACTIVE", "gsi4 ACTIVE");
        assertThat(upgraded.attributeDefinitions()).containsExactlyInAnyOrderElementsOf(current.attributeDefinitions());
    }

    private TableDescription describe() {
        return describe("cairn");
    }

    private TableDescription describe(String name) {
        return gateway.describeTable(DescribeTableRequest.builder().tableName(name).build())
                .await().atMost(Duration.ofSeconds(10)).table();
    }
}
