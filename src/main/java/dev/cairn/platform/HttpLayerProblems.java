package dev.cairn.platform;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.core.CairnError;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.MDC;


/**
 * Answers a request refused on the HTTP layer's routes, before any resource ran (see {@link BodyLimit}), like every
 * other refusal: a problem+json with the request id and the diagnostics headers.
 *
 * <p>What Cairn cannot reach: a path or query with a malformed percent-escape (Vert.x fails it while matching routes,
 * before any handler), a request line or header block over the decoder's limits (414, 431), a request head the
 * decoder cannot read (400), and a chunked body cut off while it is read (413). The OpenAPI document lists them as
 * the answers without a body or headers.
 */
@ApplicationScoped
public class HttpLayerProblems {

    /**
     * The refusals of the HTTP layer's own routes (the body handler cutting a chunked body off past the limit, a
     * request it cannot read) as problem+json, ahead of Quarkus' failure handler, which would answer them bare and
     * log them as errors. A failure of any other status goes on to it.
     */
    void install(@Observes Router router, ObjectMapper json, CairnConfig config) {
        boolean diagnostics = config.diagnostics().headers();
        router.route().order(Integer.MIN_VALUE).failureHandler(ctx -> {
            CairnError error = switch (ctx.statusCode()) {
                case 400 -> new CairnError.MalformedRequest("the request could not be read");
                case 413 -> new CairnError.PayloadTooLarge("the request body is larger than the service accepts");
                case 414 -> new CairnError.UriTooLong("the request line (path and query) is longer than the service reads");
                case 431 -> new CairnError.HeadersTooLarge("the request's headers are larger than the service reads");
                default -> null;
            };
            if (error == null) {
                ctx.next();
            } else {
                refuse(ctx, error, json, diagnostics);
            }
        });
    }

    private static void refuse(RoutingContext ctx, CairnError error, ObjectMapper json, boolean diagnostics) {
        if (ctx.response().headWritten() || ctx.response().closed()) {
            return; // answered already (or the client is gone): nothing more to say
        }
        write(ctx, error, json, diagnostics);
    }

    /** Writes {@code error} as a problem+json with the standard headers (also used by {@link BodyLimit}). */
    static void write(RoutingContext ctx, CairnError error, ObjectMapper json, boolean diagnostics) {
        String path = ctx.request().path();
        String id = DiagnosticsFilter.requestId(ctx.request().getHeader(DiagnosticsFilter.REQUEST_ID));
        MDC.put("requestId", id);
        ProblemMapper.logRejected(path, error);
        String body;
        try {
            body = json.writeValueAsString(ProblemMapper.body(error, path));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        var response = ctx.response().setStatusCode(error.status())
                .putHeader(HttpHeaderNames.CONTENT_TYPE, ProblemMapper.PROBLEM_JSON);
        DiagnosticsFilter.unservedHeaders(id, diagnostics, error.status()).forEach(response::putHeader);
        if (error instanceof CairnError.ServiceUnavailable unavailable) {
            response.putHeader("Retry-After", Integer.toString(Math.max(1, unavailable.retryAfterSeconds())));
        }
        response.end(body);
    }
}
