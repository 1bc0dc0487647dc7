package dev.cairn.core;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every failure Cairn reports to a caller. Each error knows its HTTP status and a stable machine-readable
 * {@code code}; the platform layer renders them as RFC 9457 problem documents in one place.
 */
public sealed interface CairnError {

    int status();

    String title();

    String detail();

    /** The stable, machine-readable name of the error, e.g. {@code NotFound}. */
    default String code() {
        return getClass().getSimpleName();
    }

    /**
     * Whether the same call may succeed when tried again shortly: DynamoDB unreachable or throttling, or a
     * transaction that collided with another. The one definition of a passing fault; every retry loop asks it.
     */
    default boolean retryable() {
        return false;
    }

    /** Extra problem members (beyond type/title/status/detail/code); empty by default. */
    default Map<String, Object> extensions() {
        return Map.of();
    }

    record FieldError(String field, String message) {
    }

    record NotFound(String detail) implements CairnError {
        public int status() { return 404; }
        public String title() { return "Not found"; }
    }

    /** No identity, or a bearer token that failed verification (expired, wrong issuer or signature, alg none). */
    record Unauthenticated(String detail, boolean tokenPresented) implements CairnError {
        public int status() { return 401; }
        public String title() { return "Authentication required"; }
    }

    /** A verified caller without the role a request needs. */
    record Forbidden(String detail, String requiredRole) implements CairnError {
        public int status() { return 403; }
        public String title() { return "Forbidden"; }
        public Map<String, Object> extensions() {
            return requiredRole == null ? Map.of() : Map.of("requiredRole", requiredRole);
        }
    }

    /**
     * A condition or a state of the data refuses the write; {@code retryable} when a concurrent transaction caused it.
     * {@code found}: the item the failed condition found (an existing item a create met), if DynamoDB returned it —
     * for the API to show a caller who may read it, never a member of the problem itself.
     */
    record Conflict(String detail, boolean retryable, Map<String, AttributeValue> found) implements CairnError {
        public Conflict(String detail) {
            this(detail, false, null);
        }
        public Conflict(String detail, boolean retryable) {
            this(detail, retryable, null);
        }
        public int status() { return 409; }
        public String title() { return "Conflict"; }
    }

    /**
     * A declared unique value is taken: another item of {@code entity} holds the same values of {@code fields} in the
     * same scope. Names the constraint and its fields, never the other item (not its id, not its values).
     */
    record UniqueViolation(String detail, String entity, String constraint, List<String> fields) implements CairnError {
        public UniqueViolation {
            fields = List.copyOf(fields);
        }
        public int status() { return 409; }
        public String title() { return "Unique value taken"; }
        public Map<String, Object> extensions() {
            return Map.of("constraint", constraint, "fields", fields);
        }
    }

    /**
     * The stored version is not the one a write was based on: 412 when the caller stated it ({@code If-Match}),
     * 409 when another request changed the item between this request's own read and write. {@code found}: the item
     * as stored now (read, or returned by the failed condition), for the API to show a caller who may read it.
     */
    record VersionConflict(String detail, Long expected, Long actual, boolean precondition,
                           Map<String, AttributeValue> found) implements CairnError {
        public VersionConflict(String detail, Long expected, Long actual) {
            this(detail, expected, actual, false, null);
        }
        public VersionConflict(String detail, Long expected, Long actual, boolean precondition) {
            this(detail, expected, actual, precondition, null);
        }
        /** The same conflict as the caller's stated precondition (412). */
        public VersionConflict asPrecondition() {
            return new VersionConflict(detail, expected, actual, true, found);
        }
        public int status() { return precondition ? 412 : 409; }
        public String title() { return "Version conflict"; }
        public Map<String, Object> extensions() {
            var ext = new LinkedHashMap<String, Object>();
            if (expected != null) ext.put("expectedVersion", expected);
            if (actual != null) ext.put("actualVersion", actual);
            return ext;
        }
    }

    record ValidationFailed(String detail, List<FieldError> errors) implements CairnError {
        public ValidationFailed {
            errors = List.copyOf(errors);
        }
        public static ValidationFailed of(String field, String message) {
            return new ValidationFailed(field + ": " + message, List.of(new FieldError(field, message)));
        }
        public int status() { return 400; }
        public String title() { return "Validation failed"; }
        public Map<String, Object> extensions() { return Map.of("errors", errors); }
    }

    /** The request body or a parameter could not be read at all (malformed JSON, bad header syntax). */
    record MalformedRequest(String detail) implements CairnError {
        public int status() { return 400; }
        public String title() { return "Malformed request"; }
    }

    record InvalidCursor(String detail) implements CairnError {
        public int status() { return 400; }
        public String title() { return "Invalid cursor"; }
    }

    /** A referenced id resolves to nothing; {@code field} is the path of the ref in the input. */
    record RefNotFound(String detail, String field, String refId, String refEntity, List<Map<String, String>> missing)
            implements CairnError {
        public RefNotFound {
            missing = List.copyOf(missing);
        }
        public int status() { return 422; }
        public String title() { return "Referenced entity not found"; }
        public Map<String, Object> extensions() {
            return Map.of("field", field, "refId", refId, "refEntity", refEntity, "missing", missing);
        }
    }

    /**
     * A referenced entity changed (or went) between the read that copied it and the write that stores the copy: the
     * write was refused whole, so no copy of a superseded version is ever stored. Writers read it again and retry by
     * themselves; a client sees it only when the entity kept changing through every attempt.
     */
    record RefChanged(String detail, String refEntity, String refId) implements CairnError {
        public int status() { return 409; }
        public String title() { return "Referenced entity changed"; }
        public boolean retryable() { return true; }
        public Map<String, Object> extensions() { return Map.of("refEntity", refEntity, "refId", refId); }
    }

    /** A transaction group of an aggregate would not fit in one TransactWriteItems. */
    record AggregateTransactionOverflow(String detail, String aggregate, String group, int itemCount, int limit)
            implements CairnError {
        public int status() { return 422; }
        public String title() { return "Aggregate transaction group too large"; }
        public Map<String, Object> extensions() {
            return Map.of("aggregate", aggregate, "group", group, "itemCount", itemCount, "limit", limit);
        }
    }

    /** Input that cannot be decomposed into the aggregate's items (duplicates, structural rules). */
    record AggregateDecompositionError(String detail, String aggregate, String member) implements CairnError {
        public int status() { return 422; }
        public String title() { return "Aggregate cannot be decomposed"; }
        public Map<String, Object> extensions() { return Map.of("aggregate", aggregate, "member", member); }
    }

    /** A stored aggregate's items do not form the aggregate (missing or unexpected items). */
    /** The stored partition does not form the aggregate (e.g. its root is gone): a state of the data, DELETE cleans it. */
    record AggregateAssemblyError(String detail, String aggregate, String reason) implements CairnError {
        public int status() { return 409; }
        public String title() { return "Stored aggregate is inconsistent"; }
        public Map<String, Object> extensions() { return Map.of("aggregate", aggregate, "reason", reason); }
    }

    /** A transactional cascade would need more than one transaction. */
    record CascadeTooLarge(String detail, int actions, int limit) implements CairnError {
        public int status() { return 409; }
        public String title() { return "Cascade too large for one transaction"; }
        public Map<String, Object> extensions() { return Map.of("actions", actions, "limit", limit); }
    }

    /** An entity cannot be deleted while copies of it are embedded elsewhere. */
    record StillReferenced(String detail, int count) implements CairnError {
        public int status() { return 409; }
        public String title() { return "Entity still referenced"; }
        public Map<String, Object> extensions() { return Map.of("count", count); }
    }

    /** A maintenance job that scans the table cannot start while the jobs already scanning hold every slot. */
    record MaintenanceBusy(String detail, List<String> runningJobs) implements CairnError {
        public MaintenanceBusy {
            runningJobs = List.copyOf(runningJobs);
        }
        public int status() { return 409; }
        public String title() { return "Maintenance busy"; }
        public Map<String, Object> extensions() { return Map.of("runningJobs", runningJobs); }
    }

    /** An aggregate is being written by another request right now (multi-transaction write in progress). */
    record AggregateBusy(String detail, int retryAfterSeconds) implements CairnError {
        public int status() { return 503; }
        public String title() { return "Aggregate is being written"; }
    }

    record ItemTooLarge(String detail, long sizeBytes, long limitBytes) implements CairnError {
        public int status() { return 422; }
        public String title() { return "Item too large"; }
        public Map<String, Object> extensions() { return Map.of("sizeBytes", sizeBytes, "limitBytes", limitBytes); }
    }

    /** A transaction would exceed DynamoDB's limits (actions, size) or touches one item twice. */
    record TransactionTooLarge(String detail, int actions, long sizeBytes) implements CairnError {
        public int status() { return 422; }
        public String title() { return "Transaction too large"; }
        public Map<String, Object> extensions() { return Map.of("actions", actions, "sizeBytes", sizeBytes); }
    }

    /** DynamoDB cancelled a transaction; {@code failures} names each action that caused it. */
    record TransactionCanceled(String detail, List<ActionFailure> failures) implements CairnError {
        public TransactionCanceled {
            failures = List.copyOf(failures);
        }
        public int status() { return 409; }
        public String title() { return "Transaction cancelled"; }
        public boolean retryable() {
            return failures.stream().anyMatch(f -> "TransactionConflict".equals(f.reason()));
        }
        public Map<String, Object> extensions() {
            return Map.of("failures", failures.stream().map(ActionFailure::describe).toList());
        }
    }

    /**
     * One failed action of a cancelled transaction: {@code item} names it in the API's words (an entity and its id,
     * never its storage key); {@code oldItem} holds the stored item when returned. The keys stay for the logs.
     */
    record ActionFailure(int index, String pk, String sk, String item, String reason, String message,
                         Map<String, AttributeValue> oldItem) {
        public Map<String, Object> describe() {
            var out = new LinkedHashMap<String, Object>();
            out.put("index", index);
            out.put("item", item);
            out.put("reason", reason);
            return out;
        }
    }

    /** A request line longer than the HTTP layer reads (the path and query together). */
    record UriTooLong(String detail) implements CairnError {
        public int status() { return 414; }
        public String title() { return "URI too long"; }
    }

    /** A request head larger than the HTTP layer reads. */
    record HeadersTooLarge(String detail) implements CairnError {
        public int status() { return 431; }
        public String title() { return "Request header fields too large"; }
    }

    record UnsupportedMediaType(String detail) implements CairnError {
        public int status() { return 415; }
        public String title() { return "Unsupported media type"; }
    }

    record MethodNotAllowed(String detail) implements CairnError {
        public int status() { return 405; }
        public String title() { return "Method not allowed"; }
    }

    record NotAcceptable(String detail) implements CairnError {
        public int status() { return 406; }
        public String title() { return "Not acceptable"; }
    }

    /**
     * A body too large to read, or a patch that would build or do too much: {@code limit} (operations),
     * {@code limitBytes} (the document) or {@code limitWork} (the work units a patch may spend) names the limit it
     * passes, when there is one to name.
     */
    record PayloadTooLarge(String detail, Integer limit, Long limitBytes, Long limitWork) implements CairnError {
        public PayloadTooLarge(String detail) {
            this(detail, null, null, null);
        }
        public static PayloadTooLarge operations(String detail, int limit) {
            return new PayloadTooLarge(detail, limit, null, null);
        }
        public static PayloadTooLarge bytes(String detail, long limitBytes) {
            return new PayloadTooLarge(detail, null, limitBytes, null);
        }
        public static PayloadTooLarge work(String detail, long limitWork) {
            return new PayloadTooLarge(detail, null, null, limitWork);
        }
        public int status() { return 413; }
        public String title() { return "Payload too large"; }
        public Map<String, Object> extensions() {
            var ext = new LinkedHashMap<String, Object>();
            if (limit != null) ext.put("limit", limit);
            if (limitBytes != null) ext.put("limitBytes", limitBytes);
            if (limitWork != null) ext.put("limitWork", limitWork);
            return ext;
        }
    }

    /**
     * The caller's write rate or cascade copy budget on this replica is spent ({@code rateLimit}: {@code writes} or
     * {@code cascade-copies}); nothing was written.
     */
    record RateLimited(String detail, String rateLimit, long retryAfterSeconds) implements CairnError {
        public int status() { return 429; }
        public String title() { return "Too many requests"; }
        public Map<String, Object> extensions() { return Map.of("rateLimit", rateLimit); }
    }

    /** DynamoDB is unreachable, throttling, or left batch work unprocessed after every retry. */
    record ServiceUnavailable(String detail, int retryAfterSeconds) implements CairnError {
        public int status() { return 503; }
        public String title() { return "Service unavailable"; }
        public boolean retryable() { return true; }
    }

    /** Stored items that cannot be decoded (unknown discriminator, missing attribute): a data problem. */
    record DataIntegrityError(String detail) implements CairnError {
        public int status() { return 500; }
        public String title() { return "Stored data could not be read"; }
    }

    record InternalError(String detail) implements CairnError {
        public int status() { return 500; }
        public String title() { return "Internal error"; }
    }
}
