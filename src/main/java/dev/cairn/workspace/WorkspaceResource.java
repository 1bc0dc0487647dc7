package dev.cairn.workspace;

import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import dev.cairn.core.TableSpec;
import dev.cairn.core.TimeOrderedIds;
import dev.cairn.core.query.FanOut;
import dev.cairn.core.entity.Stored;
import dev.cairn.core.query.Page;
import dev.cairn.core.write.TransactionPlan;
import dev.cairn.core.write.WriteAction;
import dev.cairn.core.write.WriteAction.Expectation;
import dev.cairn.platform.EntityResources;
import dev.cairn.platform.Http;
import dev.cairn.platform.Responses;
import dev.cairn.platform.auth.Caller;
import dev.cairn.platform.auth.WorkspaceScoped;
import dev.cairn.store.EntityStore;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.RestResponse;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.cairn.workspace.WorkspaceModel.PROJECT;
import static dev.cairn.workspace.WorkspaceModel.WORKSPACE;

/** Seed 000: workspaces and their projects, each access pattern one DynamoDB request. */
@Tag(name = "Workspaces", description = "Workspaces and their projects, write-sharded for hot partitions")
@Path("/workspaces")
@WorkspaceScoped("id")
@Produces(MediaType.APPLICATION_JSON)
public class WorkspaceResource {

    private final EntityStore store;
    private final EntityResources entities;
    private final TimeOrderedIds ids;
    private final WorkspaceShards shards;

    public WorkspaceResource(EntityStore store, EntityResources entities, TimeOrderedIds ids, WorkspaceShards shards) {
        this.store = store;
        this.entities = entities;
        this.ids = ids;
        this.shards = shards;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "createWorkspace", summary = "Create a workspace (optionally write-sharded)")
    public Uni<RestResponse<WorkspaceView>> create(@Valid @NotNull Workspace workspace, @Context UriInfo uri) {
        Caller.current().requireCreatable(workspace.id());
        return store.create(WORKSPACE, workspace)
                .invoke(stored -> shards.remember(workspace.id(), workspace.shards()))
                .map(stored -> Responses.created(uri, workspace.id(), stored, WorkspaceView.of(stored)));
    }

    /**
     * The settings (1 GetItem), or with {@code ?include=projects} the settings and newest projects: one round of
     * parallel Queries, one per write shard, the first of which also returns the workspace item.
     */
    @GET
    @Path("/{id}")
    @Parameter(name = "include", in = ParameterIn.QUERY, schema = @Schema(enumeration = {"projects"}))
    @Operation(operationId = "getWorkspace", summary = "Read a workspace, optionally with its newest projects (include=projects)")
    public Uni<RestResponse<WorkspaceView>> get(@RestPath String id, @RestQuery String include, @RestQuery String limit) {
        Http.id("id", id);
        if (include == null) {
            return entities.find(WORKSPACE, WorkspaceModel.workspaceKey(id), "workspace " + id)
                    .invoke(stored -> shards.remember(id, stored.value().shards()))
                    .map(stored -> Responses.ok(stored, WorkspaceView.of(stored)));
        }
        if (!include.equals("projects")) {
            throw Http.invalid("include", "must be 'projects'");
        }
        return workspaceWithNewestProjects(id, Http.limit(limit))
                .map(found -> Responses.ok(found.workspace(), WorkspaceView.of(found.workspace(), found.projects())));
    }

    private record WorkspaceWithProjects(Stored<Workspace> workspace, Page<ProjectView> projects) {
    }

    /**
     * The workspace and the first page of its projects, newest first over every write shard. Shard 0 is the
     * workspace's own partition, read with a Query that also returns the workspace item (it sorts right above the
     * projects), so an unknown workspace is a 404 at no extra cost. The shard count is the cached one (1 when
     * this replica has not seen the workspace); if the workspace item shows more shards, only the missing shards
     * are read in a second round.
     */
    private Uni<WorkspaceWithProjects> workspaceWithNewestProjects(String id, int pageSize) {
        Integer cached = shards.known(id);
        int assumed = cached == null ? 1 : cached;
        FanOut guess = WorkspaceModel.projectShards(id, assumed, pageSize);
        List<FanOut.Position> start = guess.positions(null);
        return store.readShards(guess, start, Map.of(0, WorkspaceModel.workspaceWithNewestProjects(id, pageSize)))
                .chain(pages -> {
                    var shardZero = pages.stream().filter(p -> p.shard() == 0).findFirst().orElseThrow();
                    Map<String, AttributeValue> workspaceItem = shardZero.items().isEmpty() ? null : shardZero.items().get(0);
                    if (workspaceItem == null || !WorkspaceModel.WORKSPACE_SK.equals(workspaceItem.get(TableSpec.SK).s())) {
                        throw EntityResources.notFound("workspace " + id);
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
    @PATCH
    @Path("/{id}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Workspace.class)))
    @Operation(operationId = "patchWorkspace", summary = "Change a workspace (shards may only grow)")
    public Uni<RestResponse<WorkspaceView>> patch(@RestPath String id, @RestHeader("If-Match") String ifMatch, String patch) {
        Http.id("id", id);
        return entities.mergePatch(WORKSPACE, WorkspaceModel.workspaceKey(id), Workspace.class, patch,
                        Http.ifMatch(ifMatch), Set.of("id"), "workspace " + id, value -> true,
                        (current, patched) -> {
                            if (patched.shards() < current.shards()) {
                                throw Http.invalid("shards", "can only grow (it is " + current.shards()
                                        + "): projects already live in every shard up to that count");
                            }
                        })
                .invoke(stored -> shards.remember(id, stored.value().shards()))
                .map(stored -> Responses.ok(stored, WorkspaceView.of(stored)));
    }

    /**
     * Creates a project in an existing workspace: ONE conditional PutItem into the write shard the new id hashes
     * to, when this replica knows the workspace; otherwise the workspace is read first (404 if missing).
     * Workspaces are never deleted, so a known workspace needs no existence check on the hot partition.
     */
    @POST
    @Path("/{id}/projects")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "createProject", summary = "Create a project in a workspace")
    public Uni<RestResponse<ProjectView>> createProject(@RestPath String id, @Valid @NotNull Project.New body,
                                                        @Context UriInfo uri) {
        Http.id("id", id);
        return shards.count(id).chain(count -> {
            var project = new Project(id, WorkspaceModel.projectIdFor(ids.next(), count), body.title(), body.status(),
                    body.createdBy());
            return store.create(PROJECT, project)
                    .map(stored -> Responses.created(uri, project.id(), stored, ProjectView.of(stored)));
        });
    }

    /**
     * Newest first. The first page reads the workspace too (404 for an unknown one); every page is one round of
     * parallel Queries, one per write shard still holding projects, merged newest first. The cursor keeps each
     * shard's position.
     */
    @GET
    @Path("/{id}/projects")
    @APIResponse(responseCode = "404", description = "No such workspace")
    @APIResponse(responseCode = "200", description = "One page of the projects, newest first", content = @Content(schema = @Schema(ref = "PageProjectView")))
    @Operation(operationId = "listWorkspaceProjects", summary = "A workspace's projects, newest first, over all its shards")
    public Uni<Page<ProjectView>> listProjects(@RestPath String id, @RestQuery String limit, @RestQuery String cursor) {
        Http.id("id", id);
        int pageSize = Http.limit(limit);
        if (cursor == null) {
            return workspaceWithNewestProjects(id, pageSize).map(WorkspaceWithProjects::projects);
        }
        return store.fanOutPage(count -> WorkspaceModel.projectShards(id, count, pageSize), 1, cursor)
                .map(page -> page.map(item -> ProjectView.of(PROJECT.fromItem(item))));
    }

    @GET
    @Path("/{id}/projects/{projectId}")
    @Operation(operationId = "getProject", summary = "Read a project")
    public Uni<RestResponse<ProjectView>> getProject(@RestPath String id, @RestPath String projectId) {
        return entities.find(PROJECT, projectKey(id, projectId), "project " + projectId)
                .map(stored -> Responses.ok(stored, ProjectView.of(stored)));
    }

    @PATCH
    @Path("/{id}/projects/{projectId}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Project.class)))
    @Operation(operationId = "patchProject", summary = "Change a project")
    public Uni<RestResponse<ProjectView>> patchProject(@RestPath String id, @RestPath String projectId,
                                                       @RestHeader("If-Match") String ifMatch, String patch) {
        return entities.mergePatch(PROJECT, projectKey(id, projectId), Project.class, patch, Http.ifMatch(ifMatch),
                        Set.of("workspaceId", "id"), "project " + projectId)
                .map(stored -> Responses.ok(stored, ProjectView.of(stored)));
    }

    @DELETE
    @Path("/{id}/projects/{projectId}")
    @Operation(operationId = "deleteProject", summary = "Delete a project")
    public Uni<RestResponse<Void>> deleteProject(@RestPath String id, @RestPath String projectId,
                                                 @RestHeader("If-Match") String ifMatch) {
        return store.delete(PROJECT, projectKey(id, projectId), true, Http.ifMatch(ifMatch))
                .map(deleted -> Responses.noContent());
    }

    private static dev.cairn.core.key.PrimaryKey projectKey(String id, String projectId) {
        return WorkspaceModel.projectKey(Http.id("id", id), Http.id("projectId", projectId));
    }
}
