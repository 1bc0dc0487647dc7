package dev.cairn.social;

import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.expr.SortCondition;
import dev.cairn.core.item.RecordCodec;
import dev.cairn.core.key.IndexKey;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.query.QuerySpec;

/**
 * Seed 002: {@code USER#<id>}/{@code PROFILE}; a post and its comments share {@code POST#<postId>} (the post at
 * {@code POST}, each comment at {@code POST#COMMENT#<time-ordered id>}, right after it), so a post with its
 * first comments is one ascending Query. gsi1 ({@code USER#<id>} / {@code POST#<postId>}) lists a user's posts.
 */
public final class SocialModel {

    static final KeyTemplate USER = KeyTemplate.of("USER#{userId}");
    static final KeyTemplate POST = KeyTemplate.of("POST#{postId}");
    static final String POST_SK = "POST";
    static final KeyTemplate COMMENT = KeyTemplate.of("POST#COMMENT#{commentId}");

    static final EntitySpec<User> USER_SPEC = EntitySpec.builder("User", RecordCodec.<User>builder()
                    .string("id", User::id).string("firstName", User::firstName).string("lastName", User::lastName)
                    .string("profilePicture", User::profilePicture)
                    .build(f -> new User(f.string("id"), f.string("firstName"), f.string("lastName"), f.string("profilePicture"))))
            .key(u -> userKey(u.id()))
            .build();

    static final EntitySpec<Post> POST_SPEC = EntitySpec.builder("Post", RecordCodec.<Post>builder()
                    .string("postId", Post::postId).string("userId", Post::userId).string("title", Post::title)
                    .string("content", Post::content)
                    .build(f -> new Post(f.string("postId"), f.string("userId"), f.string("title"), f.string("content"))))
            .key(p -> postKey(p.postId()))
            .index(Index.GSI1, p -> IndexKey.of(USER.render(p.userId()), POST.render(p.postId())))
            .build();

    static final EntitySpec<Comment> COMMENT_SPEC = EntitySpec.builder("Comment", RecordCodec.<Comment>builder()
                    .string("postId", Comment::postId).string("commentId", Comment::commentId)
                    .string("userId", Comment::userId).string("content", Comment::content)
                    .build(f -> new Comment(f.string("postId"), f.string("commentId"), f.string("userId"), f.string("content"))))
            .key(c -> PrimaryKey.of(POST.render(c.postId()), COMMENT.render(c.commentId())))
            .build();

    private SocialModel() {
    }

    static PrimaryKey userKey(String userId) {
        return PrimaryKey.of(USER.render(userId), "PROFILE");
    }

    static PrimaryKey postKey(String postId) {
        return PrimaryKey.of(POST.render(postId), POST_SK);
    }

    /** A user's posts, newest first: one Query of gsi1 (eventually consistent). */
    static QuerySpec postsOf(String userId, int limit) {
        return QuerySpec.on(Index.GSI1, USER.render(userId)).sort(SortCondition.beginsWith(POST.prefix()))
                .descending().limit(limit).build();
    }

    /** A post's comments, oldest first. */
    static QuerySpec commentsOf(String postId, int limit) {
        return QuerySpec.table(POST.render(postId)).sort(SortCondition.beginsWith(COMMENT.prefix()))
                .limit(limit).consistent().build();
    }

    /** The post followed by its oldest comments: one Query. */
    static QuerySpec postWithComments(String postId, int limit) {
        return QuerySpec.table(POST.render(postId)).sort(SortCondition.ge(POST_SK))
                .limit(limit + 1).consistent().build();
    }
}
