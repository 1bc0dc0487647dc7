package dev.cairn.social;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cairn.core.entity.Stored;
import dev.cairn.core.query.Page;

import java.time.Instant;

/** A post as answered over REST; {@code comments} only with {@code ?include=comments}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PostView(String postId, String userId, String title, String content, Instant createdAt,
                       Instant updatedAt, Page<CommentView> comments) {

    static PostView of(Stored<Post> stored) {
        return of(stored, null);
    }

    static PostView of(Stored<Post> stored, Page<CommentView> comments) {
        Post p = stored.value();
        return new PostView(p.postId(), p.userId(), p.title(), p.content(), stored.createdAt(), stored.updatedAt(), comments);
    }

    public record CommentView(String postId, String commentId, String userId, String content, Instant createdAt) {
        static CommentView of(Stored<Comment> stored) {
            Comment c = stored.value();
            return new CommentView(c.postId(), c.commentId(), c.userId(), c.content(), stored.createdAt());
        }
    }
}
