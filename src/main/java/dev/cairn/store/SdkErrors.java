package dev.cairn.store;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.write.WriteAction;
import org.jboss.logging.Logger;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ItemCollectionSizeLimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.RequestLimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;
import software.amazon.awssdk.services.dynamodb.model.TransactionInProgressException;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;

/**
 * The one place SDK exceptions become Cairn errors. SDK messages are logged, never returned: they can name
 * tables, endpoints and request internals.
 */
public final class SdkErrors {

    private static final Logger LOG = Logger.getLogger(SdkErrors.class);
    static final int RETRY_AFTER_SECONDS = 1;

    private SdkErrors() {
    }

    public static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    public static CairnException translate(Throwable failure) {
        return translate(failure, List.of());
    }

    /** Translates a failed single write, explaining a failed condition through the action. */
    public static CairnException translate(Throwable failure, WriteAction action) {
        Throwable t = unwrap(failure);
        if (t instanceof ConditionalCheckFailedException ccf && action != null) {
            return new CairnException(action.explainFailure(ccf.item()));
        }
        return translate(t, action == null ? List.of() : List.of(action));
    }

    /** Translates a failed call; transaction cancellations are mapped back to the actions that caused them. */
    public static CairnException translate(Throwable failure, List<WriteAction> actions) {
        Throwable t = unwrap(failure);
        if (t instanceof CairnException ce) {
            return ce;
        }
        if (t instanceof TransactionCanceledException tce) {
            return transactionCanceled(tce, actions);
        }
        if (t instanceof ConditionalCheckFailedException) {
            return new CairnException(new CairnError.Conflict("the write's condition does not hold"));
        }
        if (t instanceof ProvisionedThroughputExceededException || t instanceof RequestLimitExceededException
                || t instanceof TransactionInProgressException || isThrottling(t)) {
            LOG.infof("DynamoDB throttled: %s", t.getMessage());
            return unavailable("DynamoDB is throttling requests; retry shortly", t);
        }
        if (t instanceof TransactionConflictException) {
            return new CairnException(new CairnError.Conflict("a concurrent transaction touched the same items; retry", true), t);
        }
        if (t instanceof ItemCollectionSizeLimitExceededException) {
            return new CairnException(new CairnError.Conflict("the item collection has reached its size limit"), t);
        }
        if (t instanceof ResourceNotFoundException) {
            LOG.debugf("DynamoDB table or index missing: %s", t.getMessage());
            return unavailable("the DynamoDB table is not available", t);
        }
        if (t instanceof DynamoDbException dde && dde.statusCode() >= 500) {
            LOG.warnf("DynamoDB server error: %s", t.getMessage());
            return unavailable("DynamoDB failed to answer; retry shortly", t);
        }
        if (t instanceof DynamoDbException dde && errorCode(dde) != null && CREDENTIALS_REFUSED.contains(errorCode(dde))) {
            // The service's own setup (its role, keys or region), not the caller's request nor a passing fault.
            LOG.errorf("DynamoDB refused this service's credentials or permissions: %s", t.getMessage());
            return new CairnException(new CairnError.InternalError(
                    "DynamoDB refused this service's credentials or permissions"), t);
        }
        if (t instanceof DynamoDbException dde && dde.statusCode() == 400) {
            LOG.warnf("DynamoDB rejected a request: %s", t.getMessage());
            return new CairnException(new CairnError.ValidationFailed("DynamoDB rejected the request as invalid",
                    List.of()), t);
        }
        if (t instanceof ApiCallTimeoutException) {
            // Not "unreachable": the retry budget (RetryBudget) ends a throttled call inside the timeout, so what
            // runs out of time here is slow or unanswered attempts — and the SDK keeps no trace of them on this exception.
            LOG.warnf("DynamoDB call timed out: %s", t.getMessage());
            return unavailable("DynamoDB did not answer in time; retry shortly", t);
        }
        if (t instanceof SdkClientException) {
            if (causedBy(t, RejectedExecutionException.class)) {
                // The client's event loops were shut down under the call: the app is stopping (a graceful stop, or a
                // start that failed for a reason of its own, logged where it failed). Nothing here to fix or to trace.
                LOG.debugf("DynamoDB call cut off by the shutdown: %s", t.getMessage());
            } else if (causedBy(t, java.io.IOException.class, java.util.concurrent.TimeoutException.class)) {
                LOG.warnf("DynamoDB unreachable: %s", t.getMessage());
            } else {
                // Not the network: the SDK wraps whatever failed inside its pipeline (credentials that could not be
                // loaded, a marshalling or interceptor failure), and only the trace says which.
                LOG.warn("DynamoDB call failed before it reached DynamoDB", t);
            }
            return unavailable("DynamoDB is unreachable", t);
        }
        LOG.error("unexpected failure while calling DynamoDB", t);
        return new CairnException(new CairnError.InternalError("unexpected failure while calling DynamoDB"), t);
    }

    @SafeVarargs
    private static boolean causedBy(Throwable t, Class<? extends Throwable>... kinds) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            for (Class<? extends Throwable> kind : kinds) {
                if (kind.isInstance(c)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Error codes DynamoDB (through IAM and STS) answers when it does not accept the caller's credentials. */
    static final Set<String> CREDENTIALS_REFUSED = Set.of("AccessDeniedException", "UnrecognizedClientException",
            "MissingAuthenticationTokenException", "MissingAuthenticationToken", "InvalidSignatureException",
            "IncompleteSignatureException", "ExpiredTokenException", "InvalidClientTokenId");

    private static String errorCode(DynamoDbException e) {
        return e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
    }

    /**
     * The error DynamoDB answered a failed call with, as {@code "AccessDeniedException (HTTP 400)"}; empty when it gave
     * none (not reached, not in time).
     */
    public static Optional<String> answeredError(Throwable failure) {
        Throwable t = unwrap(failure);
        if (t instanceof CairnException && t.getCause() != null) {
            t = unwrap(t.getCause());
        }
        if (t instanceof DynamoDbException dde && dde.statusCode() > 0) {
            String code = errorCode(dde);
            return Optional.of((code == null ? "an error" : code) + " (HTTP " + dde.statusCode() + ")");
        }
        return Optional.empty();
    }

    /** The table (or an index) does not exist: translated as unavailable, told apart for provisioning. */
    public static boolean tableMissing(Throwable failure) {
        return failure instanceof CairnException ce && ce.getCause() instanceof ResourceNotFoundException;
    }

    /** The table already exists or is being changed (a create that raced another). */
    public static boolean tableInUse(Throwable failure) {
        return failure instanceof CairnException ce && ce.getCause() instanceof ResourceInUseException;
    }

    private static boolean isThrottling(Throwable t) {
        return t instanceof DynamoDbException dde && dde.awsErrorDetails() != null
                && "ThrottlingException".equals(dde.awsErrorDetails().errorCode());
    }

    static CairnException unavailable(String detail, Throwable cause) {
        return new CairnException(new CairnError.ServiceUnavailable(detail, RETRY_AFTER_SECONDS), cause);
    }

    /** Translates a cancelled transaction keeping every action's reason (no single-failure explanation). */
    public static CairnException translateDetailed(Throwable failure, List<WriteAction> actions) {
        Throwable t = unwrap(failure);
        if (t instanceof TransactionCanceledException tce) {
            var failures = failures(tce, actions);
            return new CairnException(new CairnError.TransactionCanceled(
                    failures.size() + " action(s) of the transaction failed", failures), tce);
        }
        return translate(t, actions);
    }

    private static List<CairnError.ActionFailure> failures(TransactionCanceledException e, List<WriteAction> actions) {
        List<CancellationReason> reasons = e.hasCancellationReasons() ? e.cancellationReasons() : List.of();
        var failures = new ArrayList<CairnError.ActionFailure>();
        for (int i = 0; i < reasons.size(); i++) {
            CancellationReason reason = reasons.get(i);
            if (reason.code() == null || "None".equals(reason.code())) {
                continue;
            }
            WriteAction action = i < actions.size() ? actions.get(i) : null;
            PrimaryKey key = action == null ? null : action.key();
            failures.add(new CairnError.ActionFailure(i, key == null ? null : key.pk(), key == null ? null : key.sk(),
                    action == null ? null : action.subject(), reason.code(), reason.message(),
                    reason.hasItem() ? reason.item() : null));
        }
        return failures;
    }

    private static boolean isSourceGuard(WriteAction action) {
        return action.expectation().state() == WriteAction.Expectation.State.COPIED;
    }

    private static CairnException transactionCanceled(TransactionCanceledException e, List<WriteAction> actions) {
        var failures = failures(e, actions);
        boolean throttled = failures.stream().anyMatch(f -> f.reason().contains("Throttl")
                || f.reason().equals("ProvisionedThroughputExceeded"));
        if (throttled) {
            return unavailable("DynamoDB is throttling requests; retry shortly", e);
        }
        // A single failed condition is explained by its action (NotFound / Conflict / VersionConflict / RefChanged).
        // Source guards that failed beside it give way: the write's own condition is the answer, the more final one.
        var conditionFailures = failures.stream().filter(f -> "ConditionalCheckFailed".equals(f.reason())
                && f.index() < actions.size()).toList();
        if (conditionFailures.size() == failures.size() && !failures.isEmpty()) {
            var own = conditionFailures.stream().filter(f -> !isSourceGuard(actions.get(f.index()))).toList();
            // An item that exists (or moved on) is the answer before a unique value it would take: the value may be
            // its own, and the item's conflict is the one a caller acts on.
            var item = own.stream().filter(f -> !actions.get(f.index()).isSentinel()).toList();
            if (!item.isEmpty()) {
                own = item;
            }
            if (own.size() > 1 && item.isEmpty()) {
                own = own.subList(0, 1);   // several unique values taken: the first declared is named
            }
            if (own.size() <= 1) {
                CairnError.ActionFailure only = own.isEmpty() ? failures.get(0) : own.get(0);
                return new CairnException(actions.get(only.index()).explainFailure(only.oldItem()), e);
            }
        }
        if (failures.stream().anyMatch(f -> "TransactionConflict".equals(f.reason()))) {
            return new CairnException(new CairnError.TransactionCanceled(
                    "a concurrent transaction touched the same items; retry", failures), e);
        }
        return new CairnException(new CairnError.TransactionCanceled(
                failures.size() + " action(s) of the transaction failed their conditions", failures), e);
    }
}
