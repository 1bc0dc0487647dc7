package dev.cairn.workspace;

import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.expr.Condition;
import dev.cairn.core.expr.SortCondition;
import dev.cairn.core.item.RecordCodec;
import dev.cairn.core.key.IndexKey;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.key.WriteShards;
import dev.cairn.core.query.FanOut;
import dev.cairn.core.query.QuerySpec;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * Seed 000, one-to-many in one partition: {@code WS#<id>} holds the workspace ({@code WORKSPACE}) and its
 * projects ({@code PROJ#<time-ordered id>}). The workspace's sort key sorts above every {@code PROJ#} key, so a
 * descending Query of the partition returns the workspace first and then its newest projects: parent plus
 * newest children in ONE call, at any partition size. gsi1 re-partitions projects by status.
 */
public final class WorkspaceModel {

    static final KeyTemplate WS = KeyTemplate.of("WS#{workspaceId}");
    /** Write shard k ≥ 1 of a workspace; shard 0 is the workspace's own partition. */
    static final KeyTemplate WS_SHARD = KeyTemplate.of("WS#{workspaceId}#{shard}");
    static final KeyTemplate STATUS_SHARD = KeyTemplate.of("STATUS#{status}#{shard}");
    public static final int MAX_SHARDS = 32;
    private static final Pattern SHARDED_ID = Pattern.compile(".*_(\\d{2})");
    /** Shards of the status index (cairn.workspace.status-shards); set once at startup, only ever grown. */
    private static volatile int statusShards = 1;
    static final String WORKSPACE_SK = "WORKSPACE";
    static final KeyTemplate PROJ = KeyTemplate.of("PROJ#{projectId}");
    static final KeyTemplate STATUS = KeyTemplate.of("STATUS#{status}");

    static final EntitySpec<Workspace> WORKSPACE = EntitySpec.builder("Workspace", RecordCodec.<Workspace>builder()
                    .string("id", Workspace::id).string("displayName", Workspace::displayName)
                    .string("region", Workspace::region).number("seatLimit", Workspace::seatLimit)
                    .number("shards", Workspace::shards)
                    .build(f -> new Workspace(f.string("id"), f.string("displayName"), f.string("region"),
                            f.integer("seatLimit"), f.integer("shards"))))
            .key(w -> workspaceKey(w.id()))
            .build();

    static final EntitySpec<Project> PROJECT = EntitySpec.builder("Project", RecordCodec.<Project>builder()
                    .string("workspaceId", Project::workspaceId).string("id", Project::id)
                    .string("title", Project::title).string("status", p -> p.status().name())
                    .string("createdBy", Project::createdBy)
                    .build(f -> new Project(f.string("workspaceId"), f.string("id"), f.string("title"),
                            ProjectStatus.valueOf(f.string("status")), f.string("createdBy"))))
            .key(p -> projectKey(p.workspaceId(), p.id()))
            .index(Index.GSI1, p -> IndexKey.of(statusPartition(p.status(), shardOf(p.id(), statusShards)),
                    PROJ.render(p.id())))
            .build();

    private WorkspaceModel() {
    }

    static PrimaryKey workspaceKey(String workspaceId) {
        return PrimaryKey.of(WS.render(workspaceId), WORKSPACE_SK);
    }

    /** A project lives in the write shard its id names (ids of sharded workspaces end in {@code _NN}). */
    static PrimaryKey projectKey(String workspaceId, String projectId) {
        return PrimaryKey.of(workspacePartition(workspaceId, shardOfId(projectId)), PROJ.render(projectId));
    }

    static String workspacePartition(String workspaceId, int shard) {
        return shard == 0 ? WS.render(workspaceId) : WS_SHARD.render(workspaceId, twoDigits(shard));
    }

    static String statusPartition(ProjectStatus status, int shard) {
        return shard == 0 ? STATUS.render(status.name()) : STATUS_SHARD.render(status.name(), twoDigits(shard));
    }

    /**
     * The id of a new project of a workspace with {@code shards} write shards: the time-ordered id itself when
     * unsharded, else the id plus {@code _NN}, NN = a stable hash of the id modulo the shard count. The shard
     * travels with the id, so reading a project by id never needs the shard count (1 GetItem), and growing the
     * shard count never moves a project.
     */
    static String projectIdFor(String timeOrderedId, int shards) {
        return shards <= 1 ? timeOrderedId : timeOrderedId + "_" + twoDigits(shardOf(timeOrderedId, shards));
    }

    /** The write shard a project id names; 0 for unsharded ids (and for anything that is not a shard suffix). */
    static int shardOfId(String projectId) {
        var matcher = SHARDED_ID.matcher(projectId);
        if (!matcher.matches()) {
            return 0;
        }
        int shard = Integer.parseInt(matcher.group(1));
        return shard < MAX_SHARDS ? shard : 0;
    }

    /** Stable across JVMs and releases: CRC-32 of the UTF-8 id. */
    static int shardOf(String id, int shards) {
        return WriteShards.of(id, shards);
    }

    private static String twoDigits(int shard) {
        return shard < 10 ? "0" + shard : Integer.toString(shard);
    }

    static int statusShards() {
        return statusShards;
    }

    static void statusShards(int shards) {
        if (shards < 1 || shards > MAX_SHARDS) {
            throw new IllegalArgumentException("status shards must be 1 to " + MAX_SHARDS);
        }
        statusShards = shards;
    }

    /** A workspace's projects, newest first (its unsharded partition). */
    static QuerySpec projectsNewestFirst(String workspaceId, int limit) {
        return projectsNewestFirst(workspaceId, 0, limit);
    }

    /** The projects of one write shard, newest first. */
    static QuerySpec projectsNewestFirst(String workspaceId, int shard, int limit) {
        return QuerySpec.table(workspacePartition(workspaceId, shard)).sort(SortCondition.beginsWith(PROJ.prefix()))
                .descending().limit(limit).consistent().build();
    }

    /** Every write shard's listing, for a fan-out read. */
    static FanOut projectShards(String workspaceId, int shards, int limit) {
        return FanOut.of(IntStream.range(0, shards)
                .mapToObj(shard -> projectsNewestFirst(workspaceId, shard, limit)).toList());
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
        return projectsByStatus(status, 0, limit, workspaces);
    }

    static QuerySpec projectsByStatus(ProjectStatus status, int shard, int limit, List<String> workspaces) {
        var query = QuerySpec.on(Index.GSI1, statusPartition(status, shard)).sort(SortCondition.beginsWith(PROJ.prefix()))
                .descending().limit(limit);
        if (workspaces != null) {
            query.filter(Condition.in("workspaceId", workspaces.stream().map(AttributeValue::fromS).toList()));
        }
        return query.build();
    }

    /** The status listing over every shard of the status index, for a fan-out read. */
    static FanOut projectsByStatusShards(ProjectStatus status, int shards, int limit, List<String> workspaces) {
        return FanOut.of(IntStream.range(0, shards)
                .mapToObj(shard -> projectsByStatus(status, shard, limit, workspaces)).toList());
    }
}
