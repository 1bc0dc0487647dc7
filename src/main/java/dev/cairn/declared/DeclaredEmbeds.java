package dev.cairn.declared;

import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.aggregate.Aggregate.RefCopy;
import dev.cairn.core.aggregate.Aggregate.RefUse;
import dev.cairn.core.aggregate.CopyVersions;
import dev.cairn.core.aggregate.RefSpec;
import dev.cairn.core.entity.Stored;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.model.CopiesModel;
import dev.cairn.core.model.DeclaredEntity;
import dev.cairn.core.model.Doc;
import dev.cairn.core.model.EntityModel;
import dev.cairn.core.model.RefModel;
import dev.cairn.core.write.WriteAction;
import dev.cairn.platform.Http;
import dev.cairn.platform.MergePatcher;
import dev.cairn.service.EntityService;
import dev.cairn.store.AggregateStore;
import dev.cairn.store.EntityStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The writes of an entity whose refs embed WHOLE copies ({@code embed:}): the ids come in the body, every entity
 * named is read with ONE BatchGetItem, and the item is written with the copies, the {@code _refv} of their versions
 * and the source guards of the copies read now — one transaction, run again if a source changed meanwhile (2 calls).
 * A merge patch (or JSON Patch) may name another entity: only a changed ref is read again (1 GetItem, 1 BatchGetItem
 * when a ref changed, 1 write); an unchanged document is not written. A missing entity is a 422 RefNotFound naming
 * the embedded field.
 */
@ApplicationScoped
public class DeclaredEmbeds {

    @Inject EntityStore store;
    @Inject AggregateStore refs;
    @Inject EntityService entities;
    @Inject MergePatcher patcher;
    @Inject DeclaredModels models;

    /** Whether the entity embeds a whole copy of another (its writes are this class's). */
    public static boolean embeds(EntityModel model) {
        return model.refs().stream().anyMatch(ref -> ref.embed() != null);
    }

    /** A new item with its copies: 1 BatchGetItem and 1 transaction (its put and the copies' source guards). */
    public Uni<Stored<Doc>> insert(DeclaredEntity entity, Doc doc) {
        return entities.againOnCollision(hydrate(entity, doc, Map.of())
                .chain(h -> store.create(entity.spec(), h.doc(), h.copyVersions(), h.sourceGuards())));
    }

    /** A merge patch or JSON Patch, written conditioned on the version read; a changed ref is read and copied. */
    public Uni<Stored<Doc>> patch(DeclaredEntity entity, List<String> identity, String what, String body,
                                  String contentType, Long ifMatch) {
        PrimaryKey key = entity.key(identity);
        var immutable = new HashSet<>(entity.model().immutable());
        var shape = DocJson.shape(entity.model().fields());
        return entities.againOnConflict(store.getItem(key, true)
                .onItem().ifNull().failWith(() -> EntityService.notFound(what))
                .chain(item -> {
                    Stored<Doc> current = entity.spec().fromItem(item);
                    EntityService.requireVersion(entity.spec(), current, ifMatch, what);
                    Doc next = patcher.apply(current.value(), shape, body, immutable, contentType);
                    return hydrate(entity, next, known(entity, current.value(), item))
                            .chain(h -> h.doc().equals(current.value()) ? Uni.createFrom().item(current)
                                    : store.replace(entity.spec(), h.doc(), current, h.copyVersions(), h.sourceGuards()));
                }), ifMatch);
    }

    /** A document with its copies, their versions ({@code _refv}) and the guards of the copies read now. */
    private record Hydrated(Doc doc, Map<String, AttributeValue> copyVersions, List<WriteAction> sourceGuards) {
    }

    private Uni<Hydrated> hydrate(DeclaredEntity entity, Doc doc, Map<String, RefCopy> known) {
        var uses = new ArrayList<RefUse>();
        for (RefModel ref : entity.model().refs()) {
            if (ref.embed() != null) {
                uses.add(new RefUse(ref.embed(), refSpec(ref), doc.text(ref.field())));
            }
        }
        return refs.resolve(uses, known).map(resolved -> {
            var values = new LinkedHashMap<>(doc.values());
            var versions = new LinkedHashMap<String, Map.Entry<String, Long>>();
            for (RefUse use : uses) {
                RefCopy copy = resolved.copy(use.ref(), use.id());
                values.put(use.path(), copy.fields());
                versions.put(use.path(), Map.entry(use.ref().entity(), copy.version()));
            }
            return new Hydrated(new Doc(values), Map.of(CopyVersions.ATTRIBUTE, CopyVersions.of(versions)),
                    resolved.sourceGuards());
        });
    }

    /** The copies the item holds, at the versions they were taken: an unchanged ref is not read again. */
    private Map<String, RefCopy> known(DeclaredEntity entity, Doc current, Map<String, AttributeValue> item) {
        var out = new LinkedHashMap<String, RefCopy>();
        for (RefModel ref : entity.model().refs()) {
            if (ref.embed() == null || !(current.get(ref.embed()) instanceof Map<?, ?> copy)) {
                continue;
            }
            @SuppressWarnings("unchecked")
            var fields = (Map<String, Object>) copy;
            long version = CopyVersions.copiesOf(item, ref.entity()).getOrDefault(ref.embed(), 0L);
            out.put(Aggregate.refKey(refSpec(ref), current.text(ref.field())), new RefCopy(fields, version));
        }
        return out;
    }

    /** How the embedded entity is read by id, and the ref-index key its copies carry. */
    private RefSpec<Doc> refSpec(RefModel ref) {
        DeclaredEntity target = models.plan().entity(ref.entity());
        CopiesModel copies = target.model().copies();
        return new RefSpec<>(target.name(), target.spec(), id -> target.key(List.of(id)), copies.index(), copies.key());
    }
}
