package dev.cairn.cricket;

import dev.cairn.platform.Http;
import dev.cairn.platform.ValidId;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import java.util.List;

/** The input shape of a match, as in the seed's {@code MatchAggregate.create}: refs by id. */
public record MatchInput(
        @ValidId String id,
        @NotBlank @Size(max = 200) String name,
        @ValidId String venueId,
        @NotNull @Valid TeamSheetInput team1,
        @NotNull @Valid TeamSheetInput team2) {

    /** The input for the match the path names: the body's id may be left out, but must not name another match. */
    public MatchInput forPath(String pathId) {
        if (id != null && !id.equals(pathId)) {
            throw Http.invalid("id", "the body names match '" + id + "' but the path names '"
                    + pathId + "'");
        }
        return new MatchInput(pathId, name, venueId, team1, team2);
    }

    public record TeamSheetInput(
            @ValidId String teamId,
            @ValidId String coachId,
            @NotNull Boolean homeTeam,
            @NotNull @Size(max = 500) List<@NotNull @Valid PlayerSheetInput> players) {
    }

    public record PlayerSheetInput(
            @ValidId String playerId,
            @NotNull @Min(1) @Max(999) Integer battingPosition,
            @NotNull Boolean isCaptain) {
    }
}
