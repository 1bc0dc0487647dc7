package dev.cairn.cricket;

import dev.cairn.Eventually;
import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.expr.Update;
import dev.cairn.core.job.Job;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.write.WriteAction;
import dev.cairn.jobs.ReconcileScope;
import dev.cairn.jobs.Reconciles;
import dev.cairn.platform.Management;
import dev.cairn.store.EntityStore;
import dev.cairn.store.JobStore;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;

/**
 * The reconcile job against DynamoDB Local: stale copies are planted with raw writes (a source changed without a
 * cascade), then a reconcile of each scope must rewrite exactly those, leave current copies alone, count orphans,
 * keep to its rate and be resumable by the worker.
 */
@QuarkusTest
class ReconcileResourceTest {

    static final String PROBLEM = "application/problem+json";

    @Inject
    EntityStore store;

    @Inject
    JobStore jobs;

    @Inject
    Reconciles reconciles;

    static void select(String squad, int number, String team, String player) {
        given().contentType(ContentType.JSON).body(SquadResourceTest.selection(number, team, player, false))
                .post("/squads/{s}/selections", squad).then().statusCode(201);
    }

    /** A source changed behind the service's back: a new name and version, and no cascade. */
    void changeWithoutCascade(PrimaryKey source, String field, String value, String label) {
        store.write(WriteAction.updateItem(source, Update.create().set(field, AttributeValue.fromS(value))
                        .add("_version", AttributeValue.fromN("1")), WriteAction.Expectation.present(null), label))
                .await().atMost(Duration.ofSeconds(10));
    }

    long versionOf(PrimaryKey key) {
        return Long.parseLong(store.getItem(key, true).await().atMost(Duration.ofSeconds(10)).get("_version").n());
    }

    static Response start(String body) {
        return given().contentType(ContentType.JSON).body(body).post("/maintenance/reconcile");
    }

    /** Starts a reconcile and follows its Location until it is over; answers the finished job. */
    static JsonPath reconcile(String body) {
        Response started = start(body).then().statusCode(202).body("kind", equalTo("reconcile"))
                .body("state", equalTo("running")).extract().response();
        String location = started.header("Location");
        assertThat(location).endsWith("/maintenance/jobs/" + started.path("id"));
        JsonPath[] done = new JsonPath[1];
        Eventually.within(Duration.ofSeconds(120), () -> {
            JsonPath job = given().get(location).then().statusCode(200).extract().jsonPath();
            assertThat(job.getString("state")).as("reconcile " + location).isIn("done", "failed");
            done[0] = job;
        });
        JsonPath job = done[0];
        assertThat(job.getInt("checked")).as("every copy checked is counted once")
                .isEqualTo(job.getInt("repaired") + job.getInt("current") + job.getInt("orphaned") + job.getInt("failed"));
        return job;
    }

    @Test
    void oneSourceHealsEveryStaleCopyOnceAndCountsExactly() {
        var f = CricketFixtures.create(4);
        String player = f.players.get(0);
        String other = f.players.get(1);
        String squad = "squad-" + f.suffix;
        select(squad, 1, f.team1, player);
        select(squad, 2, f.team2, player);
        select(squad, 3, f.team1, other);
        String match = f.matchId();
        given().contentType(ContentType.JSON).body(f.matchJson(match, 2, 2)).post("/matches").then().statusCode(201);
        long otherSelection = versionOf(CricketModel.selectionKey(squad, 3));

        changeWithoutCascade(CricketModel.playerKey(player), "firstName", "Healed", "Player");
        given().get("/squads/{s}/selections", squad).then().body("items.player.firstName", hasItem("First0"));

        JsonPath job = reconcile("{\"entity\":\"player\",\"id\":\"" + player + "\"}");
        // two selections and the match's team sheet copy of the player
        assertThat(job.getString("state")).isEqualTo("done");
        assertThat(job.getString("scope")).isEqualTo("source");
        assertThat(job.getString("entity")).isEqualTo("Player");
        assertThat(job.getString("sourceId")).isEqualTo(player);
        assertThat(job.getInt("checked")).isEqualTo(3);
        assertThat(job.getInt("repaired")).isEqualTo(3);
        assertThat(job.getInt("current")).isZero();
        assertThat(job.getInt("orphaned")).isZero();
        assertThat(job.getInt("failed")).isZero();
        assertThat(job.getInt("pages")).isEqualTo(1);

        given().get("/squads/{s}/selections", squad).then().statusCode(200)
                .body("items.findAll { it.player.id == '" + player + "' }.player.firstName", everyItem(equalTo("Healed")))
                .body("items.findAll { it.player.id == '" + other + "' }.player.firstName", everyItem(equalTo("First1")));
        // the match's copy moved forward with its root's version, as a cascade does
        given().get("/matches/{id}", match).then().statusCode(200).header("ETag", "\"2\"")
                .body("team1.players[0].player.firstName", equalTo("Healed"))
                .body("team1.players[1].player.firstName", equalTo("First1"));
        assertThat(versionOf(CricketModel.selectionKey(squad, 3))).as("a current copy is not written").isEqualTo(otherSelection);

        JsonPath again = reconcile("{\"entity\":\"Player\",\"id\":\"" + player + "\"}");
        assertThat(again.getInt("checked")).isEqualTo(3);
        assertThat(again.getInt("repaired")).isZero();
        assertThat(again.getInt("current")).isEqualTo(3);
        given().get("/matches/{id}", match).then().header("ETag", "\"2\"");
    }

    @Test
    void anEntityTypeAndEverythingHealPlantedCopiesLeaveCurrentOnesAndCountOrphans() {
        var f = CricketFixtures.create(3);
        String stale = f.players.get(0);
        String current = f.players.get(1);
        String gone = f.players.get(2);
        String squad = "squad-" + f.suffix;
        select(squad, 1, f.team1, stale);
        select(squad, 2, f.team2, stale);
        select(squad, 3, f.team1, current);
        select(squad, 4, f.team1, gone);
        long currentSelection = versionOf(CricketModel.selectionKey(squad, 3));
        changeWithoutCascade(CricketModel.playerKey(stale), "lastName", "Mended", "Player");
        // a source removed behind the service's back (its delete guard would refuse it): its copy is an orphan
        store.write(WriteAction.deleteItem(CricketModel.playerKey(gone), "Player")).await().atMost(Duration.ofSeconds(10));
        long orphanSelection = versionOf(CricketModel.selectionKey(squad, 4));

        JsonPath byType = reconcile("{\"entity\":\"player\",\"rate\":10000}");
        assertThat(byType.getString("scope")).isEqualTo("entity");
        assertThat(byType.getInt("repaired")).isGreaterThanOrEqualTo(2);
        assertThat(byType.getInt("orphaned")).isGreaterThanOrEqualTo(1);
        assertThat(byType.getInt("checked")).isGreaterThanOrEqualTo(4);
        given().get("/squads/{s}/selections", squad).then()
                .body("items.findAll { it.player.id == '" + stale + "' }.player.lastName", everyItem(equalTo("Mended")));
        assertThat(versionOf(CricketModel.selectionKey(squad, 3))).isEqualTo(currentSelection);
        assertThat(versionOf(CricketModel.selectionKey(squad, 4))).as("an orphan is not written").isEqualTo(orphanSelection);

        // school copies are display fields named by the edge: a course renamed without its cascade
        String student = "stu-" + f.suffix;
        String course = "crs-" + f.suffix;
        CricketFixtures.post("/students", "{\"id\":\"" + student + "\",\"name\":\"Ana\",\"year\":2,\"major\":\"CS\"}");
        CricketFixtures.post("/courses", "{\"id\":\"" + course + "\",\"title\":\"Databases\",\"credits\":5,\"term\":\"T1\"}");
        given().contentType(ContentType.JSON).put("/students/{sid}/enrollments/{cid}", student, course).then().statusCode(201);
        changeWithoutCascade(PrimaryKey.of("CRS#" + course, "METADATA"), "title", "Distributed Databases", "Course");
        changeWithoutCascade(CricketModel.playerKey(current), "firstName", "Later", "Player");

        JsonPath everything = reconcile("{\"rate\":10000}");
        assertThat(everything.getString("scope")).isEqualTo("all");
        assertThat(everything.getString("entity")).isNull();
        assertThat(everything.getInt("repaired")).isGreaterThanOrEqualTo(2);
        assertThat(everything.getInt("orphaned")).isGreaterThanOrEqualTo(1);
        given().get("/students/{sid}/enrollments/{cid}", student, course).then().statusCode(200)
                .body("courseTitle", equalTo("Distributed Databases")).body("studentName", equalTo("Ana"));
        given().get("/squads/{s}/selections", squad).then()
                .body("items.findAll { it.player.id == '" + current + "' }.player.firstName", everyItem(equalTo("Later")));
        long mended = versionOf(CricketModel.selectionKey(squad, 1));

        JsonPath again = reconcile("{\"entity\":\"player\",\"id\":\"" + stale + "\"}");
        assertThat(again.getInt("repaired")).as("nothing left to repair").isZero();
        assertThat(again.getInt("current")).isEqualTo(2);
        assertThat(versionOf(CricketModel.selectionKey(squad, 1))).isEqualTo(mended);
        JsonPath orphans = reconcile("{\"entity\":\"player\",\"id\":\"" + gone + "\"}");
        assertThat(orphans.getInt("checked")).isEqualTo(1);
        assertThat(orphans.getInt("orphaned")).isEqualTo(1);

        String metrics = Management.management().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(metrics).contains("cairn_reconcile_copies_checked_total{entity=\"Player\"")
                .contains("cairn_reconcile_copies_repaired_total{entity=\"Course\"");
        given().queryParam("state", "done").queryParam("limit", "100").get("/maintenance/reconcile").then().statusCode(200)
                .body("items.kind", everyItem(equalTo("reconcile")));
    }

    @Test
    void aReconcileKeepsToItsRate() {
        var f = CricketFixtures.create(1);
        String player = f.players.get(0);
        String squad = "squad-" + f.suffix;
        for (int n = 1; n <= 6; n++) {
            select(squad, n, f.team1, player);
        }
        changeWithoutCascade(CricketModel.playerKey(player), "firstName", "Slow", "Player");
        JsonPath job = reconcile("{\"entity\":\"player\",\"id\":\"" + player + "\",\"rate\":3}");
        assertThat(job.getInt("rate")).isEqualTo(3);
        assertThat(job.getInt("checked")).isEqualTo(6);
        assertThat(job.getInt("repaired")).isEqualTo(6);
        Duration took = Duration.between(Instant.parse(job.getString("createdAt")), Instant.parse(job.getString("finishedAt")));
        assertThat(took).as("6 copies at 3 per second").isGreaterThanOrEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void aReconcileWhoseOwnerDiedIsResumedByTheWorker() {
        var f = CricketFixtures.create(1);
        String player = f.players.get(0);
        String squad = "squad-" + f.suffix;
        select(squad, 1, f.team1, player);
        select(squad, 2, f.team2, player);
        changeWithoutCascade(CricketModel.playerKey(player), "firstName", "Resumed", "Player");
        // a job recorded by a replica that died at once: its lease has run out, no process runs it
        String id = "reconcile-dead-" + UUID.randomUUID();
        Instant now = Instant.now();
        var target = ReconcileScope.of("Player", player, 200).toAttributes();
        store.write(jobs.table().create(Job.RECONCILE, id, target, "dead-replica", now.minusSeconds(60), now.minusSeconds(30)))
                .await().atMost(Duration.ofSeconds(10));

        Eventually.within(Duration.ofSeconds(30), () -> given().get("/maintenance/jobs/{id}", id).then().statusCode(200)
                .body("state", equalTo("done")).body("checked", equalTo(2)).body("repaired", equalTo(2)));
        given().get("/squads/{s}/selections", squad).then().body("items.player.firstName", everyItem(equalTo("Resumed")));
    }

    @Test
    void theReconcileOfAPeriodIsScheduledOnceWhateverTheReplicas() {
        Duration every = Duration.ofDays(3650);
        String id = Reconciles.periodicId(every, Instant.now().toEpochMilli() / every.toMillis());
        reconciles.schedulePeriod(every).await().atMost(Duration.ofSeconds(10));
        reconciles.schedulePeriod(every).await().atMost(Duration.ofSeconds(10));
        given().get("/maintenance/jobs/{id}", id).then().statusCode(200).body("kind", equalTo("reconcile"))
                .body("scope", equalTo("all"));
        // any replica's worker claims the scheduled job and runs it to its end
        Eventually.within(Duration.ofSeconds(120), () -> given().get("/maintenance/jobs/{id}", id).then().statusCode(200)
                .body("state", equalTo("done")).body("rate", equalTo(5000)));
        // another replica scheduling the same period writes nothing: the id is taken
        var again = jobs.schedule(Job.RECONCILE, id, ReconcileScope.everything(200).toAttributes(), Instant.now());
        assertThatThrownBy(() -> store.write(again).await().atMost(Duration.ofSeconds(10)))
                .isInstanceOfSatisfying(CairnException.class, e -> assertThat(e.error()).isInstanceOf(CairnError.Conflict.class));
    }

    @Test
    void badRequestsAreProblems() {
        start("{\"entity\":\"planet\"}").then().statusCode(400).contentType(PROBLEM)
                .body("detail", containsString("planet"));
        start("{\"entity\":\"player\",\"colour\":\"red\"}").then().statusCode(400).contentType(PROBLEM)
                .body("errors[0].field", equalTo("colour"));
        start("{\"id\":\"p1\"}").then().statusCode(400).contentType(PROBLEM).body("errors[0].field", equalTo("id"));
        start("{\"rate\":0}").then().statusCode(400).contentType(PROBLEM);
        for (String id : List.of(".", "..", " ", "")) {
            start("{\"entity\":\"team\",\"id\":\"" + id + "\"}").then().statusCode(400).contentType(PROBLEM)
                    .body("errors[0].field", equalTo("id"));
        }
        given().contentType(ContentType.JSON).post("/maintenance/reconcile").then().statusCode(400).contentType(PROBLEM);
        given().get("/maintenance/jobs/{id}", "no-such-job-" + UUID.randomUUID()).then().statusCode(404).contentType(PROBLEM);
        given().queryParam("state", "sleeping").get("/maintenance/reconcile").then().statusCode(400).contentType(PROBLEM);
        // The states as the document lists them, exactly: another spelling is not one of them.
        given().queryParam("state", "RUNNING").get("/maintenance/reconcile").then().statusCode(400).contentType(PROBLEM);
        given().queryParam("state", "Done").get("/cascades").then().statusCode(400).contentType(PROBLEM);
        given().queryParam("state", "done").get("/cascades").then().statusCode(200);
    }
}
