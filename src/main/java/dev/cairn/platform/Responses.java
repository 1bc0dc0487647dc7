package dev.cairn.platform;

import dev.cairn.core.entity.Stored;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.resteasy.reactive.RestResponse;

import java.net.URI;

/** Response shapes shared by resources: 201 with Location and ETag, 200 with ETag, 204. */
public final class Responses {

    private Responses() {
    }

    public static <V> RestResponse<V> created(UriInfo uri, String id, Stored<?> stored, V body) {
        URI location = uri.getAbsolutePathBuilder().path(id).build();
        return RestResponse.ResponseBuilder.<V>created(location).entity(body).header("ETag", Http.etag(stored)).build();
    }

    public static <V> RestResponse<V> created(URI location, Stored<?> stored, V body) {
        return RestResponse.ResponseBuilder.<V>created(location).entity(body).header("ETag", Http.etag(stored)).build();
    }

    public static <V> RestResponse<V> ok(Stored<?> stored, V body) {
        return RestResponse.ResponseBuilder.ok(body).header("ETag", Http.etag(stored)).build();
    }

    public static <V> RestResponse<V> noContent() {
        return RestResponse.noContent();
    }
}
