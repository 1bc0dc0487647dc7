package dev.cairn.store;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.write.TransactionPlan;
import dev.cairn.core.write.WriteAction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The one executor of lease steps ({@link dev.cairn.core.lease.Lease}) for jobs and aggregates alike: a step
 * either applies (true) or is refused by its condition (false: somebody else holds the lease, or the item is not
 * in the expected state). Anything else (DynamoDB unreachable, a transaction conflict) stays a failure, to be
 * retried by the caller.
 */
@ApplicationScoped
public class Leases {

    private final EntityStore store;

    public Leases(EntityStore store) {
        this.store = store;
    }

    public Uni<Boolean> attempt(WriteAction step) {
        return store.write(step).replaceWith(true).onFailure(Leases::refused).recoverWithItem(false);
    }

    /** A transaction guarded by a lease (or taking one): false when a condition refused it. */
    public Uni<Boolean> attempt(TransactionPlan plan) {
        return store.transactDetailed(plan).replaceWith(true).onFailure(Leases::refused).recoverWithItem(false);
    }

    /** A condition refused the write (as opposed to a fault worth retrying, {@link CairnError#retryable()}). */
    public static boolean refused(Throwable failure) {
        if (!(failure instanceof CairnException e) || e.error().retryable()) {
            return false;
        }
        if (e.error() instanceof CairnError.TransactionCanceled canceled) {
            return !canceled.failures().isEmpty() && canceled.failures().stream()
                    .allMatch(f -> "ConditionalCheckFailed".equals(f.reason()) || "None".equals(f.reason()));
        }
        return CairnException.is(failure, CairnError.NotFound.class, CairnError.VersionConflict.class,
                CairnError.Conflict.class);
    }
}
