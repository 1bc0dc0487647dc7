package dev.cairn.cricket;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** Records Jackson converts to and from maps (ObjectMapper.convertValue): registered for native images. */
@RegisterForReflection(targets = {Team.class, Player.class, SquadSelection.class, SquadSelection.Input.class})
final class CricketReflection {

    private CricketReflection() {
    }
}
