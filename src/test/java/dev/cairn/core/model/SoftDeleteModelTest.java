package dev.cairn.core.model;

import dev.cairn.core.TableSpec;
import dev.cairn.core.entity.Tombstones;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.write.UniqueSentinels;
import dev.cairn.core.write.WriteAction;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code softDelete: true}: how an entity declares it, what the reader refuses (each at its line), the tombstone's
 * layout, and the sentinel writes of a delete, a restore and a purge.
 */
class SoftDeleteModelTest {

    static final String DESKS = """
            domain: Desks
            entities:
              Desk:
                key: { pk: "DESK#{deskId}", sk: DESK }
                path: /desks/{deskId}
                softDelete: true
                fields:
                  deskId: id
                  label: { type: string }
                  code: { type: string }
                unique:
                  label: { fields: [label], softDelete: release }
                  code: { fields: [code], softDelete: keep }
              Note:
                parent: { entity: Desk, id: deskId }
                key: { pk: "DESK#{deskId}", sk: "NOTE#{noteId}" }
                generate: time-ordered
                path: /desks/{deskId}/notes/{noteId}
                softDelete: true
                fields:
                  text: { type: string }
                  at: { type: instant, required: true }
                list: { path: "/desks/{deskId}/notes" }
            """;

    static ModelException failure(String yaml) {
        try {
            ModelReader.read("models/desks.yaml", yaml);
        } catch (ModelException e) {
            return e;
        }
        throw new AssertionError("the model was accepted");
    }

    @Test
    void anEntityDeclaresSoftDeleteAndGetsItsThreeRoutesBesideItsCollection() {
        var domain = ModelReader.read("models/desks.yaml", DESKS);
        EntityModel desk = domain.entity("Desk");
        assertThat(desk.softDelete()).isTrue();
        assertThat(desk.deletedPath()).isEqualTo("/desks/deleted");
        assertThat(desk.restorePath()).isEqualTo("/desks/{deskId}/restore");
        assertThat(desk.purgePath()).isEqualTo("/desks/deleted/{deskId}");
        assertThat(desk.deletedOperationId()).isEqualTo("listDeletedDesks");
        EntityModel note = domain.entity("Note");
        assertThat(note.deletedPath()).isEqualTo("/desks/{deskId}/notes/deleted");
        assertThat(note.purgePath()).isEqualTo("/desks/{deskId}/notes/deleted/{noteId}");
        assertThat(ModelReader.read("models/desks.yaml", DESKS.replace("    softDelete: true\n    fields:\n      text",
                "    fields:\n      text")).entity("Note").softDelete()).isFalse();
    }

    @Test
    void theReaderRefusesWhatATombstoneCouldNotKeepEachAtItsLine() {
        assertThat(failure(DESKS.replace("    softDelete: true\n    fields:\n      text",
                "    softDelete: true\n    ttl: at\n    fields:\n      text")).getMessage())
                .isEqualTo("models/desks.yaml:19: entities.Note.softDelete: an entity that expires cannot be soft-deleted: "
                        + "DynamoDB's TTL removes the item without a transaction, and a restored item past its expiry "
                        + "would be gone at once");
        assertThat(failure(DESKS.replace("    softDelete: true\n    fields:\n      text",
                "    softDelete: true\n    operations: { create: {}, get: {} }\n    fields:\n      text")).getMessage())
                .isEqualTo("models/desks.yaml:19: entities.Note.softDelete: soft delete changes what the delete does, "
                        + "and this entity serves no delete");
        assertThat(failure(DESKS.replace("    path: /desks/{deskId}\n    softDelete: true",
                "    path: /desks/{deskId}\n    softDelete: true\n    roles: { purge: writer, restore: writer }")
                .replace("    softDelete: true\n    fields:\n      text", "    roles: { restore: writer }\n    fields:\n      text"))
                .getMessage()).isEqualTo("models/desks.yaml:20: entities.Note.roles: 'restore' is a role of a "
                + "soft-deleted entity's route: declare 'softDelete: true' first");
        assertThat(failure(DESKS.replace("    softDelete: true\n    fields:\n      deskId", "    softDelete: yes please\n"
                + "    fields:\n      deskId")).getMessage()).startsWith("models/desks.yaml:6: entities.Desk.softDelete:");
        assertThat(failure(DESKS.replace("unique:\n      label: { fields: [label], softDelete: release }",
                "unique:\n      label: { fields: [label], softDelete: forget }")).getMessage())
                .startsWith("models/desks.yaml:12: entities.Desk.unique.label.softDelete: a soft-deleted item keeps or "
                        + "releases its unique value");
    }

    @Test
    void anEdgeIsNotSoftDeletedYetAndSaysSo() {
        String edges = DESKS + """
                edges:
                  Pin:
                    from: { entity: Desk, id: deskId }
                    to: { entity: Desk, id: otherId }
                    key: { pk: "DESK#{deskId}", sk: "PIN#{otherId}" }
                    path: /desks/{deskId}/pins/{otherId}
                    softDelete: true
                """;
        assertThat(failure(edges).getMessage()).contains("edges.Pin.softDelete: 'softDelete' is reserved for a coming "
                + "entity feature and not supported yet");
    }

    @Test
    void theTombstoneIsInAPartitionOfItsOwnWithTheItemNestedAndNoneOfItsIndexKeys() {
        var live = new LinkedHashMap<String, AttributeValue>();
        live.put("pk", AttributeValue.fromS("DESK#d1"));
        live.put("sk", AttributeValue.fromS("NOTE#n1"));
        live.put("gsi2pk", AttributeValue.fromS("NOTED#hello"));
        live.put("gsi2sk", AttributeValue.fromS("NOTE#n1"));
        live.put("_type", AttributeValue.fromS("Note"));
        live.put("_version", AttributeValue.fromN("4"));
        live.put("text", AttributeValue.fromS("hello"));
        Instant at = Instant.parse("2026-11-27T10:00:00.5Z");
        var tombstone = Tombstones.of(live, "Note", "d1", "n1", null, "alice", at);
        assertThat(PrimaryKey.from(tombstone)).isEqualTo(PrimaryKey.of("~DELETED#DESK#d1", "NOTE#n1"));
        assertThat(tombstone.get(TableSpec.TYPE).s()).isEqualTo("_Deleted");
        assertThat(tombstone).doesNotContainKeys("text", "gsi2pk", "gsi2sk", Tombstones.TENANT);
        assertThat(tombstone.get("gsi1pk").s()).isEqualTo("~DELETED#Note#d1");
        assertThat(tombstone.get("gsi1sk").s()).isEqualTo("001795773600500#n1");
        assertThat(tombstone.get("_version").n()).isEqualTo("4");
        assertThat(tombstone.get("_item").m()).containsEntry("text", AttributeValue.fromS("hello"))
                .doesNotContainKeys("gsi2pk", "gsi2sk", "pk", "sk");
        assertThat(Tombstones.isTombstone(tombstone)).isTrue();
        assertThat(Tombstones.isTombstone(live)).isFalse();
        var back = Tombstones.item(tombstone);
        assertThat(back).containsEntry("pk", AttributeValue.fromS("DESK#d1")).containsEntry("sk", AttributeValue.fromS("NOTE#n1"))
                .containsEntry("text", AttributeValue.fromS("hello")).doesNotContainKey("gsi2pk");
        assertThat(Tombstones.deletion(tombstone)).isEqualTo(new Tombstones.Deletion("alice", at));
        // newest deleted first: the sort key sorts as the instant does, within a second too
        assertThat(Tombstones.sortKey(Instant.parse("2026-11-27T10:00:00Z"), "a"))
                .isLessThan(Tombstones.sortKey(Instant.parse("2026-11-27T10:00:00.001Z"), "a"));
    }

    @Test
    void aDeleteReleasesOrPassesEachValueToItsTombstoneARestoreTakesThemBackAPurgeGivesUpTheKeptOnes() {
        var desk = ModelReader.read("models/desks.yaml", DESKS).entity("Desk");
        PrimaryKey live = PrimaryKey.of("DESK#d1", "DESK");
        PrimaryKey tombstone = Tombstones.keyOf(live);
        Map<String, Object> values = Map.of("deskId", "d1", "label", "Window", "code", "W1");
        Instant now = Instant.parse("2026-11-27T10:00:00Z");

        var deleted = UniqueSentinels.softDeleted("Desk", desk.unique(), live, tombstone, values, now);
        assertThat(deleted).extracting(WriteAction::kind).containsExactly(WriteAction.Kind.DELETE, WriteAction.Kind.PUT);
        assertThat(deleted.get(1).item().get(UniqueSentinels.OWNER_PK).s()).isEqualTo("~DELETED#DESK#d1");

        var restored = UniqueSentinels.restored("Desk", desk.unique(), live, tombstone, values, now);
        assertThat(restored).extracting(WriteAction::kind).containsExactly(WriteAction.Kind.PUT, WriteAction.Kind.PUT);
        assertThat(restored).allSatisfy(a -> assertThat(a.item().get(UniqueSentinels.OWNER_PK).s()).isEqualTo("DESK#d1"));
        assertThat(restored).allSatisfy(a -> assertThat(a.expectation().state()).isEqualTo(WriteAction.Expectation.State.UNIQUE));

        var purged = UniqueSentinels.purged("Desk", desk.unique(), tombstone, values);
        assertThat(purged).hasSize(1);
        assertThat(purged.get(0).kind()).isEqualTo(WriteAction.Kind.DELETE);
        assertThat(purged.get(0).key().pk()).contains("#code#");
    }
}
