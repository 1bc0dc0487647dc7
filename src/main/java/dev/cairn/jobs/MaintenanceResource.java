package dev.cairn.jobs;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.job.Job;
import dev.cairn.platform.ApiSchemas;
import dev.cairn.platform.Catalog;
import dev.cairn.platform.Http;
import dev.cairn.platform.OpenApiDocs;
import dev.cairn.platform.auth.AdminOnly;
import dev.cairn.store.JobStore;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.extensions.Extension;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestResponse;

import java.net.URI;
import java.util.Map;

/** One-off maintenance as durable jobs (cairn-admin): the backfill of an aggregate's lists. */
@Tag(name = "Maintenance", description = "One-off data maintenance, run as durable jobs")
@Path("/maintenance")
@Produces(MediaType.APPLICATION_JSON)
public class MaintenanceResource {

    private final ListBackfills backfills;
    private final Catalog catalog;
    private final JobStore jobs;

    public MaintenanceResource(ListBackfills backfills, Catalog catalog, JobStore jobs) {
        this.backfills = backfills;
        this.catalog = catalog;
        this.jobs = jobs;
    }

    /**
     * Starts the job that lists the roots of an aggregate stored before its lists existed (e.g. {@code Match}):
     * 1 PutItem of the job, then detached, per Scan page of 500 items one UpdateItem per root to list and a
     * checkpoint. Safe to start again at any time: roots listed already are left alone.
     */
    @POST
    @AdminOnly
    @Path("aggregates/{aggregate}/list-backfills")
    @Extension(name = OpenApiDocs.ACTION, value = "true", parseValue = true)
    @APIResponse(responseCode = "202", description = "The job is recorded and running: follow it at Location",
            headers = @Header(name = "Location", description = "The job: GET /maintenance/jobs/{id}", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(schema = @Schema(implementation = ApiSchemas.ListBackfillJob.class)))
    @Operation(operationId = "startListBackfill", summary = "Backfill an aggregate's lists (keys and summaries of roots stored before lists existed), as a durable job")
    public Uni<RestResponse<Map<String, Object>>> startListBackfill(@RestPath String aggregate) {
        Aggregate listed = catalog.aggregate(Http.id("aggregate", aggregate));
        if (listed == null || listed.listings().isEmpty()) {
            throw new CairnException(new CairnError.NotFound("no aggregate " + aggregate + " with lists"));
        }
        return backfills.start(listed).map(job -> RestResponse.ResponseBuilder.<Map<String, Object>>accepted(ListBackfills.view(job))
                .location(URI.create("/maintenance/jobs/" + job.id())).build());
    }

    @GET
    @AdminOnly
    @Path("jobs/{id}")
    @APIResponse(responseCode = "200", description = "The job", content = @Content(schema = @Schema(implementation = ApiSchemas.ListBackfillJob.class)))
    @Operation(operationId = "getMaintenanceJob", summary = "Read a maintenance job: its state and counts (1 GetItem)")
    public Uni<Map<String, Object>> job(@RestPath String id) {
        return jobs.get(Http.id("id", id)).map(job -> {
            if (job == null || !Job.LIST_BACKFILL.equals(job.kind())) {
                throw new CairnException(new CairnError.NotFound("maintenance job " + id + " does not exist"));
            }
            return ListBackfills.view(job);
        });
    }
}
