package dev.cairn.platform.limits;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.within;

class CallerLimitsTest {

    static final long SECOND = 1_000_000_000L;

    final AtomicLong clock = new AtomicLong(42 * SECOND);
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    CallerLimits limits(int writeBurst, double writesPerSecond, int copiesPerMinute, int maxCallers) {
        return new CallerLimits(new CallerLimits.Settings(true, writesPerSecond, writeBurst, copiesPerMinute, maxCallers),
                registry, clock::get);
    }

    static CairnError.RateLimited refusal(Runnable call) {
        CairnException e = catchThrowableOfType(CairnException.class, call::run);
        assertThat(e).as("refused").isNotNull();
        assertThat(e.error()).isInstanceOf(CairnError.RateLimited.class);
        return (CairnError.RateLimited) e.error();
    }

    double refused(String limit) {
        return registry.get("cairn.rate.limited").tag("limit", limit).counter().count();
    }

    @Test
    void oneCallersWritesAreRefusedPastTheBurstWhileAnotherCallersPass() {
        var limits = limits(3, 0.5, 600, 100);
        for (int i = 0; i < 3; i++) {
            limits.admitWrite("mallory");
        }
        var refused = refusal(() -> limits.admitWrite("mallory"));
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.rateLimit()).isEqualTo("writes");
        assertThat(refused.retryAfterSeconds()).isEqualTo(2);
        assertThat(refused.detail()).contains("3 at once and 0.5 a second");
        assertThat(refused(CallerLimits.WRITES)).isEqualTo(1.0);
        assertThatCode(() -> limits.admitWrite("alice")).doesNotThrowAnyException();
        clock.addAndGet(2 * SECOND);
        assertThatCode(() -> limits.admitWrite("mallory")).doesNotThrowAnyException();
        assertThat(refused(CallerLimits.CASCADE_COPIES)).isZero();
    }

    @Test
    void aCascadingWriteIsAdmittedWhileACopyIsLeftAndItsCopiesMayRunIntoDebt() {
        var limits = limits(100, 100, 60, 100);
        limits.admitCascade("mallory");
        limits.chargeTo("mallory").accept(50);
        limits.admitCascade("mallory");
        limits.chargeTo("mallory").accept(50);
        assertThat(limits.copyBudget("mallory")).isEqualTo(-40.0);
        var refused = refusal(() -> limits.admitCascade("mallory"));
        assertThat(refused.rateLimit()).isEqualTo("cascade-copies");
        assertThat(refused.retryAfterSeconds()).isEqualTo(41);
        assertThat(refused(CallerLimits.CASCADE_COPIES)).isEqualTo(1.0);
        assertThatCode(() -> limits.admitCascade("alice")).doesNotThrowAnyException();
        clock.addAndGet(41 * SECOND);
        assertThatCode(() -> limits.admitCascade("mallory")).doesNotThrowAnyException();
    }

    @Test
    void turnedOffNothingIsRefusedOrCharged() {
        var limits = new CallerLimits(new CallerLimits.Settings(false, 1, 1, 1, 1), registry, clock::get);
        for (int i = 0; i < 100; i++) {
            limits.admitWrite("mallory");
            limits.admitCascade("mallory");
            limits.chargeTo("mallory").accept(1000);
        }
        assertThat(limits.callers()).isZero();
        assertThat(refused(CallerLimits.WRITES)).isZero();
    }

    @Test
    void aFloodOfSubjectsKeepsTheBucketsBoundedForgettingIdleOnesFirstThenTheLeastRecentlySeen() {
        var limits = limits(2, 1, 60, 10);
        limits.admitWrite("debtor");
        limits.chargeTo("debtor").accept(600);
        for (int i = 0; i < 1000; i++) {
            clock.addAndGet(1000);
            limits.admitWrite("flood-" + i);
            limits.copyBudget("debtor"); // seen all the time: never the least recent
            clock.addAndGet(SECOND / 100); // too soon for a caller's bucket to be full again: none is idle
            assertThat(limits.callers()).isLessThanOrEqualTo(10);
        }
        // the debtor stayed known, and so did its debt, less what the ten seconds refilled
        assertThat(limits.copyBudget("debtor")).isCloseTo(-530.0, within(0.1));
        refusal(() -> limits.admitCascade("debtor"));
    }

    @Test
    void callersThatAreFullAgainAreForgottenBeforeAnyActiveOne() {
        var limits = limits(2, 1, 60, 4);
        limits.admitWrite("a");
        limits.admitWrite("b");
        limits.admitWrite("c");
        limits.chargeTo("active").accept(30);
        clock.addAndGet(10 * SECOND); // a, b and c are full again; "active" still owes copies
        limits.admitWrite("d");
        limits.admitWrite("e");
        assertThat(limits.callers()).isEqualTo(3);
        assertThat(limits.copyBudget("active")).isEqualTo(40.0);
    }
}
