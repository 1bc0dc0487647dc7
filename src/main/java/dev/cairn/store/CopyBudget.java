package dev.cairn.store;

/**
 * What the cascade copies of one write may spend: taken before the copies are written, given back when they turn
 * out not to be needed (already current, gone). The copy budget of the caller whose write caused the cascade
 * (platform.limits), or {@link #UNLIMITED} for work nobody is charged for (a job resumed from a dead replica, a
 * reconcile an admin started).
 */
public interface CopyBudget {

    /** Takes all {@code copies} now, or refuses the write with a 429 naming the copy budget (nothing is taken). */
    void takeAll(int copies);

    /** Takes as many as the budget holds now, up to {@code copies}: how many were taken. */
    int takeUpTo(int copies);

    /** Nanoseconds until the budget holds {@code copies} (0 when it does). */
    long until(int copies);

    /** Gives back copies taken and not written. */
    void refund(int copies);

    /** The write is over: whatever was reserved for it and not taken goes back. Idempotent. */
    void close();

    CopyBudget UNLIMITED = new CopyBudget() {
        public void takeAll(int copies) {
        }

        public int takeUpTo(int copies) {
            return copies;
        }

        public long until(int copies) {
            return 0;
        }

        public void refund(int copies) {
        }

        public void close() {
        }
    };
}
