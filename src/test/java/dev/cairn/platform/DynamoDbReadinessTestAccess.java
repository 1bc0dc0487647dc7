package dev.cairn.platform;

import dev.cairn.store.DynamoGateway;

/** Lets tests of other packages build the readiness check over a gateway of their own. */
public final class DynamoDbReadinessTestAccess {

    private DynamoDbReadinessTestAccess() {
    }

    public static DynamoDbReadiness readiness(DynamoGateway gateway) {
        return new DynamoDbReadiness(gateway, TestConfig.readinessConfig());
    }
}
