package dev.cairn.platform;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;

import java.util.List;

/** Renders a CreateTableRequest in the AWS CLI's {@code --cli-input-json} shape. */
final class TableDefinitionJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private TableDefinitionJson() {
    }

    static ObjectNode render(CreateTableRequest request) {
        ObjectNode root = JSON.createObjectNode();
        root.put("TableName", request.tableName());
        root.put("BillingMode", request.billingModeAsString());
        ArrayNode definitions = root.putArray("AttributeDefinitions");
        request.attributeDefinitions().forEach(d -> definitions.addObject()
                .put("AttributeName", d.attributeName()).put("AttributeType", d.attributeTypeAsString()));
        keySchema(root.putArray("KeySchema"), request.keySchema());
        ArrayNode indexes = root.putArray("GlobalSecondaryIndexes");
        request.globalSecondaryIndexes().forEach(gsi -> {
            ObjectNode index = indexes.addObject().put("IndexName", gsi.indexName());
            keySchema(index.putArray("KeySchema"), gsi.keySchema());
            index.putObject("Projection").put("ProjectionType", gsi.projection().projectionTypeAsString());
        });
        return root;
    }

    private static void keySchema(ArrayNode target, List<KeySchemaElement> schema) {
        schema.forEach(k -> target.addObject().put("AttributeName", k.attributeName()).put("KeyType", k.keyTypeAsString()));
    }
}
