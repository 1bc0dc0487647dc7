package dev.cairn.platform;

import io.quarkus.test.junit.callback.QuarkusTestBeforeEachCallback;
import io.quarkus.test.junit.callback.QuarkusTestMethodContext;
import io.restassured.RestAssured;

/**
 * Before every {@code @QuarkusTest} method: RestAssured closes each connection once its answer is read. Left open, a
 * suite's connections pile up on the server until its idle timeout (60 s) frees them, and a stretch of tests that
 * make over a thousand requests a minute meets {@code quarkus.http.limits.max-connections} (1024): the server then
 * closes every new connection unanswered until old ones time out.
 */
public class ClosedTestConnections implements QuarkusTestBeforeEachCallback {

    @Override
    public void beforeEach(QuarkusTestMethodContext context) {
        var config = RestAssured.config();
        if (!config.getConnectionConfig().shouldCloseIdleConnectionsAfterEachResponse()) {
            RestAssured.config = config.connectionConfig(config.getConnectionConfig().closeIdleConnectionsAfterEachResponse());
        }
    }
}
