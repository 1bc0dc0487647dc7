package dev.cairn.service;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.entity.ItemCollection;
import dev.cairn.core.entity.Stored;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.query.Page;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.platform.CairnConfig;
import dev.cairn.platform.Http;
import dev.cairn.platform.MergePatcher;
import dev.cairn.platform.Offload;
import dev.cairn.store.EntityStore;
import dev.cairn.store.StoreMetrics;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.Map;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The use cases every domain shares: a read that is a 404 when absent, and the read-patch-write cycle of every
 * PATCH — a strongly consistent read, the merge patch applied and validated, then a write conditioned on the
 * version that was read. With {@code If-Match} a different version is a 412; without it a concurrent change
 * makes the whole cycle run again ({@code cairn.retries.patch-attempts}), so nothing is lost. A patch that
 * changes nothing writes nothing and keeps the version.
 */
@ApplicationScoped
public class EntityService {

    @Inject EntityStore store;
    @Inject MergePatcher patcher;
    @Inject CairnConfig config;
    @Inject StoreMetrics metrics;

    /** The write of a patched value: must be conditioned on {@code current.version()}. */
    @FunctionalInterface
    public interface PatchWrite<T> extends BiFunction<Stored<T>, T, Uni<Stored<T>>> {
    }

    public <T> Uni<Stored<T>> find(EntitySpec<T> spec, PrimaryKey key, String what) {
        return store.get(spec, key, true).onItem().ifNull().failWith(() -> notFound(what));
    }

    public <T> Uni<Stored<T>> mergePatch(EntitySpec<T> spec, PrimaryKey key, Class<T> type, String body,
                                         Long ifMatch, Set<String> immutable, String what) {
        return mergePatch(spec, key, type, body, ifMatch, immutable, what, value -> true);
    }

    /** As above, for an item the caller may only see when {@code visible} holds (otherwise NotFound). */
    public <T> Uni<Stored<T>> mergePatch(EntitySpec<T> spec, PrimaryKey key, Class<T> type, String body,
                                         Long ifMatch, Set<String> immutable, String what, Predicate<T> visible) {
        return mergePatch(spec, key, type, body, ifMatch, immutable, what, visible, (current, patched) -> { });
    }

    /** As above, with a rule on the change itself ({@code rule(current, patched)} throws to refuse it). */
    public <T> Uni<Stored<T>> mergePatch(EntitySpec<T> spec, PrimaryKey key, Class<T> type, String body,
                                         Long ifMatch, Set<String> immutable, String what, Predicate<T> visible,
                                         BiConsumer<T, T> rule) {
        return mergePatch(spec, key, type, body, ifMatch, immutable, what, visible, rule,
                (current, patched) -> store.put(spec, patched, current.version()));
    }

    /** As above, with the write itself given (a VersionConflict makes the cycle run again when there is no If-Match). */
    public <T> Uni<Stored<T>> mergePatch(EntitySpec<T> spec, PrimaryKey key, Class<T> type, String body,
                                         Long ifMatch, Set<String> immutable, String what, Predicate<T> visible,
                                         BiConsumer<T, T> rule, PatchWrite<T> write) {
        return change(spec, key, Offload.forBody(body, current -> patcher.apply(current, type, body, immutable)), ifMatch,
                what, visible, rule, write);
    }

    /**
     * The one read-change-write cycle: a strongly consistent read, the If-Match check, {@code change} (a merge patch,
     * a JSON Patch, a replacement) applied and checked, then {@code write} conditioned on the version read — or no
     * write when nothing changed.
     */
    public <T> Uni<Stored<T>> change(EntitySpec<T> spec, PrimaryKey key, UnaryOperator<T> change, Long ifMatch,
                                     String what, Predicate<T> visible, BiConsumer<T, T> rule, PatchWrite<T> write) {
        return change(spec, key, change, ifMatch, what, visible, rule, (item, current, patched) -> write.apply(current, patched));
    }

    /** The write of a change given the item as read, all of it: its system attributes too (a version's writer). */
    @FunctionalInterface
    public interface ItemWrite<T> {
        Uni<Stored<T>> apply(Map<String, AttributeValue> item, Stored<T> current, T patched);
    }

    /** {@link #change}, whose write is given the item as read. */
    public <T> Uni<Stored<T>> change(EntitySpec<T> spec, PrimaryKey key, UnaryOperator<T> change, Long ifMatch,
                                     String what, Predicate<T> visible, BiConsumer<T, T> rule, ItemWrite<T> write) {
        Uni<Stored<T>> attempt = store.getItem(key, true).onItem().ifNull().failWith(() -> notFound(what)).chain(item -> {
            Stored<T> current = spec.fromItem(item);
            if (!visible.test(current.value())) {
                return Uni.createFrom().failure(notFound(what));
            }
            requireVersion(spec, current, ifMatch, what);
            return Offload.apply(change, current.value()).chain(patched -> {
                rule.accept(current.value(), patched);
                if (patched.equals(current.value())) {
                    return Uni.createFrom().item(current);
                }
                return write.apply(item, current, patched);
            });
        });
        return againOnConflict(attempt, ifMatch);
    }

    /** A stale If-Match is a 412 that carries the item as read, so the answer can show it to a caller who may read it. */
    public static <T> void requireVersion(EntitySpec<T> spec, Stored<T> current, Long ifMatch, String what) {
        if (ifMatch != null && ifMatch != current.version()) {
            throw new CairnException(new CairnError.VersionConflict(what + " is at version " + current.version()
                    + ", not " + ifMatch, ifMatch, current.version(), true,
                    spec.toItem(current.value(), current.version(), current.createdAt(), current.updatedAt())));
        }
    }

    /** {@link #change} written as a put at the version read. */
    public <T> Uni<Stored<T>> change(EntitySpec<T> spec, PrimaryKey key, UnaryOperator<T> change, Long ifMatch, String what) {
        return change(spec, key, change, ifMatch, what, value -> true, (current, patched) -> { },
                (current, patched) -> store.put(spec, patched, current.version()));
    }

    /**
     * A read-patch-write {@code cycle} run again from its read when another write slipped in between, unless the
     * caller stated the version it patches (If-Match: then the conflict is its answer); and, after a short jittered
     * pause on the request's own context, whenever it collided ({@link #againOnCollision}).
     */
    public <T> Uni<T> againOnConflict(Uni<T> cycle, Long ifMatch) {
        if (ifMatch == null) {
            return again(cycle, true, 1);
        }
        // Under If-Match a write that lost the race to another names a version that is gone: its precondition
        // failed (412), exactly as if it had arrived a moment later.
        return again(cycle, false, 1).onFailure(e -> e instanceof CairnException ce
                        && ce.error() instanceof CairnError.VersionConflict conflict && !conflict.precondition())
                .transform(e -> new CairnException(((CairnError.VersionConflict) ((CairnException) e).error()).asPrecondition()));
    }

    /**
     * A write {@code cycle} run again from its reads, after a short jittered pause on the request's own context,
     * when it collided: its transaction met another one (TransactionConflict), or a source it copied changed before
     * it committed (RefChanged: the cycle reads the source again and copies its current version).
     */
    public <T> Uni<T> againOnCollision(Uni<T> cycle) {
        return again(cycle, false, 1);
    }

    private <T> Uni<T> again(Uni<T> cycle, boolean afterVersionConflict, int attempt) {
        return cycle.onFailure().invoke(e -> {
                    if (e instanceof CairnException ce && ce.error() instanceof CairnError.RefChanged changed) {
                        metrics.copyGuardCaught(changed.refEntity());
                    }
                })
                .onFailure(e -> attempt < config.retries().patchAttempts()
                        && (collided(e) || afterVersionConflict && CairnException.is(e, CairnError.VersionConflict.class)))
                .recoverWithUni(e -> (collided(e) ? store.pause(jittered(store.settings().retries().pauseAfter(attempt)))
                        : Uni.createFrom().voidItem()).chain(() -> again(cycle, afterVersionConflict, attempt + 1)));
    }

    /** Between half and all of {@code pause}: two writers that collided do not meet again at the same instant. */
    private static Duration jittered(Duration pause) {
        long millis = Math.max(1, pause.toMillis());
        return Duration.ofMillis(ThreadLocalRandom.current().nextLong(millis / 2, millis + 1));
    }

    /**
     * Another transaction touched the same items at the same instant (DynamoDB's TransactionConflict): nothing was
     * decided, so the cycle runs again — also under If-Match, whose condition the next write checks again.
     */
    private static boolean collided(Throwable failure) {
        return failure instanceof CairnException e && e.error().status() == 409 && e.error().retryable();
    }

    /** A parent and the first page of its children, read together. */
    public record ParentPage<P, C>(Stored<P> parent, Page<Stored<C>> children) {
    }

    /**
     * ONE Query that returns the parent item and then its first children (the parent's sort key sits right next to
     * theirs); NotFound when the parent is absent. The next-page cursor continues as {@code children}.
     */
    public <P, C> Uni<ParentPage<P, C>> parentWithChildren(QuerySpec together, QuerySpec children, EntitySpec<P> parent,
                                                           EntitySpec<C> child, java.util.function.Supplier<String> what) {
        return store.page(together, null, children).map(page -> {
            ItemCollection items = ItemCollection.decode(page.items(), List.of(parent, child));
            Stored<P> found = items.single(parent);
            if (found == null) {
                throw notFound(what.get());
            }
            return new ParentPage<>(found, new Page<>(items.all(child), page.next()));
        });
    }

    public static CairnException notFound(String what) {
        return new CairnException(new CairnError.NotFound(what + " does not exist"));
    }
}
