package dev.cairn.social;

import dev.cairn.core.TimeOrderedIds;
import dev.cairn.platform.DemoData;
import dev.cairn.store.EntityStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Seed 002's example: two users, a few posts, comments on the first one. */
@ApplicationScoped
public class SocialDemoData implements DemoData {

    private final EntityStore store;
    private final TimeOrderedIds ids;

    public SocialDemoData(EntityStore store, TimeOrderedIds ids) {
        this.store = store;
        this.ids = ids;
    }

    @Override
    public Uni<Void> seed() {
        var first = new Post(ids.next(), "alice", "Single-table design in practice", "Keys first, entities second.");
        var second = new Post(ids.next(), "alice", "Why GSIs are eventually consistent", "Replication is asynchronous.");
        return store.create(SocialModel.USER_SPEC, new User("alice", "Alice", "Adams", null))
                .chain(() -> store.create(SocialModel.USER_SPEC, new User("bob", "Bob", "Brown", null)))
                .chain(() -> store.create(SocialModel.POST_SPEC, first))
                .chain(() -> store.create(SocialModel.POST_SPEC, second))
                .chain(() -> store.create(SocialModel.COMMENT_SPEC, new Comment(first.postId(), ids.next(), "bob", "Great read!")))
                .chain(() -> store.create(SocialModel.COMMENT_SPEC, new Comment(first.postId(), ids.next(), "alice", "Thanks, Bob.")))
                .replaceWithVoid();
    }
}
