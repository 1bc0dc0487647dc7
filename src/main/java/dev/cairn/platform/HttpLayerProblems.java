package dev.cairn.platform;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.core.CairnError;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.MDC;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Requests the HTTP layer would refuse before any resource sees them (a path or query with a bad percent-escape,
 * a route the router fails) are answered like every other refusal: a problem+json with the request id and the
 * diagnostics headers, instead of an empty body.
 *
 * <p>What cannot be reached from here: a request line or header block over the HTTP decoder's limits (414, 431), a
 * request head the decoder cannot read at all (400), and a chunked body cut off while it is read (413); Vert.x and
 * Quarkus answer those themselves. The OpenAPI document lists them as the answers without a body or headers.
 */
@ApplicationScoped
public class HttpLayerProblems {

    private final ObjectMapper json;
    private final boolean diagnostics;

    public HttpLayerProblems(ObjectMapper json, CairnConfig config) {
        this.json = json;
        this.diagnostics = config.diagnostics().headers();
    }

    void install(@Observes Router router) {
        // Before anything decodes the URI: a bad escape is refused here, where the answer is still ours to write.
        router.route().order(RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT - 2).handler(ctx -> {
            if (readable(ctx.request().uri())) {
                ctx.next();
            } else {
                write(ctx, new CairnError.MalformedRequest("the request's path or query has a bad percent-escape"),
                        json, diagnostics);
            }
        });
        // The router calls these only when no handler or failure handler has answered.
        for (int status : new int[]{400, 404, 405, 413, 414, 415, 431, 501}) {
            router.errorHandler(status, this::answer);
        }
    }

    private void answer(RoutingContext ctx) {
        var response = ctx.response();
        if (response.headWritten() || response.ended() || response.closed()) {
            return;
        }
        String path = ctx.request().path();
        CairnError error = switch (ctx.statusCode()) {
            case 404 -> new CairnError.NotFound("no resource at " + path);
            case 405, 501 -> new CairnError.MethodNotAllowed("this method is not allowed on " + path);
            case 413 -> new CairnError.PayloadTooLarge("the request body is too large");
            case 415 -> new CairnError.UnsupportedMediaType("the request's Content-Type is not supported here");
            case 414 -> new CairnError.MalformedRequest("the request's URI is too long");
            case 431 -> new CairnError.MalformedRequest("the request's headers are too large");
            default -> new CairnError.MalformedRequest("the request's path or query cannot be read (a bad percent-escape?)");
        };
        write(ctx, error, json, diagnostics);
    }

    /** Every {@code %} starts a two-digit hex escape, and what the escapes spell is UTF-8. */
    static boolean readable(String uri) {
        if (uri == null || uri.indexOf('%') < 0) {
            return true;
        }
        var bytes = new java.io.ByteArrayOutputStream(uri.length());
        for (int i = 0; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c != '%') {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                continue;
            }
            if (i + 2 >= uri.length() || Character.digit(uri.charAt(i + 1), 16) < 0 || Character.digit(uri.charAt(i + 2), 16) < 0) {
                return false;
            }
            bytes.write(Character.digit(uri.charAt(i + 1), 16) * 16 + Character.digit(uri.charAt(i + 2), 16));
            i += 2;
        }
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes.toByteArray()));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
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
