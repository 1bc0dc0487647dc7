package dev.cairn.core;

/**
 * The one exception type that carries a {@link CairnError} through Mutiny pipelines. It has no stack trace:
 * it is an expected outcome, not a bug, and must be cheap to raise on the request path.
 */
public final class CairnException extends RuntimeException {

    private final transient CairnError error;
    private final transient Current current;

    /**
     * What a conflicting write's caller is shown of the item as it is now: its representation (as a GET answers it)
     * and its version (the ETag), so the client can merge without another read.
     */
    public record Current(Object body, long version) {
    }

    public CairnException(CairnError error) {
        this(error, null, null);
    }

    public CairnException(CairnError error, Throwable cause) {
        this(error, cause, null);
    }

    private CairnException(CairnError error, Throwable cause, Current current) {
        super(error.code() + ": " + error.detail(), cause, false, false);
        this.error = error;
        this.current = current;
    }

    public CairnError error() {
        return error;
    }

    /** The item as it is now, for a conflict answered to a caller who may read it; null otherwise. */
    public Current current() {
        return current;
    }

    /** The same failure, answered with the item's current representation and version. */
    public CairnException withCurrent(Object body, long version) {
        return new CairnException(error, getCause(), new Current(body, version));
    }

    /** Whether {@code failure} carries an error of one of the given kinds. */
    @SafeVarargs
    public static boolean is(Throwable failure, Class<? extends CairnError>... kinds) {
        if (!(failure instanceof CairnException e)) {
            return false;
        }
        for (Class<? extends CairnError> kind : kinds) {
            if (kind.isInstance(e.error())) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code failure} is a passing fault worth trying again ({@link CairnError#retryable()}). */
    public static boolean retryable(Throwable failure) {
        return failure instanceof CairnException e && e.error().retryable();
    }
}
