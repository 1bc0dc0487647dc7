package dev.cairn.workspace;

import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.query.AccessPattern;
import dev.cairn.platform.AccessPatterns;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

@ApplicationScoped
public class WorkspaceAccessPatterns implements AccessPatterns {

    @Override
    public List<AccessPattern> accessPatterns(String table) {
        return List.of(
                AccessPattern.getItem("Workspace settings", "GET /workspaces/{id}", table, WorkspaceModel.workspaceKey("acme")),
                AccessPattern.query("Workspace with its newest projects", "GET /workspaces/{id}?include=projects", table,
                        WorkspaceModel.workspaceWithNewestProjects("acme", 20)),
                AccessPattern.query("List projects newest first", "GET /workspaces/{id}/projects",
                        table, WorkspaceModel.projectsNewestFirst("acme", 20)),
                AccessPattern.getItem("One project", "GET /workspaces/{id}/projects/{projectId}", table,
                        WorkspaceModel.projectKey("acme", "2026-0042")),
                AccessPattern.query("Projects by status across workspaces", "GET /projects?status={status}", table,
                        WorkspaceModel.projectsByStatus(ProjectStatus.ACTIVE, 20)));
    }

    @Override
    public Map<String, KeyTemplate> partitions() {
        return Map.of("workspace", WorkspaceModel.WS);
    }

    /** A workspace's partition and its write shards belong to that workspace. */
    @Override
    public Optional<String> tenantOf(String partitionKey) {
        return Stream.of(WorkspaceModel.WS, WorkspaceModel.WS_SHARD).filter(t -> t.matches(partitionKey)).findFirst()
                .map(t -> t.decode(partitionKey).get(0).toString());
    }
}
