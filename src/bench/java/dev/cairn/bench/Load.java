package dev.cairn.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;

/** A closed loop: N workers each issue one operation after the other, for a warm-up then a measured window. */
final class Load {

    /** One operation; returns the number of DynamoDB calls it made. */
    @FunctionalInterface
    interface Op {
        int run(int worker) throws Exception;
    }

    /** What one operation cost DynamoDB: its calls and its consumed capacity units (NaN: not reported). */
    record Cost(int calls, double capacity) {
    }

    /** One operation that also reports the capacity it consumed (an HTTP answer's X-DynamoDB-Capacity). */
    @FunctionalInterface
    interface MeteredOp {
        Cost run(int worker) throws Exception;
    }

    /** @param capacityPerOp consumed capacity units per operation; NaN when the operation does not report it */
    record Result(long ops, double seconds, double p50Ms, double p99Ms, double callsPerOp, long errors, double capacityPerOp) {

        Result(long ops, double seconds, double p50Ms, double p99Ms, double callsPerOp, long errors) {
            this(ops, seconds, p50Ms, p99Ms, callsPerOp, errors, Double.NaN);
        }

        double opsPerSecond() {
            return ops / seconds;
        }
    }

    static Result run(int concurrency, Duration warmup, Duration duration, Op op) throws InterruptedException {
        return metered(concurrency, warmup, duration, w -> new Cost(op.run(w), Double.NaN));
    }

    /**
     * Called just before the measured window opens and just after it closes (the warm-up runs before it): what a
     * process did in exactly that window, such as its CPU time, is read here.
     */
    interface Window {
        void opened() throws Exception;

        void closed() throws Exception;
    }

    static Result metered(int concurrency, Duration warmup, Duration duration, MeteredOp op) throws InterruptedException {
        return metered(concurrency, warmup, duration, op, null);
    }

    static Result metered(int concurrency, Duration warmup, Duration duration, MeteredOp op, Window window) throws InterruptedException {
        var measuring = new AtomicBoolean(false);
        var stop = new AtomicBoolean(false);
        var calls = new AtomicLong();
        var capacity = new DoubleAdder();
        var errors = new AtomicLong();
        List<List<Long>> latencies = new ArrayList<>();
        var threads = new ArrayList<Thread>();
        var done = new CountDownLatch(concurrency);
        for (int w = 0; w < concurrency; w++) {
            var mine = new ArrayList<Long>(100_000);
            latencies.add(mine);
            int worker = w;
            Thread t = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        long start = System.nanoTime();
                        try {
                            Cost c = op.run(worker);
                            if (measuring.get()) {
                                mine.add(System.nanoTime() - start);
                                calls.addAndGet(c.calls());
                                capacity.add(c.capacity());
                            }
                        } catch (Exception e) {
                            if (measuring.get()) {
                                errors.incrementAndGet();
                            }
                        }
                    }
                } finally {
                    done.countDown();
                }
            }, "load-" + w);
            threads.add(t);
            t.start();
        }
        double seconds;
        try {
            Thread.sleep(warmup.toMillis());
            edge(window, true);
            measuring.set(true);
            long started = System.nanoTime();
            Thread.sleep(duration.toMillis());
            measuring.set(false);
            seconds = (System.nanoTime() - started) / 1e9;
            edge(window, false);
        } finally {
            // a probe that fails must not leave the load running
            stop.set(true);
        }
        done.await();
        var all = new ArrayList<Long>();
        latencies.forEach(all::addAll);
        Collections.sort(all);
        long ops = all.size();
        return new Result(ops, seconds, percentile(all, 0.50), percentile(all, 0.99),
                ops == 0 ? 0 : calls.get() / (double) ops, errors.get(), ops == 0 ? Double.NaN : capacity.sum() / ops);
    }

    private static void edge(Window window, boolean open) {
        if (window == null) {
            return;
        }
        try {
            if (open) {
                window.opened();
            } else {
                window.closed();
            }
        } catch (Exception e) {
            throw new IllegalStateException("the measured window's probe failed", e);
        }
    }

    /** Runs a fixed number of operations at a concurrency and returns the wall time in seconds (for cascades). */
    static double timeOnce(Runnable work) {
        long start = System.nanoTime();
        work.run();
        return (System.nanoTime() - start) / 1e9;
    }

    private static double percentile(List<Long> sorted, double p) {
        if (sorted.isEmpty()) {
            return 0;
        }
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.floor(p * sorted.size()))) / 1e6;
    }
}
