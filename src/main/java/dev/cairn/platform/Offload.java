package dev.cairn.platform;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

import java.util.function.UnaryOperator;

/**
 * Work that grows with a large request body — parsing a patch of hundreds of KB, applying it, reading the result back —
 * is done on a worker thread, not on the event loop the request's connection is pinned to, where it would hold up
 * every other request of that loop for its duration. It runs on the request's own Vert.x context (so the call
 * ledger and the caller go with it) and its result comes back there. Small changes stay where they are: a hop costs
 * more than they do.
 */
public final class Offload {

    /** A change whose cost follows a large body: {@link #apply} runs it on a worker. */
    public interface Heavy<T> extends UnaryOperator<T> {
    }

    private Offload() {
    }

    /** {@code change}, marked heavy when {@code body} is larger than {@link HeavyBodies#HEAVY_BYTES}. */
    public static <T> UnaryOperator<T> forBody(String body, UnaryOperator<T> change) {
        if (body != null && body.length() > HeavyBodies.HEAVY_BYTES) {
            return (Heavy<T>) change::apply;
        }
        return change;
    }

    /** {@code change}, as heavy as {@code like} is (a wrapper keeps the mark of what it wraps). */
    public static <T> UnaryOperator<T> as(UnaryOperator<?> like, UnaryOperator<T> change) {
        return like instanceof Heavy<?> ? (Heavy<T>) change::apply : change;
    }

    /** {@code change} applied to {@code value}: on a worker of the request's context when it is heavy, here otherwise. */
    public static <T> Uni<T> apply(UnaryOperator<T> change, T value) {
        Context context = Vertx.currentContext();
        if (!(change instanceof Heavy<T>) || context == null || !Context.isOnEventLoopThread()) {
            return Uni.createFrom().item(() -> change.apply(value));
        }
        return Uni.createFrom().emitter(emitter -> context.<T>executeBlocking(() -> change.apply(value), false)
                .onComplete(done -> {
                    if (done.succeeded()) {
                        emitter.complete(done.result());
                    } else {
                        emitter.fail(done.cause());
                    }
                }));
    }
}
