package dev.cairn.platform;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;

import java.util.Map;

/**
 * ONE in-memory DynamoDB Local on an ephemeral 127.0.0.1 port, shared by every {@code @QuarkusTest} class — or, with
 * {@value #EXTERNAL} set (e.g. {@code -Dtest.dynamodb.endpoint=http://127.0.0.1:8000}), whatever
 * DynamoDB-compatible endpoint that names, started by someone else: nothing is started then, and the tests' table is
 * created there.
 */
@WithTestResource(value = DynamoDbLocalTestResource.class, scope = TestResourceScope.GLOBAL)
public class DynamoDbLocalTestResource implements QuarkusTestResourceLifecycleManager {

    /** The system property that points the tests at an endpoint they do not start. */
    public static final String EXTERNAL = "test.dynamodb.endpoint";

    private EmbeddedDynamoDb dynamoDb;

    /** The endpoint named by {@value #EXTERNAL}, if any. */
    public static String external() {
        String endpoint = System.getProperty(EXTERNAL, "");
        return endpoint.isBlank() ? null : endpoint;
    }

    @Override
    public Map<String, String> start() {
        if (external() != null) {
            System.out.println("tests against the DynamoDB endpoint " + external() + " (" + EXTERNAL + "): none started");
            return config(external());
        }
        try {
            dynamoDb = EmbeddedDynamoDb.start(0, null);
        } catch (Exception e) {
            throw new IllegalStateException("DynamoDB Local did not start", e);
        }
        return config(dynamoDb.endpoint());
    }

    /** The app's configuration against a DynamoDB at this endpoint (also for resources that put a layer in front). */
    public static Map<String, String> config(String endpoint) {
        // The packaged app of the integration tests runs in the prod profile: give it what dev and test set.
        return Map.ofEntries(Map.entry("quarkus.dynamodb.endpoint-override", endpoint),
                Map.entry("mp.jwt.verify.publickey.location", TestTokens.PUBLIC_KEY_FILE.toUri().toString()),
                Map.entry("mp.jwt.verify.issuer", TestTokens.ISSUER),
                Map.entry("mp.jwt.verify.audiences", TestTokens.AUDIENCE),
                Map.entry("quarkus.management.port", String.valueOf(Management.TEST_PORT)),
                Map.entry("quarkus.dynamodb.aws.region", "us-east-1"),
                Map.entry("quarkus.dynamodb.aws.credentials.type", "static"),
                Map.entry("quarkus.dynamodb.aws.credentials.static-provider.access-key-id", "local"),
                Map.entry("quarkus.dynamodb.aws.credentials.static-provider.secret-access-key", "local"),
                Map.entry("cairn.table.create", "true"),
                Map.entry("cairn.cursor.secret", "integration-test-cursor-secret"));
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
