package dev.cairn.store;

import io.smallrye.mutiny.Uni;

import java.util.function.Supplier;

/**
 * Work that must finish once begun, whether or not its client waits: a write in several steps whose first step
 * takes a guard (a delete's mark, an aggregate write's lease) that only its last step lifts. quarkus-rest cancels a
 * request's pipeline when the client goes away; run through here, the steps go on to their end (and lift the guard)
 * while the request only stops watching.
 */
public final class Detached {

    private Detached() {
    }

    /** Starts {@code work} now, on a subscription of its own, and answers its outcome to whoever still waits. */
    public static <T> Uni<T> run(Supplier<Uni<? extends T>> work) {
        return Uni.createFrom().deferred(() -> {
            Uni<T> running = Uni.createFrom().<T>deferred(work).memoize().indefinitely();
            running.subscribe().with(done -> { }, failure -> { }); // the subscription no client can cancel
            return running;
        });
    }
}
