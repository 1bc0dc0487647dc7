package dev.cairn.social;

import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.query.AccessPattern;
import dev.cairn.platform.AccessPatterns;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Map;

@ApplicationScoped
public class SocialAccessPatterns implements AccessPatterns {

    @Override
    public List<AccessPattern> accessPatterns(String table) {
        return List.of(
                AccessPattern.getItem("User profile", "GET /users/{id}", table, SocialModel.userKey("alice")),
                AccessPattern.query("A user's posts, newest first", "GET /users/{uid}/posts", table,
                        SocialModel.postsOf("alice", 20)),
                AccessPattern.getItem("One post", "GET /posts/{postId}", table, SocialModel.postKey("1795315183226815-9p4dt")),
                AccessPattern.query("A post with its first comments", "GET /posts/{postId}?include=comments", table,
                        SocialModel.postWithComments("1795315183226815-9p4dt", 20)),
                AccessPattern.query("A post's comments, oldest first (next pages)", "GET /posts/{postId}/comments", table,
                        SocialModel.commentsOf("1795315183226815-9p4dt", 20)));
    }

    @Override
    public Map<String, KeyTemplate> partitions() {
        return Map.of("user", SocialModel.USER, "post", SocialModel.POST);
    }
}
