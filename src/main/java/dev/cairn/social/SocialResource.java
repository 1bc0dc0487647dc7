package dev.cairn.social;

import dev.cairn.core.query.Page;
import dev.cairn.platform.OpenApiDocs;
import dev.cairn.platform.Http;
import dev.cairn.platform.Responses;
import dev.cairn.platform.auth.ActsAs;
import dev.cairn.platform.auth.Caller;
import dev.cairn.social.PostView.CommentView;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
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
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.RestResponse;

/** Seed 002 over HTTP: users, their posts, and comments on posts ({@link SocialService}). */
@Tag(name = "Social", description = "Users, their posts and comments: one-to-many in one partition")
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public class SocialResource {

    private final SocialService social;

    public SocialResource(SocialService social) {
        this.social = social;
    }

    @POST
    @Path("users")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "createUser", summary = "Create a user")
    public Uni<RestResponse<User>> createUser(@Valid @NotNull User user, @Context UriInfo uri) {
        Caller.current().requireSelf("id", user.id());
        return social.create(user).map(stored -> Responses.created(uri, user.id(), stored, user));
    }

    @GET
    @Path("users/{id}")
    @Operation(operationId = "getUser", summary = "Read a user")
    public Uni<RestResponse<User>> user(@RestPath String id) {
        return social.user(Http.id("id", id)).map(stored -> Responses.ok(stored, stored.value()));
    }

    @PATCH
    @Path("users/{id}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = User.class)))
    @ActsAs("id")
    @Extension(name = OpenApiDocs.IMMUTABLE, value = "id")
    @Operation(operationId = "patchUser", summary = "Change a user")
    public Uni<RestResponse<User>> patchUser(@RestPath String id, @RestHeader("If-Match") String ifMatch, String patch) {
        return social.patchUser(Http.id("id", id), patch, Http.ifMatch(ifMatch)).map(stored -> Responses.ok(stored, stored.value()));
    }

    /** Creates a post of an existing user: the user check and the put are ONE transaction. */
    @POST
    @Path("users/{uid}/posts")
    @Consumes(MediaType.APPLICATION_JSON)
    @ActsAs("uid")
    @Operation(operationId = "createPost", summary = "Publish a post for a user")
    public Uni<RestResponse<PostView>> createPost(@RestPath String uid, @Valid @NotNull Post.New body, @Context UriInfo uri) {
        return social.createPost(Http.id("uid", uid), body).map(stored -> Responses.created(
                uri.getBaseUriBuilder().path("posts").path(stored.value().postId()).build(), stored, PostView.of(stored)));
    }

    /** Only the author's own post can be patched through the author's path; any other is a 404. */
    @PATCH
    @Path("users/{uid}/posts/{postId}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Post.class)))
    @ActsAs("uid")
    @Extension(name = OpenApiDocs.IMMUTABLE, value = "postId,userId")
    @Operation(operationId = "patchPost", summary = "Change a post")
    public Uni<RestResponse<PostView>> patchPost(@RestPath String uid, @RestPath String postId,
                                                 @RestHeader("If-Match") String ifMatch, String patch) {
        return social.patchPost(Http.id("uid", uid), Http.id("postId", postId), patch, Http.ifMatch(ifMatch)).map(stored -> Responses.ok(stored, PostView.of(stored)));
    }

    /** Newest first: 1 Query of gsi1. */
    @GET
    @Path("users/{uid}/posts")
    @Operation(operationId = "listUserPosts", summary = "A user's posts, newest first")
    public Uni<Page<PostView>> postsOf(@RestPath String uid, @RestQuery String limit, @RestQuery String cursor) {
        return social.postsOf(Http.id("uid", uid), Http.limit(limit), cursor);
    }

    /** The post (1 GetItem), or with {@code ?include=comments} the post and its first comments (1 Query). */
    @GET
    @Path("posts/{postId}")
    @Parameter(name = "include", in = ParameterIn.QUERY, schema = @Schema(enumeration = {"comments"}))
    @Operation(operationId = "getPost", summary = "Read a post, optionally with its first comments (include=comments)")
    public Uni<RestResponse<PostView>> post(@RestPath String postId, @RestQuery String include, @RestQuery String limit) {
        Http.id("postId", postId);
        int first = Http.limit(limit); // checked even when nothing is listed: the document gives one range
        if (include == null) {
            return social.post(postId).map(stored -> Responses.ok(stored, PostView.of(stored)));
        }
        if (!include.equals("comments")) {
            throw Http.invalid("include", "must be 'comments'");
        }
        return social.postWithComments(postId, first)
                .map(found -> Responses.ok(found.post(), PostView.of(found.post(), found.comments())));
    }

    /** Creates a comment as the caller (an admin may name another author): post check, user check and put in ONE transaction. */
    @POST
    @Path("posts/{postId}/comments")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "createComment", summary = "Comment on a post")
    public Uni<RestResponse<CommentView>> comment(@RestPath String postId, @Valid @NotNull Comment.New body,
                                                  @Context UriInfo uri) {
        return social.comment(Http.id("postId", postId), Caller.current().author("userId", body.userId()), body.content())
                .map(stored -> Responses.created(uri, stored.value().commentId(), stored, CommentView.of(stored)));
    }

    /** Oldest first, 1 Query per page; the first page also reads the post, so an unknown post is a 404. */
    @GET
    @Path("posts/{postId}/comments")
    @APIResponse(responseCode = "404", description = "No such post")
    @APIResponse(responseCode = "200", description = "One page of the comments, oldest first", content = @Content(schema = @Schema(ref = "PageCommentView")))
    @Operation(operationId = "listPostComments", summary = "A post's comments, oldest first")
    public Uni<Page<CommentView>> comments(@RestPath String postId, @RestQuery String limit, @RestQuery String cursor) {
        return social.comments(Http.id("postId", postId), Http.limit(limit), cursor);
    }
}
