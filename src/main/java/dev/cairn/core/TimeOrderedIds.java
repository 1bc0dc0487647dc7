package dev.cairn.core;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Server-generated ids that sort by creation time: 16 zero-padded digits of microseconds since the epoch
 * (strictly increasing within this process, even within one microsecond), then a random suffix so replicas
 * never collide. Newer ids sort after older ones, as strings, byte by byte.
 */
public final class TimeOrderedIds {

    private static final char[] ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz".toCharArray();

    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final AtomicLong last = new AtomicLong();

    public TimeOrderedIds(Clock clock) {
        this.clock = clock;
    }

    public static TimeOrderedIds systemUtc() {
        return new TimeOrderedIds(Clock.systemUTC());
    }

    public String next() {
        var now = clock.instant();
        long micros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
        long value = last.updateAndGet(previous -> Math.max(previous + 1, micros));
        var id = new StringBuilder(22).append(String.format("%016d", value)).append('-');
        for (int i = 0; i < 5; i++) {
            id.append(ALPHABET[random.nextInt(ALPHABET.length)]);
        }
        return id.toString();
    }
}
