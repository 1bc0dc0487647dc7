package dev.cairn.core.item;

import java.time.Instant;
import java.time.LocalDate;

/**
 * Reads the dates Cairn stores, in a fraction of {@link Instant#parse}'s time: every stored item carries two
 * instants, and a listing page of 20 items spent 5 % of the app's CPU in {@code DateTimeFormatter} (benchmark
 * profile). The fast path takes exactly the form {@link Instant#toString} and {@link LocalDate#toString} write for
 * years 0000–9999 ({@code 2026-11-23T22:54:39.123Z}, {@code 2026-11-23}); any other text goes to the JDK's parser,
 * so what is accepted, and the exception for what is not, stay the JDK's.
 *
 * <p>{@link #text} writes an instant back the same way: exactly {@link Instant#toString}'s text, without its
 * formatter (the answers of the listing routes write two instants per item).
 */
public final class Timestamps {

    private Timestamps() {
    }

    /** The same instant as {@link Instant#parse}. */
    public static Instant instant(String text) {
        int length = text.length();
        if (length < 20 || text.charAt(10) != 'T' || text.charAt(13) != ':' || text.charAt(16) != ':'
                || text.charAt(length - 1) != 'Z') {
            return Instant.parse(text);
        }
        int hour = digits(text, 11, 13);
        int minute = digits(text, 14, 16);
        int second = digits(text, 17, 19);
        int nanos = 0;
        if (length > 20) {
            int fractionDigits = length - 21;
            if (text.charAt(19) != '.' || fractionDigits < 1 || fractionDigits > 9) {
                return Instant.parse(text);
            }
            nanos = digits(text, 20, length - 1);
            for (int i = fractionDigits; i < 9 && nanos >= 0; i++) {
                nanos *= 10;
            }
        } else if (text.charAt(19) != 'Z') {
            return Instant.parse(text);
        }
        LocalDate day = dayOrNull(text);
        // 23:59:60 (a leap second) and anything out of range: the JDK decides.
        if (day == null || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || nanos < 0) {
            return Instant.parse(text);
        }
        return Instant.ofEpochSecond(day.toEpochDay() * 86_400 + hour * 3_600L + minute * 60L + second, nanos);
    }

    /** The same date as {@link LocalDate#parse}. */
    public static LocalDate date(String text) {
        LocalDate day = text.length() == 10 ? dayOrNull(text) : null;
        return day != null ? day : LocalDate.parse(text);
    }

    /** {@code yyyy-MM-dd} at the start of {@code text}, or null when it is not a valid date of that form. */
    private static LocalDate dayOrNull(String text) {
        if (text.charAt(4) != '-' || text.charAt(7) != '-') {
            return null;
        }
        int year = digits(text, 0, 4);
        int month = digits(text, 5, 7);
        int day = digits(text, 8, 10);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31) {
            return null;
        }
        if (day > 28 && day > LocalDate.of(year, month, 1).lengthOfMonth()) {
            return null;
        }
        return LocalDate.of(year, month, day);
    }

    /** The decimal value of {@code text[from, to)}, or -1 when a character there is not an ASCII digit. */
    private static int digits(String text, int from, int to) {
        int value = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static final long FIRST_SECOND = -62_167_219_200L; // 0000-01-01T00:00:00Z
    private static final long LAST_SECOND = 253_402_300_799L;  // 9999-12-31T23:59:59Z

    /** The same text as {@link Instant#toString} ({@code DateTimeFormatter.ISO_INSTANT}). */
    public static String text(Instant instant) {
        long seconds = instant.getEpochSecond();
        if (seconds < FIRST_SECOND || seconds > LAST_SECOND) {
            return instant.toString();
        }
        LocalDate day = LocalDate.ofEpochDay(Math.floorDiv(seconds, 86_400));
        int secondOfDay = (int) Math.floorMod(seconds, 86_400);
        int nanos = instant.getNano();
        // ISO_INSTANT writes the fraction in groups of three digits, as many as it needs.
        int fraction = nanos == 0 ? 0 : nanos % 1_000_000 == 0 ? 3 : nanos % 1_000 == 0 ? 6 : 9;
        byte[] out = new byte[20 + (fraction == 0 ? 0 : fraction + 1)];
        put(out, 0, day.getYear(), 4);
        out[4] = '-';
        put(out, 5, day.getMonthValue(), 2);
        out[7] = '-';
        put(out, 8, day.getDayOfMonth(), 2);
        out[10] = 'T';
        put(out, 11, secondOfDay / 3_600, 2);
        out[13] = ':';
        put(out, 14, secondOfDay / 60 % 60, 2);
        out[16] = ':';
        put(out, 17, secondOfDay % 60, 2);
        if (fraction > 0) {
            out[19] = '.';
            put(out, 20, fraction == 3 ? nanos / 1_000_000 : fraction == 6 ? nanos / 1_000 : nanos, fraction);
        }
        out[out.length - 1] = 'Z';
        return new String(out, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** {@code value} in {@code width} decimal digits, zero-padded, at {@code at}. */
    private static void put(byte[] out, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            out[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
    }
}
