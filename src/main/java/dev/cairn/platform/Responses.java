package dev.cairn.platform;

import dev.cairn.core.entity.Stored;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.resteasy.reactive.RestResponse;

import java.net.URI;

/** Response shapes shared by resources: 201 with Location and ETag, 200 with ETag, 202 with Location and ETag, 204. */
public final class Responses {

    private Responses() {
    }

    public static <V> RestResponse<V> created(UriInfo uri, String id, Stored<?> stored, V body) {
        // The id as one path segment, every reserved character encoded ('/', '%', '?'): it reads back as itself.
        URI location = uri.getAbsolutePathBuilder().path("{id}").build(id);
        return RestResponse.ResponseBuilder.<V>created(location).entity(body).header("ETag", Http.etag(stored)).build();
    }

    public static <V> RestResponse<V> created(URI location, Stored<?> stored, V body) {
        return RestResponse.ResponseBuilder.<V>created(location).entity(body).header("ETag", Http.etag(stored)).build();
    }

    public static <V> RestResponse<V> ok(Stored<?> stored, V body) {
        return RestResponse.ResponseBuilder.ok(body).header("ETag", Http.etag(stored)).build();
    }

    /**
     * A change with a cascade: 200 with the ETag; or, while its cascade job goes on, 202 with the ETag and
     * {@code Location: /cascades/{job}} (see {@link dev.cairn.jobs.CascadeJobResource}).
     */
    public static <V> RestResponse<V> cascaded(Stored<?> stored, V body, String runningJob) {
        if (runningJob == null) {
            return ok(stored, body);
        }
        return RestResponse.ResponseBuilder.<V>accepted(body).location(URI.create("/cascades/" + runningJob))
                .header("ETag", Http.etag(stored)).build();
    }

    public static <V> RestResponse<V> noContent() {
        return RestResponse.noContent();
    }
}
