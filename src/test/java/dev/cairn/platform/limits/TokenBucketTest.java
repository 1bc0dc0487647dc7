package dev.cairn.platform.limits;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class TokenBucketTest {

    static final long SECOND = 1_000_000_000L;
    static final long T0 = 7 * SECOND; // nanoTime has an arbitrary origin

    @Test
    void aFullBucketGivesItsBurstAtOnceThenNamesTheTimeUntilTheNextToken() {
        var bucket = TokenBucket.of(5, 2, T0);
        for (int i = 0; i < 5; i++) {
            assertThat(bucket.take(T0)).as("token " + i).isZero();
        }
        assertThat(bucket.take(T0)).isEqualTo(SECOND / 2);
        assertThat(TokenBucket.seconds(bucket.take(T0))).isEqualTo(1);
    }

    @Test
    void aRefusedTakeTakesNothingSoTheWaitDoesNotGrow() {
        var bucket = TokenBucket.of(1, 1, T0);
        assertThat(bucket.take(T0)).isZero();
        for (int i = 0; i < 10; i++) {
            assertThat(bucket.take(T0 + SECOND / 4)).isEqualTo(3 * SECOND / 4);
        }
        assertThat(bucket.take(T0 + SECOND)).isZero();
    }

    @Test
    void tokensRefillContinuouslyUpToTheCapacityAndNoFurther() {
        var bucket = TokenBucket.of(5, 2, T0);
        for (int i = 0; i < 5; i++) {
            bucket.take(T0);
        }
        assertThat(bucket.tokens(T0 + SECOND / 4)).isCloseTo(0.5, within(1e-9));
        assertThat(bucket.take(T0 + SECOND / 4)).isEqualTo(SECOND / 4);
        assertThat(bucket.take(T0 + SECOND)).isZero();
        assertThat(bucket.take(T0 + SECOND)).isZero();
        assertThat(bucket.take(T0 + SECOND)).isEqualTo(SECOND / 2);
        assertThat(bucket.full(T0 + 2 * SECOND)).isFalse();
        assertThat(bucket.tokens(T0 + 100 * SECOND)).isEqualTo(5.0);
        assertThat(bucket.full(T0 + 100 * SECOND)).isTrue();
    }

    @Test
    void aClockReadingOlderThanTheLastOneRefillsNothing() {
        var bucket = TokenBucket.of(2, 1, T0);
        bucket.take(T0 + SECOND);
        bucket.take(T0 + SECOND);
        // another thread's older reading arrives late: no negative refill, no token out of nowhere
        assertThat(bucket.tokens(T0)).isZero();
        assertThat(bucket.take(T0)).isEqualTo(SECOND);
    }

    @Test
    void aChargeBeyondTheBalanceIsDebtThatIsRefilledBeforeAnythingIsAdmitted() {
        // 60 copies a minute: one a second, a minute's worth at once
        var budget = TokenBucket.of(60, 1, T0);
        assertThat(budget.admit(T0)).isZero();
        budget.charge(300, T0);
        assertThat(budget.tokens(T0)).isEqualTo(-240.0);
        // admitted again once one whole copy is back: 241 s
        assertThat(budget.admit(T0)).isEqualTo(241 * SECOND);
        assertThat(TokenBucket.seconds(budget.admit(T0 + 100 * SECOND))).isEqualTo(141);
        assertThat(budget.admit(T0 + 240 * SECOND)).isEqualTo(SECOND);
        assertThat(budget.admit(T0 + 241 * SECOND)).isZero();
        assertThat(budget.tokens(T0 + 241 * SECOND)).isEqualTo(1.0);
    }

    @Test
    void admittingTakesNothingChargingDoes() {
        var budget = TokenBucket.of(10, 1, T0);
        for (int i = 0; i < 20; i++) {
            assertThat(budget.admit(T0)).isZero();
        }
        budget.charge(9.5, T0);
        assertThat(budget.admit(T0)).isEqualTo(SECOND / 2);
    }

    @Test
    void retryAfterIsWholeSecondsRoundedUpAndAtLeastOne() {
        assertThat(TokenBucket.seconds(0)).isEqualTo(1);
        assertThat(TokenBucket.seconds(1)).isEqualTo(1);
        assertThat(TokenBucket.seconds(SECOND)).isEqualTo(1);
        assertThat(TokenBucket.seconds(SECOND + 1)).isEqualTo(2);
        assertThat(TokenBucket.seconds(90 * SECOND - 5)).isEqualTo(90);
    }
}
