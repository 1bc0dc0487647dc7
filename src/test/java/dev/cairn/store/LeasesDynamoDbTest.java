package dev.cairn.store;

import dev.cairn.core.TableSpec;
import dev.cairn.core.job.Job;
import dev.cairn.core.job.JobTable;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.lease.Lease;
import dev.cairn.core.write.TransactionPlan;
import dev.cairn.core.write.WriteAction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The one lease protocol, executed against DynamoDB Local: claim, renew, expiry, takeover, a stale owner refused. */
@QuarkusTest
class LeasesDynamoDbTest {

    static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    Leases leases;

    @Inject
    EntityStore store;

    @Inject
    JobStore jobs;

    PrimaryKey freshItem() {
        var key = PrimaryKey.of("LEASETEST#" + UUID.randomUUID(), "X");
        var item = new java.util.HashMap<>(key.toAttributes());
        item.put(TableSpec.TYPE, AttributeValue.fromS("LeaseTest"));
        store.write(new WriteAction(WriteAction.Kind.PUT, key, item, null, WriteAction.Expectation.ABSENT, null, "t"))
                .await().atMost(WAIT);
        return key;
    }

    boolean attempt(WriteAction step) {
        return leases.attempt(step).await().atMost(WAIT);
    }

    Lease leaseOf(PrimaryKey key) {
        return Lease.of(store.getItem(key, true).await().atMost(WAIT));
    }

    @Test
    void claimRenewExpiryTakeoverAndAStaleOwnerRefused() {
        PrimaryKey key = freshItem();
        Instant now = Instant.now();
        assertThat(attempt(Lease.claim("t", key, "a", now, now.plusSeconds(30), null))).as("a free item is claimed").isTrue();
        assertThat(attempt(Lease.claim("t", key, "b", now, now.plusSeconds(30), null))).as("a live lease is not").isFalse();
        assertThat(attempt(Lease.claim("t", key, "a", now, now.plusSeconds(40), null))).as("our own is re-claimed").isTrue();
        assertThat(attempt(Lease.renew("t", key, "a", now.plusSeconds(50), null))).isTrue();
        assertThat(leaseOf(key)).isEqualTo(new Lease("a", Instant.ofEpochMilli(now.plusSeconds(50).toEpochMilli())));

        // once it has expired (seen from a clock 60 s later), anybody takes it over ...
        Instant later = now.plusSeconds(60);
        assertThat(attempt(Lease.claim("t", key, "b", later, later.plusSeconds(30), null))).isTrue();
        // ... and the old owner can neither renew, nor release, nor commit a guarded transaction
        assertThat(attempt(Lease.renew("t", key, "a", later.plusSeconds(30), null))).isFalse();
        assertThat(attempt(Lease.release("t", key, "a", null))).isFalse();
        var other = freshItem();
        var guarded = TransactionPlan.of(List.of(new WriteAction(WriteAction.Kind.DELETE, other, null, null,
                WriteAction.Expectation.NONE, null, "t"), Lease.guard("t", key, "a")));
        assertThat(leases.attempt(guarded).await().atMost(WAIT)).isFalse();
        assertThat(store.getItem(other, true).await().atMost(WAIT)).as("the refused transaction wrote nothing").isNotNull();

        assertThat(attempt(Lease.release("t", key, "b", null))).isTrue();
        assertThat(leaseOf(key)).isNull();
        assertThat(attempt(Lease.renew("t", PrimaryKey.of("LEASETEST#absent", "X"), "a", later, null)))
                .as("an absent item has no lease").isFalse();
    }

    @Test
    void aJobIsFoundThroughTheRunnableIndexOnlyOnceItsLeaseExpiredAndIsClaimedByOneProcessOnly() throws Exception {
        String id = JobTable.newId(Instant.now());
        Instant now = Instant.now();
        // a job whose owner died: its lease ran out a moment ago
        var dead = jobs.table().create(Job.CASCADE, id, Map.of("x", AttributeValue.fromS("y")), "dead-owner",
                now.minusSeconds(5), now.minusMillis(1));
        store.transact(TransactionPlan.of(List.of(dead))).await().atMost(WAIT);
        int shard = Math.floorMod(id.hashCode(), jobs.table().shards());
        Job found = null;
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (found == null && System.nanoTime() < deadline) { // the index is eventually consistent
            found = jobs.claimable(shard, 100).await().atMost(WAIT).stream().filter(j -> j.id().equals(id)).findFirst().orElse(null);
        }
        assertThat(found).isNotNull();
        assertThat(found.state()).isEqualTo(Job.State.RUNNING);

        Job claimed = jobs.claim(found).await().atMost(WAIT);
        assertThat(claimed).isNotNull();
        assertThat(claimed.lease().owner()).isEqualTo(jobs.settings().owner());
        assertThat(jobs.claim(found.with(Job.State.RUNNING, found.progress())).await().atMost(WAIT))
                .as("claiming again as ourselves is harmless").isNotNull();

        var progress = claimed.progress().page(1, null, 10, 7, 3, List.of(Map.of("pk", "P", "sk", "S", "reason", "Busy")));
        assertThat(jobs.checkpoint(claimed, progress).await().atMost(WAIT)).isTrue();
        assertThat(jobs.finish(claimed, Job.State.FAILED, progress).await().atMost(WAIT)).isTrue();
        Job finished = jobs.get(id).await().atMost(WAIT);
        assertThat(finished.state()).isEqualTo(Job.State.FAILED);
        assertThat(finished.lease()).isNull();
        assertThat(finished.progress()).isEqualTo(progress);
        assertThat(jobs.claim(finished).await().atMost(WAIT)).as("a finished job is never claimed").isNull();
    }
}
