package dev.cairn.service;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.cascade.CascadeSource;
import dev.cairn.core.cascade.CascadeSpec;
import dev.cairn.core.entity.DeleteMark;
import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.entity.Stored;
import dev.cairn.core.job.Job;
import dev.cairn.core.expr.Condition;
import dev.cairn.core.expr.Update;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.write.WriteAction.Expectation;
import dev.cairn.core.write.WriteAction;
import dev.cairn.platform.CairnConfig;
import dev.cairn.platform.MergePatcher;
import dev.cairn.platform.Offload;
import dev.cairn.jobs.CascadeJobs;
import dev.cairn.platform.Http;
import dev.cairn.platform.auth.Caller;
import dev.cairn.platform.limits.CallerLimits;
import dev.cairn.store.CascadeStore;
import dev.cairn.store.CopyBudget;
import dev.cairn.store.Detached;
import dev.cairn.store.EntityStore;
import dev.cairn.store.JobStore;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * A referenced (source) entity changed with a merge patch, and its copies brought up to date (cascade); and the
 * delete guard of referenced entities. Domains say where the copies are and how they render ({@link CascadeSpec}).
 */
@ApplicationScoped
public class CascadeService {

    public enum Mode {
        EVENTUAL, TRANSACTIONAL;

        /** The {@code ?cascade=} parameter: eventual (the default) or transactional. */
        public static Mode of(String value) {
            if (value == null && !Http.sentEmpty("cascade") || "eventual".equals(value)) {
                return EVENTUAL;
            }
            if ("transactional".equals(value)) {
                return TRANSACTIONAL;
            }
            throw Http.invalid("cascade", "must be 'eventual' or 'transactional'");
        }
    }

    /** A source entity to patch and the cascade of its copies. */
    public record Target<T>(EntitySpec<T> spec, Class<T> type, String id, CascadeSpec cascade) {
        public PrimaryKey key() {
            return cascade.sourceKey().apply(id);
        }
    }

    /**
     * What a PATCH did: the entity as stored now (its version is the ETag), the answer's body (the cascade's report
     * and the entity), and {@code runningJob} when the cascade was still running as the answer was due.
     */
    public record Patched<T>(Stored<T> stored, Map<String, Object> body, String runningJob) {
    }

    @Inject EntityStore store;
    @Inject EntityService entities;
    @Inject CascadeStore cascades;
    @Inject CascadeJobs jobs;
    @Inject JobStore jobStore;
    @Inject CairnConfig config;
    @Inject CallerLimits limits;
    @Inject MergePatcher patcher;

    /**
     * Applies a merge patch to the source through the one read-patch-write cycle ({@link EntityService}: If-Match
     * honoured, a concurrent change retried, no change no write) whose write carries the cascade:
     * <ul>
     *   <li>eventual: the source update and a cascade job commit in ONE transaction; the job runs at once here.
     *   When it ends within {@code cairn.jobs.answer-within} the answer is its report; otherwise the job goes on
     *   (on this replica, or on any other if this one dies) and the answer names it with the report so far.</li>
     *   <li>transactional: the source and every copy in ONE transaction, or nothing.</li>
     * </ul>
     * A caller whose cascade copy budget is spent is refused (429) before anything is read: admission reserves one
     * copy, and the cascade takes its copies from that caller's budget before it writes them (a transactional one all
     * at once or 429 with nothing written), giving back what it did not write.
     */
    public <T> Uni<Patched<T>> patch(Target<T> target, String body, Long ifMatch, Mode mode, String what) {
        return patch(target, Offload.forBody(body, current -> patcher.apply(current, target.type(), body, Set.of("id"))),
                ifMatch, mode, what);
    }

    /** As above, for any change of the source (a merge patch, a JSON Patch, a replacement). */
    public <T> Uni<Patched<T>> patch(Target<T> target, UnaryOperator<T> change, Long ifMatch, Mode mode, String what) {
        return patch(target, change, ifMatch, mode, what, Alongside.none());
    }

    /**
     * What goes with a source's change in its own transaction: attributes its item carries beside its value (who wrote
     * it), and writes given the item as read (the unique values it moves, the snapshot of the version it replaces).
     */
    public record Alongside<T>(Map<String, AttributeValue> attributes, Writes<T> writes) {
        public static <T> Alongside<T> none() {
            return new Alongside<>(Map.of(), (item, current, patched, now) -> List.of());
        }
    }

    @FunctionalInterface
    public interface Writes<T> {
        List<WriteAction> of(Map<String, AttributeValue> item, Stored<T> current, T patched, Instant now);
    }

    /**
     * As above, with the writes that go with the source's change in its own transaction ({@code alongside}): with the
     * cascade job's record (eventual), or with every copy (transactional). A refused one refuses the change.
     */
    public <T> Uni<Patched<T>> patch(Target<T> target, UnaryOperator<T> change, Long ifMatch, Mode mode, String what,
                                     Alongside<T> alongside) {
        return Uni.createFrom().deferred(() -> {
            CopyBudget budget = limits.admitCascade(Caller.current().subject());
            var job = new AtomicReference<Job>();
            var report = new AtomicReference<CascadeStore.Report>();
            EntityService.ItemWrite<T> write = (item, current, patched) -> {
                job.set(null);
                report.set(null);
                Instant now = store.now();
                var next = new Stored<>(target.spec().asStored(patched), current.key(), current.version() + 1, current.createdAt(), now);
                var sourceWrites = new ArrayList<WriteAction>();
                sourceWrites.add(WriteAction.put(target.spec(), patched, Expectation.present(current.version()), now,
                        alongside.attributes()));
                sourceWrites.addAll(alongside.writes().of(item, current, patched, now));
                CascadeSource source = new CascadeSource(target.spec().type(), target.id(), next.version(),
                        target.spec().codec().encode(patched));
                Uni<?> written = mode == Mode.EVENTUAL
                        ? jobs.commit(sourceWrites, source).invoke(job::set)
                        : cascades.transactional(sourceWrites, target.cascade().copies().apply(target.id()), source,
                        target.cascade().planner(), budget).invoke(report::set);
                return written.replaceWith(next);
            };
            Uni<Patched<T>> patched = entities.change(target.spec(), target.key(), change, ifMatch, what, value -> true,
                            (current, p) -> { }, write)
                    .chain(stored -> mode == Mode.EVENTUAL ? eventual(stored, job.get(), budget)
                            : Uni.createFrom().item(transactional(stored, report.get())));
            // An eventual cascade's job gives back what it did not use when it ends; anything else, here.
            return patched.onFailure().invoke(budget::close).onCancellation().invoke(budget::close)
                    .invoke(done -> {
                        if (mode == Mode.TRANSACTIONAL) {
                            budget.close();
                        }
                    });
        });
    }

    /** How long a delete holds the entity while it looks for copies (a dead deleter's mark expires after it). */
    static final Duration DELETE_HOLD = Duration.ofSeconds(10);

    /**
     * Deletes a referenced entity only while nothing embeds it (409 StillReferenced with the count otherwise), in
     * three steps: mark it as being deleted ({@link DeleteMark}: 1 UpdateItem, at the If-Match version when given),
     * look for copies (the ref queries), then delete it only under that mark (1 DeleteItem) — or lift the mark when
     * copies exist. A write that copies the entity takes a marked entity as gone and its source guard fails under a
     * mark, so no copy can be committed between the look and the delete. The steps run to their end whether or not
     * the client still waits ({@link Detached}): a client that goes away leaves no mark behind. A deleter that dies
     * leaves a mark that expires after {@link #DELETE_HOLD}: the entity stays, as no client was told otherwise.
     */
    public <T> Uni<Void> delete(Target<T> target, Long ifMatch, String what) {
        return delete(target.key(), ifMatch, what, () -> cascades.findCopies(target.cascade().copies().apply(target.id()),
                target.spec().type()).map(List::size));
    }

    /** As above, for an entity that {@code dependents} items depend on (copies, edges, children): refused while any exist. */
    public Uni<Void> delete(PrimaryKey key, Long ifMatch, String what, Supplier<Uni<Integer>> dependents) {
        return delete(key, ifMatch, what, marked -> List.of(), dependents);
    }

    /**
     * As above, with the writes that go with the delete in its own transaction ({@code alongside}, given the item as
     * marked: the sentinels of its unique values); the delete is then also conditioned on the version it was marked
     * at, so those writes are the ones of the item deleted.
     */
    public Uni<Void> delete(PrimaryKey key, Long ifMatch, String what,
                            java.util.function.Function<Map<String, AttributeValue>, List<WriteAction>> alongside,
                            Supplier<Uni<Integer>> dependents) {
        return Detached.run(() -> {
            Instant now = store.now();
            AttributeValue mark = DeleteMark.until(now.plus(DELETE_HOLD));
            WriteAction marking = WriteAction.updateItem(key, Update.create().set(DeleteMark.ATTRIBUTE, mark),
                    Expectation.ifMatch(ifMatch), DeleteMark.absentOrExpired(now), what);
            var marked = new java.util.concurrent.atomic.AtomicReference<Map<String, AttributeValue>>();
            return store.updated(marking).invoke(marked::set)
                    .chain(() -> dependents.get())
                    .chain(copies -> {
                        if (copies > 0) {
                            WriteAction lift = WriteAction.updateItem(key,
                                    Update.create().remove(DeleteMark.ATTRIBUTE), Expectation.present(null),
                                    Condition.eq(DeleteMark.ATTRIBUTE, mark), what);
                            var stillReferenced = new CairnException(new CairnError.StillReferenced(
                                    what + " is still embedded in " + copies + " item(s)", copies));
                            // The mark is lifted whatever happens to that write: a mark left behind only expires.
                            return store.write(lift).onFailure().recoverWithNull()
                                    .chain(() -> Uni.createFrom().<Void>failure(stillReferenced));
                        }
                        // Still at the If-Match version: a change between the mark and the delete is not deleted.
                        List<WriteAction> along = alongside.apply(marked.get());
                        if (along.isEmpty()) {
                            return store.write(WriteAction.delete(what, key, Expectation.ifMatch(ifMatch))
                                    .and(DeleteMark.heldBy(mark, store.now())));
                        }
                        var actions = new java.util.ArrayList<WriteAction>();
                        actions.add(WriteAction.delete(what, key, ifMatch != null ? Expectation.ifMatch(ifMatch)
                                : Expectation.present(dev.cairn.core.entity.EntitySpec.versionOf(marked.get())))
                                .and(DeleteMark.heldBy(mark, store.now())));
                        actions.addAll(along);
                        return store.transact(dev.cairn.core.write.TransactionPlan.of(actions));
                    });
        });
    }

    /** The job ran (or no job: nothing changed) within the answer's time; otherwise its progress so far, read once. */
    private <T> Uni<Patched<T>> eventual(Stored<T> stored, Job started, CopyBudget budget) {
        if (started == null) {
            budget.close();
            return Uni.createFrom().item(new Patched<>(stored, eventualBody(stored.value(), null), null));
        }
        return jobs.start(started, budget).ifNoItem().after(config.jobs().answerWithin()).recoverWithItem(() -> null)
                .chain(ended -> ended != null
                        // a pass that failed and waits for its automatic retry goes on: 202, like a running job
                        ? Uni.createFrom().item(new Patched<>(stored, eventualBody(stored.value(), ended),
                                ended.state().runnable() ? ended.id() : null))
                        : jobStore.get(started.id()).map(now -> {
                            Job job = now == null ? started : now;
                            return new Patched<>(stored, eventualBody(stored.value(), job), job.id());
                        }));
    }

    /**
     * The eventual answer: the job's report (zeros when nothing changed and no job ran) and the entity. Which copies
     * failed is operators' business, as on {@code GET /cascades/{id}}: a writer who is not an admin sees the counts.
     */
    private static Map<String, Object> eventualBody(Object entity, Job job) {
        var out = new LinkedHashMap<String, Object>();
        out.put("mode", "eventual");
        out.put("job", job == null ? null : job.id());
        out.put("state", job == null ? Job.State.DONE.wire() : job.state().wire());
        var p = job == null ? Job.Progress.start() : job.progress();
        out.put("matched", p.matched());
        out.put("updated", p.updated());
        out.put("skipped", p.skipped());
        out.put("failed", p.failed());
        out.put("failedKeys", Caller.current().has(Caller.Role.ADMIN) ? p.failedKeys() : List.of());
        out.put("entity", entity);
        return out;
    }

    /** The transactional answer: what the one transaction wrote (zeros when nothing changed) and the entity. */
    private static <T> Patched<T> transactional(Stored<T> stored, CascadeStore.Report report) {
        var done = report == null ? new CascadeStore.Report("transactional", 0, 0, 0, 0, List.of()) : report;
        var out = new LinkedHashMap<String, Object>(done.toMap());
        out.put("entity", stored.value());
        return new Patched<>(stored, out, null);
    }
}
