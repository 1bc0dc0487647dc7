package dev.cairn.core.write;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.item.RecordCodec;
import dev.cairn.core.key.PrimaryKey;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TransactionPlanTest {

    record Note(String id, String text) {
    }

    static final EntitySpec<Note> NOTE = EntitySpec.builder("Note", RecordCodec.<Note>builder()
                    .string("id", Note::id).string("text", Note::text)
                    .build(f -> new Note(f.string("id"), f.string("text"))))
            .key(n -> PrimaryKey.of("N#" + n.id(), "META")).build();

    static final Instant NOW = Instant.parse("2026-11-22T00:00:00Z");

    @Test
    void aHundredActionsFitAndAHundredAndOneDoNot() {
        assertThat(TransactionPlan.of(creates(100)).toRequest("t").transactItems()).hasSize(100);
        assertThatThrownBy(() -> TransactionPlan.of(creates(101)))
                .isInstanceOfSatisfying(CairnException.class, e -> {
                    assertThat(e.error().code()).isEqualTo("TransactionTooLarge");
                    assertThat(e.error().extensions()).containsEntry("actions", 101);
                });
    }

    @Test
    void moreThanFourMegabytesIsRejected() {
        String text = "x".repeat(300_000);
        List<WriteAction> big = IntStream.range(0, 15)
                .mapToObj(i -> WriteAction.create(NOTE, new Note("n" + i, text), NOW)).toList();
        assertThatThrownBy(() -> TransactionPlan.of(big)).isInstanceOfSatisfying(CairnException.class,
                e -> assertThat(e.error().code()).isEqualTo("TransactionTooLarge"));
    }

    @Test
    void twoActionsOnOneItemAreRejected() {
        var key = PrimaryKey.of("N#a", "META");
        assertThatThrownBy(() -> TransactionPlan.of(List.of(
                WriteAction.create(NOTE, new Note("a", "x"), NOW),
                WriteAction.delete("Note", key, WriteAction.Expectation.NONE))))
                .isInstanceOfSatisfying(CairnException.class, e -> assertThat(e.error().code()).isEqualTo("ValidationFailed"));
    }

    @Test
    void conditionsArePreservedInsideTheTransaction() {
        var plan = TransactionPlan.of(List.of(
                WriteAction.create(NOTE, new Note("a", "x"), NOW),
                WriteAction.check("Note", PrimaryKey.of("N#b", "META"), WriteAction.Expectation.present(3L))));
        var items = plan.toRequest("t").transactItems();
        assertThat(items.get(0).put().conditionExpression()).isEqualTo("attribute_not_exists(#n0)");
        assertThat(items.get(1).conditionCheck().conditionExpression()).isEqualTo("(attribute_exists(#n0)) AND (#n1 = :v0)");
        assertThat(items.get(1).conditionCheck().expressionAttributeValues()).containsEntry(":v0", AttributeValue.fromN("3"));
        assertThat(plan.toRequest("t").clientRequestToken()).isEqualTo(plan.token()).isNotBlank();
    }

    @Test
    void failedConditionsAreExplainedFromTheOldItem() {
        var create = WriteAction.create(NOTE, new Note("a", "x"), NOW);
        assertThat(create.explainFailure(Map.of("_version", AttributeValue.fromN("1"))).code()).isEqualTo("Conflict");
        var versioned = WriteAction.check("Note", PrimaryKey.of("N#b", "META"), WriteAction.Expectation.present(3L));
        assertThat(versioned.explainFailure(null).code()).isEqualTo("NotFound");
        assertThat(versioned.explainFailure(Map.of("_version", AttributeValue.fromN("4"))).code()).isEqualTo("VersionConflict");
    }

    @Test
    void aSourceGuardHoldsTheSourceAtItsCopiedVersionAndNamesItWhenItMovedOrWent() {
        var guard = WriteAction.copiedSource("Player", "p#1", PrimaryKey.of("PLAYER#p#1", "PLAYER"), 3, NOW);
        var check = TransactionPlan.of(List.of(guard)).toRequest("t").transactItems().get(0).conditionCheck();
        assertThat(check.conditionExpression()).contains("attribute_exists").contains("=");
        assertThat(check.expressionAttributeValues()).containsValue(AttributeValue.fromN("3"));
        var moved = guard.explainFailure(Map.of("_version", AttributeValue.fromN("4")));
        assertThat(moved).isInstanceOfSatisfying(CairnError.RefChanged.class, e -> {
            assertThat(e.refEntity()).isEqualTo("Player");
            assertThat(e.refId()).isEqualTo("p#1");
            assertThat(e.detail()).isEqualTo("Player 'p#1' changed (version 4, copied at 3) while this write copied it; retry");
            assertThat(e.status()).isEqualTo(409);
            assertThat(e.retryable()).isTrue();
        });
        assertThat(guard.explainFailure(null).detail()).isEqualTo("Player 'p#1' was deleted while this write copied it; retry");
        assertThat(check.expressionAttributeNames()).containsValue("_deleting");
        assertThat(guard.explainFailure(Map.of("_version", AttributeValue.fromN("3"), "_deleting", AttributeValue.fromN("9"))).detail())
                .isEqualTo("Player 'p#1' is being deleted while this write copied it; retry");
    }

    @Test
    void itemsOver400KbAreRejectedBeforeSending() {
        assertThatThrownBy(() -> WriteAction.create(NOTE, new Note("a", "x".repeat(410_000)), NOW))
                .isInstanceOfSatisfying(CairnException.class, e -> {
                    assertThat(e.error().code()).isEqualTo("ItemTooLarge");
                    assertThat(e.error().status()).isEqualTo(422);
                });
    }

    private static List<WriteAction> creates(int count) {
        return IntStream.range(0, count).mapToObj(i -> WriteAction.create(NOTE, new Note("n" + i, "t"), NOW)).toList();
    }
}
