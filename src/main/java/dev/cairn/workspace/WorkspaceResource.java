package dev.cairn.workspace;

import dev.cairn.core.query.Page;
import dev.cairn.platform.OpenApiDocs;
import dev.cairn.platform.Http;
import dev.cairn.platform.Responses;
import dev.cairn.platform.auth.Caller;
import dev.cairn.platform.auth.WorkspaceScoped;
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
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.extensions.Extension;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.RestResponse;

/** Seed 000 over HTTP: workspaces and their projects ({@link WorkspaceService}). */
@Tag(name = "Workspaces", description = "Workspaces and their projects, write-sharded for hot partitions")
@Path("/workspaces")
@WorkspaceScoped("id")
@Produces(MediaType.APPLICATION_JSON)
public class WorkspaceResource {

    private final WorkspaceService workspaces;

    public WorkspaceResource(WorkspaceService workspaces) {
        this.workspaces = workspaces;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "createWorkspace", summary = "Create a workspace (optionally write-sharded)")
    public Uni<RestResponse<WorkspaceView>> create(@Valid @NotNull Workspace workspace, @Context UriInfo uri) {
        Caller.current().requireCreatable(workspace.id());
        return workspaces.create(workspace).map(stored -> Responses.created(uri, workspace.id(), stored, WorkspaceView.of(stored)));
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
        int newest = Http.limit(limit); // checked even when nothing is listed: the document gives one range
        if (include == null && !Http.sentEmpty("include")) {
            return workspaces.find(id).map(stored -> Responses.ok(stored, WorkspaceView.of(stored)));
        }
        if (!"projects".equals(include)) {
            throw Http.invalid("include", "must be 'projects'");
        }
        return workspaces.withNewestProjects(id, newest)
                .map(found -> Responses.ok(found.workspace(), WorkspaceView.of(found.workspace(), found.projects())));
    }

    /**
     * A merge patch of the settings. {@code shards} may grow (1 to 32), never shrink: new projects spread over
     * the new count, existing ones stay where their ids say, and listings read every shard.
     */
    @PATCH
    @Path("/{id}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Workspace.class)))
    @Extension(name = OpenApiDocs.IMMUTABLE, value = "id")
    @Operation(operationId = "patchWorkspace", summary = "Change a workspace (shards may only grow)")
    public Uni<RestResponse<WorkspaceView>> patch(@RestPath String id, @RestHeader("If-Match") String ifMatch, String patch) {
        Http.id("id", id);
        return workspaces.patch(id, patch, Http.ifMatch(ifMatch)).map(stored -> Responses.ok(stored, WorkspaceView.of(stored)));
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
        return workspaces.createProject(id, body, Caller.current().author("createdBy", body.createdBy()))
                .map(stored -> Responses.created(uri, stored.value().id(), stored, ProjectView.of(stored)));
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
        return workspaces.projects(id, Http.limit(limit), cursor);
    }

    @GET
    @Path("/{id}/projects/{projectId}")
    @Operation(operationId = "getProject", summary = "Read a project")
    public Uni<RestResponse<ProjectView>> getProject(@RestPath String id, @RestPath String projectId) {
        return workspaces.project(Http.id("id", id), Http.id("projectId", projectId)).map(stored -> Responses.ok(stored, ProjectView.of(stored)));
    }

    @PATCH
    @Path("/{id}/projects/{projectId}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Project.class)))
    @Extension(name = OpenApiDocs.IMMUTABLE, value = "workspaceId,id,createdBy")
    @Operation(operationId = "patchProject", summary = "Change a project")
    public Uni<RestResponse<ProjectView>> patchProject(@RestPath String id, @RestPath String projectId,
                                                       @RestHeader("If-Match") String ifMatch, String patch) {
        return workspaces.patchProject(Http.id("id", id), Http.id("projectId", projectId), patch, Http.ifMatch(ifMatch))
                .map(stored -> Responses.ok(stored, ProjectView.of(stored)));
    }

    @DELETE
    @Path("/{id}/projects/{projectId}")
    // 204 has no body: whatever the client accepts, it can take that (errors are problem+json anyway)
    @Produces(MediaType.WILDCARD)
    @Operation(operationId = "deleteProject", summary = "Delete a project")
    public Uni<RestResponse<Void>> deleteProject(@RestPath String id, @RestPath String projectId,
                                                 @RestHeader("If-Match") String ifMatch) {
        return workspaces.deleteProject(Http.id("id", id), Http.id("projectId", projectId), Http.ifMatch(ifMatch))
                .map(deleted -> Responses.noContent());
    }
}
