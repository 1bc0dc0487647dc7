package dev.cairn.core;

/**
 * The one exception type that carries a {@link CairnError} through Mutiny pipelines. It has no stack trace:
 * it is an expected outcome, not a bug, and must be cheap to raise on the request path.
 */
public final class CairnException extends RuntimeException {

    private final transient CairnError error;

    public CairnException(CairnError error) {
        super(error.code() + ": " + error.detail(), null, false, false);
        this.error = error;
    }

    public CairnException(CairnError error, Throwable cause) {
        super(error.code() + ": " + error.detail(), cause, false, false);
        this.error = error;
    }

    public CairnError error() {
        return error;
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
