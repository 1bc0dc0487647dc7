package dev.cairn.cricket;

import java.util.Arrays;

/** A squad selection as the tests write it straight into the table (the served entity is models/cricket.yaml's). */
record SquadSelection(String squadId, Integer selectionNumber, Team team, Player player, SquadRole squadRole,
                      Boolean isCaptain) {

    enum SquadRole {
        BATTER("batter"), BOWLER("bowler"), ALL_ROUNDER("all-rounder");

        private final String text;

        SquadRole(String text) {
            this.text = text;
        }

        String text() {
            return text;
        }

        static SquadRole of(String text) {
            return Arrays.stream(values()).filter(r -> r.text.equals(text)).findFirst().orElseThrow();
        }
    }
}
