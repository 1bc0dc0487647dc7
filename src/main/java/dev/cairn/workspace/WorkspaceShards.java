package dev.cairn.workspace;

import dev.cairn.service.EntityService;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The write-shard count of workspaces this replica has seen. Safe to cache without invalidation: workspaces are
 * never deleted and their shard count only grows, and a project placed under a smaller count stays inside every
 * larger one. A project create in a known workspace therefore needs no read of the workspace item (which would
 * bring every write back to the one partition sharding moves them off).
 */
@ApplicationScoped
public class WorkspaceShards {

    private static final int MAX_ENTRIES = 100_000;

    private final ConcurrentHashMap<String, Integer> known = new ConcurrentHashMap<>();
    private final EntityService entities;

    public WorkspaceShards(EntityService entities) {
        this.entities = entities;
    }

    /** The cached count, or null when this replica has not seen the workspace. */
    Integer known(String workspaceId) {
        return known.get(workspaceId);
    }

    void remember(String workspaceId, int shards) {
        if (known.size() >= MAX_ENTRIES) {
            known.clear();
        }
        known.merge(workspaceId, shards, Math::max);
    }

    /** Forgets a workspace, as a replica that never saw it (tests of the cold path). */
    void forget(String workspaceId) {
        known.remove(workspaceId);
    }

    /** The workspace's shard count: cached (0 calls), or read with the workspace (1 GetItem; 404 if missing). */
    Uni<Integer> count(String workspaceId) {
        Integer cached = known.get(workspaceId);
        if (cached != null) {
            return Uni.createFrom().item(cached);
        }
        return entities.find(WorkspaceModel.WORKSPACE, WorkspaceModel.workspaceKey(workspaceId), "workspace " + workspaceId)
                .map(stored -> {
                    remember(workspaceId, stored.value().shards());
                    return stored.value().shards();
                });
    }
}
