package dev.cairn.declared;

import dev.cairn.core.entity.Stored;
import dev.cairn.core.model.DeclaredEntity;
import dev.cairn.core.model.Doc;
import dev.cairn.core.model.EntityModel;
import dev.cairn.service.EntityService;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The write-shard counts of sharded parents (a {@code parent: {shards: field}} declaration) this replica has seen. Safe
 * to cache without invalidation: such a parent is never deleted (the model reader refuses a delete) and its count only
 * grows ({@link DeclaredService} refuses a smaller one), and a child placed under a smaller count stays inside every
 * larger one. A child's create in a known parent therefore needs no read of the parent's item — which would bring
 * every write back to the one partition sharding moves them off.
 */
@ApplicationScoped
public class DeclaredShards {

    private static final int MAX_ENTRIES = 100_000;

    private final ConcurrentHashMap<String, Integer> known = new ConcurrentHashMap<>();
    private final EntityService entities;

    /** Each sharded parent's count field, by the parent's name: asked on every listing of its children. */
    private final Map<String, String> countFields = new HashMap<>();

    public DeclaredShards(EntityService entities, DeclaredModels models) {
        this.entities = entities;
        for (DeclaredEntity entity : models.plan().entities()) {
            EntityModel model = entity.model();
            if (model.parentShards() != null) {
                countFields.putIfAbsent(model.parent().entity(), model.parentShards());
            }
        }
    }

    /** The field of {@code parent} that counts its children's write shards; null when none is sharded. */
    public String countField(DeclaredEntity parent) {
        return countFields.get(parent.name());
    }

    /** The cached count, or null when this replica has not seen the parent. */
    public Integer known(DeclaredEntity parent, String id) {
        return known.get(key(parent.name(), id));
    }

    /** Remembers the count a stored parent holds (only ever the larger of two); answers it. */
    public int remember(DeclaredEntity parent, String id, Doc stored) {
        String field = countField(parent);
        int count = count(stored, field);
        if (known.size() >= MAX_ENTRIES) {
            known.clear();
        }
        known.merge(key(parent.name(), id), count, Math::max);
        return count;
    }

    /** Forgets a parent, as a replica that never saw it (tests of the cold path). */
    public void forget(String entityName, String id) {
        known.remove(key(entityName, id));
    }

    /** The parent's shard count: cached (0 calls), or read with the parent (1 GetItem; 404 if missing). */
    public Uni<Integer> count(DeclaredEntity parent, String id) {
        Integer cached = known(parent, id);
        if (cached != null) {
            return Uni.createFrom().item(cached);
        }
        return entities.find(parent.spec(), parent.key(List.of(id)), parent.describe(List.of(id)))
                .map((Stored<Doc> stored) -> remember(parent, id, stored.value()));
    }

    static int count(Doc doc, String field) {
        Object value = doc.values().get(field);
        return value instanceof Number number ? Math.max(1, number.intValue()) : 1;
    }

    private static String key(String entity, String id) {
        return entity + '\u0000' + id;
    }
}
