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
}
