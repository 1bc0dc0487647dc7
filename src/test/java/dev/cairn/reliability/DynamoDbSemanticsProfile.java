package dev.cairn.reliability;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.List;

/**
 * A test app on its own DynamoDB Local behind the {@link DynamoDbSemantics} layer (injected into the test's
 * {@code DynamoDbSemantics} field) instead of the suite's shared one; subclasses add their settings.
 */
public abstract class DynamoDbSemanticsProfile implements QuarkusTestProfile {

    @Override
    public boolean disableGlobalTestResources() {
        return true;
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(DynamoDbSemanticsTestResource.class));
    }
}
