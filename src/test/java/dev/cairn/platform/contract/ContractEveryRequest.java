package dev.cairn.platform.contract;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.callback.QuarkusTestBeforeEachCallback;
import io.quarkus.test.junit.callback.QuarkusTestMethodContext;
import dev.cairn.platform.Management;
import io.restassured.RestAssured;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * Before every {@code @QuarkusTest} method: every RestAssured exchange with the API is checked against the
 * OpenAPI document the application serves (read once per application start), so a status, header or body the
 * document does not describe fails the test that caused it.
 */
public class ContractEveryRequest implements QuarkusTestBeforeEachCallback {

    private static final int MANAGEMENT_PORT = Management.TEST_PORT;
    private static volatile OpenApiValidationFilter installed;
    private static volatile String servedBy;

    @Override
    public void beforeEach(QuarkusTestMethodContext context) {
        // The served document can differ between test profiles (a restart); re-read it when the app restarted.
        String app = Integer.toString(System.identityHashCode(Thread.currentThread().getContextClassLoader()));
        if (installed == null || !app.equals(servedBy)) {
            installed = new OpenApiValidationFilter(OpenApiContract.of(servedDocument()), MANAGEMENT_PORT);
            servedBy = app;
        }
        var filters = new java.util.ArrayList<>(RestAssured.filters());
        filters.removeIf(f -> f instanceof OpenApiValidationFilter);
        filters.add(installed);
        RestAssured.replaceFiltersWith(filters);
    }

    public static com.fasterxml.jackson.databind.JsonNode servedDocument() {
        try {
            // HTTP/1.1: left to itself the JDK client tries a cleartext HTTP/2 upgrade, and once in a while (seen in
            // a full run) it read the 1.1 answer to that upgrade as an HTTP/2 frame and failed.
            var answer = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(HttpRequest.newBuilder(
                    URI.create("http://localhost:" + MANAGEMENT_PORT + "/q/openapi?format=json")).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() != 200) {
                throw new IllegalStateException("the OpenAPI document answered " + answer.statusCode());
            }
            return new ObjectMapper().readTree(answer.body());
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the served OpenAPI document", e);
        }
    }
}
