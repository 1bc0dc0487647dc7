package dev.cairn.cricket;

import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.aggregate.PartitionRanges;
import dev.cairn.core.cascade.CascadeSpec;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.query.AccessPattern;
import dev.cairn.platform.AccessPatterns;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Map;

@ApplicationScoped
public class CricketAccessPatterns implements AccessPatterns {

    @Override
    public List<AccessPattern> accessPatterns(String table) {
        return List.of(
                AccessPattern.query("A whole match (every item of its partition, projected on the view): this ONE Query up to "
                                + PartitionRanges.FIRST_PAGE_ITEMS + " items; "
                                + "a larger aggregate continues with one Query per range of its root's _fences, all at once, then 1 GetItem of the root",
                        "GET /matches/{id}", table,
                        CricketModel.MATCH.viewQuery("bgt-2025-test-1")),
                AccessPattern.query("Every match, newest first: shard 0 of " + CricketModel.ALL_MATCHES.shards()
                                + " (each shard alike, all in parallel, merged)", "GET /matches", table,
                        CricketModel.ALL_MATCHES.fanOut(null, CricketModel.ALL_MATCHES.shards(), 20).shards().get(0)),
                AccessPattern.query("A team's matches, newest first: its home sides (in parallel with its away sides)",
                        "GET /teams/{teamId}/matches", table, CricketModel.TEAM_MATCHES.fanOut("aus", 1, 20).shards().get(0)),
                AccessPattern.query("A team's matches, newest first: its away sides (in parallel with its home sides)",
                        "GET /teams/{teamId}/matches", table, CricketModel.TEAM_MATCHES.fanOut("aus", 1, 20).shards().get(1)),
                AccessPattern.query("A venue's matches, newest first", "GET /venues/{venueId}/matches", table,
                        CricketModel.VENUE_MATCHES.fanOut("mcg", 1, 20).shards().get(0)),
                AccessPattern.query("The matches of a player (ref index)", "GET /players/{playerId}/matches", table,
                        CricketModel.matchesOfPlayer("kohli-01", 20)),
                AccessPattern.query("A squad's selections", "GET /squads/{squadId}/selections", table,
                        CricketModel.selectionsOf("aus#2024-25#BGT", 20)),
                AccessPattern.query("The selections of a player (ref index)", "GET /players/{playerId}/selections", table,
                        CricketModel.selectionsOfPlayer("cummins-01", 20)),
                AccessPattern.getItem("One team", "GET /teams/{id}", table, CricketModel.teamKey("aus")),
                AccessPattern.getItem("One player", "GET /players/{id}", table, CricketModel.playerKey("kohli-01")));
    }

    @Override
    public Map<String, KeyTemplate> partitions() {
        return Map.of("match", CricketModel.MATCH_KEY, "team", CricketModel.TEAM_KEY, "player", CricketModel.PLAYER_KEY,
                "coach", CricketModel.COACH_KEY, "venue", CricketModel.VENUE_KEY, "squad", CricketModel.SQUAD);
    }

    @Override
    public List<CascadeSpec> cascades() {
        return RefKind.ALL.stream().map(RefKind::cascade).toList();
    }

    @Override
    public List<Aggregate> aggregates() {
        return List.of(CricketModel.MATCH);
    }
}
