package dev.cairn.platform;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;
import java.util.Map;

/**
 * The OpenAPI schemas of answers that are assembled as maps rather than records (cascade reports, jobs,
 * references). They describe, never produce: every answer of the test suite is validated against them.
 */
public final class ApiSchemas {

    private ApiSchemas() {
    }

    @Schema(name = "CascadeReport", description = "What a cascade did to the copies of the changed entity, and the entity")
    public record CascadeReport(
            @Schema(required = true, enumeration = {"eventual", "transactional"}) String mode,
            @Schema(description = "The cascade job (eventual mode; null when no copy needed a change)") String job,
            @Schema(enumeration = {"pending", "running", "done", "failed"}) String state,
            @Schema(required = true) int matched,
            @Schema(required = true) int updated,
            @Schema(required = true) int skipped,
            @Schema(required = true) int failed,
            @Schema(required = true, description = "The first 50 copies that could not be updated, with the reason")
            List<Map<String, String>> failedKeys,
            @Schema(required = true, description = "The entity as it is now") Map<String, Object> entity) {
    }

    @Schema(name = "ListBackfillJob", description = "The durable job that lists an aggregate's roots stored before its lists existed")
    public record ListBackfillJob(
            @Schema(required = true) String id,
            @Schema(required = true, enumeration = {"list-backfill"}) String kind,
            @Schema(required = true, description = "The aggregate whose roots it lists") String aggregate,
            @Schema(required = true, enumeration = {"pending", "running", "done", "failed", "cancelled"}) String state,
            @Schema(required = true, description = "Scan pages done") int pages,
            @Schema(required = true, description = "Roots scanned") int roots,
            @Schema(required = true, description = "Roots whose list keys and summary were written") int updated,
            @Schema(required = true, description = "Roots listed correctly already, or written meanwhile (their own write lists them)") int unchanged,
            @Schema(format = "date-time") String createdAt,
            @Schema(format = "date-time") String finishedAt) {
    }

    @Schema(name = "UniqueBackfillJob", description = "The durable job that takes the unique values of an entity's items "
            + "stored before a constraint was declared (their sentinels)")
    public record UniqueBackfillJob(
            @Schema(required = true) String id,
            @Schema(required = true, enumeration = {"unique-backfill"}) String kind,
            @Schema(required = true, description = "The entity whose items it reads") String entity,
            @Schema(required = true, enumeration = {"pending", "running", "done", "failed", "cancelled"}) String state,
            @Schema(required = true, description = "Scan pages done") int pages,
            @Schema(required = true, description = "Items read") int items,
            @Schema(required = true, description = "Values taken (sentinels written)") int taken,
            @Schema(required = true, description = "Items whose values were theirs already, or changed meanwhile (their own write took them)") int unchanged,
            @Schema(required = true, description = "Values another item holds: left to it; the item cannot change or give up the value until one of the two changes") int failed,
            @Schema(required = true, description = "The first failures (at most 50): `id` (the item's id), `constraint` (its name) and `reason` (why: the primary key of the item holding the value, or that the item kept changing)") List<Map<String, String>> failures,
            @Schema(format = "date-time") String createdAt,
            @Schema(format = "date-time") String finishedAt) {
    }

    @Schema(name = "ReconcileJob", description = "The durable job that rewrites every copy older than its source's current version")
    public record ReconcileJob(
            @Schema(required = true) String id,
            @Schema(required = true, enumeration = {"reconcile"}) String kind,
            @Schema(required = true, enumeration = {"source", "entity", "all"}, description = "One source, one entity type, or every copy") String scope,
            @Schema(description = "The source entity type (scopes source and entity)") String entity,
            @Schema(description = "The source's id (scope source)") String sourceId,
            @Schema(required = true, description = "Copies checked per second at most") int rate,
            @Schema(required = true, enumeration = {"pending", "running", "done", "failed", "cancelled"}) String state,
            @Schema(required = true, description = "Pages read (Scan pages, or pages of the source's copy queries)") int pages,
            @Schema(required = true, description = "Copies compared with their source's current version") int checked,
            @Schema(required = true, description = "Copies found older than their source and rewritten") int repaired,
            @Schema(required = true, description = "Copies at their source's version already (or brought there meanwhile)") int current,
            @Schema(required = true, description = "Copies whose source no longer exists: counted, not written") int orphaned,
            @Schema(required = true, description = "Copies that could not be written (kept failing for cairn.jobs.retry-for)") int failed,
            @Schema(required = true, description = "The first failed copies' keys and reasons") List<Map<String, String>> failedKeys,
            @Schema(format = "date-time") String createdAt,
            @Schema(format = "date-time") String updatedAt,
            @Schema(format = "date-time") String finishedAt,
            @Schema(description = "The replica that holds the job's lease (or 'scheduled')") String owner,
            @Schema(description = "Until when the lease holds") String leaseUntil) {
    }

    @Schema(name = "ReconcileJobPage", description = "One page of reconcile jobs, and the cursor of the next page")
    public record ReconcileJobPage(@Schema(required = true) List<ReconcileJob> items, @Schema(required = true) String next) {
    }

    @Schema(name = "CascadeJob", description = "A cascade run as a durable job: its state and progress")
    public record CascadeJob(
            @Schema(required = true) String id,
            @Schema(required = true, enumeration = {"pending", "running", "done", "failed"}) String state,
            @Schema(required = true) CascadeJobSource source,
            @Schema(required = true) int pages,
            @Schema(required = true) int matched,
            @Schema(required = true) int updated,
            @Schema(required = true) int skipped,
            @Schema(required = true) int failed,
            @Schema(required = true, description = "The first failed copies' keys and reasons: listed for cairn-admin only")
            List<Map<String, String>> failedKeys,
            String createdAt, String updatedAt, String finishedAt,
            @Schema(required = true, description = "Passes run again after one ended with failed copies (automatically, or by POST /cascades/{id}/retry)")
            int retries,
            @Schema(description = "While pending: when the next pass starts")
            String nextAttemptAt,
            @Schema(description = "For a settle pass: the cascade job whose copies it reads again once the ref index has settled")
            String settles,
            @Schema(description = "When this job's settle pass ended: the ref index was read again and every copy still older rewritten")
            String settledAt,
            @Schema(description = "The replica that holds the job's lease: shown to cairn-admin only") String owner,
            @Schema(description = "Until when the lease holds: shown to cairn-admin only") String leaseUntil) {
    }

    @Schema(name = "CascadeJobSource", description = "The changed entity whose copies the job brings up to date")
    public record CascadeJobSource(@Schema(required = true) String entity, @Schema(required = true) String id,
                                   @Schema(required = true) long version) {
    }

    @Schema(name = "Reference", description = "An item that embeds copies of the entity, and the source version of each copy")
    public record Reference(@Schema(required = true) String entityType, @Schema(required = true) String pk,
                            @Schema(required = true) String sk,
                            @Schema(required = true, description = "Copy attribute → the entity's version it copies")
                            Map<String, Long> copies) {
    }

    @Schema(name = "ReferencePage", description = "One page of references, and the cursor of the next page")
    public record ReferencePage(@Schema(required = true) List<Reference> items, @Schema(required = true) String next) {
    }

    @Schema(name = "CascadeJobPage", description = "One page of cascade jobs, and the cursor of the next page")
    public record CascadeJobPage(@Schema(required = true) List<CascadeJob> items, @Schema(required = true) String next) {
    }
}
