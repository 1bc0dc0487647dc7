package dev.cairn.cricket;

import dev.cairn.cricket.MatchInput.PlayerSheetInput;
import dev.cairn.cricket.MatchInput.TeamSheetInput;
import dev.cairn.platform.DemoData;
import dev.cairn.store.EntityStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

/** Seed 003's example: the match bgt-2025-test-1 with its teams, coaches, venue and players, and a squad selection. */
@ApplicationScoped
public class CricketDemoData implements DemoData {

    private final EntityStore store;
    private final MatchService matches;

    public CricketDemoData(EntityStore store, MatchService matches) {
        this.store = store;
        this.matches = matches;
    }

    @Override
    public Uni<Void> seed() {
        Player.Role batter = Player.Role.BATTER;
        return store.create(CricketModel.TEAM, new Team("aus", "Australia", "Australia", 1))
                .chain(() -> store.create(CricketModel.TEAM, new Team("ind", "India", "India", 2)))
                .chain(() -> store.create(CricketModel.COACH, new Coach("mcdonald", "Andrew McDonald")))
                .chain(() -> store.create(CricketModel.COACH, new Coach("gambhir", "Gautam Gambhir")))
                .chain(() -> store.create(CricketModel.VENUE, new Venue("mcg", "Melbourne Cricket Ground", "Melbourne")))
                .chain(() -> store.create(CricketModel.PLAYER, new Player("cummins-01", "Pat", "Cummins", Player.Role.BOWLER)))
                .chain(() -> store.create(CricketModel.PLAYER, new Player("smith-01", "Steve", "Smith", batter)))
                .chain(() -> store.create(CricketModel.PLAYER, new Player("head-01", "Travis", "Head", batter)))
                .chain(() -> store.create(CricketModel.PLAYER, new Player("kohli-01", "Virat", "Kohli", batter)))
                .chain(() -> store.create(CricketModel.PLAYER, new Player("bumrah-01", "Jasprit", "Bumrah", Player.Role.BOWLER)))
                .chain(() -> store.create(CricketModel.PLAYER, new Player("pant-01", "Rishabh", "Pant", Player.Role.WICKET_KEEPER)))
                .chain(() -> matches.create(new MatchInput("bgt-2025-test-1", "AUS vs IND, 1st Test", "mcg",
                        new TeamSheetInput("aus", "mcdonald", true, List.of(
                                new PlayerSheetInput("cummins-01", 8, true),
                                new PlayerSheetInput("smith-01", 4, false),
                                new PlayerSheetInput("head-01", 5, false))),
                        new TeamSheetInput("ind", "gambhir", false, List.of(
                                new PlayerSheetInput("kohli-01", 4, true),
                                new PlayerSheetInput("bumrah-01", 11, false),
                                new PlayerSheetInput("pant-01", 6, false))))))
                .chain(() -> store.create(CricketModel.SELECTION_SPEC, new SquadSelection("aus#2024-25#BGT", 1,
                        new Team("aus", "Australia", "Australia", 1),
                        new Player("cummins-01", "Pat", "Cummins", Player.Role.BOWLER),
                        SquadSelection.SquadRole.BOWLER, true), CricketModel.selectionCopyVersions(1, 1)))
                .replaceWithVoid();
    }
}
