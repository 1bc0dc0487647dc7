package dev.cairn.platform;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.cascade.CascadePlanner;
import dev.cairn.core.cascade.CascadeSource;
import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.entity.Stored;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.core.write.WriteAction;
import dev.cairn.core.write.WriteAction.Expectation;
import dev.cairn.store.CascadeStore;
import dev.cairn.store.EntityStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * PATCH of a source entity followed by its cascade, and the delete guard of referenced entities. Domains say
 * where the copies are (queries of a ref index or a partition) and how they render (the planner).
 */
@ApplicationScoped
public class Cascades {

    public enum Mode { EVENTUAL, TRANSACTIONAL }

    /** Where the copies of one entity are, and how to write them. */
    public record Target<T>(EntitySpec<T> spec, Class<T> type, PrimaryKey key, String id,
                            List<QuerySpec> copies, CascadePlanner planner) {
    }

    private final EntityStore store;
    private final EntityResources entities;
    private final MergePatcher patcher;
    private final CascadeStore cascades;
    private final CairnConfig config;

    public Cascades(EntityStore store, EntityResources entities, MergePatcher patcher, CascadeStore cascades,
                    CairnConfig config) {
        this.store = store;
        this.entities = entities;
        this.patcher = patcher;
        this.cascades = cascades;
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
     * Applies a merge patch to the source (If-Match honoured) and brings every copy up to date. The answer holds
     * the updated entity and the cascade report; an eventual cascade with failures is a 503 CascadeIncomplete
     * (the source is updated; repeating the same PATCH completes the cascade, skipping current copies).
     */
    public <T> Uni<Map<String, Object>> patch(Target<T> target, String body, Long ifMatch, Mode mode, String what) {
        if (mode == Mode.EVENTUAL) {
            return entities.mergePatch(target.spec(), target.key(), target.type(), body, ifMatch, Set.of("id"), what)
                    .chain(stored -> cascades.eventual(target.copies(), source(target, stored), target.planner(),
                                    config.cascade().concurrency())
                            .map(report -> answer(stored.value(), report)));
        }
        return entities.find(target.spec(), target.key(), what).chain(current -> {
            Http.requireVersion(what, ifMatch, current.version());
            T patched = patcher.apply(current.value(), target.type(), body, Set.of("id"));
            var next = new Stored<>(patched, current.key(), current.version() + 1, current.createdAt(), store.now());
            WriteAction sourceWrite = WriteAction.put(target.spec(), patched, Expectation.present(current.version()), store.now());
            return cascades.transactional(sourceWrite, target.copies(), source(target, next), target.planner())
                    .map(report -> answer(patched, report));
        });
    }

    /** Deletes a referenced entity only while nothing embeds it (409 StillReferenced with the count otherwise). */
    public <T> Uni<Void> delete(Target<T> target, Long ifMatch, String what) {
        return cascades.findCopies(target.copies(), target.spec().type()).chain(copies -> {
            if (!copies.isEmpty()) {
                return Uni.createFrom().failure(new CairnException(new CairnError.StillReferenced(
                        what + " is still embedded in " + copies.size() + " item(s)", copies.size())));
            }
            return store.delete(target.spec(), target.key(), true, ifMatch).replaceWithVoid();
        });
    }

    private static <T> CascadeSource source(Target<T> target, Stored<T> stored) {
        return new CascadeSource(target.spec().type(), target.id(), stored.version(),
                target.spec().codec().encode(stored.value()));
    }

    private static Map<String, Object> answer(Object entity, CascadeStore.Report report) {
        if (report.failed() > 0) {
            var detail = new LinkedHashMap<String, Object>(report.toMap());
            detail.put("entity", entity);
            throw new CairnException(new CairnError.CascadeIncomplete(report.failed() + " of " + report.matched()
                    + " copies could not be updated; the entity itself is updated. Repeat the same PATCH to finish.",
                    detail));
        }
        var out = new LinkedHashMap<String, Object>(report.toMap());
        out.put("entity", entity);
        return out;
    }
}
