package dev.cairn.core.model;

import dev.cairn.core.model.FieldModel.Kind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Refs that embed whole copies ({@code embed:}) and items grouped by an id no entity owns ({@code parent: { id }}). */
class EmbeddedRefsTest {

    static final String CLUB = """
            domain: Club
            entities:
              Player:
                key: { pk: "PLAYER#{id}", sk: PLAYER }
                path: /players/{id}
                copies: { index: gsi1 }
                fields:
                  id: id
                  name: { type: string, required: true, maxLength: 100 }
              Pick:
                parent: { id: squadId }
                key: { pk: "SQUAD#{squadId}", sk: "PICK#{number}" }
                path: /squads/{squadId}/picks/{number}
                fields:
                  number: { type: integer, required: true, min: 1, max: 99 }
                refs:
                  playerId: { entity: Player, embed: player }
                indexes:
                  byPlayer: { index: gsi1, pk: "PLAYER#{playerId}", sk: "SQUAD#{squadId}#PICK#{number}" }
                list: { path: "/squads/{squadId}/picks" }
            """;

    static String failure(String yaml) {
        return ModelReaderTest.failure(yaml).getMessage();
    }

    @Test
    void anEmbeddedRefTakesTheIdAndAnswersTheWholeEntityWhichItMayChange() {
        EntityModel pick = ModelReader.read("models/club.yaml", CLUB).entity("Pick");
        assertThat(pick.identity()).containsExactly("squadId", "number");
        assertThat(pick.parent()).isNull();
        assertThat(pick.list().path()).isEqualTo("/squads/{squadId}/picks");
        assertThat(pick.refs()).singleElement().satisfies(ref -> {
            assertThat(ref.field()).isEqualTo("playerId");
            assertThat(ref.embed()).isEqualTo("player");
        });
        FieldModel copy = pick.field("player").orElseThrow();
        assertThat(copy.kind()).isEqualTo(Kind.OBJECT);
        assertThat(copy.serverSet()).isTrue();
        assertThat(copy.schema()).isEqualTo("Player");
        assertThat(copy.fields()).extracting(FieldModel::name).containsExactly("id", "name");
        assertThat(pick.field("squadId").orElseThrow().serverSet()).isTrue();
        // the id may change (the new player is read and copied); the copy and the identity may not
        assertThat(pick.immutable()).contains("squadId", "number", "player").doesNotContain("playerId");
    }

    @Test
    void anEmbeddedEntityMustDeclareWhereItsCopiesAre() {
        assertThat(failure(CLUB.replace("    copies: { index: gsi1 }\n", "")))
                .contains("entities.Pick.refs.playerId").contains("give Player 'copies: { index: gsiN }'");
    }

    @Test
    void theEmbedderMustWriteTheCopysKeyOnTheCopiesIndex() {
        assertThat(failure(CLUB.replace("index: gsi1, pk: \"PLAYER#{playerId}\"", "index: gsi2, pk: \"PLAYER#{playerId}\"")))
                .contains("entities.Pick.refs.playerId").contains("declare an index { index: gsi1, pk: \"PLAYER#{playerId}\"");
    }

    @Test
    void anEmbedNeedsANameOfItsOwnAndIsNotAlsoACopyOfFields() {
        assertThat(failure(CLUB.replace("embed: player", "embed: number"))).contains("'number' is a field already");
        assertThat(failure(CLUB.replace("embed: player", "embed: player, copy: { playerName: name }")))
                .contains("embeds the whole entity or copies some fields");
    }

    @Test
    void itemsGroupedByAnIdShareThePartitionItNames() {
        assertThat(failure(CLUB.replace("pk: \"SQUAD#{squadId}\", sk: \"PICK#{number}\"",
                "pk: \"SQUAD#{number}\", sk: \"PICK#{squadId}\"")))
                .contains("pk has exactly the field 'squadId'");
        assertThat(failure(CLUB.replace("parent: { id: squadId }", "parent: { id: squadId, shards: n }")))
                .contains("unknown key 'shards'");
        assertThat(ModelReader.read("models/club.yaml", CLUB).entity("Pick").pk().fieldNames()).containsExactly("squadId");
    }
}
