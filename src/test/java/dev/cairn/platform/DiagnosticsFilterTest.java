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
}
