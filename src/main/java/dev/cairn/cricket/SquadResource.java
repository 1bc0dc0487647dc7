package dev.cairn.cricket;

import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.aggregate.Aggregate.RefCopy;
import dev.cairn.core.aggregate.Aggregate.RefUse;
import dev.cairn.core.aggregate.CopyVersions;
import dev.cairn.core.aggregate.JsonAttributes;
import dev.cairn.core.entity.Stored;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.query.Page;
import dev.cairn.platform.EntityResources;
import dev.cairn.platform.Http;
import dev.cairn.platform.MergePatcher;
import dev.cairn.platform.Responses;
import dev.cairn.store.AggregateStore;
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
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.cairn.cricket.CricketModel.PLAYER_REF;
import static dev.cairn.cricket.CricketModel.SELECTION_SPEC;
import static dev.cairn.cricket.CricketModel.TEAM_REF;

/** Squad selections: refs by id in, hydrated with ONE BatchGetItem, full team and player out. */
@Tag(name = "Cricket", description = "Matches as aggregates (one partition each), and the teams, players, coaches and venues they copy")
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public class SquadResource {

    private final EntityStore store;
    private final AggregateStore refs;
    private final EntityResources entities;
    private final MergePatcher patcher;
    private final ObjectMapper json;

    public SquadResource(EntityStore store, AggregateStore refs, EntityResources entities, MergePatcher patcher,
                         ObjectMapper json) {
        this.store = store;
        this.refs = refs;
        this.entities = entities;
        this.patcher = patcher;
        this.json = json;
    }

    @POST
    @Path("squads/{squadId}/selections")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "createSquadSelection", summary = "Select a player for a squad (team and player copied in)")
    public Uni<RestResponse<SquadSelection>> create(@RestPath String squadId, @Valid @NotNull SquadSelection.Input input,
                                                    @Context UriInfo uri) {
        Http.id("squadId", squadId);
        return hydrate(squadId, input, Map.of())
                .chain(hydrated -> store.create(SELECTION_SPEC, hydrated.selection(), hydrated.copyVersions()))
                .map(stored -> Responses.created(uri, input.selectionNumber().toString(), stored, stored.value()));
    }

    @GET
    @Path("squads/{squadId}/selections/{number}")
    @Parameter(name = "number", in = ParameterIn.PATH, schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "10000"))
    @Operation(operationId = "getSquadSelection", summary = "Read one squad selection")
    public Uni<RestResponse<SquadSelection>> get(@RestPath String squadId, @RestPath String number) {
        return entities.find(SELECTION_SPEC, key(squadId, number), selection(squadId, number))
                .map(stored -> Responses.ok(stored, stored.value()));
    }

    /** One Query of the squad's partition. */
    @GET
    @Path("squads/{squadId}/selections")
    @Operation(operationId = "listSquadSelections", summary = "A squad's selections in selection order")
    public Uni<Page<SquadSelection>> list(@RestPath String squadId, @RestQuery String limit, @RestQuery String cursor) {
        return store.page(SELECTION_SPEC, CricketModel.selectionsOf(Http.id("squadId", squadId), Http.limit(limit)), cursor)
                .map(page -> page.map(Stored::value));
    }

    /** One Query of the player's ref partition (gsi1). */
    @GET
    @Path("players/{playerId}/selections")
    @Operation(operationId = "listPlayerSelections", summary = "The squads a player is selected for (inverted index)")
    public Uni<Page<SquadSelection>> ofPlayer(@RestPath String playerId, @RestQuery String limit, @RestQuery String cursor) {
        return store.page(SELECTION_SPEC, CricketModel.selectionsOfPlayer(Http.id("playerId", playerId), Http.limit(limit)), cursor)
                .map(page -> page.map(Stored::value));
    }

    /** Merge patch of the input shape; a changed {@code teamId} or {@code playerId} is hydrated again. */
    @PATCH
    @Path("squads/{squadId}/selections/{number}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = SquadSelection.Input.class)))
    @Parameter(name = "number", in = ParameterIn.PATH, schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "10000"))
    @Operation(operationId = "patchSquadSelection", summary = "Change a squad selection")
    public Uni<RestResponse<SquadSelection>> patch(@RestPath String squadId, @RestPath String number,
                                                   @RestHeader("If-Match") String ifMatch, String patch) {
        Long expected = Http.ifMatch(ifMatch);
        return store.getItem(key(squadId, number), true)
                .onItem().ifNull().failWith(() -> EntityResources.notFound(selection(squadId, number)))
                .chain(item -> {
                    Stored<SquadSelection> current = SELECTION_SPEC.fromItem(item);
                    Http.requireVersion(selection(squadId, number), expected, current.version());
                    SquadSelection.Input next = patcher.apply(current.value().toInput(), SquadSelection.Input.class, patch,
                            Set.of("selectionNumber"));
                    return hydrate(squadId, next, known(current, item))
                            .chain(hydrated -> hydrated.selection().equals(current.value())
                                    ? Uni.createFrom().item(current) // no change: no write, the version stays
                                    : store.put(SELECTION_SPEC, hydrated.selection(), current.version(), hydrated.copyVersions()));
                })
                .map(stored -> Responses.ok(stored, stored.value()));
    }

    @DELETE
    @Path("squads/{squadId}/selections/{number}")
    @Parameter(name = "number", in = ParameterIn.PATH, schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "10000"))
    @Operation(operationId = "deleteSquadSelection", summary = "Remove a squad selection")
    public Uni<RestResponse<Void>> delete(@RestPath String squadId, @RestPath String number,
                                          @RestHeader("If-Match") String ifMatch) {
        return store.delete(SELECTION_SPEC, key(squadId, number), true, Http.ifMatch(ifMatch))
                .map(deleted -> Responses.noContent());
    }

    /** A hydrated selection and the {@code _refv} attribute recording the source version of each copy. */
    private record Hydrated(SquadSelection selection, Map<String, AttributeValue> copyVersions) {
    }

    private Uni<Hydrated> hydrate(String squadId, SquadSelection.Input input, Map<String, RefCopy> known) {
        List<RefUse> uses = List.of(new RefUse("team", TEAM_REF, input.teamId()),
                new RefUse("player", PLAYER_REF, input.playerId()));
        return refs.resolve(uses, known).map(resolved -> {
            RefCopy team = resolved.get(Aggregate.refKey(TEAM_REF, input.teamId()));
            RefCopy player = resolved.get(Aggregate.refKey(PLAYER_REF, input.playerId()));
            var selection = new SquadSelection(squadId, input.selectionNumber(),
                    json.convertValue(team.fields(), Team.class), json.convertValue(player.fields(), Player.class),
                    input.squadRole(), input.isCaptain());
            return new Hydrated(selection, CricketModel.selectionCopyVersions(team.version(), player.version()));
        });
    }

    /** The current copies with the versions they were taken at, so an unchanged ref is not read again. */
    private static Map<String, RefCopy> known(Stored<SquadSelection> current, Map<String, AttributeValue> item) {
        SquadSelection s = current.value();
        return Map.of(
                Aggregate.refKey(TEAM_REF, s.team().id()),
                new RefCopy(JsonAttributes.fromMap(CricketModel.TEAM_CODEC.encode(s.team())),
                        CopyVersions.copiesOf(item, TEAM_REF.entity()).getOrDefault("team", 0L)),
                Aggregate.refKey(PLAYER_REF, s.player().id()),
                new RefCopy(JsonAttributes.fromMap(CricketModel.PLAYER_CODEC.encode(s.player())),
                        CopyVersions.copiesOf(item, PLAYER_REF.entity()).getOrDefault("player", 0L)));
    }

    private static PrimaryKey key(String squadId, String number) {
        return CricketModel.selectionKey(Http.id("squadId", squadId), selectionNumber(number));
    }

    private static int selectionNumber(String number) {
        try {
            int n = Integer.parseInt(number);
            if (n >= 1 && n <= 10_000) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw Http.invalid("selectionNumber", "must be a whole number from 1 to 10000");
    }

    private static String selection(String squadId, String number) {
        return "selection " + number + " of squad " + squadId;
    }
}
