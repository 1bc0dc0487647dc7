package dev.cairn.cricket;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;

/**
 * The OpenAPI schemas of the match aggregate's answers, which the aggregate engine assembles as maps. The venue,
 * teams, coaches and players in a match are copies of those entities, kept in sync by cascades.
 */
final class MatchSchemas {

    private MatchSchemas() {
    }

    @Schema(name = "Match", description = "A match with copies of its venue, teams, coaches and players")
    record Match(@Schema(required = true) String id, @Schema(required = true) String name, Venue venue,
                 @Schema(required = true) TeamSheet team1, @Schema(required = true) TeamSheet team2) {
    }

    @Schema(name = "MatchTeamSheet", description = "One side of a match")
    record TeamSheet(@Schema(required = true) boolean homeTeam, @Schema(required = true) Team team,
                     Coach coach, @Schema(required = true) List<PlayerSheet> players) {
    }

    @Schema(name = "MatchPlayer", description = "A player on a team sheet")
    record PlayerSheet(@Schema(required = true) Player player, @Schema(required = true) int battingPosition,
                       @Schema(required = true) boolean isCaptain) {
    }

    @Schema(name = "MatchAppearance", description = "A match a player is in, from the player's reference partition")
    record Appearance(@Schema(required = true) String matchId, @Schema(required = true) String matchName,
                      @Schema(required = true) int teamNumber, @Schema(required = true) int battingPosition,
                      @Schema(required = true) boolean isCaptain) {
    }

    @Schema(name = "MatchAppearancePage", description = "One page of match appearances, and the cursor of the next page")
    record AppearancePage(@Schema(required = true) List<Appearance> items, @Schema(required = true) String next) {
    }

    @Schema(name = "MatchSummary", description = "A match as a list shows it: read from its root item alone; "
            + "venue and team names are copies, kept current by cascades")
    record Summary(@Schema(required = true) String id, @Schema(required = true) String name,
                   String venueId, String venueName,
                   @Schema(required = true) String team1Id, @Schema(required = true) String team1Name,
                   @Schema(required = true) String team2Id, @Schema(required = true) String team2Name,
                   @Schema(required = true, format = "date-time") String createdAt,
                   @Schema(required = true, format = "date-time") String updatedAt,
                   @Schema(required = true, description = "The match's version (its ETag on GET /matches/{id})") long version) {
    }

    @Schema(name = "MatchSummaryPage", description = "One page of matches, newest first, and the cursor of the next page")
    record SummaryPage(@Schema(required = true) List<Summary> items, @Schema(required = true) String next) {
    }
}
