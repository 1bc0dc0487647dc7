package dev.cairn.platform;

import io.restassured.specification.RequestSpecification;

import static io.restassured.RestAssured.given;

/** Requests to the management interface (health, metrics, API documents), which is not the public port. */
public final class Management {

    /** The management port in test mode (quarkus.management.test-port, which the build may set; Quarkus defaults to 9001). */
    public static final int TEST_PORT = Integer.getInteger("quarkus.management.test-port", 9001);

    private Management() {
    }

    public static RequestSpecification management() {
        return given().port(TEST_PORT);
    }
}
