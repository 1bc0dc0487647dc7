package dev.cairn.store;

import java.time.Duration;
import java.util.List;

/**
 * What the store needs to know, produced by the platform layer from configuration.
 *
 * @param table            the single table's name
 * @param cursorSecret     the secret pagination cursors are sealed with (shared by every replica)
 * @param batchConcurrency chunks of one batch call in flight at once
 * @param batchMaxAttempts attempts for unprocessed batch items before giving up
 * @param batchBaseDelay   first backoff delay for unprocessed items (doubled per attempt, with jitter)
 * @param retries          how passing faults and busy aggregates are waited out
 * @param previousCursorSecrets secrets of a rotation still accepted for cursors handed out before it
 */
public record StoreSettings(String table, String cursorSecret, int batchConcurrency, int batchMaxAttempts,
                            Duration batchBaseDelay, Retries retries, List<String> previousCursorSecrets) {

    public StoreSettings {
        previousCursorSecrets = List.copyOf(previousCursorSecrets);
    }

    public StoreSettings(String table, String cursorSecret, int batchConcurrency, int batchMaxAttempts,
                         Duration batchBaseDelay, Retries retries) {
        this(table, cursorSecret, batchConcurrency, batchMaxAttempts, batchBaseDelay, retries, List.of());
    }

    /** With the default retries (tests and the benchmark build a store by hand). */
    public StoreSettings(String table, String cursorSecret, int batchConcurrency, int batchMaxAttempts,
                         Duration batchBaseDelay) {
        this(table, cursorSecret, batchConcurrency, batchMaxAttempts, batchBaseDelay, Retries.DEFAULTS);
    }

    /**
     * @param busyAttempts reads for a write while another multi-transaction write holds the aggregate (then 503)
     * @param busyPause    the pause between those reads
     * @param readAttempts reads of a large aggregate whose root moved while its ranges were read (then 503)
     * @param backoff      the first pause before a passing fault is retried (doubled per attempt)
     * @param maxBackoff   the longest such pause
     */
    public record Retries(int busyAttempts, Duration busyPause, int readAttempts, Duration backoff, Duration maxBackoff) {

        /** The defaults of {@code cairn.retries.*}. */
        public static final Retries DEFAULTS = new Retries(5, Duration.ofMillis(100), 20, Duration.ofMillis(50),
                Duration.ofSeconds(2));

        /** The pause before attempt {@code attempt + 1}: {@code backoff × 2^(attempt-1)}, at most {@code maxBackoff}. */
        public Duration pauseAfter(int attempt) {
            return Duration.ofMillis(Math.min(backoff.toMillis() << Math.min(attempt - 1, 10), maxBackoff.toMillis()));
        }
    }
}
