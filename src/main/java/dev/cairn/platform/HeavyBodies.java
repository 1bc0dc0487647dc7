package dev.cairn.platform;

import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.impl.HttpServerRequestInternal;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * Requests with a large body (over {@value #HEAVY_BYTES} bytes, or of unknown length) cost CPU in proportion to it —
 * reading, parsing, patching, validating a document of up to the body limit — so they are admitted a few at a time:
 * at most {@code permits} at once (half the cores), the rest waiting their turn in a bounded queue (their bodies
 * wait, unread, in their connection), and past the queue a 503 with Retry-After. However many callers send large
 * bodies, the other cores stay free for everything else. A request holds its permit until its answer is sent or its
 * connection is gone. An HTTP/2 request never waits: its stream's unread body would hold the connection's flow
 * control window, which the admitted streams of the same connection need to send theirs; it is admitted or 503.
 */
final class HeavyBodies {

    /** Smaller bodies are read and handled at once: a real edit of an entity is a few KB. */
    static final long HEAVY_BYTES = 64 * 1024;

    private final int permits;
    private final int queue;
    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
    private int inUse;

    private record Waiting(RoutingContext ctx, Runnable proceed) {
    }

    HeavyBodies(int permits, int queue) {
        this.permits = Math.max(1, permits);
        this.queue = Math.max(0, queue);
    }

    static HeavyBodies forThisMachine() {
        int permits = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
        return new HeavyBodies(permits, 16 * permits);
    }

    static boolean heavy(long declaredLength) {
        return declaredLength < 0 || declaredLength > HEAVY_BYTES;
    }

    /**
     * Runs {@code proceed} now if a permit is free, later when one is, or answers {@code refuse} when the queue is
     * full.
     */
    void admit(RoutingContext ctx, Runnable proceed, Consumer<RoutingContext> refuse) {
        boolean now;
        synchronized (this) {
            now = inUse < permits;
            if (now) {
                inUse++;
            } else if (waiting.size() < queue && ctx.request().version() != HttpVersion.HTTP_2) {
                var turn = new Waiting(ctx, proceed);
                waiting.add(turn);
                ctx.response().closeHandler(gone -> leave(turn));
                return;
            }
        }
        if (now) {
            run(ctx, proceed);
        } else {
            refuse.accept(ctx);
        }
    }

    private synchronized void leave(Waiting turn) {
        waiting.remove(turn);
    }

    private void run(RoutingContext ctx, Runnable proceed) {
        ctx.addEndHandler(ended -> release());
        proceed.run();
    }

    private void release() {
        Waiting next;
        synchronized (this) {
            next = waiting.poll();
            while (next != null && next.ctx().response().closed()) {
                next = waiting.poll(); // its client left while it waited
            }
            if (next == null) {
                inUse--;
                return;
            }
        }
        Waiting turn = next; // the permit passes to it
        // on the request's own context (its event loop), as if it had been admitted on arrival
        ((HttpServerRequestInternal) turn.ctx().request()).context().runOnContext(go -> run(turn.ctx(), turn.proceed()));
    }

    /** Requests holding a permit now (for tests). */
    synchronized int inUse() {
        return inUse;
    }
}
