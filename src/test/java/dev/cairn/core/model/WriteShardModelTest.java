package dev.cairn.core.model;

import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.key.ShardedIds;
import dev.cairn.core.key.WriteShards;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Write shards, newest-first includes, query-named listings and author fields as the model format declares them. */
class WriteShardModelTest {

    static final String BOARD = """
            domain: Boards
            entities:
              Board:
                key: { pk: "B#{id}", sk: META }
                path: /boards/{id}
                fields:
                  id: id
                  name: { type: string, required: true }
                  shards: { type: integer, min: 1, max: 32, default: 1 }
                operations:
                  create: Create
                  get: { summary: Read, include: { cards: { entity: Card } } }
                  patch: Change
              Card:
                parent: { entity: Board, id: boardId, shards: shards }
                key: { pk: "B#{boardId}", sk: "CARD#{id}" }
                generate: time-ordered
                path: /boards/{boardId}/cards/{id}
                author: by
                fields:
                  title: { type: string, required: true }
                  colour: { type: enum, values: [RED, BLUE], required: true }
                  by: { type: string, maxLength: 64 }
                list: { path: "/boards/{boardId}/cards", order: newest-first }
                indexes:
                  byColour:
                    index: gsi1
                    pk: "COLOUR#{colour}"
                    sk: "CARD#{id}"
                    shards: { setting: boards.colour-shards, default: 4 }
                    list: { path: /cards, query: colour, order: newest-first }
            """;

    static DomainModel board() {
        return ModelReader.read("models/boards.yaml", BOARD);
    }

    @Test
    void aShardedChildNamesItsParentsCountFieldAndIsReadWithItsParentNewestFirst() {
        DomainModel model = board();
        EntityModel card = model.entity("Card");
        EntityModel parent = model.entity("Board");
        assertThat(card.parentShards()).isEqualTo("shards");
        assertThat(card.precedesParent(parent)).isTrue();
        assertThat(card.readsWithParent(parent)).isTrue();
        assertThat(card.access().author()).isEqualTo("by");
        assertThat(card.immutable()).contains("by");
        assertThat(card.field("by").orElseThrow().required()).isFalse();
        IndexModel byColour = card.keyedIndexes().get(0);
        assertThat(byColour.shards()).isEqualTo(4);
        assertThat(byColour.setting()).isEqualTo("boards.colour-shards");
        assertThat(byColour.list().query()).isEqualTo("colour");
        assertThat(byColour.withShards(8).shards()).isEqualTo(8);
    }

    @Test
    void aShardedChildLivesInTheShardItsIdNamesAndItsIndexKeyInTheShardItsIdHashesTo() {
        var plan = DomainPlan.of(List.of(board()));
        DeclaredEntity card = plan.entity("Card");
        String id = ShardedIds.idFor("1795315183226801-abcde", 8);
        int shard = ShardedIds.shardOfId(id);
        assertThat(shard).isEqualTo(WriteShards.of("1795315183226801-abcde", 8));
        PrimaryKey key = card.key(List.of("b1", id));
        assertThat(key.pk()).isEqualTo(shard == 0 ? "B#b1" : "B#b1#" + ShardedIds.twoDigits(shard));
        assertThat(key.sk()).isEqualTo("CARD#" + id);
        var doc = new Doc(Map.of("boardId", "b1", "id", id, "title", "t", "colour", "RED"));
        var item = card.spec().toItem(doc, 1, java.time.Instant.EPOCH, java.time.Instant.EPOCH);
        int indexShard = WriteShards.of(id, 4);
        assertThat(item.get("gsi1pk").s()).isEqualTo(indexShard == 0 ? "COLOUR#RED" : "COLOUR#RED#" + ShardedIds.twoDigits(indexShard));
        // the parent with its newest children: one descending Query from the parent's own sort key
        var together = DeclaredEntity.parentWithNewest(plan.entity("Board"), card, "b1", 20);
        assertThat(together.descending()).isTrue();
        assertThat(together.limit()).isEqualTo(21);
        assertThat(card.shardedPartitions("b1", 3, 20, true).shards()).extracting(q -> q.partition())
                .containsExactly("B#b1", "B#b1#01", "B#b1#02");
    }

    @Test
    void anUnshardedIdIsShardZeroAndASuffixBeyondTheMostShardsIsNotAShard() {
        assertThat(ShardedIds.idFor("x", 1)).isEqualTo("x");
        assertThat(ShardedIds.shardOfId("x")).isZero();
        assertThat(ShardedIds.shardOfId("x_07")).isEqualTo(7);
        assertThat(ShardedIds.shardOfId("x_40")).isZero();
        assertThat(ShardedIds.partition("B#b1", 0)).isEqualTo("B#b1");
        assertThat(ShardedIds.partition("B#b1", 12)).isEqualTo("B#b1#12");
    }

    @Test
    void everyRuleOfAShardedChildIsNamedWhenBroken() {
        assertThat(ModelReaderTest.failure(BOARD.replace("    generate: time-ordered\n", "")).getMessage())
                .contains("declare 'generate: time-ordered'");
        assertThat(ModelReaderTest.failure(BOARD.replace("min: 1, max: 32, default: 1", "min: 1, default: 1")).getMessage())
                .contains("give it min 1 and max at most 32");
        assertThat(ModelReaderTest.failure(BOARD.replace("shards: shards }", "shards: name }")).getMessage())
                .contains("one of its integer fields, not 'name'");
        assertThat(ModelReaderTest.failure(BOARD.replace("      patch: Change\n", "      patch: Change\n      delete: Delete\n"))
                .getMessage()).contains("so it is never deleted");
        assertThat(ModelReaderTest.failure(BOARD.replace("list: { path: \"/boards/{boardId}/cards\", order: newest-first }",
                "list: { path: \"/boards/{boardId}/cards\" }").replace("get: { summary: Read, include: { cards: { entity: Card } } }",
                "get: Read")).getMessage()).contains("is listed newest first");
        assertThat(ModelReaderTest.failure(BOARD.replace("shards: { setting: boards.colour-shards, default: 4 }", "shards: 33"))
                .getMessage()).contains("an index has 1 to 32 shards");
        assertThat(ModelReaderTest.failure(BOARD.replace("query: colour", "query: title")).getMessage())
                .contains("the index's partition field, 'colour'");
        assertThat(ModelReaderTest.failure(BOARD.replace("author: by", "author: colour")).getMessage())
                .contains("the author is one of the entity's string fields");
    }

    @Test
    void aSecondWriteShardedChildOfOneParentIsRefused() {
        // Its own count field would be ignored, its items mixed into the first child's shards and listings.
        String second = BOARD.replace("      shards: { type: integer, min: 1, max: 32, default: 1 }\n",
                        "      shards: { type: integer, min: 1, max: 32, default: 1 }\n"
                                + "      lanes: { type: integer, min: 1, max: 32, default: 1 }\n")
                + """
                  Note:
                    parent: { entity: Board, id: boardId, shards: lanes }
                    key: { pk: "B#{boardId}", sk: "CARD#{id}" }
                    generate: time-ordered
                    path: /boards/{boardId}/notes/{id}
                    fields:
                      text: { type: string, required: true }
                    list: { path: "/boards/{boardId}/notes", order: newest-first }
                """;
        assertThat(ModelReaderTest.failure(second).getMessage())
                .contains("the children of Board are write-sharded already (Card): one kind of child of a parent may be");
        assertThat(board().entity("Card").parentShards()).isEqualTo("shards");
    }

    @Test
    void aNewestFirstIncludeIsRefusedWhenAnotherEntitySortsBetweenTheChildAndItsParent() {
        String between = BOARD + """
                  Draft:
                    parent: { entity: Board, id: boardId }
                    key: { pk: "B#{boardId}", sk: "DRAFT#{draftId}" }
                    path: /boards/{boardId}/drafts/{draftId}
                    fields:
                      text: string
                """;
        assertThat(ModelReaderTest.failure(between).getMessage()).contains("'Draft' sorts between Card and Board");
    }

    @Test
    void aSecondKindOfTenantIsRefusedAsItWouldShareTheWorkspacesClaim() {
        String workspaces = """
                domain: A
                entities:
                  Workspace:
                    key: { pk: "WS#{id}", sk: WORKSPACE }
                    path: /workspaces/{id}
                    tenant: id
                    fields: { id: id }
                """;
        String accounts = """
                domain: B
                entities:
                  Account:
                    key: { pk: "ACC#{id}", sk: ACCOUNT }
                    path: /accounts/{id}
                    tenant: id
                    fields: { id: id }
                """;
        var a = ModelReader.read("models/a.yaml", workspaces);
        var b = ModelReader.read("models/b.yaml", accounts);
        assertThat(DomainPlan.of(List.of(a)).entity("Workspace")).isNotNull();
        ModelException e = org.assertj.core.api.Assertions.catchThrowableOfType(() -> DomainPlan.of(List.of(a, b)),
                ModelException.class);
        assertThat(e.getMessage()).startsWith("models/b.yaml:").contains("entities.Account.tenant")
                .contains("already names Workspace ids");
    }
}
