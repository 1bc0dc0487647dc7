package dev.cairn.core.item;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

class TimestampsTest {

    private static final Instant FIRST = Instant.parse("0000-01-01T00:00:00Z");
    private static final Instant LAST = Instant.parse("9999-12-31T23:59:59.999999999Z");

    @Test
    void readsEveryInstantAsInstantParseDoesAtEveryPrecision() {
        var random = new Random(20261123);
        long span = LAST.getEpochSecond() - FIRST.getEpochSecond();
        for (int i = 0; i < 20_000; i++) {
            Instant instant = Instant.ofEpochSecond(FIRST.getEpochSecond() + Math.floorMod(random.nextLong(), span),
                    random.nextInt(1_000_000_000));
            // Instant.toString drops trailing zero groups: whole seconds, millis, micros and nanos all occur.
            for (var unit : List.of(ChronoUnit.SECONDS, ChronoUnit.MILLIS, ChronoUnit.MICROS, ChronoUnit.NANOS)) {
                String text = instant.truncatedTo(unit).toString();
                assertThat(Timestamps.instant(text)).as(text).isEqualTo(Instant.parse(text));
            }
            String date = LocalDate.ofEpochDay(instant.getEpochSecond() / 86_400).toString();
            assertThat(Timestamps.date(date)).as(date).isEqualTo(LocalDate.parse(date));
        }
    }

    @Test
    void everyFractionLengthAndTheEdgesOfTheCalendarReadAsTheJdkReadsThem() {
        for (String text : List.of("2026-11-23T22:54:39.1Z", "2026-11-23T22:54:39.12Z", "2026-11-23T22:54:39.1234Z",
                "2026-11-23T22:54:39.12345Z", "2026-11-23T22:54:39.1234567Z", "2026-11-23T22:54:39.12345678Z",
                "2024-02-29T00:00:00Z", "1970-01-01T00:00:00Z", "1969-12-31T23:59:59.999999999Z", "0000-01-01T00:00:00Z",
                "9999-12-31T23:59:59Z")) {
            assertThat(Timestamps.instant(text)).as(text).isEqualTo(Instant.parse(text));
        }
    }

    @Test
    void whatTheFastPathDoesNotTakeIsAnsweredOrRefusedExactlyAsByTheJdk() {
        List<String> instants = List.of("2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-11-31T10:00:00Z",
                "2026-11-23T24:00:00Z", "2026-11-23T23:60:00Z", "2026-12-31T23:59:60Z", "2026-11-23T22:54:39.Z",
                "2026-11-23T22:54:39.1234567891Z", "2026-11-23t22:54:39Z", "2026-11-23T22:54:39z",
                "2026-11-23T22:54:39+01:00", "+10000-01-01T00:00:00Z", "-0001-01-01T00:00:00Z", "2026-1l-23T22:54:39Z",
                "2026-11-23T22:54:3xZ", "2026-11-23T22:54:39.12a4Z", "2026-11-23 22:54:39Z", "2026-11-23T22:54Z", "", "Z");
        for (String text : instants) {
            assertSameOutcome(text, Timestamps::instant, Instant::parse);
        }
        for (String text : List.of("2026-02-29", "2026-00-10", "2026-11-00", "2026-11-31", "+10000-01-01", "2026/11/23",
                "2026-1-23", "202a-11-23", "")) {
            assertSameOutcome(text, Timestamps::date, LocalDate::parse);
        }
    }

    @Test
    void writesEveryInstantAsInstantToStringDoesAtEveryPrecision() {
        var random = new Random(20261125);
        long span = LAST.getEpochSecond() - FIRST.getEpochSecond();
        for (int i = 0; i < 20_000; i++) {
            Instant instant = Instant.ofEpochSecond(FIRST.getEpochSecond() + Math.floorMod(random.nextLong(), span),
                    random.nextInt(1_000_000_000));
            for (var unit : List.of(ChronoUnit.SECONDS, ChronoUnit.MILLIS, ChronoUnit.MICROS, ChronoUnit.NANOS)) {
                Instant truncated = instant.truncatedTo(unit);
                assertThat(Timestamps.text(truncated)).isEqualTo(truncated.toString());
            }
        }
    }

    @Test
    void theEdgesOfTheCalendarAndYearsOutsideFourDigitsAreWrittenAsTheJdkWritesThem() {
        for (Instant instant : List.of(FIRST, LAST, FIRST.minusNanos(1), LAST.plusNanos(1), Instant.EPOCH,
                Instant.EPOCH.minusNanos(1), Instant.MIN, Instant.MAX, Instant.parse("2024-02-29T23:59:59.000001Z"),
                Instant.parse("2026-11-25T00:00:00.100Z"), Instant.parse("0999-12-31T23:59:59.999999Z"),
                Instant.parse("+10000-01-01T00:00:00Z"), Instant.parse("-0001-12-31T23:59:59Z"))) {
            assertThat(Timestamps.text(instant)).isEqualTo(instant.toString());
        }
    }

    private static <T> void assertSameOutcome(String text, Function<String, T> fast, Function<String, T> jdk) {
        Throwable expected = catchThrowable(() -> jdk.apply(text));
        if (expected == null) {
            assertThat(fast.apply(text)).as(text).isEqualTo(jdk.apply(text));
        } else {
            assertThat(catchThrowable(() -> fast.apply(text))).as(text).isInstanceOf(expected.getClass())
                    .hasMessage(expected.getMessage());
        }
    }
}
