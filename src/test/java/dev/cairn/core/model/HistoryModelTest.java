package dev.cairn.core.model;

import dev.cairn.core.TableSpec;
import dev.cairn.core.cascade.CascadePlanner;
import dev.cairn.core.cascade.CascadeSource;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.write.VersionSnapshots;
import dev.cairn.core.write.WriteAction;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code history: { keep: N }} or {@code history: { for: <duration> }}: how an entity declares its version history,
 * what the reader refuses (at the line, like every other key), and the snapshot writes a version becomes.
 */
class HistoryModelTest {

    static final String SHELF = """
            domain: Shelf
            entities:
              Book:
                key: { pk: "BOOK#{bookId}", sk: BOOK }
                path: /books/{bookId}
                fields:
                  bookId: id
                  title: { type: string, required: true }
              Lend:
                key: { pk: "LEND#{lendId}", sk: LEND }
                path: /lends/{lendId}
                history: { keep: 5 }
                fields:
                  lendId: id
                  note: string
                  until: instant
                refs:
                  bookId: { entity: Book, copy: { bookTitle: title } }
                index: { index: gsi1, pk: "BOOK#{bookId}", sk: "LEND#{lendId}" }
            """;

    static ModelException failure(String yaml) {
        try {
            DomainPlan.of(List.of(ModelReader.read("models/shelf.yaml", yaml)));
        } catch (ModelException e) {
            return e;
        }
        throw new AssertionError("the model was accepted");
    }

    @Test
    void anEntityKeepsTheLastNVersionsOrEachForADuration() {
        var lend = ModelReader.read("models/shelf.yaml", SHELF).entity("Lend");
        assertThat(lend.history().keep()).isEqualTo(5);
        assertThat(lend.history().retain()).isNull();
        assertThat(ModelReader.read("models/shelf.yaml", SHELF).entity("Book").history()).isNull();
        var timed = ModelReader.read("models/shelf.yaml", SHELF.replace("{ keep: 5 }", "{ for: P90D }")).entity("Lend");
        assertThat(timed.history().keep()).isNull();
        assertThat(timed.history().retain()).isEqualTo(Duration.ofDays(90));
        assertThat(timed.history().describe()).isEqualTo("each previous version for PT2160H");
    }

    @Test
    void theReaderRefusesABadDeclarationAtItsLine() {
        assertThat(failure(SHELF.replace("{ keep: 5 }", "{ keep: 0 }")).getMessage())
                .isEqualTo("models/shelf.yaml:12: entities.Lend.history.keep: keep is a whole number of versions from 1 to 1000, not 0");
        assertThat(failure(SHELF.replace("{ keep: 5 }", "{ keep: 1001 }")).getMessage()).contains(":12:").contains("from 1 to 1000");
        assertThat(failure(SHELF.replace("{ keep: 5 }", "{ keep: 2.5 }")).getMessage()).contains("from 1 to 1000, not 2.5");
        assertThat(failure(SHELF.replace("{ keep: 5 }", "{ keep: 5, for: P1D }")).getMessage())
                .startsWith("models/shelf.yaml:12: entities.Lend.history: history takes either 'keep: <count>'")
                .endsWith("not both");
        assertThat(failure(SHELF.replace("{ keep: 5 }", "{}")).getMessage()).contains(":12:").endsWith("not neither");
        assertThat(failure(SHELF.replace("{ keep: 5 }", "{ for: P1M }")).getMessage())
                .isEqualTo("models/shelf.yaml:12: entities.Lend.history.for: for is an ISO-8601 duration of days, hours, "
                        + "minutes or seconds (P90D, PT12H), not 'P1M' (months and years have no fixed length)");
        assertThat(failure(SHELF.replace("{ keep: 5 }", "{ for: PT30S }")).getMessage()).contains(":12:")
                .contains("for is from PT1M to PT87600H (P3650D), not PT30S");
        assertThat(failure(SHELF.replace("{ keep: 5 }", "{ keep: 5, forever: true }")).getMessage()).contains(":12:")
                .contains("forever");
    }

    @Test
    void anExpiringEntityKeepsNoHistoryYetAndOneOthersCopyFromKeepsItThroughItsCascade() {
        assertThat(failure(SHELF.replace("    history: { keep: 5 }\n", "    history: { keep: 5 }\n    ttl: until\n"))
                .getMessage()).contains(":12: entities.Lend.history: an entity that expires (ttl) keeps no history");
        String sourceWithHistory = SHELF.replace("""
                    path: /books/{bookId}
                """, """
                    path: /books/{bookId}
                    history: { keep: 3 }
                """);
        var plan = DomainPlan.of(List.of(ModelReader.read("models/shelf.yaml", sourceWithHistory)));
        assertThat(plan.entity("Book").model().history().keep()).isEqualTo(3);
        assertThat(plan.cascade("Book")).as("its changes still run through its cascade").isNotNull();
    }

    @Test
    void aSnapshotKeepsTheVersionUnderItsOwnSortKeyWithNoIndexKeyAndTheWindowsOldestGoes() {
        var item = new HashMap<String, AttributeValue>();
        item.put(TableSpec.PK, AttributeValue.fromS("MEMBER#m1"));
        item.put(TableSpec.SK, AttributeValue.fromS("LOAN#l1"));
        item.put("gsi1pk", AttributeValue.fromS("BOOK#b1"));
        item.put("gsi1sk", AttributeValue.fromS("LOAN#l1"));
        item.put(TableSpec.TYPE, AttributeValue.fromS("Loan"));
        item.put(TableSpec.VERSION, AttributeValue.fromN("7"));
        item.put("status", AttributeValue.fromS("out"));
        item.put(VersionSnapshots.WRITER, AttributeValue.fromS("ada"));
        Instant now = Instant.parse("2026-11-27T10:00:00Z");

        List<WriteAction> kept = VersionSnapshots.snapshot(new HistoryModel(5, null, 1), "Loan", item, now, null);
        assertThat(kept).hasSize(2);
        WriteAction put = kept.get(0);
        assertThat(put.kind()).isEqualTo(WriteAction.Kind.PUT);
        assertThat(put.key()).isEqualTo(PrimaryKey.of("MEMBER#m1", "~VERSION#LOAN#l1#0000000000000000007"));
        assertThat(put.item()).doesNotContainKeys("gsi1pk", "gsi1sk", "status", TableSpec.EXPIRES_AT);
        assertThat(put.item().get(TableSpec.TYPE).s()).isEqualTo("Loan~version");
        assertThat(put.item().get(VersionSnapshots.DOC).m()).containsEntry("status", AttributeValue.fromS("out"))
                .containsEntry(VersionSnapshots.WRITER, AttributeValue.fromS("ada")).doesNotContainKeys("pk", "sk", "gsi1pk");
        assertThat(put.condition()).isNull();
        assertThat(kept.get(1).kind()).isEqualTo(WriteAction.Kind.DELETE);
        assertThat(kept.get(1).key().sk()).isEqualTo("~VERSION#LOAN#l1#0000000000000000002");
        // read back: the version's item, its own key
        assertThat(VersionSnapshots.itemOf(put.item())).containsEntry(TableSpec.SK, AttributeValue.fromS("LOAN#l1"))
                .containsEntry("status", AttributeValue.fromS("out"));

        // a version inside the window deletes nothing; the duration form expires the snapshot instead
        item.put(TableSpec.VERSION, AttributeValue.fromN("3"));
        assertThat(VersionSnapshots.snapshot(new HistoryModel(5, null, 1), "Loan", item, now, null)).hasSize(1);
        List<WriteAction> timed = VersionSnapshots.snapshot(new HistoryModel(null, Duration.ofDays(90), 1), "Loan", item,
                now, "bob");
        assertThat(timed).hasSize(1);
        assertThat(timed.get(0).item().get(TableSpec.EXPIRES_AT))
                .isEqualTo(AttributeValue.fromN(Long.toString(now.plus(Duration.ofDays(90)).getEpochSecond())));
        assertThat(timed.get(0).item().get(VersionSnapshots.DELETED_BY).s()).isEqualTo("bob");
    }

    @Test
    void aCascadesCopyWriteOfAnItemWithHistoryIsVersionCheckedAndSnapshotted() {
        var plan = DomainPlan.of(List.of(ModelReader.read("models/shelf.yaml", SHELF)));
        CascadePlanner planner = plan.cascade("Book").planner();
        var item = new HashMap<String, AttributeValue>();
        item.put(TableSpec.PK, AttributeValue.fromS("LEND#l1"));
        item.put(TableSpec.SK, AttributeValue.fromS("LEND"));
        item.put(TableSpec.TYPE, AttributeValue.fromS("Lend"));
        item.put(TableSpec.VERSION, AttributeValue.fromN("4"));
        item.put("bookId", AttributeValue.fromS("b1"));
        item.put("bookTitle", AttributeValue.fromS("Old"));
        item.put("_refv", AttributeValue.fromM(Map.of("bookTitle", AttributeValue.fromM(Map.of(
                "e", AttributeValue.fromS("Book"), "v", AttributeValue.fromN("1"))))));
        var source = new CascadeSource("Book", "b1", 2, Map.of("title", AttributeValue.fromS("New")));
        var units = planner.plan(List.of(item), source, Instant.parse("2026-11-27T10:00:00Z"));
        assertThat(units).hasSize(1);
        var unit = units.get(0);
        assertThat(unit.history()).isTrue();
        assertThat(unit.actions()).hasSize(2);
        assertThat(unit.actions().get(0).expectation().version()).isEqualTo(4L);
        assertThat(unit.actions().get(1).key().sk()).isEqualTo("~VERSION#LEND#0000000000000000004");
        assertThat(unit.actions().get(1).item().get(VersionSnapshots.DOC).m().get("bookTitle").s()).isEqualTo("Old");
        assertThat(CascadePlanner.writer(source)).isEqualTo("cascade:Book/b1");
    }
}
