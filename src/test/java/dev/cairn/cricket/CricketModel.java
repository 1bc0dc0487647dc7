package dev.cairn.cricket;

import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.aggregate.CopyVersions;
import dev.cairn.core.aggregate.RefSpec;
import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.item.RecordCodec;
import dev.cairn.core.key.IndexKey;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.key.PrimaryKey;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;

/**
 * The layout of models/cricket.yaml's teams, players and squad selections, written out by hand so that tests can put
 * items straight into the table (hundreds of copies at once, or a copy as an older write left it) and find their
 * keys. The served routes are the model file's: a test that writes these items and reads them through the API
 * proves the two layouts are the same.
 */
final class CricketModel {

    static final KeyTemplate TEAM_KEY = KeyTemplate.of("TEAM#{id}");
    static final KeyTemplate PLAYER_KEY = KeyTemplate.of("PLAYER#{id}");

    static final RecordCodec<Team> TEAM_CODEC = RecordCodec.<Team>builder()
            .string("id", Team::id).string("name", Team::name).string("country", Team::country)
            .number("ranking", Team::ranking)
            .build(f -> new Team(f.string("id"), f.string("name"), f.string("country"), f.integer("ranking")));
    static final RecordCodec<Player> PLAYER_CODEC = RecordCodec.<Player>builder()
            .string("id", Player::id).string("firstName", Player::firstName).string("lastName", Player::lastName)
            .string("role", p -> p.role().text())
            .build(f -> new Player(f.string("id"), f.string("firstName"), f.string("lastName"), Player.Role.of(f.string("role"))));
    static final EntitySpec<Team> TEAM = EntitySpec.builder("Team", TEAM_CODEC).key(t -> teamKey(t.id())).build();
    static final EntitySpec<Player> PLAYER = EntitySpec.builder("Player", PLAYER_CODEC).key(p -> playerKey(p.id())).build();

    static final RefSpec<Team> TEAM_REF = RefSpec.of(TEAM, CricketModel::teamKey, Index.GSI2, "TEAM");
    static final RefSpec<Player> PLAYER_REF = RefSpec.of(PLAYER, CricketModel::playerKey, Index.GSI1, "PLAYER");

    // --- squad selections: refs embedded in a plain entity -------------------------------------------------

    static final KeyTemplate SQUAD = KeyTemplate.of("SQUAD#{squadId}");
    static final KeyTemplate SELECTION = KeyTemplate.of("SEL#{selectionNumber:n}");

    static final EntitySpec<SquadSelection> SELECTION_SPEC = EntitySpec.builder("SquadSelection",
                    RecordCodec.<SquadSelection>builder()
                            .string("squadId", SquadSelection::squadId).number("selectionNumber", SquadSelection::selectionNumber)
                            .nested("team", SquadSelection::team, TEAM_CODEC).nested("player", SquadSelection::player, PLAYER_CODEC)
                            .string("squadRole", s -> s.squadRole().text()).bool("isCaptain", SquadSelection::isCaptain)
                            .string("teamId", s -> s.team().id()).string("playerId", s -> s.player().id())
                            .build(f -> new SquadSelection(f.string("squadId"), f.integer("selectionNumber"),
                                    f.nested("team", TEAM_CODEC), f.nested("player", PLAYER_CODEC),
                                    SquadSelection.SquadRole.of(f.string("squadRole")), f.bool("isCaptain"))))
            .key(s -> selectionKey(s.squadId(), s.selectionNumber()))
            .index(Index.GSI1, s -> IndexKey.of(PLAYER_REF.refPartition(s.player().id()), selectionRefSort(s)))
            .index(Index.GSI2, s -> IndexKey.of(TEAM_REF.refPartition(s.team().id()), selectionRefSort(s)))
            .build();

    private CricketModel() {
    }

    /** The {@code _refv} of a squad selection: the source versions of its team and player copies. */
    static Map<String, AttributeValue> selectionCopyVersions(
            long teamVersion, long playerVersion) {
        return Map.of(CopyVersions.ATTRIBUTE, CopyVersions.of(
                Map.of("team", Map.entry(TEAM.type(), teamVersion),
                        "player", Map.entry(PLAYER.type(), playerVersion))));
    }

    static PrimaryKey teamKey(String id) {
        return PrimaryKey.of(TEAM_KEY.render(id), "TEAM");
    }

    static PrimaryKey playerKey(String id) {
        return PrimaryKey.of(PLAYER_KEY.render(id), "PLAYER");
    }

    static PrimaryKey selectionKey(String squadId, int selectionNumber) {
        return PrimaryKey.of(SQUAD.render(squadId), SELECTION.render(selectionNumber));
    }

    private static String selectionRefSort(SquadSelection s) {
        return SQUAD.render(s.squadId()) + "#" + SELECTION.render(s.selectionNumber());
    }
}
