package dev.cairn.core.expr.builder;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ReservedWordsTest {

    @Test
    void theListHoldsDynamoDbs573WordsWhateverTheCase() {
        assertThat(ReservedWords.all()).hasSize(573).contains("ABORT", "STATUS", "NAME", "DATA", "YEAR", "ZONE", "TTL");
        assertThat(ReservedWords.isReserved("status")).isTrue();
        assertThat(ReservedWords.isReserved("Year")).isTrue();
        assertThat(ReservedWords.isReserved("pk")).isFalse();
        assertThat(ReservedWords.isReserved("title")).isFalse();
    }
}
