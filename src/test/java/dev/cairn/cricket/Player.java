package dev.cairn.cricket;

import java.util.Arrays;

/** A player as the tests write it straight into the table (the served entity is models/cricket.yaml's). */
record Player(String id, String firstName, String lastName, Role role) {

    enum Role {
        BATTER("batter"), BOWLER("bowler"), ALL_ROUNDER("all-rounder"), WICKET_KEEPER("wicket-keeper");

        private final String text;

        Role(String text) {
            this.text = text;
        }

        String text() {
            return text;
        }

        static Role of(String text) {
            return Arrays.stream(values()).filter(r -> r.text.equals(text)).findFirst().orElseThrow();
        }
    }
}
