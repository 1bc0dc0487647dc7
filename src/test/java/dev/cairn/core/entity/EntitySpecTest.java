package dev.cairn.core.entity;

import dev.cairn.core.CairnException;
import dev.cairn.core.TableSpec;
import dev.cairn.core.item.RecordCodec;
import dev.cairn.core.key.IndexKey;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.key.PrimaryKey;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EntitySpecTest {

    record Team(String id, String name, Integer ranking, String type, Boolean active, List<String> tags) {
    }

    static final KeyTemplate TEAM = KeyTemplate.of("TEAM#{id}");
    static final KeyTemplate RANK = KeyTemplate.of("RANK#{ranking:n}");
    static final EntitySpec<Team> SPEC = EntitySpec.builder("Team", RecordCodec.<Team>builder()
                    .string("id", Team::id).string("name", Team::name).number("ranking", Team::ranking)
                    .string("type", Team::type).bool("active", Team::active).strings("tags", Team::tags)
                    .build(f -> new Team(f.string("id"), f.string("name"), f.integer("ranking"), f.string("type"),
                            f.bool("active"), f.strings("tags"))))
            .key(t -> PrimaryKey.of(TEAM.render(t.id()), "META"))
            .index(TableSpec.Index.GSI1, t -> t.ranking() == null ? null : IndexKey.of("TEAMS", RANK.render(t.ranking())))
            .build();

    static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");

    @Test
    void itemCarriesKeysDiscriminatorVersionAndTimestampsBesideDomainFields() {
        var team = new Team("India", "India", 1, "national", true, List.of("a", "b"));
        Map<String, AttributeValue> item = SPEC.toItem(team, 3, T0, T0.plusSeconds(5));
        assertThat(item).containsEntry("pk", AttributeValue.fromS("TEAM#India"))
                .containsEntry("sk", AttributeValue.fromS("META"))
                .containsEntry("_type", AttributeValue.fromS("Team"))
                .containsEntry("_version", AttributeValue.fromN("3"))
                .containsEntry("gsi1pk", AttributeValue.fromS("TEAMS"))
                .containsEntry("type", AttributeValue.fromS("national"));
        Stored<Team> stored = SPEC.fromItem(item);
        assertThat(stored.value()).isEqualTo(team);
        assertThat(stored.version()).isEqualTo(3);
        assertThat(stored.updatedAt()).isEqualTo(T0.plusSeconds(5));
    }

    @Test
    void aDomainFieldNamedLikeTheDiscriminatorIsKeptApart() {
        var team = new Team("x", "X", null, "Player", null, null);
        Stored<Team> stored = SPEC.fromItem(SPEC.toItem(team, 1, T0, T0));
        assertThat(stored.value().type()).isEqualTo("Player");
    }

    @Test
    void indexKeysAreSparseAndNullFieldsOmitted() {
        var item = SPEC.toItem(new Team("x", "X", null, null, null, null), 1, T0, T0);
        assertThat(item).doesNotContainKeys("gsi1pk", "gsi1sk", "ranking", "type", "tags");
    }

    @Test
    void reservedFieldNamesAreRefusedAtDeclaration() {
        assertThatThrownBy(() -> RecordCodec.<Team>builder().string("pk", Team::id))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RecordCodec.<Team>builder().string("_version", Team::id))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void readingAnItemOfAnotherTypeIsADataIntegrityError() {
        var item = new java.util.HashMap<>(SPEC.toItem(new Team("x", "X", 1, null, null, null), 1, T0, T0));
        item.put("_type", AttributeValue.fromS("Player"));
        assertThatThrownBy(() -> SPEC.fromItem(item)).isInstanceOfSatisfying(CairnException.class,
                e -> assertThat(e.error().code()).isEqualTo("DataIntegrityError"));
    }

    @Test
    void collectionDecodesByDiscriminatorAndReportsUnknownTypes() {
        var team = SPEC.toItem(new Team("x", "X", 1, null, null, null), 1, T0, T0);
        var stranger = Map.of("pk", AttributeValue.fromS("TEAM#x"), "sk", AttributeValue.fromS("ZZZ"),
                "_type", AttributeValue.fromS("Alien"));
        ItemCollection collection = ItemCollection.decode(List.of(team, stranger), List.of(SPEC));
        assertThat(collection.all(SPEC)).hasSize(1);
        assertThat(collection.unknown()).extracting(ItemCollection.UnknownItem::type).containsExactly("Alien");
    }
}
