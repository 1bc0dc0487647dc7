package dev.cairn.cricket;

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
                AccessPattern.query("A squad's selections", "GET /squads/{squadId}/selections", table,
                        CricketModel.selectionsOf("aus#2024-25#BGT", 20)),
                AccessPattern.query("The selections of a player (ref index)", "GET /players/{playerId}/selections", table,
                        CricketModel.selectionsOfPlayer("cummins-01", 20)));
    }

    @Override
    public Map<String, KeyTemplate> partitions() {
        return Map.of("squad", CricketModel.SQUAD);
    }
}
