package dev.cairn.platform;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.core.TableSpec;
import dev.cairn.declared.ModelFiles;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class TableDefinitionTest {

    static final Path EXPORTED = Path.of("deploy/dynamodb/table.json");

    /** The table the model files shipped with Cairn need: the overloaded indexes and every declared natural one. */
    static CreateTableRequest shipped() {
        return TableSpec.createTableRequest("cairn", ModelFiles.plan(TableDefinitionTest.class.getClassLoader()).naturalIndexes());
    }

    @Test
    void exportedTableJsonMatchesTheTableDefinedInCode() throws Exception {
        JsonNode fromCode = TableDefinitionJson.render(shipped());
        if (Boolean.getBoolean("cairn.export-table")) {
            Files.writeString(EXPORTED, new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(fromCode) + "\n");
        }
        JsonNode exported = new ObjectMapper().readTree(Files.readString(EXPORTED));
        assertThat(exported).isEqualTo(fromCode);
    }

    @Test
    void theShippedModelsAddTheirNaturalIndexKeyedOnTheItemsOwnAttributes() {
        var natural = shipped().globalSecondaryIndexes().stream().filter(g -> g.indexName().equals("loansByMemberStatus"))
                .findFirst().orElseThrow();
        assertThat(natural.keySchema()).extracting(k -> k.attributeName() + ":" + k.keyTypeAsString())
                .containsExactly("memberId:HASH", "status:HASH", "due:RANGE");
        assertThat(shipped().attributeDefinitions()).extracting(a -> a.attributeName() + ":" + a.attributeTypeAsString())
                .contains("memberId:S", "status:S", "due:S");
    }

    @Test
    void tableHasGenericKeysFourOverloadedGsisAndNoLsi() {
        CreateTableRequest request = TableSpec.createTableRequest("cairn");
        assertThat(request.keySchema()).extracting(k -> k.attributeName() + ":" + k.keyTypeAsString())
                .containsExactly("pk:HASH", "sk:RANGE");
        assertThat(request.globalSecondaryIndexes()).extracting(g -> g.indexName() + "=" + g.keySchema().get(0).attributeName()
                        + "/" + g.keySchema().get(1).attributeName() + ":" + g.projection().projectionTypeAsString())
                .containsExactly("gsi1=gsi1pk/gsi1sk:ALL", "gsi2=gsi2pk/gsi2sk:ALL", "gsi3=gsi3pk/gsi3sk:ALL",
                        "gsi4=gsi4pk/gsi4sk:ALL");
        assertThat(request.hasLocalSecondaryIndexes()).isFalse();
        assertThat(request.billingModeAsString()).isEqualTo("PAY_PER_REQUEST");
    }
}
