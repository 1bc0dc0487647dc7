package dev.cairn.cricket;

import dev.cairn.core.query.Page;
import dev.cairn.platform.OpenApiDocs;
import dev.cairn.platform.Http;
import dev.cairn.platform.Responses;
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
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.RestResponse;

/** Squad selections over HTTP ({@link SquadService}): refs by id in, full team and player out. */
@Tag(name = "Cricket", description = "Matches as aggregates (one partition each), and the teams, players, coaches and venues they copy")
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public class SquadResource {

    private final SquadService squads;

    public SquadResource(SquadService squads) {
        this.squads = squads;
    }

    @POST
    @Path("squads/{squadId}/selections")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "createSquadSelection", summary = "Select a player for a squad (team and player copied in)")
    public Uni<RestResponse<SquadSelection>> create(@RestPath String squadId, @Valid @NotNull SquadSelection.Input input,
                                                    @Context UriInfo uri) {
        return squads.create(Http.id("squadId", squadId), input).map(stored -> Responses.created(uri, input.selectionNumber().toString(), stored, stored.value()));
    }

    @GET
    @Path("squads/{squadId}/selections/{number}")
    @Parameter(name = "number", in = ParameterIn.PATH, schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "10000"))
    @Operation(operationId = "getSquadSelection", summary = "Read one squad selection")
    public Uni<RestResponse<SquadSelection>> get(@RestPath String squadId, @RestPath String number) {
        return squads.find(Http.id("squadId", squadId), selectionNumber(number)).map(stored -> Responses.ok(stored, stored.value()));
    }

    @GET
    @Path("squads/{squadId}/selections")
    @Operation(operationId = "listSquadSelections", summary = "A squad's selections in selection order")
    public Uni<Page<SquadSelection>> list(@RestPath String squadId, @RestQuery String limit, @RestQuery String cursor) {
        return squads.list(Http.id("squadId", squadId), Http.limit(limit), cursor);
    }

    @GET
    @Path("players/{playerId}/selections")
    @Operation(operationId = "listPlayerSelections", summary = "The squads a player is selected for (inverted index)")
    public Uni<Page<SquadSelection>> ofPlayer(@RestPath String playerId, @RestQuery String limit, @RestQuery String cursor) {
        return squads.ofPlayer(Http.id("playerId", playerId), Http.limit(limit), cursor);
    }

    /** Merge patch of the input shape; a changed {@code teamId} or {@code playerId} is hydrated again. */
    @PATCH
    @Path("squads/{squadId}/selections/{number}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = SquadSelection.Input.class)))
    @Parameter(name = "number", in = ParameterIn.PATH, schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "10000"))
    @Extension(name = OpenApiDocs.IMMUTABLE, value = "selectionNumber")
    @Operation(operationId = "patchSquadSelection", summary = "Change a squad selection")
    public Uni<RestResponse<SquadSelection>> patch(@RestPath String squadId, @RestPath String number,
                                                   @RestHeader("If-Match") String ifMatch, String patch) {
        return squads.patch(Http.id("squadId", squadId), selectionNumber(number), patch, Http.ifMatch(ifMatch))
                .map(stored -> Responses.ok(stored, stored.value()));
    }

    @DELETE
    @Path("squads/{squadId}/selections/{number}")
    @Parameter(name = "number", in = ParameterIn.PATH, schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "10000"))
    // 204 has no body: whatever the client accepts, it can take that (errors are problem+json anyway)
    @Produces(MediaType.WILDCARD)
    @Operation(operationId = "deleteSquadSelection", summary = "Remove a squad selection")
    public Uni<RestResponse<Void>> delete(@RestPath String squadId, @RestPath String number,
                                          @RestHeader("If-Match") String ifMatch) {
        return squads.delete(Http.id("squadId", squadId), selectionNumber(number), Http.ifMatch(ifMatch)).map(deleted -> Responses.noContent());
    }

    private static int selectionNumber(String number) {
        return Http.wholeNumber("number", number, 1, 10_000);
    }
}
