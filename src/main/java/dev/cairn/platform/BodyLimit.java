package dev.cairn.platform;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.core.CairnError;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A body declared larger than {@code quarkus.http.limits.max-body-size} is refused with a problem+json 413 before
 * it is read, the same way the HTTP layer refuses it (Connection: close, the connection closed once the answer is
 * out, so a client still sending is not left waiting) but with a body that says why. Chunked bodies without a
 * length are still cut off by the HTTP layer's own 413.
 */
@ApplicationScoped
public class BodyLimit {

    void install(@Observes Router router, ObjectMapper json,
                 @ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize limit) throws JsonProcessingException {
        long max = limit.asLongValue();
        var error = new CairnError.PayloadTooLarge("the request body is larger than " + max + " bytes");
        router.route().order(RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT - 1).handler(ctx -> {
            String length = ctx.request().getHeader(HttpHeaderNames.CONTENT_LENGTH);
            long declared;
            try {
                declared = length == null ? -1 : Long.parseLong(length.trim());
            } catch (NumberFormatException e) {
                declared = -1; // the HTTP layer answers a malformed length itself
            }
            if (declared <= max) {
                ctx.next();
                return;
            }
            String path = ctx.request().path();
            ProblemMapper.logRejected(path, error);
            String body;
            try {
                body = json.writeValueAsString(ProblemMapper.body(error, path));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
            var response = ctx.response();
            response.setStatusCode(413)
                    .putHeader(HttpHeaderNames.CONTENT_TYPE, ProblemMapper.PROBLEM_JSON)
                    .putHeader(HttpHeaderNames.CONNECTION, "close")
                    .endHandler(done -> ctx.request().connection().close());
            response.end(body);
        });
    }
}
