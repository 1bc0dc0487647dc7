package dev.cairn.workspace;

import dev.cairn.core.query.Page;
import dev.cairn.platform.Http;
import dev.cairn.store.EntityStore;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestQuery;

/** Projects across workspaces by status: one Query of gsi1 (eventually consistent), never a Scan. */
@Path("/projects")
@Produces(MediaType.APPLICATION_JSON)
public class ProjectResource {

    private final EntityStore store;

    public ProjectResource(EntityStore store) {
        this.store = store;
    }

    @GET
    public Uni<Page<ProjectView>> byStatus(@RestQuery String status, @RestQuery String limit, @RestQuery String cursor) {
        return store.page(WorkspaceModel.PROJECT, WorkspaceModel.projectsByStatus(status(status), Http.limit(limit)), cursor)
                .map(page -> page.map(ProjectView::of));
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
