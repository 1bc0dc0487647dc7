package dev.cairn.cricket;

import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import dev.cairn.platform.ApiSchemas;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import dev.cairn.core.aggregate.CopyVersions;
import dev.cairn.core.aggregate.RefSpec;
import dev.cairn.core.cascade.CascadePlanner;
import dev.cairn.core.cascade.CascadeSpec;
import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.query.Page;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.platform.Cascades;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.platform.EntityResources;
import dev.cairn.platform.Http;
import dev.cairn.platform.auth.AdminOnly;
import dev.cairn.platform.Responses;
import dev.cairn.store.EntityStore;
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
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.RestResponse;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The referenceable entities: teams, players, coaches and venues (1 call each). */
@Tag(name = "Cricket", description = "Matches as aggregates (one partition each), and the teams, players, coaches and venues they copy")
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class ReferenceResource {

    private final EntityStore store;
    private final EntityResources entities;
    private final Cascades cascades;

    public ReferenceResource(EntityStore store, EntityResources entities, Cascades cascades) {
        this.store = store;
        this.entities = entities;
        this.cascades = cascades;
    }

    @POST
    @Path("teams")
    @Operation(operationId = "createTeam", summary = "Create a team")
    public Uni<RestResponse<Team>> createTeam(@Valid @NotNull Team team, @Context UriInfo uri) {
        return create(CricketModel.TEAM, team, team.id(), uri);
    }

    @GET
    @Path("teams/{id}")
    @Operation(operationId = "getTeam", summary = "Read a team")
    public Uni<RestResponse<Team>> team(@RestPath String id) {
        return find(CricketModel.TEAM, CricketModel::teamKey, id, "team");
    }

    @POST
    @Path("players")
    @Operation(operationId = "createPlayer", summary = "Create a player")
    public Uni<RestResponse<Player>> createPlayer(@Valid @NotNull Player player, @Context UriInfo uri) {
        return create(CricketModel.PLAYER, player, player.id(), uri);
    }

    @GET
    @Path("players/{id}")
    @Operation(operationId = "getPlayer", summary = "Read a player")
    public Uni<RestResponse<Player>> player(@RestPath String id) {
        return find(CricketModel.PLAYER, CricketModel::playerKey, id, "player");
    }

    @POST
    @Path("coaches")
    @Operation(operationId = "createCoach", summary = "Create a coach")
    public Uni<RestResponse<Coach>> createCoach(@Valid @NotNull Coach coach, @Context UriInfo uri) {
        return create(CricketModel.COACH, coach, coach.id(), uri);
    }

    @GET
    @Path("coaches/{id}")
    @Operation(operationId = "getCoach", summary = "Read a coach")
    public Uni<RestResponse<Coach>> coach(@RestPath String id) {
        return find(CricketModel.COACH, CricketModel::coachKey, id, "coach");
    }

    @POST
    @Path("venues")
    @Operation(operationId = "createVenue", summary = "Create a venue")
    public Uni<RestResponse<Venue>> createVenue(@Valid @NotNull Venue venue, @Context UriInfo uri) {
        return create(CricketModel.VENUE, venue, venue.id(), uri);
    }

    @GET
    @Path("venues/{id}")
    @Operation(operationId = "getVenue", summary = "Read a venue")
    public Uni<RestResponse<Venue>> venue(@RestPath String id) {
        return find(CricketModel.VENUE, CricketModel::venueKey, id, "venue");
    }

    // --- updates with cascades, guarded deletes, and where copies are ----------------------------------------

    @PATCH
    @Path("teams/{id}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    @APIResponse(responseCode = "200", description = "OK", content = @Content(schema = @Schema(implementation = ApiSchemas.CascadeReport.class)))
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Team.class)))
    @Operation(operationId = "patchTeam", summary = "Change a team; its copies in matches and squads follow (cascade)")
    public Uni<RestResponse<Map<String, Object>>> patchTeams(@RestPath String id, @RestQuery String cascade,
                                          @RestHeader("If-Match") String ifMatch, String patch) {
        return patch("teams", id, cascade, ifMatch, patch);
    }

    @AdminOnly
    @DELETE
    @Path("teams/{id}")
    @Operation(operationId = "deleteTeam", summary = "Delete a team no item refers to (admin)")
    public Uni<RestResponse<Void>> deleteTeams(@RestPath String id, @RestHeader("If-Match") String ifMatch) {
        return delete("teams", id, ifMatch);
    }

    @GET
    @Path("teams/{id}/references")
    @APIResponse(responseCode = "200", description = "OK", content = @Content(schema = @Schema(implementation = ApiSchemas.ReferencePage.class)))
    @Operation(operationId = "listTeamReferences", summary = "Where copies of a team live")
    public Uni<Page<Map<String, Object>>> referencesOfTeams(@RestPath String id, @RestQuery String limit,
                                                              @RestQuery String cursor) {
        return references("teams", id, limit, cursor);
    }

    @PATCH
    @Path("players/{id}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    @APIResponse(responseCode = "200", description = "OK", content = @Content(schema = @Schema(implementation = ApiSchemas.CascadeReport.class)))
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Player.class)))
    @Operation(operationId = "patchPlayer", summary = "Change a player; their copies in matches and squads follow (cascade)")
    public Uni<RestResponse<Map<String, Object>>> patchPlayers(@RestPath String id, @RestQuery String cascade,
                                          @RestHeader("If-Match") String ifMatch, String patch) {
        return patch("players", id, cascade, ifMatch, patch);
    }

    @AdminOnly
    @DELETE
    @Path("players/{id}")
    @Operation(operationId = "deletePlayer", summary = "Delete a player no item refers to (admin)")
    public Uni<RestResponse<Void>> deletePlayers(@RestPath String id, @RestHeader("If-Match") String ifMatch) {
        return delete("players", id, ifMatch);
    }

    @GET
    @Path("players/{id}/references")
    @APIResponse(responseCode = "200", description = "OK", content = @Content(schema = @Schema(implementation = ApiSchemas.ReferencePage.class)))
    @Operation(operationId = "listPlayerReferences", summary = "Where copies of a player live")
    public Uni<Page<Map<String, Object>>> referencesOfPlayers(@RestPath String id, @RestQuery String limit,
                                                              @RestQuery String cursor) {
        return references("players", id, limit, cursor);
    }

    @PATCH
    @Path("coaches/{id}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    @APIResponse(responseCode = "200", description = "OK", content = @Content(schema = @Schema(implementation = ApiSchemas.CascadeReport.class)))
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Coach.class)))
    @Operation(operationId = "patchCoach", summary = "Change a coach; their copies in matches follow (cascade)")
    public Uni<RestResponse<Map<String, Object>>> patchCoaches(@RestPath String id, @RestQuery String cascade,
                                          @RestHeader("If-Match") String ifMatch, String patch) {
        return patch("coaches", id, cascade, ifMatch, patch);
    }

    @AdminOnly
    @DELETE
    @Path("coaches/{id}")
    @Operation(operationId = "deleteCoach", summary = "Delete a coach no item refers to (admin)")
    public Uni<RestResponse<Void>> deleteCoaches(@RestPath String id, @RestHeader("If-Match") String ifMatch) {
        return delete("coaches", id, ifMatch);
    }

    @GET
    @Path("coaches/{id}/references")
    @APIResponse(responseCode = "200", description = "OK", content = @Content(schema = @Schema(implementation = ApiSchemas.ReferencePage.class)))
    @Operation(operationId = "listCoachReferences", summary = "Where copies of a coach live")
    public Uni<Page<Map<String, Object>>> referencesOfCoaches(@RestPath String id, @RestQuery String limit,
                                                              @RestQuery String cursor) {
        return references("coaches", id, limit, cursor);
    }

    @PATCH
    @Path("venues/{id}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    @APIResponse(responseCode = "200", description = "OK", content = @Content(schema = @Schema(implementation = ApiSchemas.CascadeReport.class)))
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Venue.class)))
    @Operation(operationId = "patchVenue", summary = "Change a venue; its copies in matches follow (cascade)")
    public Uni<RestResponse<Map<String, Object>>> patchVenues(@RestPath String id, @RestQuery String cascade,
                                          @RestHeader("If-Match") String ifMatch, String patch) {
        return patch("venues", id, cascade, ifMatch, patch);
    }

    @AdminOnly
    @DELETE
    @Path("venues/{id}")
    @Operation(operationId = "deleteVenue", summary = "Delete a venue no item refers to (admin)")
    public Uni<RestResponse<Void>> deleteVenues(@RestPath String id, @RestHeader("If-Match") String ifMatch) {
        return delete("venues", id, ifMatch);
    }

    @GET
    @Path("venues/{id}/references")
    @APIResponse(responseCode = "200", description = "OK", content = @Content(schema = @Schema(implementation = ApiSchemas.ReferencePage.class)))
    @Operation(operationId = "listVenueReferences", summary = "Where copies of a venue live")
    public Uni<Page<Map<String, Object>>> referencesOfVenues(@RestPath String id, @RestQuery String limit,
                                                              @RestQuery String cursor) {
        return references("venues", id, limit, cursor);
    }

    /** A merge patch of the entity, then its cascade ({@code ?cascade=eventual|transactional}). */
    private Uni<RestResponse<Map<String, Object>>> patch(String kind, String id, String cascade, String ifMatch, String patch) {
        return cascades.patch(target(kind, Http.id("id", id)), patch, Http.ifMatch(ifMatch), Cascades.mode(cascade),
                singular(kind) + " " + id);
    }

    /** Refused with 409 StillReferenced while any item embeds the entity. */
    private Uni<RestResponse<Void>> delete(String kind, String id, String ifMatch) {
        return cascades.delete(target(kind, Http.id("id", id)), Http.ifMatch(ifMatch), singular(kind) + " " + id)
                .map(done -> RestResponse.noContent());
    }

    /** Every item embedding a copy of the entity, with the source version of its copy: 1 Query per page. */
    private Uni<Page<Map<String, Object>>> references(String kind, String id, String limit, String cursor) {
        RefSpec<?> ref = ref(kind);
        QuerySpec query = QuerySpec.on(ref.index(), ref.refPartition(Http.id("id", id))).limit(Http.limit(limit)).build();
        return store.page(query, cursor).map(page -> page.map(item -> {
            var out = new LinkedHashMap<String, Object>();
            out.put("entityType", item.get("_type").s());
            out.put("pk", item.get("pk").s());
            out.put("sk", item.get("sk").s());
            out.put("copies", CopyVersions.copiesOf(item, ref.entity()));
            return out;
        }));
    }

    static final CascadePlanner PLANNER = new CascadePlanner(Map.of(), List.of(CricketModel.MATCH));
    /** Teams, players, coaches and venues: their copies are found through their ref index. */
    static final List<CascadeSpec> CASCADES = List.of(cascade(CricketModel.TEAM_REF), cascade(CricketModel.PLAYER_REF),
            cascade(CricketModel.COACH_REF), cascade(CricketModel.VENUE_REF));

    private static CascadeSpec cascade(RefSpec<?> ref) {
        return new CascadeSpec(ref.entity(), ref.keyOf(), id -> List.of(QuerySpec.on(ref.index(), ref.refPartition(id)).build()),
                PLANNER);
    }

    private static Cascades.Target<?> target(String kind, String id) {
        return switch (kind) {
            case "teams" -> target(CricketModel.TEAM_REF, Team.class, id);
            case "players" -> target(CricketModel.PLAYER_REF, Player.class, id);
            case "coaches" -> target(CricketModel.COACH_REF, Coach.class, id);
            default -> target(CricketModel.VENUE_REF, Venue.class, id);
        };
    }

    private static <T> Cascades.Target<T> target(RefSpec<T> ref, Class<T> type, String id) {
        return new Cascades.Target<>(ref.spec(), type, id, cascade(ref));
    }

    private static RefSpec<?> ref(String kind) {
        return switch (kind) {
            case "teams" -> CricketModel.TEAM_REF;
            case "players" -> CricketModel.PLAYER_REF;
            case "coaches" -> CricketModel.COACH_REF;
            default -> CricketModel.VENUE_REF;
        };
    }

    private static String singular(String kind) {
        return kind.equals("coaches") ? "coach" : kind.substring(0, kind.length() - 1);
    }

    private <T> Uni<RestResponse<T>> create(EntitySpec<T> spec, T value, String id, UriInfo uri) {
        return store.create(spec, value).map(stored -> Responses.created(uri, id, stored, value));
    }

    private <T> Uni<RestResponse<T>> find(EntitySpec<T> spec, Function<String, PrimaryKey> key, String id, String what) {
        return entities.find(spec, key.apply(Http.id("id", id)), what + " " + id)
                .map(stored -> Responses.ok(stored, stored.value()));
    }
}
