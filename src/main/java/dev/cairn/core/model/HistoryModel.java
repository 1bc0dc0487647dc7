package dev.cairn.core.model;

import java.time.Duration;

/**
 * An entity's version history ({@code history:}): every write keeps the version it replaces as a snapshot item, in
 * the write's own transaction. Either the last {@code keep} previous versions are kept (the one that falls out of the
 * window is deleted in the same transaction), or each is kept for {@code retain} after it was replaced (DynamoDB's
 * TTL removes it; reads hide it at once). Exactly one of the two is set.
 */
public record HistoryModel(Integer keep, Duration retain, int line) {

    /** The most versions {@code keep} may name: a listing of them is a handful of pages, not a scan. */
    public static final int MAX_KEEP = 1000;
    /** The shortest and longest {@code for}: under a minute is no history; DynamoDB's TTL is meant for days and months. */
    public static final Duration MIN_RETAIN = Duration.ofMinutes(1);
    public static final Duration MAX_RETAIN = Duration.ofDays(3650);

    public HistoryModel {
        if ((keep == null) == (retain == null)) {
            throw new IllegalArgumentException("a history keeps either a count or a duration");
        }
    }

    /** In the contract's words: "the last 20 previous versions" or "each previous version for P90D". */
    public String describe() {
        return keep != null ? "the last " + keep + " previous versions" : "each previous version for " + retain;
    }
}
