package dev.cairn.declared;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.declared.DeclaredRoutes.Action;
import dev.cairn.core.model.DeclaredEntity;
import dev.cairn.core.model.OperationModel.Op;
import dev.cairn.declared.DeclaredRoutes.Match;
import dev.cairn.declared.DeclaredService.Address;
import dev.cairn.platform.Http;
import dev.cairn.platform.MergePatcher;
import dev.cairn.platform.AllowedMethods;
import dev.cairn.platform.Responses;
import dev.cairn.platform.auth.Caller;
import dev.cairn.platform.auth.DeclaredAccess;
import dev.cairn.platform.auth.RoutesWithin;
import dev.cairn.service.CascadeService.Mode;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.impl.HttpServerRequestInternal;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.OPTIONS;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.RestResponse;

import java.util.LinkedHashSet;
import java.util.List;

/**
 * Serves every declared route (see {@link DeclaredRoutes}): one method per HTTP method, each one Uni chain from the
 * matched route to its use case in {@link DeclaredService}. Hand-written routes win over these (their paths have
 * literal segments), a path no model declares is a 404 and a declared path with another method a 405 with
 * {@code Allow}. The operations are documented from the models ({@link DeclaredOpenApi}), so this class is hidden.
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@RoutesWithin
public class DeclaredResource {

    /** Where quarkus-rest keeps the route template the HTTP metrics are tagged with. */
    private static final String URL_PATH_TEMPLATE = "UrlPathTemplate";

    @Inject DeclaredModels models;
    @Inject DeclaredService service;
    @Inject AggregateRoutes aggregates;
    @Inject DeclaredSoftDeletes softDeletes;

    @POST
    @Path("{path: .+}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(hidden = true)
    public Uni<RestResponse<Object>> post(@Context UriInfo uri, @Context RoutingContext context, String body) {
        Match match = match("POST", uri, context);
        if (match.route().aggregate() != null) {
            return aggregates.post(match, uri, body);
        }
        var entity = match.route().entity();
        return service.create(entity, address(match), body).map(stored -> match.route().atOwner()
                ? Responses.created(itemUri(uri, entity, stored.value()), stored, (Object) service.view(entity, stored))
                : Responses.created(uri, stored.value().text(entity.model().idField()), stored, (Object) service.view(entity, stored)))
                .onFailure().transform(e -> withCurrent(entity, e));
    }

    /**
     * A restore ({@code POST <item>/restore}) takes no body, so no Content-Type either (this path is more specific than
     * the create's, which needs JSON); a create posted to a collection that happens to end in {@code restore} is the
     * create it is, its body JSON.
     */
    @POST
    @Path("{path: .+}/restore")
    @Operation(hidden = true)
    public Uni<RestResponse<Object>> restore(@Context UriInfo uri, @Context RoutingContext context,
                                             @Context HttpHeaders headers, @RestHeader("If-Match") String ifMatch,
                                             String body) {
        Match match = match("POST", uri, context);
        if ((match.route().action() == Action.AGGREGATE_RESTORE || match.route().action() == Action.RESTORE)
                && body != null && !body.isBlank()) {
            // a restore brings back what was deleted, nothing else: a body would be silently ignored
            throw Http.invalid("body", "a restore takes no body");
        }
        if (match.route().action() == Action.AGGREGATE_RESTORE) {
            return aggregates.restore(match, ifMatch);
        }
        if (match.route().action() != Action.RESTORE) {
            if (headers.getMediaType() == null || !headers.getMediaType().isCompatible(MediaType.APPLICATION_JSON_TYPE)) {
                throw new jakarta.ws.rs.NotSupportedException();
            }
            return post(uri, context, body);
        }
        var entity = match.route().entity();
        return softDeletes.restore(entity, address(match), idParameter(match), Http.ifMatch(ifMatch))
                .map(stored -> Responses.ok(stored, (Object) service.view(entity, stored)))
                .onFailure().transform(e -> withCurrent(entity, e));
    }

    @GET
    @Path("{path: .+}")
    @Operation(hidden = true)
    public Uni<RestResponse<Object>> get(@Context UriInfo uri, @Context RoutingContext context, @RestQuery String limit,
                                         @RestQuery String cursor, @RestQuery String include) {
        Match match = match("GET", uri, context);
        var route = match.route();
        if (route.aggregate() != null) {
            return aggregates.get(match, limit, cursor);
        }
        if (route.action() == Action.REFERENCES) {
            return aggregates.references(match, limit, cursor);
        }
        var entity = route.entity();
        // A natural listing's path values are its fields' values, read by their rules: not ids.
        List<String> ids = route.action() == Action.LIST_NATURAL ? List.of() : ids(match);
        return switch (route.action()) {
            case GET -> read(entity, address(match), include, limit);
            case LIST_PARTITION -> service.listPartition(entity, ids.get(0), route.list().newestFirst(), Http.limit(limit), cursor)
                    .map(RestResponse::ok);
            case LIST_INDEX -> service.listIndex(entity, route.keyed(), route.list().query() == null ? ids.get(0)
                            : service.queryValue(entity, route.list().query(), uri.getQueryParameters().getFirst(route.list().query())),
                    route.list().newestFirst(), Http.limit(limit), cursor).map(RestResponse::ok);
            case LIST_NATURAL -> service.listNatural(entity, route.natural(), byName(match), uri.getQueryParameters()::getFirst,
                    route.list().newestFirst(), Http.limit(limit), cursor).map(RestResponse::ok);
            case LIST_DELETED -> softDeletes.list(entity, ids, Http.limit(limit), cursor).map(RestResponse::ok);
            case VIEW -> service.view(route.view(), ids.get(0), Http.limit(limit))
                    .map(view -> Responses.ok(view.root(), (Object) view.body()));
            case VERSIONS -> service.versions(entity, address(match), Http.limit(limit), cursor).map(RestResponse::ok);
            case VERSION -> {
                // the last parameter is the version's number (a 400 when it is not one); the others name the item
                long number = Http.wholeNumber(DeclaredRoutes.VERSION_PARAMETER, match.values().get(ids.size() - 1), 1,
                        Integer.MAX_VALUE);
                yield service.version(entity, Address.of(route, ids.subList(0, ids.size() - 1)), number)
                        .map(version -> Responses.ok(version.root(), (Object) version.body()));
            }
            default -> throw new IllegalStateException(route.action() + " is not a GET");
        };
    }

    @PUT
    @Path("{path: .+}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(hidden = true)
    public Uni<RestResponse<Object>> put(@Context UriInfo uri, @Context RoutingContext context,
                                         @RestHeader("If-Match") String ifMatch, @RestQuery String cascade, String body) {
        Match match = match("PUT", uri, context);
        if (match.route().aggregate() != null) {
            return aggregates.put(match, ifMatch, body);
        }
        var entity = match.route().entity();
        if (match.route().action() == Action.PUT_EDGE) {
            return service.create(entity, address(match), body).map(stored -> Responses.created(uri.getAbsolutePath(), stored,
                    (Object) service.view(entity, stored))).onFailure().transform(e -> withCurrent(entity, e));
        }
        return service.replace(entity, address(match), idParameter(match), body, Http.ifMatch(ifMatch), mode(entity, cascade))
                .map(this::changed).onFailure().transform(e -> withCurrent(entity, e));
    }

    @PATCH
    @Path("{path: .+}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON, MergePatcher.JSON_PATCH})
    @Operation(hidden = true)
    public Uni<RestResponse<Object>> patch(@Context UriInfo uri, @Context RoutingContext context,
                                           @RestHeader("If-Match") String ifMatch, @RestQuery String cascade,
                                           @Context HttpHeaders headers, String body) {
        Match match = match("PATCH", uri, context);
        String contentType = headers.getMediaType() == null ? null : headers.getMediaType().toString();
        if (match.route().aggregate() != null) {
            return aggregates.patch(match, ifMatch, contentType, body);
        }
        return service.patch(match.route().entity(), address(match), idParameter(match), body, contentType,
                        Http.ifMatch(ifMatch), mode(match.route().entity(), cascade))
                .map(this::changed).onFailure().transform(e -> withCurrent(match.route().entity(), e));
    }

    @DELETE
    @Path("{path: .+}")
    // 204 has no body: whatever the client accepts, it can take that (errors are problem+json anyway)
    @Produces(MediaType.WILDCARD)
    @Operation(hidden = true)
    public Uni<RestResponse<Void>> delete(@Context UriInfo uri, @Context RoutingContext context,
                                          @RestHeader("If-Match") String ifMatch) {
        Match match = match("DELETE", uri, context);
        if (match.route().aggregate() != null) {
            return aggregates.delete(match, ifMatch);
        }
        if (match.route().action() == Action.PURGE) {
            return softDeletes.purge(match.route().entity(), address(match), idParameter(match), Http.ifMatch(ifMatch))
                    .<RestResponse<Void>>map(purged -> Responses.noContent())
                    .onFailure().transform(e -> withCurrent(match.route().entity(), e));
        }
        return service.delete(match.route().entity(), address(match), idParameter(match), Http.ifMatch(ifMatch))
                .<RestResponse<Void>>map(deleted -> Responses.noContent())
                .onFailure().transform(e -> withCurrent(match.route().entity(), e));
    }

    /** The methods the path has (any resource's), as a 404 when it has none. */
    @OPTIONS
    @Path("{path: .+}")
    @Produces(MediaType.WILDCARD)
    @Operation(hidden = true)
    public RestResponse<Void> options(@Context UriInfo uri, @Context RoutingContext context) {
        String allow = AllowedMethods.of(context.normalizedPath());
        if (allow == null) {
            throw noResource(uri);
        }
        return RestResponse.ResponseBuilder.<Void>ok().header(HttpHeaders.ALLOW, allow + ", HEAD, OPTIONS").build();
    }

    /**
     * A read of the item; where its read includes children, {@code ?include=<name>} answers it with their first
     * page (ONE Query), and {@code limit} is checked either way (the document gives one range).
     */
    private Uni<RestResponse<Object>> read(DeclaredEntity entity, Address address, String include, String limit) {
        var members = entity.model().operation(Op.GET).include().keySet();
        if (members.isEmpty()) {
            // nothing to include: an include asked for is refused, never silently answered without what it asked
            if (include != null || Http.sentEmpty("include")) {
                throw Http.invalid("include", "names nothing: " + entity.name() + " has no children to read with it");
            }
            return service.get(entity, address).map(stored -> Responses.ok(stored, service.view(entity, stored)));
        }
        int first = Http.limit(limit);
        if (include == null && !Http.sentEmpty("include")) {
            return service.get(entity, address).map(stored -> Responses.ok(stored, service.view(entity, stored)));
        }
        if (include == null || !members.contains(include)) {
            throw Http.invalid("include", members.size() == 1 ? "must be '" + members.iterator().next() + "'"
                    : "must be one of " + String.join(", ", members));
        }
        return service.getWith(entity, address, include, first).map(view -> Responses.ok(view.root(), (Object) view.body()));
    }

    /**
     * A write refused by a conflict (a stale If-Match, a create of an existing item) answers the item as it is now —
     * as its GET would, with its ETag — when the failed write found it (no extra call) and the caller may read it: the
     * write's own route admitted the caller to this path, so only the role the entity's reads need is left to check.
     */
    private Throwable withCurrent(DeclaredEntity entity, Throwable failure) {
        if (!(failure instanceof CairnException e)) {
            return failure;
        }
        var found = e.error() instanceof CairnError.VersionConflict conflict ? conflict.found()
                : e.error() instanceof CairnError.Conflict conflict ? conflict.found() : null;
        if (found == null || !entity.spec().isTypeOf(found)
                || !DeclaredRoutes.mayRead(entity.model().access())) {
            return failure;
        }
        var stored = entity.spec().fromItem(found);
        return e.withCurrent(service.view(entity, stored), stored.version());
    }

    /** Where a new item is read: its item path with its identity, under the base URI. */
    private static java.net.URI itemUri(UriInfo uri, DeclaredEntity entity, dev.cairn.core.model.Doc doc) {
        var builder = uri.getBaseUriBuilder();
        var values = new java.util.ArrayList<Object>();
        for (String segment : entity.model().path().substring(1).split("/")) {
            builder.path(segment);
        }
        entity.model().identity().forEach(field -> values.add(doc.text(field)));
        return builder.build(values.toArray());
    }

    private RestResponse<Object> changed(DeclaredService.Changed changed) {
        var entity = changed.entity();
        if (changed.cascaded() == null) {
            return Responses.ok(changed.stored(), service.view(entity, changed.stored()));
        }
        return Responses.cascaded(changed.stored(), service.cascadedBody(entity, changed.cascaded()),
                changed.cascaded().runningJob());
    }

    /** {@code ?cascade} is read only where the entity has copies (elsewhere the operation has no such parameter). */
    private Mode mode(DeclaredEntity entity, String cascade) {
        return models.plan().cascade(entity.name()) == null ? Mode.EVENTUAL : Mode.of(cascade);
    }

    /** The declared route of this request, its template recorded for the HTTP metrics; 404 or 405 otherwise. */
    private Match match(String method, UriInfo uri, RoutingContext context) {
        // Matched already when the caller was authorized (AccessControl): the path is matched once per request.
        if (context.get(DeclaredAccess.MATCHED) instanceof DeclaredAccess.Rule rule && rule.match() instanceof Match matched
                && matched.route().method().equals(method)) {
            ((HttpServerRequestInternal) context.request()).context().putLocal(URL_PATH_TEMPLATE, matched.route().template());
            Caller.current();
            return matched;
        }
        List<String> parts = DeclaredRoutes.segments(context.normalizedPath());
        var allowed = new LinkedHashSet<String>();
        Match match = models.routes().match(method, parts, allowed).orElseThrow(() -> allowed.isEmpty()
                ? noResource(uri)
                : new NotAllowedException(Response.status(Response.Status.METHOD_NOT_ALLOWED)
                .header(HttpHeaders.ALLOW, String.join(", ", allowed)).build()));
        ((HttpServerRequestInternal) context.request()).context().putLocal(URL_PATH_TEMPLATE, match.route().template());
        // Fail closed: a served route always has an authorized caller (AccessControl lets only 404s and 405s through
        // unauthenticated); should the two ever disagree on a path, this is a 401, never an answer.
        Caller.current();
        return match;
    }

    /**
     * A path no route has, decided here on the path the route was matched on (the one the HTTP server normalized),
     * not again on another reading of it: a 404, never a 405 naming the route another reading would find.
     */
    private static CairnException noResource(UriInfo uri) {
        return new CairnException(new CairnError.NotFound("no resource at " + uri.getPath()));
    }

    private static Address address(Match match) {
        return Address.of(match.route(), ids(match));
    }

    /** The name of the path's last parameter: the entity's own id, as a 403 names it. */
    private static String idParameter(Match match) {
        List<String> names = match.route().parameters();
        return names.isEmpty() ? null : names.get(names.size() - 1);
    }

    /** The path's ids, each checked as every id in Cairn (1 to 128 characters, no control characters). */
    /** The route's parameters by name, as sent. */
    private static java.util.Map<String, String> byName(Match match) {
        var out = new java.util.LinkedHashMap<String, String>();
        for (int i = 0; i < match.route().parameters().size(); i++) {
            out.put(match.route().parameters().get(i), match.values().get(i));
        }
        return out;
    }

    private static List<String> ids(Match match) {
        List<String> names = match.route().parameters();
        var out = new java.util.ArrayList<String>();
        for (int i = 0; i < names.size(); i++) {
            var number = wholeNumberIdentity(match.route(), i);
            out.add(number == null ? Http.id(names.get(i), match.values().get(i))
                    : String.valueOf(Http.wholeNumber(names.get(i), match.values().get(i), bound(number.min(), 0),
                    bound(number.max(), Integer.MAX_VALUE))));
        }
        return out;
    }

    /**
     * The integer identity field the route's {@code i}th parameter fills (an item path's parameters fill the identity
     * by position), or null: such a parameter is a plain whole number within the field's bounds ("01", "+1" are 400s).
     */
    private static dev.cairn.core.model.FieldModel wholeNumberIdentity(DeclaredRoutes.Route route, int i) {
        if (route.entity() == null || route.atOwner() || route.aggregate() != null || switch (route.action()) {
            case CREATE, GET, REPLACE, PATCH, DELETE, LIST_PARTITION, RESTORE, PURGE, VERSIONS, VERSION -> false;
            default -> true;
        }) {
            return null;
        }
        var model = route.entity().model();
        return i >= model.identity().size() ? null : model.field(model.identity().get(i))
                .filter(f -> f.kind() == dev.cairn.core.model.FieldModel.Kind.INTEGER).orElse(null);
    }

    private static int bound(java.math.BigDecimal limit, int otherwise) {
        return limit == null ? otherwise : limit.max(java.math.BigDecimal.valueOf(Integer.MIN_VALUE))
                .min(java.math.BigDecimal.valueOf(Integer.MAX_VALUE)).intValue();
    }
}
