package dev.cairn.platform;

import jakarta.inject.Singleton;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The clock of the application under {@code @QuarkusTest}: the system's, moved by whatever a test adds with
 * {@link #advance}. It replaces the default {@link Clock} bean, so every expiry check, write condition and timestamp
 * of the store reads it, and a test sees an item lapse at once instead of waiting for it. A test that moves it puts it
 * back with {@link #reset} (the application is shared by the test classes).
 */
@Singleton
public class TestClock extends Clock {

    private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

    public void advance(Duration by) {
        offset.updateAndGet(current -> current.plus(by));
    }

    public void reset() {
        offset.set(Duration.ZERO);
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(offset.get());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("the application's clock is UTC");
    }
}
