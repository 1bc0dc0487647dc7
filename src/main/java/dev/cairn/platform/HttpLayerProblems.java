package dev.cairn.platform;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.core.CairnError;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.vertx.ext.web.RoutingContext;
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
final class HttpLayerProblems {

    private HttpLayerProblems() {
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
        DiagnosticsFilter.unservedHeaders(id, diagnostics).forEach(response::putHeader);
        response.end(body);
    }
}
