package dev.cairn.cricket;

import io.restassured.http.ContentType;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.restassured.RestAssured.given;

/** Reference data with unique ids per test, created over REST. */
final class CricketFixtures {

    final String suffix = UUID.randomUUID().toString().substring(0, 8);
    final String team1 = "aus-" + suffix;
    final String team2 = "ind-" + suffix;
    final String coach1 = "mcdonald-" + suffix;
    final String coach2 = "gambhir-" + suffix;
    final String venue = "mcg-" + suffix;
    final List<String> players = new ArrayList<>();

    static CricketFixtures create(int playerCount) {
        var f = new CricketFixtures();
        post("/teams", "{\"id\":\"" + f.team1 + "\",\"name\":\"Australia\",\"country\":\"Australia\",\"ranking\":1}");
        post("/teams", "{\"id\":\"" + f.team2 + "\",\"name\":\"India\",\"country\":\"India\",\"ranking\":2}");
        post("/coaches", "{\"id\":\"" + f.coach1 + "\",\"name\":\"Andrew McDonald\"}");
        post("/coaches", "{\"id\":\"" + f.coach2 + "\",\"name\":\"Gautam Gambhir\"}");
        post("/venues", "{\"id\":\"" + f.venue + "\",\"name\":\"Melbourne Cricket Ground\",\"city\":\"Melbourne\"}");
        for (int i = 0; i < playerCount; i++) {
            String id = "p" + i + "-" + f.suffix;
            post("/players", "{\"id\":\"" + id + "\",\"firstName\":\"First" + i + "\",\"lastName\":\"Last" + i
                    + "\",\"role\":\"batter\"}");
            f.players.add(id);
        }
        return f;
    }

    static void post(String path, String body) {
        given().contentType(ContentType.JSON).body(body).post(path).then().statusCode(201);
    }

    String matchId() {
        return "match-" + UUID.randomUUID();
    }

    /** A match whose team1 has players [from, from+n1) and team2 [from+n1, from+n1+n2). */
    String matchJson(String id, int n1, int n2) {
        return "{\"id\":\"" + id + "\",\"name\":\"AUS vs IND, 1st Test\",\"venueId\":\"" + venue + "\","
                + "\"team1\":" + sheet(team1, coach1, true, 0, n1) + ","
                + "\"team2\":" + sheet(team2, coach2, false, n1, n2) + "}";
    }

    String sheet(String team, String coach, boolean home, int from, int count) {
        var players = new StringBuilder();
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                players.append(',');
            }
            players.append("{\"playerId\":\"").append(this.players.get(from + i)).append("\",\"battingPosition\":")
                    .append(i + 1).append(",\"isCaptain\":").append(i == 0).append('}');
        }
        return "{\"teamId\":\"" + team + "\",\"coachId\":\"" + coach + "\",\"homeTeam\":" + home
                + ",\"players\":[" + players + "]}";
    }
}
