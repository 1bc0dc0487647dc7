package dev.cairn.reliability;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.cairn.Eventually.within;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

/**
 * The ref index lagging its table by 2 s, as a GSI on DynamoDB may: copies written just before their source
 * changes are invisible to the cascade's pass, and the settle pass brings every one of them up to date — with no
 * further request — once the index shows them.
 */
@QuarkusTest
@TestProfile(IndexLagResourceTest.LaggingIndex.class)
class IndexLagResourceTest {

    static final Duration LAG = Duration.ofSeconds(2);

    public static class LaggingIndex extends DynamoDbSemanticsProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // The settle window must outlast the lag it is there for (production: 5 s against sub-second lag).
            return Map.of("cairn.cascade.settle", "3s");
        }
    }

    DynamoDbSemantics dynamo;
    final String k = UUID.randomUUID().toString().substring(0, 8);

    static void created(String path, String body) {
        given().contentType(ContentType.JSON).body(body).post(path).then().statusCode(201);
    }

    @Test
    void copiesWrittenJustBeforeTheirSourceChangesConvergeAfterTheSettleWindow() {
        String player = "lp-" + k;
        String team = "lt-" + k;
        created("/teams", "{\"id\":\"" + team + "\",\"name\":\"T\",\"country\":\"T\",\"ranking\":1}");
        created("/teams", "{\"id\":\"" + team + "b\",\"name\":\"U\",\"country\":\"U\",\"ranking\":2}");
        created("/coaches", "{\"id\":\"lc-" + k + "\",\"name\":\"C\"}");
        created("/venues", "{\"id\":\"lv-" + k + "\",\"name\":\"V\",\"city\":\"X\"}");
        created("/players", "{\"id\":\"" + player + "\",\"firstName\":\"Old\",\"lastName\":\"N\",\"role\":\"batter\"}");
        created("/players", "{\"id\":\"" + player + "o\",\"firstName\":\"O\",\"lastName\":\"P\",\"role\":\"bowler\"}");

        dynamo.gsiLag(LAG);
        try {
            var squads = new ArrayList<String>();
            for (int i = 0; i < 5; i++) {
                String squad = "ls" + i + "-" + k;
                created("/squads/" + squad + "/selections", "{\"selectionNumber\":1,\"teamId\":\"" + team + "\",\"playerId\":\""
                        + player + "\",\"squadRole\":\"batter\",\"isCaptain\":false}");
                squads.add(squad);
            }
            String match = "lm-" + k;
            created("/matches", "{\"id\":\"" + match + "\",\"name\":\"M\",\"venueId\":\"lv-" + k + "\",\"team1\":{\"teamId\":\""
                    + team + "\",\"coachId\":\"lc-" + k + "\",\"homeTeam\":true,\"players\":[{\"playerId\":\"" + player
                    + "\",\"battingPosition\":1,\"isCaptain\":true}]},\"team2\":{\"teamId\":\"" + team + "b\",\"coachId\":\"lc-"
                    + k + "\",\"homeTeam\":false,\"players\":[{\"playerId\":\"" + player + "o\",\"battingPosition\":1,"
                    + "\"isCaptain\":true}]}}");

            long renamedAt = System.nanoTime();
            var renamed = given().contentType("application/merge-patch+json").body("{\"firstName\":\"New\"}")
                    .patch("/players/{id}", player).then().statusCode(200).body("state", equalTo("done")).extract();
            int matchedByThePass = renamed.path("matched");
            String job = renamed.path("job");
            assertThat(matchedByThePass).as("copies the lagging index showed the pass").isLessThan(6);

            within(Duration.ofSeconds(20), () -> {
                for (String squad : squads) {
                    given().get("/squads/{s}/selections/{n}", squad, 1).then().statusCode(200)
                            .body("player.firstName", equalTo("New"));
                }
                given().get("/matches/{id}", match).then().statusCode(200)
                        .body("team1.players[0].player.firstName", equalTo("New"));
            });
            Duration converged = Duration.ofNanos(System.nanoTime() - renamedAt);
            within(Duration.ofSeconds(10), () -> given().get("/cascades/{id}", job).then().statusCode(200)
                    .body("settledAt", notNullValue()));
            System.out.printf("index lag %s, settle 3 s: the pass saw %d of 6 copies; all 6 current after %d ms; %s%n",
                    LAG, matchedByThePass, converged.toMillis(), dynamo.counts());
            assertThat(dynamo.counts().hidden()).as("index items the lag hid").isPositive();
        } finally {
            dynamo.reset();
        }
    }
}
