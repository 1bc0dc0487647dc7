package dev.cairn.core.aggregate;

import dev.cairn.core.TableSpec;
import dev.cairn.core.aggregate.Aggregate.Assembled;
import dev.cairn.core.model.HistoryModel;
import dev.cairn.core.write.VersionSnapshots;
import dev.cairn.core.write.WriteAction;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An aggregate's version history, without I/O: what a snapshot holds and where it lives, the window a {@code keep}
 * keeps, a delete's and a duration's marks, and a version too large to keep.
 */
class AggregateVersionsTest {

    static final Instant T0 = Instant.parse("2026-11-28T08:00:00Z");
    static final Instant T1 = Instant.parse("2026-11-28T09:30:00Z");

    static Assembled assembled(long version) {
        var view = new LinkedHashMap<String, Object>();
        view.put("id", "o1");
        view.put("status", "paid");
        view.put("lines", List.of(Map.of("quantity", 2, "price", new java.math.BigDecimal("2.50"))));
        view.put("note", null);
        return new Assembled(view, version, T0, T1, Map.of(), Map.of(VersionSnapshots.WRITER, AttributeValue.fromS("ann")));
    }

    @Test
    void aSnapshotIsTheWholeVersionAsItsGetShowedItInAPartitionOfItsOwn() {
        var actions = AggregateVersions.snapshot(new HistoryModel(3, null, 1), "Order", true, "ORDER#o1", assembled(5), T1,
                null);
        assertThat(actions).hasSize(2);
        WriteAction put = actions.get(0);
        assertThat(put.key().pk()).isEqualTo("~VERSION#ORDER#o1");
        assertThat(put.key().sk()).isEqualTo("0000000000000000005");
        assertThat(put.item().get(TableSpec.TYPE).s()).isEqualTo("Order~version");
        assertThat(put.item()).doesNotContainKeys(TableSpec.EXPIRES_AT, VersionSnapshots.DELETED_BY);
        assertThat(AggregateVersions.writtenBy(put.item())).isEqualTo("ann");
        assertThat(AggregateVersions.writtenAt(put.item())).isEqualTo(T1);
        assertThat(AggregateVersions.versionOf(put.item())).isEqualTo(5);
        // read back in the order the answer had, numbers as written, the root's timestamps after the view
        var shown = AggregateVersions.shownOf(put.item());
        assertThat(shown.keySet()).containsExactly("id", "status", "lines", "note", "createdAt", "updatedAt");
        assertThat(shown.get("createdAt")).isEqualTo(T0.toString());
        assertThat(put.item().get(AggregateVersions.JSON).s()).contains("\"price\":2.50");
        // keep 3: storing version 5 deletes version 2, in the same transaction
        assertThat(actions.get(1).kind()).isEqualTo(WriteAction.Kind.DELETE);
        assertThat(actions.get(1).key()).isEqualTo(AggregateVersions.key("ORDER#o1", 2));
        // nothing falls out while the window is not full; an aggregate without timestamps shows none
        var early = AggregateVersions.snapshot(new HistoryModel(3, null, 1), "Order", false, "ORDER#o1", assembled(3), T1,
                null);
        assertThat(early).hasSize(1);
        assertThat(AggregateVersions.shownOf(early.get(0).item())).doesNotContainKeys("createdAt", "updatedAt");
    }

    @Test
    void aDeletesSnapshotNamesWhoDeletedItAndADurationExpiresIt() {
        var actions = AggregateVersions.snapshot(new HistoryModel(null, Duration.ofDays(2), 1), "Order", true, "ORDER#o1",
                assembled(9), T1, "bob");
        assertThat(actions).hasSize(1);
        var item = actions.get(0).item();
        assertThat(item.get(VersionSnapshots.DELETED_BY).s()).isEqualTo("bob");
        assertThat(item.get(VersionSnapshots.DELETED_AT).s()).isEqualTo(T1.toString());
        assertThat(item.get(TableSpec.EXPIRES_AT).n()).isEqualTo(Long.toString(T1.plus(Duration.ofDays(2)).getEpochSecond()));
    }

    @Test
    void aVersionTooLargeToKeepIsRefusedBeforeItIsWritten() {
        var view = new LinkedHashMap<String, Object>();
        view.put("id", "o1");
        view.put("note", "x".repeat(420_000));
        AggregateVersions.requireKeepable("Order", false, "ORDER#o1", Map.of("id", "o1"), 1, T0, T0, "ann");
        assertThatThrownBy(() -> AggregateVersions.requireKeepable("Order", false, "ORDER#o1", view, 1, T0, T0, "ann"))
                .hasMessageContaining("Order version 1 (as history would keep it)").hasMessageContaining("at most 409600");
    }
}
