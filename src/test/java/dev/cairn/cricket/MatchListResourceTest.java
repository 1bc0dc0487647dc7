package dev.cairn.cricket;

import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.write.WriteAction;
import dev.cairn.store.EntityStore;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/**
 * Lists of matches through the list indexes: every match (4 shards), a team's (its two sides), a venue's. Pages
 * are walked with several page sizes; first pages cost one Query per list partition, never a read per match.
 */
@QuarkusTest
class MatchListResourceTest {

    @Inject
    EntityStore store;

    record Listed(String id, String createdAt, Map<String, Object> summary) {
    }

    /** 25 matches over three teams (A–B, B–C, C–A in turn) and two venues (alternating), created in order. */
    static final class League {
        final CricketFixtures f = CricketFixtures.create(0);
        final String teamC = "eng-" + f.suffix;
        final String venue2 = "scg-" + f.suffix;
        final List<String> created = new ArrayList<>();

        League() {
            CricketFixtures.post("/teams", "{\"id\":\"" + teamC + "\",\"name\":\"England\",\"country\":\"England\",\"ranking\":3}");
            CricketFixtures.post("/venues", "{\"id\":\"" + venue2 + "\",\"name\":\"Sydney Cricket Ground\",\"city\":\"Sydney\"}");
            for (int i = 0; i < 25; i++) {
                String id = "m" + (i < 10 ? "0" : "") + i + "-" + f.suffix;
                given().contentType(ContentType.JSON).body(json(id, i)).post("/matches").then().statusCode(201);
                created.add(id);
            }
        }

        String home(int i) {
            return List.of(f.team1, f.team2, teamC).get(i % 3);
        }

        String away(int i) {
            return List.of(f.team2, teamC, f.team1).get(i % 3);
        }

        String venue(int i) {
            return i % 2 == 0 ? f.venue : venue2;
        }

        String json(String id, int i) {
            return "{\"id\":\"" + id + "\",\"name\":\"Match " + i + "\",\"venueId\":\"" + venue(i) + "\","
                    + "\"team1\":{\"teamId\":\"" + home(i) + "\",\"coachId\":\"" + f.coach1 + "\",\"homeTeam\":true,\"players\":[]},"
                    + "\"team2\":{\"teamId\":\"" + away(i) + "\",\"coachId\":\"" + f.coach2 + "\",\"homeTeam\":false,\"players\":[]}}";
        }

        /** The created matches a predicate selects, newest first. */
        List<String> newestFirst(java.util.function.IntPredicate selected) {
            var out = new ArrayList<String>();
            for (int i = created.size() - 1; i >= 0; i--) {
                if (selected.test(i)) {
                    out.add(created.get(i));
                }
            }
            return out;
        }
    }

    @Test
    void aTeamsAndAVenuesListsPageNewestFirstWithoutGapsOrDuplicatesAtAnyPageSize() {
        var league = new League();
        String teamA = league.f.team1;
        List<String> ofA = league.newestFirst(i -> league.home(i).equals(teamA) || league.away(i).equals(teamA));
        List<String> atVenue2 = league.newestFirst(i -> league.venue(i).equals(league.venue2));
        assertThat(ofA).hasSize(17);
        assertThat(atVenue2).hasSize(12);
        for (int limit : new int[] {1, 7, 100}) {
            assertThat(ids(walk("/teams/" + teamA + "/matches", limit, 2))).as("team list, limit " + limit).isEqualTo(ofA);
            assertThat(ids(walk("/venues/" + league.venue2 + "/matches", limit, 1))).as("venue list, limit " + limit)
                    .isEqualTo(atVenue2);
        }
        // A summary is the root's: names of the copies, times and the version (the match's ETag).
        Map<String, Object> newest = walk("/venues/" + league.venue2 + "/matches", 1, 1).get(0).summary();
        int n = league.created.indexOf((String) newest.get("id"));
        assertThat(newest).containsEntry("name", "Match " + n).containsEntry("venueId", league.venue2)
                .containsEntry("venueName", "Sydney Cricket Ground").containsEntry("team1Id", league.home(n))
                .containsEntry("team2Id", league.away(n)).containsEntry("version", 1);
        assertThat((String) newest.get("team1Name")).isIn("Australia", "India", "England");
        given().get("/matches/{id}", newest.get("id")).then().header("ETag", "\"1\"");
        // An unknown team plays no match: an empty list, at the same cost.
        given().get("/teams/{id}/matches", "nobody-" + league.f.suffix).then().statusCode(200)
                .header("X-DynamoDB-Calls", "2").body("items.size()", equalTo(0)).body("next", equalTo(null));
    }

    @Test
    void theListOfAllMatchesMergesItsShardsNewestFirstAtAnyPageSize() {
        var league = new League();
        for (int limit : new int[] {1, 7, 100}) {
            List<Listed> all = walk("/matches", limit, 4);
            assertThat(new HashSet<>(ids(all))).as("no duplicates, limit " + limit).hasSize(all.size());
            assertThat(all).as("newest first across shards, limit " + limit).isSortedAccordingTo(
                    Comparator.comparing((Listed l) -> Instant.parse(l.createdAt())).thenComparing(Listed::id).reversed());
            List<String> ours = ids(all).stream().filter(league.created::contains).toList();
            assertThat(ours).as("every match of this test, in order, limit " + limit).isEqualTo(league.newestFirst(i -> true));
        }
        given().queryParam("limit", 0).get("/matches").then().statusCode(400).contentType("application/problem+json");
        given().queryParam("limit", 101).get("/matches").then().statusCode(400);
        given().queryParam("cursor", "not-a-cursor").get("/matches").then().statusCode(400)
                .body("code", equalTo("InvalidCursor"));
    }

    @Test
    void aChangedTeamMovesTheMatchBetweenTeamListsAndADeleteRemovesItFromEveryList() {
        var league = new League();
        String moved = league.created.get(0); // A (home) vs B (away) at venue 1
        String teamA = league.f.team1;
        given().contentType("application/merge-patch+json").header("If-Match", "\"1\"")
                .body("{\"team1\":{\"teamId\":\"" + league.teamC + "\"},\"team2\":{\"teamId\":\"" + league.f.team2 + "\"}}")
                .patch("/matches/{id}", moved).then().statusCode(200).header("ETag", "\"2\"");
        assertThat(ids(walk("/teams/" + teamA + "/matches", 100, 2))).doesNotContain(moved).hasSize(16);
        List<Listed> ofC = walk("/teams/" + league.teamC + "/matches", 100, 2);
        assertThat(ids(ofC)).contains(moved).hasSize(17);
        Map<String, Object> summary = ofC.stream().filter(l -> l.id().equals(moved)).findFirst().orElseThrow().summary();
        assertThat(summary).containsEntry("team1Id", league.teamC).containsEntry("team1Name", "England")
                .containsEntry("version", 2);
        // Still where it was created in the list of all: creation time orders it, not the update.
        assertThat(ids(walk("/venues/" + league.f.venue + "/matches", 100, 1))).last().isEqualTo(moved);

        given().header("If-Match", "\"2\"").delete("/matches/{id}", moved).then().statusCode(204);
        assertThat(ids(walk("/teams/" + league.teamC + "/matches", 100, 2))).doesNotContain(moved).hasSize(16);
        assertThat(ids(walk("/teams/" + league.f.team2 + "/matches", 100, 2))).doesNotContain(moved);
        assertThat(ids(walk("/venues/" + league.f.venue + "/matches", 100, 1))).doesNotContain(moved).hasSize(12);
        assertThat(ids(walk("/matches", 100, 4))).doesNotContain(moved).containsAll(league.created.subList(1, 25));
    }

    @Test
    void aTeamOrVenueRenameReachesTheSummariesThroughItsCascade() {
        var league = new League();
        String teamB = league.f.team2;
        finished(given().contentType("application/merge-patch+json").body("{\"name\":\"Bharat\"}").patch("/teams/{id}", teamB));
        finished(given().contentType("application/merge-patch+json").body("{\"name\":\"The SCG\"}")
                .patch("/venues/{id}", league.venue2));
        List<Listed> ofB = walk("/teams/" + teamB + "/matches", 100, 2);
        assertThat(ofB).hasSize(17).allSatisfy(l -> {
            String side = teamB.equals(l.summary().get("team1Id")) ? "team1Name" : "team2Name";
            assertThat(l.summary()).as(l.id()).containsEntry(side, "Bharat");
        });
        assertThat(walk("/venues/" + league.venue2 + "/matches", 100, 1)).hasSize(12)
                .allSatisfy(l -> assertThat(l.summary()).containsEntry("venueName", "The SCG"));
        // The summary's version is the match's: the cascade moved both.
        Listed one = ofB.get(0);
        given().get("/matches/{id}", one.id()).then().header("ETag", "\"" + one.summary().get("version") + "\"");
        assertThat(((Number) one.summary().get("version")).intValue()).isGreaterThan(1);
    }

    @Test
    void theBackfillJobListsMatchesStoredBeforeListsExistedOnceWithoutANewVersionAndIsSafeToRepeat() throws Exception {
        var f = CricketFixtures.create(2);
        String id = f.matchId();
        given().contentType(ContentType.JSON).body(f.matchJson(id, 1, 1)).post("/matches").then().statusCode(201);
        PrimaryKey root = PrimaryKey.of("MATCH#" + id, "MATCH");
        Map<String, AttributeValue> listed = rootItem(root);
        // What an older release stored: the same root without list keys and summary.
        var unlisted = new java.util.HashMap<>(listed);
        unlisted.keySet().removeIf(name -> name.startsWith("_s_") || name.matches("gsi[1-4](pk|sk)"));
        assertThat(unlisted).hasSizeLessThan(listed.size() - 8);
        store.write(new WriteAction(WriteAction.Kind.PUT, root, unlisted, null, WriteAction.Expectation.NONE, null, "Match"))
                .await().atMost(Duration.ofSeconds(10));
        assertThat(ids(walk("/venues/" + f.venue + "/matches", 100, 1))).isEmpty();
        assertThat(ids(walk("/teams/" + f.team1 + "/matches", 100, 2))).isEmpty();

        Map<String, Object> first = backfill();
        assertThat((Integer) first.get("updated")).as("updated").isGreaterThanOrEqualTo(1);
        assertThat((Integer) first.get("roots")).isGreaterThanOrEqualTo((Integer) first.get("updated"));
        assertThat(rootItem(root)).as("the root as a current release writes it, version and all").isEqualTo(listed);
        assertThat(ids(walk("/venues/" + f.venue + "/matches", 100, 1))).containsExactly(id);
        assertThat(ids(walk("/teams/" + f.team2 + "/matches", 100, 2))).containsExactly(id);
        assertThat(ids(walk("/matches", 100, 4))).contains(id);
        given().get("/matches/{id}", id).then().statusCode(200).header("ETag", "\"1\"");

        Map<String, Object> again = backfill();
        assertThat(again.get("updated")).as("a repeated run finds nothing to do").isEqualTo(0);
        assertThat((Integer) again.get("roots")).as("scanned as many roots").isGreaterThanOrEqualTo((Integer) first.get("roots"));
        assertThat(rootItem(root)).isEqualTo(listed);
        given().post("/maintenance/aggregates/{name}/list-backfills", "Squad").then().statusCode(404)
                .contentType("application/problem+json").body("code", equalTo("NotFound"));
        given().get("/maintenance/jobs/{id}", "no-such-job").then().statusCode(404);
    }

    private Map<String, AttributeValue> rootItem(PrimaryKey key) {
        return store.getItem(key, true).await().atMost(Duration.ofSeconds(10));
    }

    /** Starts the backfill job (202 + Location) and follows it to its end: the job as it ended. */
    private static Map<String, Object> backfill() throws InterruptedException {
        var started = given().post("/maintenance/aggregates/{name}/list-backfills", "Match").then().statusCode(202)
                .body("kind", equalTo("list-backfill")).body("aggregate", equalTo("Match")).extract();
        return dev.cairn.platform.MaintenanceJobs.followed(started);
    }

    /** An eventual cascade answers 200 when it ended in time, else 202 with its job: followed to its end. */
    private static void finished(Response response) {
        if (response.statusCode() == 202) {
            String job = response.header("Location");
            Instant until = Instant.now().plus(Duration.ofSeconds(30));
            while (!"done".equals(given().get(job).then().extract().path("state"))) {
                assertThat(Instant.now()).as("cascade job " + job + " ends").isBefore(until);
            }
            return;
        }
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.<String>path("state")).isEqualTo("done");
    }

    /** Every page of a list, asserting the cost of its first page (one Query per list partition). */
    private static List<Listed> walk(String path, int limit, int firstPageCalls) {
        var out = new ArrayList<Listed>();
        String cursor = null;
        int pages = 0;
        do {
            var request = given().queryParam("limit", limit);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            var page = request.get(path).then().statusCode(200).extract();
            if (pages == 0) {
                assertThat(page.header("X-DynamoDB-Calls")).as("first page of " + path).isEqualTo(Integer.toString(firstPageCalls));
            }
            List<Map<String, Object>> items = page.path("items");
            assertThat(items.size()).isLessThanOrEqualTo(limit);
            items.forEach(item -> out.add(new Listed((String) item.get("id"), (String) item.get("createdAt"), item)));
            cursor = page.path("next");
            pages++;
            assertThat(pages).as("pages of " + path).isLessThan(5000);
        } while (cursor != null);
        return out;
    }

    private static List<String> ids(List<Listed> listed) {
        return listed.stream().map(Listed::id).toList();
    }
}
