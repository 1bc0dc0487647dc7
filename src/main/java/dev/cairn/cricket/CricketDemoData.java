package dev.cairn.cricket;

import dev.cairn.platform.DemoData;
import dev.cairn.store.EntityStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Seed 003's squad selection (its team and player are demo items of models/cricket.yaml). */
@ApplicationScoped
public class CricketDemoData implements DemoData {

    private final EntityStore store;

    public CricketDemoData(EntityStore store) {
        this.store = store;
    }

    @Override
    public Uni<Void> seed() {
        return store.create(CricketModel.SELECTION_SPEC, new SquadSelection("aus#2024-25#BGT", 1,
                        new Team("aus", "Australia", "Australia", 1),
                        new Player("cummins-01", "Pat", "Cummins", Player.Role.BOWLER),
                        SquadSelection.SquadRole.BOWLER, true), CricketModel.selectionCopyVersions(1, 1))
                .replaceWithVoid();
    }
}
