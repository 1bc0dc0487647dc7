package dev.cairn.platform.console;

import dev.cairn.core.expr.builder.ReservedWords;
import io.quarkus.test.junit.QuarkusTest;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The builder's reserved words are DynamoDB's: the engine refuses each of them written bare (but two, below), and a
 * plain name not.
 */
@QuarkusTest
class ReservedWordsMatchDynamoDbTest {

    @ConfigProperty(name = "quarkus.dynamodb.endpoint-override")
    String endpoint;

    @Test
    void dynamoDbRefusesEveryListedWordAsABareNameAndAcceptsAPlainOne() {
        try (var client = DynamoDbAsyncClient.builder().region(Region.US_EAST_1).endpointOverride(URI.create(endpoint))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"))).build()) {
            var words = new ArrayList<>(ReservedWords.all());
            words.sort(null);
            var refused = new ArrayList<String>();
            for (int from = 0; from < words.size(); from += 32) {
                var batch = words.subList(from, Math.min(words.size(), from + 32));
                var outcomes = batch.stream().map(word -> project(client, word.toLowerCase())).toList();
                for (int i = 0; i < batch.size(); i++) {
                    // A bare reserved word is refused as such, or, where the grammar uses it (AND, SET, …), as a syntax error.
                    String outcome = outcomes.get(i).join();
                    if (outcome.contains("reserved keyword") || outcome.contains("Syntax error")) {
                        refused.add(batch.get(i));
                    }
                }
            }
            // AWS's list is the authority (the builder escapes every name anyway); DynamoDB Local 2.6.1 lets these two
            // pass bare, which the real service does not promise: the test says so if that ever changes.
            var acceptedByLocal = List.of("CONVERT", "SIZE");
            assertThat(refused).containsExactlyElementsOf(words.stream().filter(w -> !acceptedByLocal.contains(w)).toList());
            assertThat(project(client, "title").join()).isEqualTo("accepted");
        }
    }

    /** A Query projecting the bare name: "accepted", or DynamoDB's message. */
    private static CompletableFuture<String> project(DynamoDbAsyncClient client, String name) {
        return client.query(r -> r.tableName("cairn").keyConditionExpression("#pk = :pk").projectionExpression(name)
                        .expressionAttributeNames(Map.of("#pk", "pk"))
                        .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS("RESERVED#probe"))).limit(1))
                .handle((response, failure) -> failure == null ? "accepted"
                        : failure instanceof CompletionException c && c.getCause() instanceof DynamoDbException d
                        ? d.awsErrorDetails().errorMessage() : String.valueOf(failure));
    }

}
