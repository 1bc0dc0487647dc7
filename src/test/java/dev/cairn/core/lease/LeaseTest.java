package dev.cairn.core.lease;

import dev.cairn.core.expr.ReadableConditions;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.write.WriteAction;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class LeaseTest {

    static final Instant NOW = Instant.parse("2026-11-23T10:00:00.500Z");
    static final PrimaryKey KEY = PrimaryKey.of("JOB#1", "JOB");

    @Test
    void aLeaseIsReadFromItsTwoAttributesAndExpiresAtItsInstant() {
        var item = Map.of(Lease.OWNER, AttributeValue.fromS("a"), Lease.UNTIL, Lease.millis(NOW));
        Lease lease = Lease.of(item);
        assertThat(lease).isEqualTo(new Lease("a", NOW));
        assertThat(lease.heldBy("a")).isTrue();
        assertThat(lease.heldBy("b")).isFalse();
        assertThat(lease.expiredAt(NOW.minusMillis(1))).isFalse();
        assertThat(lease.expiredAt(NOW)).isTrue();
        assertThat(Lease.of(Map.of())).isNull();
        // written as ISO-8601 by versions before the expiry became a number
        assertThat(Lease.of(Map.of(Lease.OWNER, AttributeValue.fromS("a"), Lease.UNTIL, AttributeValue.fromS(NOW.toString()))))
                .isEqualTo(new Lease("a", NOW));
    }

    @Test
    void theExpiryIsANumberSoItComparesCorrectlyInAConditionWhateverItsFractionOfASecond() {
        // As ISO strings "…00Z" sorts after "…00.5Z": the old string expiry compared wrongly across whole seconds.
        assertThat(Lease.millis(Instant.parse("2026-11-23T10:00:00Z")).n()).isEqualTo("1795428000000");
        assertThat(Lease.attributes("a", NOW)).containsEntry(Lease.UNTIL, AttributeValue.fromN("1795428000500"));
    }

    @Test
    void aClaimSucceedsOnlyOnAFreeOrExpiredLeaseOrOurOwn() {
        var claim = Lease.claim("Job", KEY, "me", NOW, NOW.plusSeconds(15), null);
        assertThat(claim.kind()).isEqualTo(WriteAction.Kind.UPDATE);
        assertThat(ReadableConditions.of(claim)).isEqualTo("(attribute_exists(pk)) AND (((attribute_not_exists(_lease)) "
                + "OR (_leaseUntil < 1795428000500)) OR (_lease = 'me'))");
    }

    @Test
    void renewReleaseAndGuardActOnlyWhileWeHoldTheLease() {
        assertThat(ReadableConditions.of(Lease.renew("Job", KEY, "me", NOW, null))).isEqualTo("(attribute_exists(pk)) AND (_lease = 'me')");
        assertThat(ReadableConditions.of(Lease.release("Job", KEY, "me", null))).isEqualTo("(attribute_exists(pk)) AND (_lease = 'me')");
        WriteAction guard = Lease.guard("Job", KEY, "me");
        assertThat(guard.kind()).isEqualTo(WriteAction.Kind.CHECK);
        assertThat(ReadableConditions.of(guard)).isEqualTo("_lease = 'me'");
    }
}
