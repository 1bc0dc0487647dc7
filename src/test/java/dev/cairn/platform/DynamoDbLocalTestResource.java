package dev.cairn.platform;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;

import java.util.Map;

/**
 * ONE in-memory DynamoDB Local on an ephemeral 127.0.0.1 port, shared by every {@code @QuarkusTest} class.
 */
@WithTestResource(value = DynamoDbLocalTestResource.class, scope = TestResourceScope.GLOBAL)
public class DynamoDbLocalTestResource implements QuarkusTestResourceLifecycleManager {

    private EmbeddedDynamoDb dynamoDb;

    @Override
    public Map<String, String> start() {
        try {
            dynamoDb = EmbeddedDynamoDb.start(0, null);
        } catch (Exception e) {
            throw new IllegalStateException("DynamoDB Local did not start", e);
        }
        return Map.of("quarkus.dynamodb.endpoint-override", dynamoDb.endpoint());
    }

    @Override
    public void stop() {
        try {
            if (dynamoDb != null) {
                dynamoDb.close();
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
