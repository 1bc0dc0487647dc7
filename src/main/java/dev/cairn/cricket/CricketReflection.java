package dev.cairn.cricket;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** Records Jackson converts to and from maps (ObjectMapper.convertValue): registered for native images. */
@RegisterForReflection(targets = {MatchInput.class, MatchInput.TeamSheetInput.class, MatchInput.PlayerSheetInput.class,
        Team.class, Player.class, Coach.class, Venue.class, SquadSelection.class, SquadSelection.Input.class})
final class CricketReflection {

    private CricketReflection() {
    }
}
