package dev.cairn.platform;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.core.CairnError;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A body declared larger than {@code quarkus.http.limits.max-body-size} is refused with a problem+json 413 before
 * it is read, the same way the HTTP layer refuses it (Connection: close) but with a body that says why, and without
 * the HTTP layer's race: a client already sending gets its body drained (bounded) so the answer is not lost to a
 * reset. A body sent without a length (chunked) is read here, up to the limit, before any resource runs: past it, the
 * request fails with 413 and {@link HttpLayerProblems} answers the problem (the resource would otherwise meet the
 * limit half-way through reading, when only a bare answer is still possible). Large bodies are admitted a few at a time
 * ({@link HeavyBodies}).
 */
@ApplicationScoped
public class BodyLimit {

    /** How much of a refused body is read and thrown away so that the client sees the answer. */
    static final long DRAIN_BYTES = 64L * 1024 * 1024;
    static final long DRAIN_MILLIS = 10_000;

    private final HeavyBodies heavy = HeavyBodies.forThisMachine();

    void install(@Observes Router router, ObjectMapper json, CairnConfig config,
                 @ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize limit) {
        long max = limit.asLongValue();
        boolean diagnostics = config.diagnostics().headers();
        var error = new CairnError.PayloadTooLarge("the request body is larger than " + max + " bytes");
        BodyHandler unsized = BodyHandler.create(false).setBodyLimit(max).setHandleFileUploads(false);
        var busy = new CairnError.ServiceUnavailable("too many requests with large bodies are waiting; retry shortly", 1);
        router.route().order(RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT - 1).handler(ctx -> {
            String length = ctx.request().getHeader(HttpHeaderNames.CONTENT_LENGTH);
            long declared;
            try {
                declared = length == null ? -1 : Long.parseLong(length.trim());
            } catch (NumberFormatException e) {
                declared = -1; // the HTTP layer answers a malformed length itself
            }
            boolean chunked = declared < 0 && length == null && ctx.request().headers().contains(HttpHeaderNames.TRANSFER_ENCODING);
            if (chunked || declared <= max && HeavyBodies.heavy(declared) && length != null) {
                heavy.admit(ctx, chunked ? () -> unsized.handle(ctx) : ctx::next,
                        refused -> HttpLayerProblems.write(refused, busy, json, diagnostics));
                return;
            }
            if (declared <= max) {
                ctx.next();
                return;
            }
            var request = ctx.request();
            var connection = request.connection();
            var response = ctx.response().putHeader(HttpHeaderNames.CONNECTION, "close");
            if ("100-continue".equalsIgnoreCase(request.getHeader(HttpHeaderNames.EXPECT))) {
                // the client waits for our word before sending: nothing to drain
                response.endHandler(done -> connection.close());
                HttpLayerProblems.write(ctx, error, json, diagnostics);
                return;
            }
            // The client is already sending. Closing now would answer its next segments with a reset, and a reset
            // can destroy our answer before the client reads it; so swallow what it sends (bounded in bytes and
            // time) and close once the body is in.
            var vertx = ctx.vertx();
            long deadline = vertx.setTimer(DRAIN_MILLIS, t -> connection.close());
            long[] drained = {0};
            request.handler(chunk -> {
                drained[0] += chunk.length();
                if (drained[0] > DRAIN_BYTES) {
                    vertx.cancelTimer(deadline);
                    connection.close();
                }
            });
            request.endHandler(end -> {
                vertx.cancelTimer(deadline);
                connection.close();
            });
            HttpLayerProblems.write(ctx, error, json, diagnostics);
            request.resume();
        });
    }
}
