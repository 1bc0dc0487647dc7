package dev.cairn.platform.limits;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.store.CopyBudget;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.concurrent.atomic.AtomicInteger;
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
    void aCascadingWriteReservesOneCopySoConcurrentAdmissionsCannotPassTheBudget() {
        var limits = limits(100, 100, 5, 100);
        // Six cascading writes admitted at once against a budget of 5: the sixth is refused before any copy is known.
        var admitted = new ArrayList<CopyBudget>();
        for (int i = 0; i < 5; i++) {
            admitted.add(limits.admitCascade("mallory"));
        }
        var refused = refusal(() -> limits.admitCascade("mallory"));
        assertThat(refused.rateLimit()).isEqualTo("cascade-copies");
        assertThat(refused.retryAfterSeconds()).isEqualTo(12); // one copy back at 5 a minute
        assertThat(refused(CallerLimits.CASCADE_COPIES)).isEqualTo(1.0);
        // Each of the five writes 5 copies: its reservation covers one, the bucket has none left for the rest.
        int written = 0;
        for (CopyBudget budget : admitted) {
            written += budget.takeUpTo(5);
        }
        assertThat(written).as("copies the budget allowed now").isEqualTo(5);
        assertThat(admitted.get(0).until(4)).isEqualTo(48 * SECOND);
        assertThatCode(() -> limits.admitCascade("alice")).doesNotThrowAnyException();
    }

    @Test
    void aTransactionalCascadeTakesAllItsCopiesOrNoneAndWhatIsNotWrittenGoesBack() {
        var limits = limits(100, 100, 60, 100);
        CopyBudget first = limits.admitCascade("mallory");
        first.takeAll(50);
        assertThat(limits.copyBudget("mallory")).isEqualTo(10.0);
        CopyBudget second = limits.admitCascade("mallory");
        var refused = refusal(() -> second.takeAll(20));
        assertThat(refused.rateLimit()).isEqualTo("cascade-copies");
        // the refused write took nothing, and its reservation went back with it
        assertThat(limits.copyBudget("mallory")).isEqualTo(10.0);
        second.close();
        assertThat(limits.copyBudget("mallory")).isEqualTo(10.0);
        // copies found current when written are given back; an unused reservation too, once
        CopyBudget third = limits.admitCascade("mallory");
        third.takeAll(5);
        third.refund(3);
        assertThat(limits.copyBudget("mallory")).isEqualTo(8.0);
        CopyBudget unused = limits.admitCascade("mallory");
        unused.close();
        unused.close();
        assertThat(limits.copyBudget("mallory")).isEqualTo(8.0);
        // a cascade larger than the whole budget can never be written in one transaction: said so
        var never = refusal(() -> limits.admitCascade("bob").takeAll(61));
        assertThat(never.detail()).contains("cascade=eventual");
    }

    @Test
    void aReadReservesItsShareIsChargedWhatItConsumedAndGivesBackTheRest() {
        var limits = new CallerLimits(new CallerLimits.Settings(true, 100, 100, 60, 10, 100, 10, 100), registry, clock::get);
        var small = limits.admitRead("reader");
        small.accept(2.5);
        small.close();
        small.close();
        assertThat(limits.readBudget("reader")).isEqualTo(97.5);
        var large = limits.admitRead("reader");
        large.accept(150);
        large.close();
        assertThat(limits.readBudget("reader")).isEqualTo(-52.5);
        var refused = refusal(() -> limits.admitRead("reader"));
        assertThat(refused.rateLimit()).isEqualTo("read-capacity");
        // 62.5 units to be back at the reserve of 10, at 10 a second
        assertThat(refused.retryAfterSeconds()).isEqualTo(7);
        assertThat(refused(CallerLimits.READ_CAPACITY)).isEqualTo(1.0);
        // ten reads in flight hold the whole bucket: an eleventh waits, however little the ten will consume
        var fresh = new CallerLimits(new CallerLimits.Settings(true, 100, 100, 60, 10, 100, 10, 100), registry, clock::get);
        for (int i = 0; i < 10; i++) {
            fresh.admitRead("many");
        }
        refusal(() -> fresh.admitRead("many"));
    }

    @Test
    void withThreeReplicasAliveEachEnforcesAThirdOfEveryLimit() {
        var replicas = new AtomicInteger(3);
        var limits = new CallerLimits(new CallerLimits.Settings(true, 1, 9, 60, 30, 300, 10, 100), registry, clock::get,
                replicas::get);
        for (int i = 0; i < 3; i++) {
            limits.admitWrite("spread");
        }
        assertThat(refusal(() -> limits.admitWrite("spread")).retryAfterSeconds()).isEqualTo(3);
        var reads = limits.admitRead("spread"); // 30 of 300 reserved
        reads.accept(20); // 60 charged
        reads.close();
        assertThat(limits.readBudget("spread")).isEqualTo(240.0);
        replicas.set(1);
        clock.addAndGet(9 * SECOND);
        for (int i = 0; i < 9; i++) {
            limits.admitWrite("spread");
        }
    }

    @Test
    void turnedOffNothingIsRefusedOrCharged() {
        var limits = new CallerLimits(new CallerLimits.Settings(false, 1, 1, 1, 1), registry, clock::get);
        for (int i = 0; i < 100; i++) {
            limits.admitWrite("mallory");
            limits.admitCascade("mallory").takeAll(1000);
            limits.admitRead("mallory").accept(1000);
        }
        assertThat(limits.callers()).isZero();
        assertThat(refused(CallerLimits.WRITES)).isZero();
    }

    @Test
    void aFloodOfSubjectsKeepsTheBucketsBoundedForgettingIdleOnesFirstThenTheLeastRecentlySeen() {
        var limits = limits(2, 1, 60, 10);
        limits.admitWrite("debtor");
        var read = limits.admitRead("debtor");
        read.accept(11_000);
        read.close();
        for (int i = 0; i < 1000; i++) {
            clock.addAndGet(1000);
            limits.admitWrite("flood-" + i);
            limits.copyBudget("debtor"); // seen all the time: never the least recent
            clock.addAndGet(SECOND / 100); // too soon for a caller's bucket to be full again: none is idle
            assertThat(limits.callers()).isLessThanOrEqualTo(10);
        }
        // the debtor stayed known, and so did its debt, less what the ten seconds refilled (500 read units a second)
        assertThat(limits.readBudget("debtor")).isCloseTo(-1000.0, within(1.0));
        refusal(() -> limits.admitRead("debtor"));
    }

    @Test
    void callersThatAreFullAgainAreForgottenBeforeAnyActiveOne() {
        var limits = limits(2, 1, 60, 4);
        limits.admitWrite("a");
        limits.admitWrite("b");
        limits.admitWrite("c");
        limits.admitCascade("active").takeAll(30);
        clock.addAndGet(10 * SECOND); // a, b and c are full again; "active" has not got all its copies back
        limits.admitWrite("d");
        limits.admitWrite("e");
        assertThat(limits.callers()).isEqualTo(3);
        assertThat(limits.copyBudget("active")).isEqualTo(40.0);
    }
}
