package dev.cairn.declared;

import dev.cairn.declared.DeclaredAggregates.Versioned;
import dev.cairn.declared.DeclaredRoutes.Match;
import dev.cairn.platform.Http;
import dev.cairn.platform.MergePatcher;
import dev.cairn.platform.Responses;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * The HTTP side of the declared aggregates' routes ({@link DeclaredResource} hands them over once matched): path ids
 * checked as every id, If-Match read, and the answers — 201 with {@code Location} and {@code ETag} for a create, the
 * aggregate and its version as {@code ETag} for a read or a change, 204 for a delete, pages for the lists.
 */
@ApplicationScoped
public class AggregateRoutes {

    @Inject DeclaredAggregates aggregates;

    Uni<RestResponse<Object>> post(Match match, UriInfo uri, String body) {
        var aggregate = match.route().aggregate();
        return aggregates.create(aggregate, body).map(created -> RestResponse.ResponseBuilder
                .<Object>created(uri.getAbsolutePathBuilder().path((String) created.view().get(aggregate.aggregate().idField())).build())
                .entity(created.view()).header("ETag", etag(created)).build());
    }

    Uni<RestResponse<Object>> get(Match match, String limit, String cursor) {
        var route = match.route();
        var aggregate = route.aggregate();
        String key = id(match);
        return switch (route.action()) {
            case AGGREGATE_GET -> aggregates.find(aggregate, key).map(AggregateRoutes::ok);
            case AGGREGATE_LIST -> aggregates.list(aggregate, route.member(), key, Http.limit(limit), cursor)
                    .map(RestResponse::ok);
            case AGGREGATE_APPEARANCES -> aggregates.appearances(aggregate, route.member(), key, Http.limit(limit), cursor)
                    .map(RestResponse::ok);
            case AGGREGATE_DELETED -> aggregates.deleted(aggregate, Http.limit(limit), cursor).map(RestResponse::ok);
            case AGGREGATE_VERSIONS -> aggregates.versions(aggregate, key, Http.limit(limit), cursor).map(RestResponse::ok);
            // the second parameter is the version's number (a 400 when it is not one)
            case AGGREGATE_VERSION -> aggregates.version(aggregate, key, Http.wholeNumber(DeclaredRoutes.VERSION_PARAMETER,
                    match.values().get(1), 1, Integer.MAX_VALUE)).map(AggregateRoutes::ok);
            default -> throw new IllegalStateException(route.action() + " is no aggregate read");
        };
    }

    Uni<RestResponse<Object>> put(Match match, String ifMatch, String body) {
        return aggregates.replace(match.route().aggregate(), id(match), Http.ifMatch(ifMatch), body).map(AggregateRoutes::ok);
    }

    /** A merge patch or a JSON Patch of the input shape; plain JSON is neither (415, as the operation documents). */
    Uni<RestResponse<Object>> patch(Match match, String ifMatch, String contentType, String body) {
        if (contentType == null || !(contentType.startsWith(Http.MERGE_PATCH_JSON) || contentType.startsWith(MergePatcher.JSON_PATCH))) {
            throw new NotSupportedException();
        }
        return aggregates.patch(match.route().aggregate(), id(match), Http.ifMatch(ifMatch), contentType, body)
                .map(AggregateRoutes::ok);
    }

    /** A delete (soft where declared), or the purge of a soft-deleted aggregate: 204 either way. */
    Uni<RestResponse<Void>> delete(Match match, String ifMatch) {
        var aggregate = match.route().aggregate();
        Uni<Void> done = match.route().action() == DeclaredRoutes.Action.AGGREGATE_PURGE
                ? aggregates.purge(aggregate, id(match), Http.ifMatch(ifMatch))
                : aggregates.delete(aggregate, id(match), Http.ifMatch(ifMatch));
        return done.map(nothing -> Responses.noContent());
    }

    /** A soft-deleted aggregate brought back: 200 with it and its new version as ETag. */
    Uni<RestResponse<Object>> restore(Match match, String ifMatch) {
        return aggregates.restore(match.route().aggregate(), id(match), Http.ifMatch(ifMatch)).map(AggregateRoutes::ok);
    }

    /** Where whole copies of an entity live: one Query of its ref index per page. */
    Uni<RestResponse<Object>> references(Match match, String limit, String cursor) {
        return aggregates.references(match.route().entity(), id(match), Http.limit(limit), cursor).map(RestResponse::ok);
    }

    /** The route's one path parameter (an aggregate's id, or the id a list is keyed by); null when it has none. */
    private static String id(Match match) {
        var names = match.route().parameters();
        return names.isEmpty() ? null : Http.id(names.get(0), match.values().get(0));
    }

    private static RestResponse<Object> ok(Versioned versioned) {
        return RestResponse.ResponseBuilder.<Object>ok(versioned.view()).header("ETag", etag(versioned)).build();
    }

    private static String etag(Versioned versioned) {
        return "\"" + versioned.version() + "\"";
    }
}
