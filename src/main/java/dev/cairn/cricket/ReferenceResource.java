package dev.cairn.cricket;

import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.platform.EntityResources;
import dev.cairn.platform.Http;
import dev.cairn.platform.Responses;
import dev.cairn.store.EntityStore;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestResponse;

import java.util.function.Function;

/** The referenceable entities: teams, players, coaches and venues (1 call each). */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class ReferenceResource {

    private final EntityStore store;
    private final EntityResources entities;

    public ReferenceResource(EntityStore store, EntityResources entities) {
        this.store = store;
        this.entities = entities;
    }

    @POST
    @Path("teams")
    public Uni<RestResponse<Team>> createTeam(@Valid @NotNull Team team, @Context UriInfo uri) {
        return create(CricketModel.TEAM, team, team.id(), uri);
    }

    @GET
    @Path("teams/{id}")
    public Uni<RestResponse<Team>> team(@RestPath String id) {
        return find(CricketModel.TEAM, CricketModel::teamKey, id, "team");
    }

    @POST
    @Path("players")
    public Uni<RestResponse<Player>> createPlayer(@Valid @NotNull Player player, @Context UriInfo uri) {
        return create(CricketModel.PLAYER, player, player.id(), uri);
    }

    @GET
    @Path("players/{id}")
    public Uni<RestResponse<Player>> player(@RestPath String id) {
        return find(CricketModel.PLAYER, CricketModel::playerKey, id, "player");
    }

    @POST
    @Path("coaches")
    public Uni<RestResponse<Coach>> createCoach(@Valid @NotNull Coach coach, @Context UriInfo uri) {
        return create(CricketModel.COACH, coach, coach.id(), uri);
    }

    @GET
    @Path("coaches/{id}")
    public Uni<RestResponse<Coach>> coach(@RestPath String id) {
        return find(CricketModel.COACH, CricketModel::coachKey, id, "coach");
    }

    @POST
    @Path("venues")
    public Uni<RestResponse<Venue>> createVenue(@Valid @NotNull Venue venue, @Context UriInfo uri) {
        return create(CricketModel.VENUE, venue, venue.id(), uri);
    }

    @GET
    @Path("venues/{id}")
    public Uni<RestResponse<Venue>> venue(@RestPath String id) {
        return find(CricketModel.VENUE, CricketModel::venueKey, id, "venue");
    }

    private <T> Uni<RestResponse<T>> create(EntitySpec<T> spec, T value, String id, UriInfo uri) {
        return store.create(spec, value).map(stored -> Responses.created(uri, id, stored, value));
    }

    private <T> Uni<RestResponse<T>> find(EntitySpec<T> spec, Function<String, PrimaryKey> key, String id, String what) {
        return entities.find(spec, key.apply(Http.id("id", id)), what + " " + id)
                .map(stored -> Responses.ok(stored, stored.value()));
    }
}
