package dev.cairn.jobs;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.cascade.CascadeSource;
import dev.cairn.core.job.Job;
import dev.cairn.core.query.Page;
import dev.cairn.platform.ApiSchemas;
import dev.cairn.platform.Http;
import dev.cairn.platform.OpenApiDocs;
import dev.cairn.platform.auth.AdminOnly;
import dev.cairn.platform.auth.Caller;
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
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.RestResponse;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Cascade jobs: one by id (1 GetItem), or a page of those in a state (1 Query per shard of the job index). */
@Tag(name = "Cascades", description = "Cascade jobs: the durable runs that bring copies up to date")
@Path("/cascades")
@Produces(MediaType.APPLICATION_JSON)
public class CascadeJobResource {

    private final JobStore jobs;
    private final CascadeJobs cascades;

    public CascadeJobResource(JobStore jobs, CascadeJobs cascades) {
        this.jobs = jobs;
        this.cascades = cascades;
    }

    /**
     * Runs a failed cascade job again from the start (its copies already current are skipped): 1 GetItem and 1
     * conditional UpdateItem, then any replica's worker claims it at its next poll. Only a failed job: 409 otherwise.
     */
    @POST
    @AdminOnly
    @Path("{id}/retry")
    @Extension(name = OpenApiDocs.ACTION, value = "true", parseValue = true)
    @APIResponse(responseCode = "202", description = "The job waits for a worker: follow it at Location",
            headers = @Header(name = "Location", description = "The job: GET /cascades/{id}", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(schema = @Schema(implementation = ApiSchemas.CascadeJob.class)))
    @APIResponse(responseCode = "409", description = "The job is not failed: it is pending, running or done")
    @Operation(operationId = "retryCascadeJob", summary = "Run a failed cascade job again")
    public Uni<RestResponse<Map<String, Object>>> retry(@RestPath String id) {
        return jobs.get(Http.id("id", id)).chain(job -> {
            if (job == null || !Job.CASCADE.equals(job.kind())) {
                throw new CairnException(new CairnError.NotFound("cascade " + id + " does not exist"));
            }
            return cascades.retry(job).chain(retried -> {
                if (!retried) {
                    throw new CairnException(new CairnError.Conflict("cascade " + id + " is " + job.state().wire()
                            + ": only a failed job can be retried"));
                }
                return jobs.get(id);
            });
        }).map(job -> RestResponse.ResponseBuilder.<Map<String, Object>>accepted(view(job, true))
                .location(URI.create("/cascades/" + id)).build());
    }

    @GET
    @Path("{id}")
    @APIResponse(responseCode = "200", description = "The job", content = @Content(schema = @Schema(implementation = ApiSchemas.CascadeJob.class)))
    @Operation(operationId = "getCascadeJob", summary = "Read a cascade job: its state and progress")
    public Uni<Map<String, Object>> job(@RestPath String id) {
        return jobs.get(Http.id("id", id))
                .map(job -> {
                    if (job == null || !Job.CASCADE.equals(job.kind())) {
                        throw new CairnException(new CairnError.NotFound("cascade " + id + " does not exist"));
                    }
                    return view(job, Caller.current().has(Caller.Role.ADMIN));
                });
    }

    /** {@code state}: pending, running, done or failed (default running); finished ones newest first. Operators only. */
    @GET
    @AdminOnly
    @APIResponse(responseCode = "200", description = "OK", content = @Content(schema = @Schema(implementation = ApiSchemas.CascadeJobPage.class)))
    @Parameter(name = "state", in = ParameterIn.QUERY, schema = @Schema(enumeration = {"pending", "running", "done", "failed"}, defaultValue = "running"))
    @Operation(operationId = "listCascadeJobs", summary = "Cascade jobs in a state")
    public Uni<Page<Map<String, Object>>> list(@RestQuery String state, @RestQuery String limit, @RestQuery String cursor) {
        Job.State wanted = state(state);
        return jobs.list(wanted, Http.limit(limit), cursor)
                .map(page -> new Page<>(page.items().stream().filter(j -> Job.CASCADE.equals(j.kind()))
                        .map(job -> view(job, true)).toList(), page.next()));
    }

    /** A {@code state} query parameter: running when absent, else exactly one of the states' names (lower case). */
    static Job.State state(String value) {
        return state(value, false);
    }

    /** The {@code state} parameter (default running); {@code cancelled} only where jobs can be cancelled. */
    static Job.State state(String value, boolean cancellable) {
        if (value == null && !Http.sentEmpty("state")) {
            return Job.State.RUNNING;
        }
        Job.State state = Job.State.ofWire(value);
        if (state == null || state == Job.State.CANCELLED && !cancellable) {
            throw Http.invalid("state", cancellable ? "must be pending, running, done, failed or cancelled"
                    : "must be pending, running, done or failed");
        }
        return state;
    }

    /**
     * The job as the API shows it. Which copies failed and which replica holds the lease are operators' business:
     * a non-admin (e.g. the writer following its 202) sees the counts, no keys and no host names.
     */
    static Map<String, Object> view(Job job, boolean operator) {
        CascadeSource source = CascadeSource.fromAttributes(job.target());
        var out = new LinkedHashMap<String, Object>();
        out.put("id", job.id());
        out.put("state", job.state().wire());
        out.put("source", Map.of("entity", source.entity(), "id", source.id(), "version", source.version()));
        var p = job.progress();
        out.put("pages", p.pages());
        out.put("matched", p.matched());
        out.put("updated", p.updated());
        out.put("skipped", p.skipped());
        out.put("failed", p.failed());
        out.put("failedKeys", operator ? p.failedKeys() : List.of());
        out.put("createdAt", job.createdAt() == null ? null : job.createdAt().toString());
        out.put("updatedAt", job.updatedAt() == null ? null : job.updatedAt().toString());
        out.put("finishedAt", job.finishedAt() == null ? null : job.finishedAt().toString());
        out.put("retries", job.retries());
        out.put("nextAttemptAt", job.state() == Job.State.PENDING && job.nextAttemptAt() != null
                ? job.nextAttemptAt().toString() : null);
        out.put("settles", job.settles());
        out.put("settledAt", job.settledAt() == null ? null : job.settledAt().toString());
        out.put("owner", job.lease() == null || !operator ? null : job.lease().owner());
        out.put("leaseUntil", job.lease() == null || !operator ? null : job.lease().until().toString());
        return out;
    }
}
