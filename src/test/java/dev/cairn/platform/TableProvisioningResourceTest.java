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

    private TableDescription describe() {
        return gateway.describeTable(DescribeTableRequest.builder().tableName("cairn").build())
                .await().atMost(Duration.ofSeconds(10)).table();
    }
}
