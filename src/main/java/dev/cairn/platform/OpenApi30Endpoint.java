package dev.cairn.platform;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.smallrye.openapi.runtime.OpenApiConstants;
import io.quarkus.smallrye.openapi.runtime.OpenApiDocumentService;
import io.quarkus.vertx.http.ManagementInterface;
import io.smallrye.openapi.runtime.io.Format;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Serves {@link OpenApi30Rendition} of the API document at {@code /q/openapi-3.0} on the management interface, beside
 * {@code /q/openapi}, as JSON. It is made from the very bytes {@code /q/openapi} serves, on the first request, and
 * kept: the document does not change while the application runs.
 */
@ApplicationScoped
public class OpenApi30Endpoint {

    public static final String PATH = "openapi-3.0";

    @Inject
    OpenApiDocumentService documents;

    /** Its own mapper: the application's may be configured for API bodies (a document's nulls must stay). */
    private static final ObjectMapper JSON = new ObjectMapper();

    @ConfigProperty(name = "quarkus.management.root-path", defaultValue = "/q")
    String managementRoot;

    private volatile byte[] rendition;

    void register(@Observes ManagementInterface management) {
        String root = managementRoot.endsWith("/") ? managementRoot : managementRoot + "/";
        // A worker thread: the first request converts the whole document (tens of milliseconds).
        management.router().route(root + PATH).method(HttpMethod.GET).method(HttpMethod.HEAD)
                .blockingHandler(this::serve, false);
    }

    private void serve(RoutingContext context) {
        try {
            byte[] body = rendition();
            context.response().putHeader("Content-Type", "application/json;charset=UTF-8").end(Buffer.buffer(body));
        } catch (Exception e) {
            context.fail(500, e);
        }
    }

    byte[] rendition() throws Exception {
        byte[] cached = rendition;
        if (cached == null) {
            synchronized (this) {
                cached = rendition;
                if (cached == null) {
                    var served = JSON.readTree(documents.getDocument(OpenApiConstants.DEFAULT_DOCUMENT_NAME, Format.JSON));
                    cached = JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(OpenApi30Rendition.of(served));
                    rendition = cached;
                }
            }
        }
        return cached;
    }
}
