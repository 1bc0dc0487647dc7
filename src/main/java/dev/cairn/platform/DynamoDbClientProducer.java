package dev.cairn.platform;

import dev.cairn.store.RetryBudget;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClientBuilder;

/**
 * The DynamoDB client: the extension's builder (endpoint, credentials, timeouts, interceptors, Netty, all from
 * {@code quarkus.dynamodb.*}) with Cairn's retry budget, which the extension has no setting for.
 */
@ApplicationScoped
public class DynamoDbClientProducer {

    @Produces
    @ApplicationScoped
    DynamoDbAsyncClient client(DynamoDbAsyncClientBuilder builder) {
        return builder.overrideConfiguration(RetryBudget.standard().applyTo(builder.overrideConfiguration())).build();
    }

    void close(@Disposes DynamoDbAsyncClient client) {
        client.close();
    }
}
