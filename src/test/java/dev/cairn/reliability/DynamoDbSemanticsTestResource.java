package dev.cairn.reliability;

import dev.cairn.platform.DynamoDbLocalTestResource;
import dev.cairn.platform.EmbeddedDynamoDb;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

/**
 * For a test profile that disables the global test resources: its own in-memory DynamoDB Local with
 * {@link DynamoDbSemantics} in front. The app talks to the layer; a test's {@code DynamoDbSemantics} field gets
 * the layer, to switch its faults while the app runs.
 */
public class DynamoDbSemanticsTestResource implements QuarkusTestResourceLifecycleManager {

    private EmbeddedDynamoDb dynamoDb;
    private DynamoDbSemantics layer;

    @Override
    public Map<String, String> start() {
        try {
            dynamoDb = EmbeddedDynamoDb.start(0, null);
            layer = DynamoDbSemantics.start(dynamoDb.endpoint());
        } catch (Exception e) {
            throw new IllegalStateException("DynamoDB Local or the layer in front of it did not start", e);
        }
        return DynamoDbLocalTestResource.config(layer.endpoint());
    }

    @Override
    public void inject(TestInjector injector) {
        injector.injectIntoFields(layer, new TestInjector.MatchesType(DynamoDbSemantics.class));
    }

    @Override
    public void stop() {
        try {
            if (layer != null) {
                layer.close();
            }
            if (dynamoDb != null) {
                dynamoDb.close();
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
