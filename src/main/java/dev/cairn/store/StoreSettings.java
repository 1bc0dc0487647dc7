package dev.cairn.store;

import java.time.Duration;

/**
 * What the store needs to know, produced by the platform layer from configuration.
 *
 * @param table            the single table's name
 * @param cursorSecret     the HMAC key of pagination cursors (shared by every replica)
 * @param batchConcurrency chunks of one batch call in flight at once
 * @param batchMaxAttempts attempts for unprocessed batch items before giving up
 * @param batchBaseDelay   first backoff delay for unprocessed items (doubled per attempt, with jitter)
 */
public record StoreSettings(String table, String cursorSecret, int batchConcurrency, int batchMaxAttempts,
                            Duration batchBaseDelay) {
}
