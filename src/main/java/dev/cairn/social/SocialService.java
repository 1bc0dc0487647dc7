package dev.cairn.social;

import dev.cairn.core.TimeOrderedIds;
import dev.cairn.core.entity.Stored;
import dev.cairn.core.query.Page;
import dev.cairn.core.write.TransactionPlan;
import dev.cairn.core.write.WriteAction.Expectation;
import dev.cairn.core.write.WriteAction;
import dev.cairn.service.EntityService;
import dev.cairn.social.PostView.CommentView;
import dev.cairn.store.EntityStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Set;

import static dev.cairn.social.SocialModel.COMMENT_SPEC;
import static dev.cairn.social.SocialModel.POST_SPEC;
import static dev.cairn.social.SocialModel.USER_SPEC;

/** Seed 002's use cases: users, their posts, and comments on posts (one-to-many in one partition). */
@ApplicationScoped
public class SocialService {

    @Inject EntityStore store;
    @Inject EntityService entities;
    @Inject TimeOrderedIds ids;

    /** A post and the first page of its comments. */
    record PostWithComments(Stored<Post> post, Page<CommentView> comments) {
    }

    Uni<Stored<User>> create(User user) {
        return store.create(USER_SPEC, user);
    }

    Uni<Stored<User>> user(String id) {
        return entities.find(USER_SPEC, SocialModel.userKey(id), "user " + id);
    }

    Uni<Stored<User>> patchUser(String id, String patch, Long ifMatch) {
        return entities.mergePatch(USER_SPEC, SocialModel.userKey(id), User.class, patch, ifMatch, Set.of("id"),
                "user " + id);
    }

    /** A post of an existing user: the user check and the put are ONE transaction. */
    Uni<Stored<Post>> createPost(String uid, Post.New body) {
        var post = new Post(ids.next(), uid, body.title(), body.content());
        var now = store.now();
        var plan = TransactionPlan.of(List.of(
                WriteAction.check("user", SocialModel.userKey(uid), Expectation.present(null)),
                WriteAction.create(POST_SPEC, post, now)));
        return store.transact(plan).replaceWith(new Stored<>(post, POST_SPEC.keyOf(post), 1, now, now));
    }

    /** Only the author's own post can be patched through the author's path; any other is a 404. */
    Uni<Stored<Post>> patchPost(String uid, String postId, String patch, Long ifMatch) {
        return entities.mergePatch(POST_SPEC, SocialModel.postKey(postId), Post.class, patch, ifMatch,
                Set.of("postId", "userId"), "post " + postId + " of user " + uid, post -> post.userId().equals(uid));
    }

    /** Newest first: 1 Query of gsi1. */
    Uni<Page<PostView>> postsOf(String uid, int limit, String cursor) {
        return store.page(POST_SPEC, SocialModel.postsOf(uid, limit), cursor).map(page -> page.map(PostView::of));
    }

    /** 1 GetItem. */
    Uni<Stored<Post>> post(String postId) {
        return entities.find(POST_SPEC, SocialModel.postKey(postId), "post " + postId);
    }

    /** The post and its first comments: ONE Query (the post sorts right above its comments). */
    Uni<PostWithComments> postWithComments(String postId, int pageSize) {
        return entities.parentWithChildren(SocialModel.postWithComments(postId, pageSize),
                        SocialModel.commentsOf(postId, pageSize), POST_SPEC, COMMENT_SPEC, "post " + postId)
                .map(found -> new PostWithComments(found.parent(), found.children().map(CommentView::of)));
    }

    /** A comment by {@code author}: the post check, the user check and the put are ONE transaction. */
    Uni<Stored<Comment>> comment(String postId, String author, String content) {
        var comment = new Comment(postId, ids.next(), author, content);
        var now = store.now();
        var plan = TransactionPlan.of(List.of(
                WriteAction.check("post", SocialModel.postKey(postId), Expectation.present(null)),
                WriteAction.check("user", SocialModel.userKey(author), Expectation.present(null)),
                WriteAction.create(COMMENT_SPEC, comment, now)));
        return store.transact(plan).replaceWith(new Stored<>(comment, COMMENT_SPEC.keyOf(comment), 1, now, now));
    }

    /** Oldest first, 1 Query per page; the first page also reads the post, so an unknown post is a 404. */
    Uni<Page<CommentView>> comments(String postId, int pageSize, String cursor) {
        if (cursor == null) {
            return postWithComments(postId, pageSize).map(PostWithComments::comments);
        }
        return store.page(COMMENT_SPEC, SocialModel.commentsOf(postId, pageSize), cursor)
                .map(page -> page.map(CommentView::of));
    }
}
