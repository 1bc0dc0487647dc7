package dev.cairn.workspace;

import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.expr.Condition;
import dev.cairn.core.expr.SortCondition;
import dev.cairn.core.item.RecordCodec;
import dev.cairn.core.key.IndexKey;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.query.QuerySpec;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;

/**
 * Seed 000, one-to-many in one partition: {@code WS#<id>} holds the workspace ({@code WORKSPACE}) and its
 * projects ({@code PROJ#<time-ordered id>}). The workspace's sort key sorts above every {@code PROJ#} key, so a
 * descending Query of the partition returns the workspace first and then its newest projects: parent plus
 * newest children in ONE call, at any partition size. gsi1 re-partitions projects by status.
 */
public final class WorkspaceModel {

    static final KeyTemplate WS = KeyTemplate.of("WS#{workspaceId}");
    static final String WORKSPACE_SK = "WORKSPACE";
    static final KeyTemplate PROJ = KeyTemplate.of("PROJ#{projectId}");
    static final KeyTemplate STATUS = KeyTemplate.of("STATUS#{status}");

    static final EntitySpec<Workspace> WORKSPACE = EntitySpec.builder("Workspace", RecordCodec.<Workspace>builder()
                    .string("id", Workspace::id).string("displayName", Workspace::displayName)
                    .string("region", Workspace::region).number("seatLimit", Workspace::seatLimit)
                    .build(f -> new Workspace(f.string("id"), f.string("displayName"), f.string("region"),
                            f.integer("seatLimit"))))
            .key(w -> workspaceKey(w.id()))
            .build();

    static final EntitySpec<Project> PROJECT = EntitySpec.builder("Project", RecordCodec.<Project>builder()
                    .string("workspaceId", Project::workspaceId).string("id", Project::id)
                    .string("title", Project::title).string("status", p -> p.status().name())
                    .string("createdBy", Project::createdBy)
                    .build(f -> new Project(f.string("workspaceId"), f.string("id"), f.string("title"),
                            ProjectStatus.valueOf(f.string("status")), f.string("createdBy"))))
            .key(p -> projectKey(p.workspaceId(), p.id()))
            .index(Index.GSI1, p -> IndexKey.of(STATUS.render(p.status().name()), PROJ.render(p.id())))
            .build();

    private WorkspaceModel() {
    }

    static PrimaryKey workspaceKey(String workspaceId) {
        return PrimaryKey.of(WS.render(workspaceId), WORKSPACE_SK);
    }

    static PrimaryKey projectKey(String workspaceId, String projectId) {
        return PrimaryKey.of(WS.render(workspaceId), PROJ.render(projectId));
    }

    /** A workspace's projects, newest first. */
    static QuerySpec projectsNewestFirst(String workspaceId, int limit) {
        return QuerySpec.table(WS.render(workspaceId)).sort(SortCondition.beginsWith(PROJ.prefix()))
                .descending().limit(limit).consistent().build();
    }

    /** The workspace followed by its newest projects: one Query. */
    static QuerySpec workspaceWithNewestProjects(String workspaceId, int limit) {
        return QuerySpec.table(WS.render(workspaceId)).sort(SortCondition.le(WORKSPACE_SK))
                .descending().limit(limit + 1).consistent().build();
    }

    /** Projects of every workspace with a status, newest first (gsi1, eventually consistent). */
    static QuerySpec projectsByStatus(ProjectStatus status, int limit) {
        return projectsByStatus(status, limit, null);
    }

    /**
     * Projects by status, limited to the given workspaces when not null (a filter, so it is bound into the
     * cursor: a cursor of one tenant's listing cannot be replayed by a caller with another scope).
     */
    static QuerySpec projectsByStatus(ProjectStatus status, int limit, List<String> workspaces) {
        var query = QuerySpec.on(Index.GSI1, STATUS.render(status.name())).sort(SortCondition.beginsWith(PROJ.prefix()))
                .descending().limit(limit);
        if (workspaces != null) {
            query.filter(Condition.in("workspaceId", workspaces.stream().map(AttributeValue::fromS).toList()));
        }
        return query.build();
    }
}
