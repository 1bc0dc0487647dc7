package dev.cairn.workspace;

import dev.cairn.core.TimeOrderedIds;
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

import java.util.List;
import java.util.Set;

import static dev.cairn.workspace.WorkspaceModel.PROJECT;
import static dev.cairn.workspace.WorkspaceModel.WORKSPACE;

/** Seed 000: workspaces and their projects, each access pattern one DynamoDB request. */
@Path("/workspaces")
@WorkspaceScoped("id")
@Produces(MediaType.APPLICATION_JSON)
public class WorkspaceResource {

    private final EntityStore store;
    private final EntityResources entities;
    private final TimeOrderedIds ids;

    public WorkspaceResource(EntityStore store, EntityResources entities, TimeOrderedIds ids) {
        this.store = store;
        this.entities = entities;
        this.ids = ids;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<RestResponse<WorkspaceView>> create(@Valid @NotNull Workspace workspace, @Context UriInfo uri) {
        Caller.current().requireCreatable(workspace.id());
        return store.create(WORKSPACE, workspace)
                .map(stored -> Responses.created(uri, workspace.id(), stored, WorkspaceView.of(stored)));
    }

    /** The settings (1 GetItem), or with {@code ?include=projects} the settings and newest projects (1 Query). */
    @GET
    @Path("/{id}")
    public Uni<RestResponse<WorkspaceView>> get(@RestPath String id, @RestQuery String include, @RestQuery String limit) {
        Http.id("id", id);
        if (include == null) {
            return entities.find(WORKSPACE, WorkspaceModel.workspaceKey(id), "workspace " + id)
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

    /** ONE Query: the workspace, then its newest projects; NotFound when the workspace does not exist. */
    private Uni<WorkspaceWithProjects> workspaceWithNewestProjects(String id, int pageSize) {
        return entities.parentWithChildren(WorkspaceModel.workspaceWithNewestProjects(id, pageSize),
                        WorkspaceModel.projectsNewestFirst(id, pageSize), WORKSPACE, PROJECT, "workspace " + id)
                .map(found -> new WorkspaceWithProjects(found.parent(), found.children().map(ProjectView::of)));
    }

    @PATCH
    @Path("/{id}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    public Uni<RestResponse<WorkspaceView>> patch(@RestPath String id, @RestHeader("If-Match") String ifMatch, String patch) {
        Http.id("id", id);
        return entities.mergePatch(WORKSPACE, WorkspaceModel.workspaceKey(id), Workspace.class, patch,
                        Http.ifMatch(ifMatch), Set.of("id"), "workspace " + id)
                .map(stored -> Responses.ok(stored, WorkspaceView.of(stored)));
    }

    /** Creates a project under an existing workspace: the existence check and the put are ONE transaction. */
    @POST
    @Path("/{id}/projects")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<RestResponse<ProjectView>> createProject(@RestPath String id, @Valid @NotNull Project.New body,
                                                        @Context UriInfo uri) {
        Http.id("id", id);
        var project = new Project(id, ids.next(), body.title(), body.status(), body.createdBy());
        var now = store.now();
        var plan = TransactionPlan.of(List.of(
                WriteAction.check("workspace", WorkspaceModel.workspaceKey(id), Expectation.present(null)),
                WriteAction.create(PROJECT, project, now)));
        var stored = new Stored<>(project, PROJECT.keyOf(project), 1, now, now);
        return store.transact(plan)
                .map(done -> Responses.created(uri, project.id(), stored, ProjectView.of(stored)));
    }

    /**
     * Newest first, 1 Query per page. The first page also reads the workspace item (it sorts just above the
     * projects), so an unknown workspace is a 404 at no extra cost; later pages run begins_with PROJ#, descending.
     */
    @GET
    @Path("/{id}/projects")
    public Uni<Page<ProjectView>> listProjects(@RestPath String id, @RestQuery String limit, @RestQuery String cursor) {
        Http.id("id", id);
        int pageSize = Http.limit(limit);
        if (cursor == null) {
            return workspaceWithNewestProjects(id, pageSize).map(WorkspaceWithProjects::projects);
        }
        return store.page(PROJECT, WorkspaceModel.projectsNewestFirst(id, pageSize), cursor)
                .map(page -> page.map(ProjectView::of));
    }

    @GET
    @Path("/{id}/projects/{projectId}")
    public Uni<RestResponse<ProjectView>> getProject(@RestPath String id, @RestPath String projectId) {
        return entities.find(PROJECT, projectKey(id, projectId), "project " + projectId)
                .map(stored -> Responses.ok(stored, ProjectView.of(stored)));
    }

    @PATCH
    @Path("/{id}/projects/{projectId}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    public Uni<RestResponse<ProjectView>> patchProject(@RestPath String id, @RestPath String projectId,
                                                       @RestHeader("If-Match") String ifMatch, String patch) {
        return entities.mergePatch(PROJECT, projectKey(id, projectId), Project.class, patch, Http.ifMatch(ifMatch),
                        Set.of("workspaceId", "id"), "project " + projectId)
                .map(stored -> Responses.ok(stored, ProjectView.of(stored)));
    }

    @DELETE
    @Path("/{id}/projects/{projectId}")
    public Uni<RestResponse<Void>> deleteProject(@RestPath String id, @RestPath String projectId,
                                                 @RestHeader("If-Match") String ifMatch) {
        return store.delete(PROJECT, projectKey(id, projectId), true, Http.ifMatch(ifMatch))
                .map(deleted -> Responses.noContent());
    }

    private static dev.cairn.core.key.PrimaryKey projectKey(String id, String projectId) {
        return WorkspaceModel.projectKey(Http.id("id", id), Http.id("projectId", projectId));
    }
}
