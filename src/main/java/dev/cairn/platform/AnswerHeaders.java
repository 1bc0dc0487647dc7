package dev.cairn.platform;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.HttpHeaders;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import java.net.URI;
import java.util.Map;

/**
 * What every answer of the API says about itself, in ONE place: it is not to be stored by caches (answers are one
 * caller's data, read under its token) nor sniffed as another type; and a {@code Location} is a path on this
 * service, never an absolute URL built from the request's {@code Host} header (which the client chose, so a link
 * built from it could point anywhere). The HTTP layer's own refusals carry the same headers
 * ({@link DiagnosticsFilter#unservedHeaders}).
 */
public class AnswerHeaders {

    static final Map<String, String> FIXED = Map.of("Cache-Control", "no-store", "X-Content-Type-Options", "nosniff");

    @ServerResponseFilter
    public void headers(ContainerRequestContext request, ContainerResponseContext response) {
        var headers = response.getHeaders();
        FIXED.forEach((name, value) -> {
            if (!headers.containsKey(name)) {
                headers.putSingle(name, value);
            }
        });
        Object location = headers.getFirst(HttpHeaders.LOCATION);
        if (location != null) {
            headers.putSingle(HttpHeaders.LOCATION, pathOf(location));
        }
    }

    /** The path (and query) of a URI reference, as sent: no scheme, no host, the escapes kept. */
    static String pathOf(Object location) {
        URI uri = location instanceof URI given ? given : URI.create(location.toString());
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
    }
}
