package dev.cairn.cricket;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.cairn.platform.ValidId;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.Arrays;

/** Seed 003's squad selection: ids in, full {@code team} and {@code player} copies out. */
public record SquadSelection(String squadId, Integer selectionNumber, Team team, Player player, SquadRole squadRole,
                             Boolean isCaptain) {

    /** The input shape: refs by id. */
    @Schema(name = "SquadSelectionInput", description = "The body of POST /squads/{squadId}/selections and of its merge patches")
    public record Input(@NotNull @Min(1) @Max(10_000) Integer selectionNumber, @ValidId String teamId,
                        @ValidId String playerId, @NotNull SquadRole squadRole, @NotNull Boolean isCaptain) {
    }

    public Input toInput() {
        return new Input(selectionNumber, team.id(), player.id(), squadRole, isCaptain);
    }

    public enum SquadRole {
        BATTER("batter"), BOWLER("bowler"), ALL_ROUNDER("all-rounder");

        private final String text;

        SquadRole(String text) {
            this.text = text;
        }

        @JsonValue
        public String text() {
            return text;
        }

        @JsonCreator
        public static SquadRole of(String text) {
            return Arrays.stream(values()).filter(r -> r.text.equals(text)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("squadRole must be one of batter, bowler, all-rounder"));
        }
    }
}
