package dev.cairn.workspace;

import dev.cairn.core.TimeOrderedIds;
import dev.cairn.core.entity.Stored;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.query.FanOut;
import dev.cairn.core.query.Page;
import dev.cairn.platform.Http;
import dev.cairn.service.EntityService;
import dev.cairn.store.EntityStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.cairn.workspace.WorkspaceModel.PROJECT;
import static dev.cairn.workspace.WorkspaceModel.WORKSPACE;

/** Seed 000's use cases: workspaces and their write-sharded projects, each access pattern one round of requests. */
@ApplicationScoped
public class WorkspaceService {

    @Inject EntityStore store;
    @Inject EntityService entities;
    @Inject TimeOrderedIds ids;
    @Inject WorkspaceShards shards;

    /** A workspace and the first page of its projects, newest first. */
    record WorkspaceWithProjects(Stored<Workspace> workspace, Page<ProjectView> projects) {
    }

    Uni<Stored<Workspace>> create(Workspace workspace) {
        return store.create(WORKSPACE, workspace).invoke(stored -> shards.remember(workspace.id(), workspace.shards()));
    }

    /** The settings: 1 GetItem. */
    Uni<Stored<Workspace>> find(String id) {
        return entities.find(WORKSPACE, WorkspaceModel.workspaceKey(id), "workspace " + id)
                .invoke(stored -> shards.remember(id, stored.value().shards()));
    }

    /**
     * The workspace and the first page of its projects, newest first over every write shard. Shard 0 is the
     * workspace's own partition, read with a Query that also returns the workspace item (it sorts right above the
     * projects), so an unknown workspace is a 404 at no extra cost. The shard count is the cached one (1 when
     * this replica has not seen the workspace); if the workspace item shows more shards, only the missing shards
     * are read in a second round.
     */
    Uni<WorkspaceWithProjects> withNewestProjects(String id, int pageSize) {
        Integer cached = shards.known(id);
        int assumed = cached == null ? 1 : cached;
        FanOut guess = WorkspaceModel.projectShards(id, assumed, pageSize);
        List<FanOut.Position> start = guess.positions(null);
        return store.readShards(guess, start, Map.of(0, WorkspaceModel.workspaceWithNewestProjects(id, pageSize)))
                .chain(pages -> {
                    var shardZero = pages.stream().filter(p -> p.shard() == 0).findFirst().orElseThrow();
                    Map<String, AttributeValue> workspaceItem = shardZero.items().isEmpty() ? null : shardZero.items().get(0);
                    if (workspaceItem == null || !WorkspaceModel.WORKSPACE_SK.equals(PrimaryKey.from(workspaceItem).sk())) {
                        throw EntityService.notFound("workspace " + id);
                    }
                    Stored<Workspace> workspace = WORKSPACE.fromItem(workspaceItem);
                    int actual = workspace.value().shards();
                    shards.remember(id, actual);
                    var projectPages = new ArrayList<FanOut.ShardPage>();
                    projectPages.add(new FanOut.ShardPage(0, shardZero.items().subList(1, shardZero.items().size()),
                            shardZero.lastEvaluatedKey()));
                    pages.stream().filter(p -> p.shard() != 0).forEach(projectPages::add);
                    if (actual <= assumed) {
                        return Uni.createFrom().item(page(workspace, guess, start, projectPages));
                    }
                    FanOut full = WorkspaceModel.projectShards(id, actual, pageSize);
                    List<FanOut.Position> fullStart = full.positions(null);
                    var missing = new ArrayList<>(fullStart);
                    for (int shard = 0; shard < assumed; shard++) {
                        missing.set(shard, FanOut.Position.DONE_POSITION);
                    }
                    return store.readShards(full, missing, Map.of()).map(more -> {
                        projectPages.addAll(more);
                        return page(workspace, full, fullStart, projectPages);
                    });
                });
    }

    private WorkspaceWithProjects page(Stored<Workspace> workspace, FanOut listing, List<FanOut.Position> start,
                                       List<FanOut.ShardPage> pages) {
        Page<ProjectView> projects = store.mergedPage(listing, start, pages)
                .map(item -> ProjectView.of(PROJECT.fromItem(item)));
        return new WorkspaceWithProjects(workspace, projects);
    }

    /**
     * A merge patch of the settings. {@code shards} may grow (1 to 32), never shrink: new projects spread over
     * the new count, existing ones stay where their ids say, and listings read every shard.
     */
    Uni<Stored<Workspace>> patch(String id, String patch, Long ifMatch) {
        return entities.mergePatch(WORKSPACE, WorkspaceModel.workspaceKey(id), Workspace.class, patch, ifMatch,
                        Set.of("id"), "workspace " + id, value -> true,
                        (current, patched) -> {
                            if (patched.shards() < current.shards()) {
                                throw Http.invalid("shards", "can only grow (it is " + current.shards()
                                        + "): projects already live in every shard up to that count");
                            }
                        })
                .invoke(stored -> shards.remember(id, stored.value().shards()));
    }

    /**
     * Creates a project in an existing workspace: ONE conditional PutItem into the write shard the new id hashes
     * to, when this replica knows the workspace; otherwise the workspace is read first (404 if missing).
     * Workspaces are never deleted, so a known workspace needs no existence check on the hot partition.
     */
    Uni<Stored<Project>> createProject(String id, Project.New body, String author) {
        return shards.count(id).chain(count -> store.create(PROJECT, new Project(id,
                WorkspaceModel.projectIdFor(ids.next(), count), body.title(), body.status(), author)));
    }

    /**
     * Newest first. The first page reads the workspace too (404 for an unknown one); every page is one round of
     * parallel Queries, one per write shard still holding projects, merged newest first. The cursor keeps each
     * shard's position.
     */
    Uni<Page<ProjectView>> projects(String id, int pageSize, String cursor) {
        if (cursor == null) {
            return withNewestProjects(id, pageSize).map(WorkspaceWithProjects::projects);
        }
        return store.fanOutPage(count -> WorkspaceModel.projectShards(id, count, pageSize), 1, cursor)
                .map(page -> page.map(item -> ProjectView.of(PROJECT.fromItem(item))));
    }

    Uni<Stored<Project>> project(String id, String projectId) {
        return entities.find(PROJECT, WorkspaceModel.projectKey(id, projectId), "project " + projectId);
    }

    Uni<Stored<Project>> patchProject(String id, String projectId, String patch, Long ifMatch) {
        return entities.mergePatch(PROJECT, WorkspaceModel.projectKey(id, projectId), Project.class, patch, ifMatch,
                Set.of("workspaceId", "id", "createdBy"), "project " + projectId);
    }

    Uni<Void> deleteProject(String id, String projectId, Long ifMatch) {
        return store.delete(PROJECT, WorkspaceModel.projectKey(id, projectId), true, ifMatch,
                "project " + projectId + " of workspace " + id).replaceWithVoid();
    }

    /**
     * Projects in a status, newest first: one round of parallel Queries, one per shard of the status index,
     * merged; the cursor keeps each shard's position. {@code scope} limits it to some workspaces (a filter on the
     * same Query, so a page may hold fewer than {@code limit} projects and still have a cursor); null is every
     * workspace, an empty scope is an empty page at 0 calls.
     */
    Uni<Page<ProjectView>> byStatus(ProjectStatus status, int pageSize, List<String> scope, String cursor) {
        if (scope != null && scope.isEmpty()) {
            return Uni.createFrom().item(new Page<>(List.of(), null));
        }
        return store.fanOutPage(count -> WorkspaceModel.projectsByStatusShards(status, count, pageSize, scope),
                        WorkspaceModel.statusShards(), cursor)
                .map(page -> page.map(item -> ProjectView.of(PROJECT.fromItem(item))));
    }
}
