package dev.cairn.workspace;

import dev.cairn.core.query.Page;
import dev.cairn.platform.Http;
import dev.cairn.platform.auth.Caller;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestQuery;

/** Projects across workspaces by status: a fan-out over the shards of gsi1 (eventually consistent), never a Scan. */
@Tag(name = "Workspaces", description = "Workspaces and their projects, write-sharded for hot partitions")
@Path("/projects")
@Produces(MediaType.APPLICATION_JSON)
public class ProjectResource {

    private final WorkspaceService workspaces;

    public ProjectResource(WorkspaceService workspaces) {
        this.workspaces = workspaces;
    }

    /**
     * One round of parallel Queries, one per shard of the status index ({@code STATUS#ACTIVE}, {@code #01}, …),
     * merged newest first; the cursor keeps each shard's position. A caller scoped to some workspaces sees only their projects (a filter on the same Query, so a page may hold
     * fewer than {@code limit} projects and still have a cursor); a caller scoped to none gets an empty page, 0 calls.
     */
    @GET
    @Parameter(name = "status", in = ParameterIn.QUERY, required = true, schema = @Schema(implementation = ProjectStatus.class))
    @Operation(operationId = "listProjectsByStatus", summary = "Projects in a status, newest first, over every shard of the status index")
    public Uni<Page<ProjectView>> byStatus(@RestQuery String status, @RestQuery String limit, @RestQuery String cursor) {
        ProjectStatus wanted = status(status);
        int pageSize = Http.limit(limit);
        Caller caller = Caller.current();
        return workspaces.byStatus(wanted, pageSize, caller.allWorkspaces() ? null : caller.workspaceList(), cursor);
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
