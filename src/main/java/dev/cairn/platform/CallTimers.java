package dev.cairn.platform;

import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The DynamoDB client's timers: the call and attempt timeouts it sets on every call, and its pauses before a retry.
 * Every call schedules two timeouts and cancels them when its answer comes, so almost none ever fires. On a
 * scheduler that keeps its tasks ordered under a lock and wakes its thread for the earliest one (Quarkus' own, which
 * the extension hands the SDK), that cost a tree insertion and removal on the event loop and a wake-up of the
 * scheduler thread per call: about a twentieth of a listing's CPU in the benchmark's profile. Here a hashed wheel
 * (Netty's) takes a timeout in constant time and its one thread turns every {@link #TICK_MILLIS} ms whatever the load.
 * A task that comes due runs on {@code executor} (the worker pool), as it did on Quarkus' scheduler.
 *
 * <p>Only {@link #schedule(Runnable, long, TimeUnit)}, which is all the SDK uses, and {@link #execute} are offered; a
 * task runs up to one tick late (a 3 s timeout fires within 3.00–3.01 s).
 */
final class CallTimers extends AbstractExecutorService implements ScheduledExecutorService {

    static final long TICK_MILLIS = 10;

    private final HashedWheelTimer wheel;
    private final Executor executor;

    CallTimers(Executor executor) {
        this.executor = executor;
        this.wheel = new HashedWheelTimer(new DefaultThreadFactory("cairn-dynamodb-timer", true), TICK_MILLIS,
                TimeUnit.MILLISECONDS, 512);
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        return new Scheduled(wheel.newTimeout(timeout -> executor.execute(command), delay, unit), System.nanoTime() + unit.toNanos(delay));
    }

    @Override
    public void execute(Runnable command) {
        executor.execute(command);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException("the DynamoDB client's timers schedule runnables only");
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        throw new UnsupportedOperationException("the DynamoDB client's timers do not repeat");
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException("the DynamoDB client's timers do not repeat");
    }

    @Override
    public void shutdown() {
        wheel.stop();
    }

    @Override
    public List<Runnable> shutdownNow() {
        wheel.stop();
        return List.of();
    }

    @Override
    public boolean isShutdown() {
        return false;
    }

    @Override
    public boolean isTerminated() {
        return false;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return true;
    }

    /** A task on the wheel: cancelling it takes it off (the SDK cancels a call's timeouts when its answer comes). */
    private record Scheduled(Timeout timeout, long dueNanos) implements ScheduledFuture<Object> {

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(dueNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            return timeout.cancel();
        }

        @Override
        public boolean isCancelled() {
            return timeout.isCancelled();
        }

        @Override
        public boolean isDone() {
            return timeout.isExpired() || timeout.isCancelled();
        }

        @Override
        public Object get() {
            throw new UnsupportedOperationException("a timer's task is not awaited");
        }

        @Override
        public Object get(long timeout, TimeUnit unit) {
            throw new UnsupportedOperationException("a timer's task is not awaited");
        }
    }
}
