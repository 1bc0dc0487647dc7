package dev.cairn.platform;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * DynamoDB Local as a process of its own, on 127.0.0.1: the endpoint the suite is pointed at by configuration alone
 * ({@code -Dtest.dynamodb.endpoint=...}, see {@code .ci/external-endpoint-check}). Args: port, data directory.
 * Runs until it is stopped.
 */
public final class StandaloneDynamoDb {

    private StandaloneDynamoDb() {
    }

    public static void main(String[] args) throws Exception {
        EmbeddedDynamoDb dynamoDb = EmbeddedDynamoDb.start(Integer.parseInt(args[0]), Path.of(args[1]));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                dynamoDb.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }));
        System.out.println("DynamoDB Local listening on " + dynamoDb.endpoint() + ", data in " + args[1]);
        new CountDownLatch(1).await();
    }
}
