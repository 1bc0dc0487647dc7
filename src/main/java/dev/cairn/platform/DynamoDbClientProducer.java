package dev.cairn.platform;

import dev.cairn.store.RetryBudget;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClientBuilder;

import java.util.concurrent.ScheduledExecutorService;

/**
 * The DynamoDB client: the extension's builder (endpoint, credentials, timeouts, interceptors, Netty, all from
 * {@code quarkus.dynamodb.*}) with Cairn's retry budget, which the extension has no setting for, and its timers on a
 * hashed wheel ({@link CallTimers}) whose due tasks run on Quarkus' worker pool.
 */
@ApplicationScoped
public class DynamoDbClientProducer {

    private CallTimers timers;

    @Produces
    @ApplicationScoped
    DynamoDbAsyncClient client(DynamoDbAsyncClientBuilder builder, ScheduledExecutorService workers) {
        timers = new CallTimers(workers);
        return builder.overrideConfiguration(RetryBudget.standard().applyTo(builder.overrideConfiguration()).toBuilder()
                .scheduledExecutorService(timers).build()).build();
    }

    void close(@Disposes DynamoDbAsyncClient client) {
        client.close();
        if (timers != null) {
            timers.shutdown();
        }
    }
}
