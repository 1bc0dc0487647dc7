package dev.cairn.jobs;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.cascade.CascadeSpec;
import dev.cairn.core.job.Job;
import dev.cairn.core.query.Page;
import dev.cairn.platform.ApiSchemas;
import dev.cairn.platform.CairnConfig;
import dev.cairn.platform.Catalog;
import dev.cairn.platform.Http;
import dev.cairn.platform.OpenApiDocs;
import dev.cairn.platform.auth.AdminOnly;
import dev.cairn.platform.auth.Caller;
import dev.cairn.store.JobStore;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.extensions.Extension;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.RestResponse;

import java.net.URI;
import java.util.Map;

/**
 * Maintenance as durable jobs (cairn-admin): the backfill of an aggregate's lists, the backfill of an entity's unique
 * values, the reconcile of copies.
 */
@Tag(name = "Maintenance", description = "One-off data maintenance, run as durable jobs")
@Path("/maintenance")
@Produces(MediaType.APPLICATION_JSON)
public class MaintenanceResource {

    private final Backfills backfills;
    private final Reconciles reconciles;
    private final Catalog catalog;
    private final JobStore jobs;
    private final CairnConfig config;

    public MaintenanceResource(Backfills backfills, Reconciles reconciles, Catalog catalog, JobStore jobs,
                               CairnConfig config) {
        this.backfills = backfills;
        this.reconciles = reconciles;
        this.catalog = catalog;
        this.jobs = jobs;
        this.config = config;
    }

    /**
     * Starts the job that lists the roots of an aggregate stored before its lists existed (e.g. {@code Match}):
     * 1 TransactWriteItems of the job and its scan slot, then detached, per Scan page of 500 items one UpdateItem per
     * root to list and a checkpoint. Safe to start again at any time: roots listed already are left alone.
     */
    @POST
    @AdminOnly
    @Path("aggregates/{aggregate}/list-backfills")
    @Extension(name = OpenApiDocs.ACTION, value = "true", parseValue = true)
    @APIResponse(responseCode = "202", description = "The job is recorded and running: follow it at Location",
            headers = @Header(name = "Location", description = "The job: GET /maintenance/jobs/{id}", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(schema = @Schema(implementation = ApiSchemas.ListBackfillJob.class)))
    @APIResponse(responseCode = "409", description = "MaintenanceBusy: as many jobs scanning the table as "
            + "cairn.reconcile.max-scans allows run already (`runningJobs`); nothing was started")
    @Operation(operationId = "startListBackfill", summary = "Backfill an aggregate's lists (keys and summaries of roots stored before lists existed), as a durable job")
    public Uni<RestResponse<Map<String, Object>>> startListBackfill(@RestPath String aggregate) {
        Caller.current().requireAllWorkspaces("a list backfill");
        Aggregate listed = catalog.aggregate(Http.id("aggregate", aggregate));
        if (listed == null || listed.listings().isEmpty()) {
            throw new CairnException(new CairnError.NotFound("no aggregate " + aggregate + " with lists"));
        }
        return backfills.start(listed).map(job -> RestResponse.ResponseBuilder.<Map<String, Object>>accepted(Backfills.listView(job))
                .location(URI.create("/maintenance/jobs/" + job.id())).build());
    }

    /**
     * Starts the job that takes the sentinels of an entity's items stored before a unique constraint was declared
     * (e.g. {@code Member}): 1 TransactWriteItems of the job and its scan slot, then detached, per Scan page of 500
     * items ONE TransactWriteItems per value to take (the item at the version read, the sentinel put while free or
     * the item's own) and a checkpoint. A value another item holds is left to it and counted as failed, naming both.
     * Safe to start again at any time: values taken already are left alone.
     */
    @POST
    @AdminOnly
    @Path("entities/{entity}/unique-backfills")
    @Extension(name = OpenApiDocs.ACTION, value = "true", parseValue = true)
    @APIResponse(responseCode = "202", description = "The job is recorded and running: follow it at Location",
            headers = @Header(name = "Location", description = "The job: GET /maintenance/jobs/{id}", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(schema = @Schema(implementation = ApiSchemas.UniqueBackfillJob.class)))
    @APIResponse(responseCode = "409", description = "MaintenanceBusy: as many jobs scanning the table as "
            + "cairn.reconcile.max-scans allows run already (`runningJobs`); nothing was started")
    @Operation(operationId = "startUniqueBackfill", summary = "Backfill an entity's unique values (the sentinels of items stored before a constraint was declared), as a durable job")
    public Uni<RestResponse<Map<String, Object>>> startUniqueBackfill(@RestPath String entity) {
        Caller.current().requireAllWorkspaces("a unique backfill");
        Backfills.Kind kind = backfills.kind(Job.UNIQUE_BACKFILL);
        var target = kind == null ? null : kind.target(Http.id("entity", entity));
        if (target == null) {
            throw new CairnException(new CairnError.NotFound("no entity " + entity + " with unique values"));
        }
        return backfills.start(Job.UNIQUE_BACKFILL, target).map(job -> RestResponse.ResponseBuilder
                .<Map<String, Object>>accepted(kind.view(job)).location(URI.create("/maintenance/jobs/" + job.id())).build());
    }

    /**
     * Starts the job that rewrites every copy older than its source's current version: 1 PutItem of the job (1
     * TransactWriteItems with its scan slot when it Scans the table), then detached, paced to {@code rate} copies
     * checked per second. One source reads its copy queries; an entity type
     * or everything Scans the table (every item read, copies or not) and per page reads the distinct sources with
     * ONE strongly consistent BatchGetItem. Only stale copies are written. Safe to start again at any time.
     */
    @POST
    @AdminOnly
    @Path("reconcile")
    @Consumes(MediaType.APPLICATION_JSON)
    @Extension(name = OpenApiDocs.ACTION, value = "true", parseValue = true)
    @APIResponse(responseCode = "202", description = "The job is recorded and running: follow it at Location",
            headers = @Header(name = "Location", description = "The job: GET /maintenance/jobs/{id}", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(schema = @Schema(implementation = ApiSchemas.ReconcileJob.class)))
    @APIResponse(responseCode = "409", description = "MaintenanceBusy: a reconcile of an entity type or of everything "
            + "Scans the table, and as many such jobs as cairn.reconcile.max-scans allows run already (`runningJobs`); "
            + "nothing was started")
    @Operation(operationId = "startReconcile", summary = "Reconcile copies with their sources (one source, one entity type or everything), as a durable, paced job")
    public Uni<RestResponse<Map<String, Object>>> startReconcile(@Valid @NotNull ReconcileRequest body) {
        Caller.current().requireAllWorkspaces("a reconcile");
        return reconciles.start(scope(body)).map(job -> RestResponse.ResponseBuilder.<Map<String, Object>>accepted(Reconciles.view(job))
                .location(URI.create("/maintenance/jobs/" + job.id())).build());
    }

    private ReconcileScope scope(ReconcileRequest body) {
        int max = config.reconcile().maxRate();
        if (body.rate() != null && body.rate() > max) {
            throw Http.invalid("rate", "must be at most " + max + " (cairn.reconcile.max-rate)");
        }
        int rate = body.rate() == null ? Math.min(max, config.reconcile().rate()) : body.rate();
        if (body.entity() == null) {
            if (body.id() != null) {
                throw Http.invalid("id", "names a source of an entity type: give entity too");
            }
            return ReconcileScope.everything(rate);
        }
        CascadeSpec spec = reconciles.cascade(body.entity());
        if (spec == null) {
            throw Http.invalid("entity", "no entity type with copies is called " + body.entity() + "; one of "
                    + catalog.cascades().stream().map(CascadeSpec::entity).toList());
        }
        return ReconcileScope.of(spec.entity(), body.id(), rate);
    }

    /**
     * Cancels a maintenance job that has not ended (1 GetItem, then 1 UpdateItem — a TransactWriteItems with its scan
     * slot when it holds one): it stops after the page it is on, keeps the counts it reached, and its scan slot is
     * free at once. A job that ended already is a 409.
     */
    @POST
    @AdminOnly
    @Path("jobs/{id}/cancel")
    @Extension(name = OpenApiDocs.ACTION, value = "true", parseValue = true)
    @APIResponse(responseCode = "200", description = "The job, cancelled", content = @Content(schema = @Schema(oneOf = {
            ApiSchemas.ListBackfillJob.class, ApiSchemas.UniqueBackfillJob.class, ApiSchemas.ReconcileJob.class})))
    @APIResponse(responseCode = "409", description = "Conflict: the job has ended already (done, failed or cancelled)")
    @Operation(operationId = "cancelMaintenanceJob", summary = "Cancel a running maintenance job (reconcile, list or unique backfill)")
    public Uni<Map<String, Object>> cancel(@RestPath String id) {
        Caller.current().requireAllWorkspaces("a maintenance job");
        return jobs.get(Http.id("id", id)).chain(job -> {
            if (job == null || !(backfills.serves(job) || Job.RECONCILE.equals(job.kind()))) {
                throw new CairnException(new CairnError.NotFound("maintenance job " + id + " does not exist"));
            }
            return jobs.cancel(job).chain(cancelled -> {
                if (!cancelled) {
                    throw new CairnException(new CairnError.Conflict("maintenance job " + id + " has ended already"));
                }
                return jobs.get(job.id());
            }).map(this::view);
        });
    }

    private Map<String, Object> view(Job job) {
        return backfills.serves(job) ? backfills.view(job) : Reconciles.view(job);
    }

    /** {@code state}: pending, running, done, failed or cancelled (default running); finished ones newest first. */
    @GET
    @AdminOnly
    @Path("reconcile")
    @APIResponse(responseCode = "200", description = "OK", content = @Content(schema = @Schema(implementation = ApiSchemas.ReconcileJobPage.class)))
    @Parameter(name = "state", in = ParameterIn.QUERY, schema = @Schema(enumeration = {"pending", "running", "done", "failed", "cancelled"}, defaultValue = "running"))
    @Operation(operationId = "listReconcileJobs", summary = "Reconcile jobs in a state (1 Query per shard of the job index)")
    public Uni<Page<Map<String, Object>>> reconcileJobs(@RestQuery String state, @RestQuery String limit, @RestQuery String cursor) {
        Caller.current().requireAllWorkspaces("the list of reconcile jobs");
        return jobs.list(CascadeJobResource.state(state, true), Http.limit(limit), cursor)
                .map(page -> new Page<>(page.items().stream().filter(j -> Job.RECONCILE.equals(j.kind()))
                        .map(Reconciles::view).toList(), page.next()));
    }

    @GET
    @AdminOnly
    @Path("jobs/{id}")
    @APIResponse(responseCode = "200", description = "The job", content = @Content(schema = @Schema(oneOf = {
            ApiSchemas.ListBackfillJob.class, ApiSchemas.UniqueBackfillJob.class, ApiSchemas.ReconcileJob.class})))
    @Operation(operationId = "getMaintenanceJob", summary = "Read a maintenance job: its state and counts (1 GetItem)")
    public Uni<Map<String, Object>> job(@RestPath String id) {
        Caller.current().requireAllWorkspaces("a maintenance job");
        return jobs.get(Http.id("id", id)).map(job -> {
            if (backfills.serves(job)) {
                return backfills.view(job);
            }
            if (job != null && Job.RECONCILE.equals(job.kind())) {
                return Reconciles.view(job);
            }
            throw new CairnException(new CairnError.NotFound("maintenance job " + id + " does not exist"));
        });
    }
}
