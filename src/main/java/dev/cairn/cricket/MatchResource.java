package dev.cairn.cricket;

import dev.cairn.core.query.Page;
import dev.cairn.platform.OpenApiDocs;
import dev.cairn.platform.Http;
import dev.cairn.platform.MergePatcher;
import dev.cairn.platform.Offload;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.extensions.Extension;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.RestResponse;

import java.util.Map;
import java.util.Set;

/** The match aggregate over HTTP ({@link MatchService}): ids in, full objects out; the ETag is the aggregate's version. */
@Tag(name = "Cricket", description = "Matches as aggregates (one partition each), and the teams, players, coaches and venues they copy")
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public class MatchResource {

    private final MatchService matches;
    private final MergePatcher patcher;

    public MatchResource(MatchService matches, MergePatcher patcher) {
        this.matches = matches;
        this.patcher = patcher;
    }

    @POST
    @Path("matches")
    @Consumes(MediaType.APPLICATION_JSON)
    @APIResponse(responseCode = "201", description = "Created", content = @Content(schema = @Schema(implementation = MatchSchemas.Match.class)))
    @Operation(operationId = "createMatch", summary = "Create a match: its venue and two team sheets, written as one aggregate (1 Query + transactions)")
    public Uni<RestResponse<Map<String, Object>>> create(@Valid @NotNull MatchInput input, @Context UriInfo uri) {
        return matches.create(input).map(created -> RestResponse.ResponseBuilder
                .<Map<String, Object>>created(uri.getAbsolutePathBuilder().path(input.id()).build())
                .entity(created.match()).header("ETag", etag(created)).build());
    }

    /** ONE strongly consistent Query of the match's partition. */
    @GET
    @Path("matches/{id}")
    @APIResponse(responseCode = "200", description = "The match", content = @Content(schema = @Schema(implementation = MatchSchemas.Match.class)))
    @APIResponse(responseCode = "409", description = "The stored match cannot be assembled: members without their root, or a broken item")
    @Operation(operationId = "getMatch", summary = "Read a match: ONE strongly consistent Query of its partition")
    public Uni<RestResponse<Map<String, Object>>> get(@RestPath String id) {
        return matches.find(Http.id("id", id)).map(MatchResource::ok);
    }

    @PUT
    @Path("matches/{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    @APIResponse(responseCode = "200", description = "The match as replaced", content = @Content(schema = @Schema(implementation = MatchSchemas.Match.class)))
    @Operation(operationId = "replaceMatch", summary = "Replace a match (If-Match honoured): only the items that changed are written")
    public Uni<RestResponse<Map<String, Object>>> replace(@RestPath String id, @RestHeader("If-Match") String ifMatch,
                                                         @NotNull MatchInput input) {
        // The id comes from the path; the body may repeat it, not contradict it. Validated once it is filled in.
        MatchInput replacement = patcher.valid(input.forPath(Http.id("id", id)));
        return matches.update(replacement.id(), Http.ifMatch(ifMatch), current -> replacement).map(MatchResource::ok);
    }

    /** RFC 6902 JSON Patch or RFC 7396 merge patch, applied to the input shape (ids). */
    @PATCH
    @Path("matches/{id}")
    @Consumes({MergePatcher.JSON_PATCH, Http.MERGE_PATCH_JSON})
    @APIResponse(responseCode = "200", description = "The match as changed", content = @Content(schema = @Schema(implementation = MatchSchemas.Match.class)))
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = MatchInput.class)))
    @Extension(name = OpenApiDocs.IMMUTABLE, value = "id")
    @Operation(operationId = "patchMatch", summary = "Change a match with a JSON Patch or a merge patch of its input shape (ids)")
    public Uni<RestResponse<Map<String, Object>>> patch(@RestPath String id, @RestHeader("If-Match") String ifMatch,
                                                       @RestHeader("Content-Type") String contentType, String patch) {
        return matches.update(Http.id("id", id), Http.ifMatch(ifMatch),
                        Offload.forBody(patch, current -> patcher.apply(current, MatchInput.class, patch, Set.of("id"), contentType)))
                .map(MatchResource::ok);
    }

    @DELETE
    @Path("matches/{id}")
    // 204 has no body: whatever the client accepts, it can take that (errors are problem+json anyway)
    @Produces(MediaType.WILDCARD)
    @Operation(operationId = "deleteMatch", summary = "Delete a match and every item of its partition")
    public Uni<RestResponse<Void>> delete(@RestPath String id, @RestHeader("If-Match") String ifMatch) {
        return matches.delete(Http.id("id", id), Http.ifMatch(ifMatch)).map(done -> RestResponse.noContent());
    }

    /** Every match, newest first: one Query per shard of the list of all (gsi1), in parallel, merged. */
    @GET
    @Path("matches")
    @APIResponse(responseCode = "200", description = "OK", content = @Content(schema = @Schema(implementation = MatchSchemas.SummaryPage.class)))
    @Operation(operationId = "listMatches", summary = "Every match, newest first, as summaries: one Query per shard of the list (gsi1), in parallel")
    public Uni<Page<Map<String, Object>>> list(@RestQuery String limit, @RestQuery String cursor) {
        return matches.list(CricketModel.ALL_MATCHES, null, Http.limit(limit), cursor);
    }

    /** A team's matches, newest first: its home side (gsi3) and away side (gsi4), 2 Queries in parallel, merged. */
    @GET
    @Path("teams/{teamId}/matches")
    @APIResponse(responseCode = "200", description = "OK (empty for a team that plays no match)", content = @Content(schema = @Schema(implementation = MatchSchemas.SummaryPage.class)))
    @Operation(operationId = "listTeamMatches", summary = "A team's matches, newest first, as summaries: 2 Queries in parallel (its sides on gsi3 and gsi4)")
    public Uni<Page<Map<String, Object>>> teamMatches(@RestPath String teamId, @RestQuery String limit,
                                                      @RestQuery String cursor) {
        return matches.list(CricketModel.TEAM_MATCHES, Http.id("teamId", teamId), Http.limit(limit), cursor);
    }

    /** A venue's matches, newest first: ONE Query of its list partition (gsi2). */
    @GET
    @Path("venues/{venueId}/matches")
    @APIResponse(responseCode = "200", description = "OK (empty for a venue that hosts no match)", content = @Content(schema = @Schema(implementation = MatchSchemas.SummaryPage.class)))
    @Operation(operationId = "listVenueMatches", summary = "A venue's matches, newest first, as summaries: ONE Query (gsi2)")
    public Uni<Page<Map<String, Object>>> venueMatches(@RestPath String venueId, @RestQuery String limit,
                                                       @RestQuery String cursor) {
        return matches.list(CricketModel.VENUE_MATCHES, Http.id("venueId", venueId), Http.limit(limit), cursor);
    }

    /** The matches a player is in: ONE Query of the player's ref partition (gsi1). */
    @GET
    @Path("players/{playerId}/matches")
    @APIResponse(responseCode = "200", description = "OK", content = @Content(schema = @Schema(implementation = MatchSchemas.AppearancePage.class)))
    @Operation(operationId = "listPlayerMatches", summary = "The matches a player is in: ONE Query of the player's reference partition")
    public Uni<Page<Map<String, Object>>> matchesOf(@RestPath String playerId, @RestQuery String limit,
                                                    @RestQuery String cursor) {
        return matches.appearancesOf(Http.id("playerId", playerId), Http.limit(limit), cursor);
    }

    private static RestResponse<Map<String, Object>> ok(MatchService.Versioned match) {
        return RestResponse.ResponseBuilder.ok(match.match()).header("ETag", etag(match)).build();
    }

    private static String etag(MatchService.Versioned match) {
        return "\"" + match.version() + "\"";
    }
}
