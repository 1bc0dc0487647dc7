package dev.cairn.social;

import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import dev.cairn.core.TimeOrderedIds;
import dev.cairn.core.entity.Stored;
import dev.cairn.core.query.Page;
import dev.cairn.core.write.TransactionPlan;
import dev.cairn.core.write.WriteAction;
import dev.cairn.core.write.WriteAction.Expectation;
import dev.cairn.platform.EntityResources;
import dev.cairn.platform.Http;
import dev.cairn.platform.Responses;
import dev.cairn.social.PostView.CommentView;
import dev.cairn.store.EntityStore;
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
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.RestResponse;

import java.net.URI;
import java.util.List;
import java.util.Set;

import static dev.cairn.social.SocialModel.COMMENT_SPEC;
import static dev.cairn.social.SocialModel.POST_SPEC;
import static dev.cairn.social.SocialModel.USER_SPEC;

/** Seed 002: users, their posts, and comments on posts. */
@Tag(name = "Social", description = "Users, their posts and comments: one-to-many in one partition")
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public class SocialResource {

    private final EntityStore store;
    private final EntityResources entities;
    private final TimeOrderedIds ids;

    public SocialResource(EntityStore store, EntityResources entities, TimeOrderedIds ids) {
        this.store = store;
        this.entities = entities;
        this.ids = ids;
    }

    @POST
    @Path("users")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "createUser", summary = "Create a user")
    public Uni<RestResponse<User>> createUser(@Valid @NotNull User user, @Context UriInfo uri) {
        return store.create(USER_SPEC, user).map(stored -> Responses.created(uri, user.id(), stored, user));
    }

    @GET
    @Path("users/{id}")
    @Operation(operationId = "getUser", summary = "Read a user")
    public Uni<RestResponse<User>> user(@RestPath String id) {
        return entities.find(USER_SPEC, SocialModel.userKey(Http.id("id", id)), "user " + id)
                .map(stored -> Responses.ok(stored, stored.value()));
    }

    @PATCH
    @Path("users/{id}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = User.class)))
    @Operation(operationId = "patchUser", summary = "Change a user")
    public Uni<RestResponse<User>> patchUser(@RestPath String id, @RestHeader("If-Match") String ifMatch, String patch) {
        return entities.mergePatch(USER_SPEC, SocialModel.userKey(Http.id("id", id)), User.class, patch,
                        Http.ifMatch(ifMatch), Set.of("id"), "user " + id)
                .map(stored -> Responses.ok(stored, stored.value()));
    }

    /** Creates a post of an existing user: the user check and the put are ONE transaction. */
    @POST
    @Path("users/{uid}/posts")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "createPost", summary = "Publish a post for a user")
    public Uni<RestResponse<PostView>> createPost(@RestPath String uid, @Valid @NotNull Post.New body, @Context UriInfo uri) {
        var post = new Post(ids.next(), Http.id("uid", uid), body.title(), body.content());
        var now = store.now();
        var plan = TransactionPlan.of(List.of(
                WriteAction.check("user", SocialModel.userKey(uid), Expectation.present(null)),
                WriteAction.create(POST_SPEC, post, now)));
        var stored = new Stored<>(post, POST_SPEC.keyOf(post), 1, now, now);
        URI location = uri.getBaseUriBuilder().path("posts").path(post.postId()).build();
        return store.transact(plan).map(done -> Responses.created(location, stored, PostView.of(stored)));
    }

    /** Only the author's own post can be patched through the author's path; any other is a 404. */
    @PATCH
    @Path("users/{uid}/posts/{postId}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Post.class)))
    @Operation(operationId = "patchPost", summary = "Change a post")
    public Uni<RestResponse<PostView>> patchPost(@RestPath String uid, @RestPath String postId,
                                                 @RestHeader("If-Match") String ifMatch, String patch) {
        Http.id("uid", uid);
        return entities.mergePatch(POST_SPEC, SocialModel.postKey(Http.id("postId", postId)), Post.class, patch,
                        Http.ifMatch(ifMatch), Set.of("postId", "userId"), "post " + postId + " of user " + uid,
                        post -> post.userId().equals(uid))
                .map(stored -> Responses.ok(stored, PostView.of(stored)));
    }

    /** Newest first: 1 Query of gsi1. */
    @GET
    @Path("users/{uid}/posts")
    @Operation(operationId = "listUserPosts", summary = "A user's posts, newest first")
    public Uni<Page<PostView>> postsOf(@RestPath String uid, @RestQuery String limit, @RestQuery String cursor) {
        return store.page(POST_SPEC, SocialModel.postsOf(Http.id("uid", uid), Http.limit(limit)), cursor)
                .map(page -> page.map(PostView::of));
    }

    /** The post (1 GetItem), or with {@code ?include=comments} the post and its first comments (1 Query). */
    @GET
    @Path("posts/{postId}")
    @Parameter(name = "include", in = ParameterIn.QUERY, schema = @Schema(enumeration = {"comments"}))
    @Operation(operationId = "getPost", summary = "Read a post, optionally with its first comments (include=comments)")
    public Uni<RestResponse<PostView>> post(@RestPath String postId, @RestQuery String include, @RestQuery String limit) {
        Http.id("postId", postId);
        if (include == null) {
            return entities.find(POST_SPEC, SocialModel.postKey(postId), "post " + postId)
                    .map(stored -> Responses.ok(stored, PostView.of(stored)));
        }
        if (!include.equals("comments")) {
            throw Http.invalid("include", "must be 'comments'");
        }
        return postWithComments(postId, Http.limit(limit))
                .map(found -> Responses.ok(found.post(), PostView.of(found.post(), found.comments())));
    }

    /** Creates a comment: the post check, the user check and the put are ONE transaction. */
    @POST
    @Path("posts/{postId}/comments")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "createComment", summary = "Comment on a post")
    public Uni<RestResponse<CommentView>> comment(@RestPath String postId, @Valid @NotNull Comment.New body,
                                                  @Context UriInfo uri) {
        var comment = new Comment(Http.id("postId", postId), ids.next(), body.userId(), body.content());
        var now = store.now();
        var plan = TransactionPlan.of(List.of(
                WriteAction.check("post", SocialModel.postKey(postId), Expectation.present(null)),
                WriteAction.check("user", SocialModel.userKey(body.userId()), Expectation.present(null)),
                WriteAction.create(COMMENT_SPEC, comment, now)));
        var stored = new Stored<>(comment, COMMENT_SPEC.keyOf(comment), 1, now, now);
        return store.transact(plan)
                .map(done -> Responses.created(uri, comment.commentId(), stored, CommentView.of(stored)));
    }

    /** Oldest first, 1 Query per page; the first page also reads the post, so an unknown post is a 404. */
    @GET
    @Path("posts/{postId}/comments")
    @APIResponse(responseCode = "404", description = "No such post")
    @APIResponse(responseCode = "200", description = "One page of the comments, oldest first", content = @Content(schema = @Schema(ref = "PageCommentView")))
    @Operation(operationId = "listPostComments", summary = "A post's comments, oldest first")
    public Uni<Page<CommentView>> comments(@RestPath String postId, @RestQuery String limit, @RestQuery String cursor) {
        Http.id("postId", postId);
        int pageSize = Http.limit(limit);
        if (cursor == null) {
            return postWithComments(postId, pageSize).map(PostWithComments::comments);
        }
        return store.page(COMMENT_SPEC, SocialModel.commentsOf(postId, pageSize), cursor)
                .map(page -> page.map(CommentView::of));
    }

    private record PostWithComments(Stored<Post> post, Page<CommentView> comments) {
    }

    private Uni<PostWithComments> postWithComments(String postId, int pageSize) {
        return entities.parentWithChildren(SocialModel.postWithComments(postId, pageSize),
                        SocialModel.commentsOf(postId, pageSize), POST_SPEC, COMMENT_SPEC, "post " + postId)
                .map(found -> new PostWithComments(found.parent(), found.children().map(CommentView::of)));
    }
}
