package dev.cairn.workspace;

import dev.cairn.core.query.Page;
import dev.cairn.platform.Http;
import dev.cairn.platform.auth.Caller;
import dev.cairn.store.EntityStore;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestQuery;

import java.util.List;

/** Projects across workspaces by status: one Query of gsi1 (eventually consistent), never a Scan. */
@Path("/projects")
@Produces(MediaType.APPLICATION_JSON)
public class ProjectResource {

    private final EntityStore store;

    public ProjectResource(EntityStore store) {
        this.store = store;
    }

    /**
     * A caller scoped to some workspaces sees only their projects (a filter on the same Query, so a page may hold
     * fewer than {@code limit} projects and still have a cursor); a caller scoped to none gets an empty page, 0 calls.
     */
    @GET
    public Uni<Page<ProjectView>> byStatus(@RestQuery String status, @RestQuery String limit, @RestQuery String cursor) {
        ProjectStatus wanted = status(status);
        int pageSize = Http.limit(limit);
        Caller caller = Caller.current();
        if (!caller.allWorkspaces() && caller.workspaceList().isEmpty()) {
            return Uni.createFrom().item(new Page<>(List.of(), null));
        }
        var query = WorkspaceModel.projectsByStatus(wanted, pageSize, caller.allWorkspaces() ? null : caller.workspaceList());
        return store.page(WorkspaceModel.PROJECT, query, cursor).map(page -> page.map(ProjectView::of));
    }

    private static ProjectStatus status(String value) {
        if (value == null) {
            throw Http.invalid("status", "is required: one of ACTIVE, PAUSED, ARCHIVED");
        }
        try {
            return ProjectStatus.valueOf(value);
        } catch (IllegalArgumentException e) {
            throw Http.invalid("status", "must be one of ACTIVE, PAUSED, ARCHIVED");
        }
    }
}
