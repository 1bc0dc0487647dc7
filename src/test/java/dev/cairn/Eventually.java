package dev.cairn;

import java.time.Duration;

/** For what converges by itself (jobs, settle passes): a check run until it passes or the time is up. */
public final class Eventually {

    private Eventually() {
    }

    /** Runs {@code check} until it passes; past {@code limit} its last failure is the caller's. */
    public static void within(Duration limit, Runnable check) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            try {
                check.run();
                return;
            } catch (AssertionError notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw notYet;
                }
            }
        }
    }
}
