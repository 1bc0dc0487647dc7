package dev.cairn.cricket;

import dev.cairn.core.query.Page;
import dev.cairn.platform.Http;
import dev.cairn.platform.MergePatcher;
import dev.cairn.store.EntityStore;
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
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.RestResponse;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** The match aggregate over REST: ids in, full objects out; the ETag is the aggregate's version. */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public class MatchResource {

    private final MatchRepository matches;
    private final MergePatcher patcher;
    private final EntityStore store;

    public MatchResource(MatchRepository matches, MergePatcher patcher, EntityStore store) {
        this.matches = matches;
        this.patcher = patcher;
        this.store = store;
    }

    @POST
    @Path("matches")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<RestResponse<Map<String, Object>>> create(@Valid @NotNull MatchInput input, @Context UriInfo uri) {
        return matches.create(input).map(created -> RestResponse.ResponseBuilder
                .<Map<String, Object>>created(uri.getAbsolutePathBuilder().path(input.id()).build())
                .entity(created.match()).header("ETag", etag(created)).build());
    }

    /** ONE strongly consistent Query of the match's partition. */
    @GET
    @Path("matches/{id}")
    public Uni<RestResponse<Map<String, Object>>> get(@RestPath String id) {
        return matches.find(Http.id("id", id)).map(MatchResource::ok);
    }

    @PUT
    @Path("matches/{id}")
    @Consumes(MediaType.APPLICATION_JSON)
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
    public Uni<RestResponse<Map<String, Object>>> patch(@RestPath String id, @RestHeader("If-Match") String ifMatch,
                                                       @RestHeader("Content-Type") String contentType, String patch) {
        return matches.update(Http.id("id", id), Http.ifMatch(ifMatch),
                        current -> patcher.apply(current, MatchInput.class, patch, Set.of("id"), contentType))
                .map(MatchResource::ok);
    }

    @DELETE
    @Path("matches/{id}")
    public Uni<RestResponse<Void>> delete(@RestPath String id, @RestHeader("If-Match") String ifMatch) {
        return matches.delete(Http.id("id", id), Http.ifMatch(ifMatch)).map(done -> RestResponse.noContent());
    }

    /** The matches a player is in: ONE Query of the player's ref partition (gsi1). */
    @GET
    @Path("players/{playerId}/matches")
    public Uni<Page<Map<String, Object>>> matchesOf(@RestPath String playerId, @RestQuery String limit,
                                                    @RestQuery String cursor) {
        return store.page(CricketModel.matchesOfPlayer(Http.id("playerId", playerId), Http.limit(limit)), cursor)
                .map(page -> page.map(MatchResource::appearance));
    }

    private static Map<String, Object> appearance(Map<String, AttributeValue> item) {
        var out = new LinkedHashMap<String, Object>();
        out.put("matchId", CricketModel.MATCH_KEY.decode(item.get("pk").s()).get(0));
        out.put("matchName", item.get("_ctx").m().get("name").s());
        out.put("teamNumber", Integer.parseInt(item.get("_disc").m().get("teamNumber").n()));
        out.put("battingPosition", Integer.parseInt(item.get("battingPosition").n()));
        out.put("isCaptain", item.get("isCaptain").bool());
        return out;
    }

    private static RestResponse<Map<String, Object>> ok(MatchRepository.Versioned match) {
        return RestResponse.ResponseBuilder.ok(match.match()).header("ETag", etag(match)).build();
    }

    private static String etag(MatchRepository.Versioned match) {
        return "\"" + match.version() + "\"";
    }
}
