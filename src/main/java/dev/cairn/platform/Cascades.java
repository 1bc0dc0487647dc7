package dev.cairn.platform;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.cascade.CascadeSource;
import dev.cairn.core.cascade.CascadeSpec;
import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.entity.Stored;
import dev.cairn.core.job.Job;
import dev.cairn.core.write.WriteAction;
import dev.cairn.core.write.WriteAction.Expectation;
import dev.cairn.store.CascadeStore;
import dev.cairn.store.EntityStore;
import dev.cairn.store.JobStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.resteasy.reactive.RestResponse;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * PATCH of a source entity followed by its cascade, and the delete guard of referenced entities. Domains say
 * where the copies are and how they render ({@link CascadeSpec}).
 */
@ApplicationScoped
public class Cascades {

    public enum Mode { EVENTUAL, TRANSACTIONAL }

    /** A source entity to patch and the cascade of its copies. */
    public record Target<T>(EntitySpec<T> spec, Class<T> type, String id, CascadeSpec cascade) {
        public dev.cairn.core.key.PrimaryKey key() {
            return cascade.sourceKey().apply(id);
        }
    }

    private final EntityStore store;
    private final EntityResources entities;
    private final MergePatcher patcher;
    private final CascadeStore cascades;
    private final CascadeJobs jobs;
    private final JobStore jobStore;
    private final CairnConfig config;

    public Cascades(EntityStore store, EntityResources entities, MergePatcher patcher, CascadeStore cascades,
                    CascadeJobs jobs, JobStore jobStore, CairnConfig config) {
        this.store = store;
        this.entities = entities;
        this.patcher = patcher;
        this.cascades = cascades;
        this.jobs = jobs;
        this.jobStore = jobStore;
        this.config = config;
    }

    public static Mode mode(String value) {
        if (value == null || value.equals("eventual")) {
            return Mode.EVENTUAL;
        }
        if (value.equals("transactional")) {
            return Mode.TRANSACTIONAL;
        }
        throw Http.invalid("cascade", "must be 'eventual' or 'transactional'");
    }

    /**
     * Applies a merge patch to the source (If-Match honoured) and brings every copy up to date.
     * <ul>
     *   <li>eventual: the source update and a cascade job commit in ONE transaction; the job runs at once here.
     *   When it ends within {@code cairn.jobs.answer-within} the answer is 200 with its report; otherwise 202 with
     *   {@code Location: /cascades/{job}} and the report so far, and the job goes on (on this replica, or on any
     *   other if this one dies). A patch that changes nothing writes nothing and starts no job.</li>
     *   <li>transactional: the source and every copy in ONE transaction, or nothing.</li>
     * </ul>
     * Either way the answer carries the entity's new version as its ETag.
     */
    public <T> Uni<RestResponse<Map<String, Object>>> patch(Target<T> target, String body, Long ifMatch, Mode mode,
                                                           String what) {
        if (mode == Mode.EVENTUAL) {
            var committed = new AtomicReference<Job>();
            return entities.mergePatch(target.spec(), target.key(), target.type(), body, ifMatch, Set.of("id"), what,
                            value -> true, (current, patched) -> { }, (current, patched) -> {
                                committed.set(null);
                                var next = new Stored<>(patched, current.key(), current.version() + 1,
                                        current.createdAt(), store.now());
                                return jobs.commit(sourceWrite(target, current, patched, store.now()), source(target, next))
                                        .invoke(committed::set).replaceWith(next);
                            })
                    .chain(stored -> {
                        Job job = committed.get();
                        if (job == null) {
                            return Uni.createFrom().item(Responses.ok(stored, answer(stored.value(), null, null)));
                        }
                        return jobs.start(job).ifNoItem().after(config.jobs().answerWithin()).recoverWithItem(() -> null)
                                .chain(ended -> ended != null
                                        ? Uni.createFrom().item(Responses.ok(stored, answer(stored.value(), ended, ended.state())))
                                        : accepted(stored, job));
                    });
        }
        return entities.find(target.spec(), target.key(), what).chain(current -> {
            Http.requireVersion(what, ifMatch, current.version());
            T patched = patcher.apply(current.value(), target.type(), body, Set.of("id"));
            var next = new Stored<>(patched, current.key(), current.version() + 1, current.createdAt(), store.now());
            return cascades.transactional(sourceWrite(target, current, patched, store.now()),
                            target.cascade().copies().apply(target.id()),
                            source(target, next), target.cascade().planner())
                    .map(report -> {
                        var out = new LinkedHashMap<String, Object>(report.toMap());
                        out.put("entity", patched);
                        return Responses.ok(next, (Map<String, Object>) out);
                    });
        });
    }

    /** Deletes a referenced entity only while nothing embeds it (409 StillReferenced with the count otherwise). */
    public <T> Uni<Void> delete(Target<T> target, Long ifMatch, String what) {
        return cascades.findCopies(target.cascade().copies().apply(target.id()), target.spec().type()).chain(copies -> {
            if (!copies.isEmpty()) {
                return Uni.createFrom().failure(new CairnException(new CairnError.StillReferenced(
                        what + " is still embedded in " + copies.size() + " item(s)", copies.size())));
            }
            return store.delete(target.spec(), target.key(), true, ifMatch).replaceWithVoid();
        });
    }

    /** The job is still running: 202 with where to follow it, and what it did so far (read once, consistently). */
    private <T> Uni<RestResponse<Map<String, Object>>> accepted(Stored<T> stored, Job started) {
        return jobStore.get(started.id()).map(now -> {
            Job job = now == null ? started : now;
            return RestResponse.ResponseBuilder.<Map<String, Object>>accepted(answer(stored.value(), job, job.state()))
                    .location(URI.create("/cascades/" + job.id())).header("ETag", Http.etag(stored)).build();
        });
    }

    private static <T> WriteAction sourceWrite(Target<T> target, Stored<T> current, T patched, java.time.Instant now) {
        return WriteAction.put(target.spec(), patched, Expectation.present(current.version()), now);
    }

    private static <T> CascadeSource source(Target<T> target, Stored<T> stored) {
        return new CascadeSource(target.spec().type(), target.id(), stored.version(),
                target.spec().codec().encode(stored.value()));
    }

    /** The eventual answer: the job's report (zeros when nothing changed and no job ran) and the entity. */
    private static Map<String, Object> answer(Object entity, Job job, Job.State state) {
        var out = new LinkedHashMap<String, Object>();
        out.put("mode", "eventual");
        out.put("job", job == null ? null : job.id());
        out.put("state", state == null ? Job.State.DONE.wire() : state.wire());
        var p = job == null ? Job.Progress.start() : job.progress();
        out.put("matched", p.matched());
        out.put("updated", p.updated());
        out.put("skipped", p.skipped());
        out.put("failed", p.failed());
        out.put("failedKeys", p.failedKeys());
        out.put("entity", entity);
        return out;
    }
}
