package dev.cairn.cricket;

import dev.cairn.core.query.Page;
import dev.cairn.platform.OpenApiDocs;
import dev.cairn.platform.ApiSchemas;
import dev.cairn.platform.Http;
import dev.cairn.platform.Responses;
import dev.cairn.platform.auth.AdminOnly;
import dev.cairn.service.CascadeService.Mode;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
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

/** The referenceable entities over HTTP: teams, players, coaches and venues, one generic path per operation ({@link RefKind}). */
@Tag(name = "Cricket", description = "Matches as aggregates (one partition each), and the teams, players, coaches and venues they copy")
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class ReferenceResource {

    private final ReferenceService refs;

    public ReferenceResource(ReferenceService refs) {
        this.refs = refs;
    }

    @POST
    @Path("teams")
    @Operation(operationId = "createTeam", summary = "Create a team")
    public Uni<RestResponse<Team>> createTeam(@Valid @NotNull Team team, @Context UriInfo uri) {
        return refs.create(RefKind.TEAM, team).map(stored -> Responses.created(uri, team.id(), stored, team));
    }

    @GET
    @Path("teams/{id}")
    @Operation(operationId = "getTeam", summary = "Read a team")
    public Uni<RestResponse<Team>> team(@RestPath String id) {
        return refs.find(RefKind.TEAM, Http.id("id", id)).map(stored -> Responses.ok(stored, stored.value()));
    }

    @POST
    @Path("players")
    @Operation(operationId = "createPlayer", summary = "Create a player")
    public Uni<RestResponse<Player>> createPlayer(@Valid @NotNull Player player, @Context UriInfo uri) {
        return refs.create(RefKind.PLAYER, player).map(stored -> Responses.created(uri, player.id(), stored, player));
    }

    @GET
    @Path("players/{id}")
    @Operation(operationId = "getPlayer", summary = "Read a player")
    public Uni<RestResponse<Player>> player(@RestPath String id) {
        return refs.find(RefKind.PLAYER, Http.id("id", id)).map(stored -> Responses.ok(stored, stored.value()));
    }

    @POST
    @Path("coaches")
    @Operation(operationId = "createCoach", summary = "Create a coach")
    public Uni<RestResponse<Coach>> createCoach(@Valid @NotNull Coach coach, @Context UriInfo uri) {
        return refs.create(RefKind.COACH, coach).map(stored -> Responses.created(uri, coach.id(), stored, coach));
    }

    @GET
    @Path("coaches/{id}")
    @Operation(operationId = "getCoach", summary = "Read a coach")
    public Uni<RestResponse<Coach>> coach(@RestPath String id) {
        return refs.find(RefKind.COACH, Http.id("id", id)).map(stored -> Responses.ok(stored, stored.value()));
    }

    @POST
    @Path("venues")
    @Operation(operationId = "createVenue", summary = "Create a venue")
    public Uni<RestResponse<Venue>> createVenue(@Valid @NotNull Venue venue, @Context UriInfo uri) {
        return refs.create(RefKind.VENUE, venue).map(stored -> Responses.created(uri, venue.id(), stored, venue));
    }

    @GET
    @Path("venues/{id}")
    @Operation(operationId = "getVenue", summary = "Read a venue")
    public Uni<RestResponse<Venue>> venue(@RestPath String id) {
        return refs.find(RefKind.VENUE, Http.id("id", id)).map(stored -> Responses.ok(stored, stored.value()));
    }

    // --- updates with cascades, guarded deletes, and where copies are ----------------------------------------

    @PATCH
    @Path("teams/{id}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    @APIResponse(responseCode = "200", description = "OK", content = @Content(schema = @Schema(implementation = ApiSchemas.CascadeReport.class)))
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Team.class)))
    @Extension(name = OpenApiDocs.IMMUTABLE, value = "id")
    @Operation(operationId = "patchTeam", summary = "Change a team; its copies in matches and squads follow (cascade)")
    public Uni<RestResponse<Map<String, Object>>> patchTeams(@RestPath String id, @RestQuery String cascade,
                                          @RestHeader("If-Match") String ifMatch, String patch) {
        return refs.patch(RefKind.TEAM, Http.id("id", id), patch, Http.ifMatch(ifMatch), Mode.of(cascade))
                .map(patched -> Responses.cascaded(patched.stored(), patched.body(), patched.runningJob()));
    }

    @AdminOnly
    @DELETE
    @Path("teams/{id}")
    // 204 has no body: whatever the client accepts, it can take that (errors are problem+json anyway)
    @Produces(MediaType.WILDCARD)
    @Operation(operationId = "deleteTeam", summary = "Delete a team no item refers to (admin)")
    public Uni<RestResponse<Void>> deleteTeams(@RestPath String id, @RestHeader("If-Match") String ifMatch) {
        return refs.delete(RefKind.TEAM, Http.id("id", id), Http.ifMatch(ifMatch)).map(done -> Responses.noContent());
    }

    @GET
    @Path("teams/{id}/references")
    @APIResponse(responseCode = "200", description = "OK", content = @Content(schema = @Schema(implementation = ApiSchemas.ReferencePage.class)))
    @Operation(operationId = "listTeamReferences", summary = "Where copies of a team live")
    public Uni<Page<Map<String, Object>>> referencesOfTeams(@RestPath String id, @RestQuery String limit,
                                                              @RestQuery String cursor) {
        return refs.references(RefKind.TEAM, Http.id("id", id), Http.limit(limit), cursor);
    }

    @PATCH
    @Path("players/{id}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    @APIResponse(responseCode = "200", description = "OK", content = @Content(schema = @Schema(implementation = ApiSchemas.CascadeReport.class)))
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Player.class)))
    @Extension(name = OpenApiDocs.IMMUTABLE, value = "id")
    @Operation(operationId = "patchPlayer", summary = "Change a player; their copies in matches and squads follow (cascade)")
    public Uni<RestResponse<Map<String, Object>>> patchPlayers(@RestPath String id, @RestQuery String cascade,
                                          @RestHeader("If-Match") String ifMatch, String patch) {
        return refs.patch(RefKind.PLAYER, Http.id("id", id), patch, Http.ifMatch(ifMatch), Mode.of(cascade))
                .map(patched -> Responses.cascaded(patched.stored(), patched.body(), patched.runningJob()));
    }

    @AdminOnly
    @DELETE
    @Path("players/{id}")
    // 204 has no body: whatever the client accepts, it can take that (errors are problem+json anyway)
    @Produces(MediaType.WILDCARD)
    @Operation(operationId = "deletePlayer", summary = "Delete a player no item refers to (admin)")
    public Uni<RestResponse<Void>> deletePlayers(@RestPath String id, @RestHeader("If-Match") String ifMatch) {
        return refs.delete(RefKind.PLAYER, Http.id("id", id), Http.ifMatch(ifMatch)).map(done -> Responses.noContent());
    }

    @GET
    @Path("players/{id}/references")
    @APIResponse(responseCode = "200", description = "OK", content = @Content(schema = @Schema(implementation = ApiSchemas.ReferencePage.class)))
    @Operation(operationId = "listPlayerReferences", summary = "Where copies of a player live")
    public Uni<Page<Map<String, Object>>> referencesOfPlayers(@RestPath String id, @RestQuery String limit,
                                                              @RestQuery String cursor) {
        return refs.references(RefKind.PLAYER, Http.id("id", id), Http.limit(limit), cursor);
    }

    @PATCH
    @Path("coaches/{id}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    @APIResponse(responseCode = "200", description = "OK", content = @Content(schema = @Schema(implementation = ApiSchemas.CascadeReport.class)))
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Coach.class)))
    @Extension(name = OpenApiDocs.IMMUTABLE, value = "id")
    @Operation(operationId = "patchCoach", summary = "Change a coach; their copies in matches follow (cascade)")
    public Uni<RestResponse<Map<String, Object>>> patchCoaches(@RestPath String id, @RestQuery String cascade,
                                          @RestHeader("If-Match") String ifMatch, String patch) {
        return refs.patch(RefKind.COACH, Http.id("id", id), patch, Http.ifMatch(ifMatch), Mode.of(cascade))
                .map(patched -> Responses.cascaded(patched.stored(), patched.body(), patched.runningJob()));
    }

    @AdminOnly
    @DELETE
    @Path("coaches/{id}")
    // 204 has no body: whatever the client accepts, it can take that (errors are problem+json anyway)
    @Produces(MediaType.WILDCARD)
    @Operation(operationId = "deleteCoach", summary = "Delete a coach no item refers to (admin)")
    public Uni<RestResponse<Void>> deleteCoaches(@RestPath String id, @RestHeader("If-Match") String ifMatch) {
        return refs.delete(RefKind.COACH, Http.id("id", id), Http.ifMatch(ifMatch)).map(done -> Responses.noContent());
    }

    @GET
    @Path("coaches/{id}/references")
    @APIResponse(responseCode = "200", description = "OK", content = @Content(schema = @Schema(implementation = ApiSchemas.ReferencePage.class)))
    @Operation(operationId = "listCoachReferences", summary = "Where copies of a coach live")
    public Uni<Page<Map<String, Object>>> referencesOfCoaches(@RestPath String id, @RestQuery String limit,
                                                              @RestQuery String cursor) {
        return refs.references(RefKind.COACH, Http.id("id", id), Http.limit(limit), cursor);
    }

    @PATCH
    @Path("venues/{id}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    @APIResponse(responseCode = "200", description = "OK", content = @Content(schema = @Schema(implementation = ApiSchemas.CascadeReport.class)))
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Venue.class)))
    @Extension(name = OpenApiDocs.IMMUTABLE, value = "id")
    @Operation(operationId = "patchVenue", summary = "Change a venue; its copies in matches follow (cascade)")
    public Uni<RestResponse<Map<String, Object>>> patchVenues(@RestPath String id, @RestQuery String cascade,
                                          @RestHeader("If-Match") String ifMatch, String patch) {
        return refs.patch(RefKind.VENUE, Http.id("id", id), patch, Http.ifMatch(ifMatch), Mode.of(cascade))
                .map(patched -> Responses.cascaded(patched.stored(), patched.body(), patched.runningJob()));
    }

    @AdminOnly
    @DELETE
    @Path("venues/{id}")
    // 204 has no body: whatever the client accepts, it can take that (errors are problem+json anyway)
    @Produces(MediaType.WILDCARD)
    @Operation(operationId = "deleteVenue", summary = "Delete a venue no item refers to (admin)")
    public Uni<RestResponse<Void>> deleteVenues(@RestPath String id, @RestHeader("If-Match") String ifMatch) {
        return refs.delete(RefKind.VENUE, Http.id("id", id), Http.ifMatch(ifMatch)).map(done -> Responses.noContent());
    }

    @GET
    @Path("venues/{id}/references")
    @APIResponse(responseCode = "200", description = "OK", content = @Content(schema = @Schema(implementation = ApiSchemas.ReferencePage.class)))
    @Operation(operationId = "listVenueReferences", summary = "Where copies of a venue live")
    public Uni<Page<Map<String, Object>>> referencesOfVenues(@RestPath String id, @RestQuery String limit,
                                                              @RestQuery String cursor) {
        return refs.references(RefKind.VENUE, Http.id("id", id), Http.limit(limit), cursor);
    }
}
