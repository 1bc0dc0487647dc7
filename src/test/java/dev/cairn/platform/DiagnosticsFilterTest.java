package dev.cairn.platform;

import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

class DiagnosticsFilterTest {

    @Test
    void headerNumbersAreWrittenWithOneDecimalAsStringFormatWritesThem() {
        for (double value : new double[]{0, 0.5, 1, 2.5, 12.5, 99.5, 1024}) {
            assertThat(DiagnosticsFilter.oneDecimal(value)).isEqualTo(String.format(Locale.ROOT, "%.1f", value));
        }
        // Milliseconds: any fraction, away from a rounding half.
        for (int i = 0; i < 200_000; i++) {
            double millis = i / 100.0 + 0.003;
            assertThat(DiagnosticsFilter.oneDecimal(millis)).as("%s", millis)
                    .isEqualTo(String.format(Locale.ROOT, "%.1f", millis));
        }
    }

    @Test
    void aNewRequestIdIsARandomVersion4UuidInItsUsualText() {
        var seen = new java.util.HashSet<String>();
        for (int i = 0; i < 10_000; i++) {
            String id = DiagnosticsFilter.newRequestId();
            java.util.UUID uuid = java.util.UUID.fromString(id);
            assertThat(uuid.version()).isEqualTo(4);
            assertThat(uuid.variant()).isEqualTo(2);
            assertThat(id).isEqualTo(uuid.toString()).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
            assertThat(seen.add(id)).isTrue();
        }
    }
}
