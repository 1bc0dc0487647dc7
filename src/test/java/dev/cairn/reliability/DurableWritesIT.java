package dev.cairn.reliability;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.platform.EmbeddedDynamoDb;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Multi-step writes survive the process: the packaged app runs as a real process against DynamoDB Local (behind a
 * TCP proxy that can slow it down), is killed with SIGKILL in the middle of a cascade or between the transactions
 * of an aggregate write, and a fresh process, with no client request but reads, finishes or undoes the work.
 */
class DurableWritesIT {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Duration LEASE = Duration.ofSeconds(3);

    EmbeddedDynamoDb dynamo;
    FaultProxy proxy;
    DynamoDbAsyncClient direct;
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    final List<PackagedApp> apps = new ArrayList<>();
    final String k = UUID.randomUUID().toString().substring(0, 8);

    record Answer(int status, Map<String, Object> body, HttpResponse<String> raw) {
        String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }
    }

    @BeforeEach
    void start() throws Exception {
        Thread.currentThread().setContextClassLoader(DurableWritesIT.class.getClassLoader());
        dynamo = EmbeddedDynamoDb.start(0, null);
        proxy = new FaultProxy(dynamo.port());
        direct = DynamoDbAsyncClient.builder().endpointOverride(URI.create("http://127.0.0.1:" + dynamo.port()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"))).build();
    }

    @AfterEach
    void stop() throws Exception {
        for (PackagedApp app : apps) {
            app.stop();
        }
        direct.close();
        proxy.close();
        dynamo.close();
    }

    // --- the app as a process ---------------------------------------------------------------------------------

    PackagedApp startApp(String... extra) throws Exception {
        var settings = new ArrayList<>(List.of(
                "-Dquarkus.dynamodb.api-call-timeout=20S", "-Dquarkus.dynamodb.api-call-attempt-timeout=10S",
                "-Dcairn.jobs.poll=300ms", "-Dcairn.jobs.lease=" + LEASE.toSeconds() + "s",
                "-Dcairn.jobs.aggregate-lease=" + LEASE.toSeconds() + "s", "-Dcairn.jobs.answer-within=1s",
                "-Dcairn.cascade.concurrency=4"));
        settings.addAll(List.of(extra));
        PackagedApp app = PackagedApp.start(proxy.endpoint(), settings);
        apps.add(app);
        return app;
    }

    static void kill(PackagedApp app) throws InterruptedException {
        app.kill();
    }

    static String read(File log) {
        try {
            return Files.readString(log.toPath());
        } catch (IOException e) {
            return "(unreadable)";
        }
    }

    // --- HTTP ---------------------------------------------------------------------------------------------------

    Answer send(PackagedApp app, String method, String path, String contentType, String body) throws Exception {
        var request = HttpRequest.newBuilder(URI.create(app.base() + path)).timeout(Duration.ofSeconds(60))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        Map<String, Object> parsed = response.body().startsWith("{")
                ? JSON.readValue(response.body(), new TypeReference<Map<String, Object>>() { }) : Map.of();
        return new Answer(response.statusCode(), parsed, response);
    }

    Answer get(PackagedApp app, String path) throws Exception {
        return send(app, "GET", path, null, null);
    }

    void created(PackagedApp app, String path, String json) throws Exception {
        Answer answer = send(app, "POST", path, "application/json", json);
        assertThat(answer.status()).as("POST %s: %s", path, answer.raw().body()).isEqualTo(201);
    }

    /** Many creates at once (16 in flight), each checked. */
    void createdAll(PackagedApp app, String path, List<String> bodies) {
        var pending = new ArrayList<CompletableFuture<Void>>();
        for (String body : bodies) {
            pending.add(CompletableFuture.runAsync(() -> {
                try {
                    created(app, path, body);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, POOL));
        }
        pending.forEach(CompletableFuture::join);
    }

    static final java.util.concurrent.ExecutorService POOL = java.util.concurrent.Executors.newFixedThreadPool(16, r -> {
        Thread t = new Thread(r, "durable-test-client");
        t.setDaemon(true);
        return t;
    });

    static void waitFor(String what, Duration within, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what + " within " + within).isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    /** One field of a cascade job as the app shows it, or null while the app cannot answer. */
    Object jobField(PackagedApp app, String job, String field) {
        try {
            return get(app, job).body().get(field);
        } catch (Exception e) {
            return null;
        }
    }

    boolean pagesAtLeast(PackagedApp app, String job, int pages) {
        return jobField(app, job, "pages") instanceof Number n && n.intValue() >= pages;
    }

    // --- the table, read directly (not through the proxy or the app) ----------------------------------------------

    List<Map<String, AttributeValue>> partition(String pk) {
        return queryAll(QueryRequest.builder().tableName("cairn").consistentRead(true)
                .keyConditionExpression("pk = :pk").expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(pk))));
    }

    List<Map<String, AttributeValue>> refIndex(String gsiPk) {
        return queryAll(QueryRequest.builder().tableName("cairn").indexName("gsi1")
                .keyConditionExpression("gsi1pk = :pk").expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(gsiPk))));
    }

    List<Map<String, AttributeValue>> queryAll(QueryRequest.Builder query) {
        var items = new ArrayList<Map<String, AttributeValue>>();
        Map<String, AttributeValue> start = null;
        do {
            var response = direct.query(query.exclusiveStartKey(start).build()).join();
            items.addAll(response.items());
            start = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty() ? response.lastEvaluatedKey() : null;
        } while (start != null);
        return items;
    }

    Map<String, AttributeValue> item(String pk, String sk) {
        var response = direct.getItem(GetItemRequest.builder().tableName("cairn").consistentRead(true)
                .key(Map.of("pk", AttributeValue.fromS(pk), "sk", AttributeValue.fromS(sk))).build()).join();
        return response.hasItem() && !response.item().isEmpty() ? response.item() : null;
    }

    /** How many selections of the player carry the given first name in their embedded copy. */
    long copiesNamed(String playerId, String firstName) {
        return refIndex("PLAYER#" + playerId).stream()
                .filter(i -> firstName.equals(i.get("player").m().get("firstName").s())).count();
    }

    // --- fixtures -------------------------------------------------------------------------------------------------

    void team(PackagedApp app, String id, String name) throws Exception {
        created(app, "/teams", "{\"id\":\"" + id + "\",\"name\":\"" + name + "\",\"country\":\"" + name + "\",\"ranking\":1}");
    }

    void player(PackagedApp app, String id) throws Exception {
        created(app, "/players", "{\"id\":\"" + id + "\",\"firstName\":\"Old\",\"lastName\":\"Name\",\"role\":\"batter\"}");
    }

    /** {@code count} squad selections embedding the player, 100 per squad. */
    void selections(PackagedApp app, String team, String player, int count) {
        var bodies = new HashMap<String, List<String>>();
        for (int i = 0; i < count; i++) {
            String squad = "sq" + (i / 100) + "-" + player;
            bodies.computeIfAbsent(squad, s -> new ArrayList<>()).add("{\"selectionNumber\":" + (i % 100 + 1)
                    + ",\"teamId\":\"" + team + "\",\"playerId\":\"" + player + "\",\"squadRole\":\"bowler\",\"isCaptain\":false}");
        }
        bodies.forEach((squad, list) -> createdAll(app, "/squads/" + squad + "/selections", list));
    }

    // --- cascades -------------------------------------------------------------------------------------------------

    /**
     * A player embedded in {@code copies} squad selections is renamed while DynamoDB is slowed down, so its cascade
     * takes seconds: answers the job's path from the 202.
     */
    String slowCascade(PackagedApp app, String player, int copies) throws Exception {
        String team = "t-" + k;
        team(app, team, "Australia");
        player(app, player);
        selections(app, team, player, copies);
        assertThat(copiesNamed(player, "Old")).isEqualTo(copies);
        proxy.inject(FaultProxy.Fault.DELAY, 15);
        Answer patch = send(app, "PATCH", "/players/" + player, "application/merge-patch+json", "{\"firstName\":\"New\"}");
        assertThat(patch.status()).as(patch.raw().body()).isEqualTo(202);
        String job = URI.create(patch.header("Location")).getPath();
        assertThat(job).startsWith("/cascades/");
        return job;
    }

    @Test
    void aCascadeKilledMidwayIsFinishedByTheNextProcessWithoutAnyClientRequest() throws Exception {
        PackagedApp first = startApp();
        String player = "p-" + k;
        int copies = 1500;
        String job = slowCascade(first, player, copies);
        waitFor("the job has checkpointed two pages", Duration.ofSeconds(60), () -> pagesAtLeast(first, job, 2));
        kill(first);
        long renamed = copiesNamed(player, "New");
        assertThat(renamed).as("killed mid-cascade: some copies written, some not").isBetween(1L, (long) copies - 1);
        System.out.printf("cascade killed with %d of %d copies written%n", renamed, copies);
        long restarted = System.nanoTime();
        assertThat(item("PLAYER#" + player, "PLAYER").get("firstName").s()).as("the source is updated").isEqualTo("New");

        proxy.clear();
        PackagedApp second = startApp();
        // No PATCH is repeated: the second process's worker finds the job once its lease expires and resumes it.
        waitFor("every copy converges", Duration.ofSeconds(60), () -> copiesNamed(player, "New") == copies);
        System.out.printf("every copy converged %d ms after the second process was started (lease %d s)%n",
                (System.nanoTime() - restarted) / 1_000_000, LEASE.toSeconds());
        waitFor("the job reads done", Duration.ofSeconds(30), () -> "done".equals(jobField(second, job, "state")));
        Answer done = get(second, job);
        assertThat(done.body()).containsEntry("failed", 0).containsEntry("state", "done");
        assertThat(refIndex("PLAYER#" + player)).allSatisfy(copy ->
                assertThat(copy.get("_refv").m().get("player").m().get("v").n()).isEqualTo("2"));
        assertThat(read(second.log())).contains("took over cascade job");
        read(second.log()).lines().filter(l -> l.contains("job")).forEach(System.out::println);
    }

    @Test
    void aReplicaStoppedGracefullyHandsItsCascadeOverAtOnceInsteadOfAfterItsLease() throws Exception {
        // A long lease: were the job not handed over, the other replica would wait 60 s for it.
        String[] longLease = {"-Dcairn.jobs.lease=60s", "-Dquarkus.shutdown.delay-enabled=false"};
        // The stopping replica polls often: a handed-over job is due at once and still names it, so a worker that
        // went on claiming while stopping would, in some runs, take the job back and hold it for the lease.
        PackagedApp first = startApp("-Dcairn.jobs.lease=60s", "-Dquarkus.shutdown.delay-enabled=false",
                "-Dcairn.jobs.poll=25ms");
        PackagedApp second = startApp(longLease);
        String player = "p-" + k;
        int copies = 1000;
        String job = slowCascade(first, player, copies);
        waitFor("the job has checkpointed a page", Duration.ofSeconds(60), () -> pagesAtLeast(first, job, 1));
        String owner = jobItem(idOf(job)).get("_lease").s();
        long stopped = System.nanoTime();
        first.process().destroy(); // SIGTERM: a rollout, a scale-down
        assertThat(first.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(copiesNamed(player, "New")).as("stopped mid-cascade").isLessThan(copies);
        assertThat(read(first.log())).contains("handed over");
        assertThat(heldAfterItsStop(idOf(job), owner)).as("the stopped replica holds the job past its stop").isFalse();
        proxy.clear();
        // The hand-over is timed by when the other replica takes the job, not by when its 1,000 copies are written:
        // how fast those go depends on the machine's load (12 s alone, past 30 s on a busy CI machine), the take-over
        // only on the hand-over (without it, the 60 s lease).
        waitFor("the other replica takes the job over long before the lease would have expired", Duration.ofSeconds(30),
                () -> read(second.log()).contains("took over cascade job"));
        System.out.printf("handed over: the other replica took the job %d ms after SIGTERM (lease 60 s)%n",
                (System.nanoTime() - stopped) / 1_000_000);
        waitFor("every copy converges", Duration.ofSeconds(120), () -> copiesNamed(player, "New") == copies);
        System.out.printf("handed over: every copy converged %d ms after SIGTERM%n", (System.nanoTime() - stopped) / 1_000_000);
        waitFor("the job reads done", Duration.ofSeconds(10), () -> "done".equals(jobField(second, job, "state")));
    }

    @Test
    void aReplicaStoppedGracefullyInAPacedReconcilesPauseHandsItOverAtOnceInsteadOfAfterItsLease() throws Exception {
        // 20 copies a page at 1 a second: a 20 s pause after each page, far past the stop's hand-over wait (5 s); a
        // stop that waited the pause out would leave the job on a closed client, held for the 60 s lease. The stop
        // begins 5 s after SIGTERM (the app's shutdown delay), so the first checkpoint must be seen within about 15 s
        // of the run's start (it is within a second or two) for the stop to come inside the first pause.
        String[] settings = {"-Dcairn.jobs.lease=60s", "-Dcairn.reconcile.page-size=20"};
        PackagedApp first = startApp(settings);
        PackagedApp second = startApp(settings);
        String team = "t-" + k;
        String player = "p-" + k;
        int copies = 40;
        team(first, team, "Australia");
        player(first, player);
        selections(first, team, player, copies);
        Answer started = send(first, "POST", "/maintenance/reconcile", "application/json",
                "{\"entity\":\"player\",\"id\":\"" + player + "\",\"rate\":1}");
        assertThat(started.status()).as(started.raw().body()).isEqualTo(202);
        String job = URI.create(started.header("Location")).getPath();
        waitFor("the reconcile has checkpointed its first page", Duration.ofSeconds(30), () -> pagesAtLeast(first, job, 1));
        String owner = jobItem(idOf(job)).get("_lease").s();
        long stopped = System.nanoTime();
        first.process().destroy(); // SIGTERM, inside the first page's pause
        assertThat(first.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(read(first.log())).contains("reconcile " + idOf(job) + " handed over after 1 page(s)");
        assertThat(heldAfterItsStop(idOf(job), owner)).as("the stopped replica holds the reconcile past its stop").isFalse();
        waitFor("the other replica takes the reconcile over long before the lease would have expired",
                Duration.ofSeconds(30), () -> read(second.log()).contains("took over reconcile job " + idOf(job)));
        System.out.printf("reconcile handed over in its pause: the other replica took it %d ms after SIGTERM (lease 60 s)%n",
                (System.nanoTime() - stopped) / 1_000_000);
        waitFor("the job reads done", Duration.ofSeconds(90), () -> "done".equals(jobField(second, job, "state")));
        assertThat(jobField(second, job, "checked")).as("40 copies checked in all: the first page not counted twice")
                .isEqualTo(copies);
    }

    static String idOf(String jobPath) {
        return jobPath.substring(jobPath.lastIndexOf('/') + 1);
    }

    Map<String, AttributeValue> jobItem(String id) {
        return item("JOB#" + id, "JOB");
    }

    /** Whether {@code owner} still holds the job a second past now (a lease it did not give up at its stop). */
    boolean heldAfterItsStop(String id, String owner) {
        var job = jobItem(id);
        // a job another replica finished meanwhile has no lease left at all
        AttributeValue lease = job == null ? null : job.get("_lease");
        return lease != null && owner.equals(lease.s())
                && Long.parseLong(job.get("_leaseUntil").n()) > System.currentTimeMillis() + 1000;
    }

    @Test
    void twoProcessesRunManyCascadesAndNoJobIsLostWhenOneIsKilled() throws Exception {
        PackagedApp a = startApp();
        PackagedApp b = startApp();
        String team = "t-" + k;
        team(a, team, "India");
        int players = 10;
        int each = 60;
        List<String> ids = IntStream.range(0, players).mapToObj(i -> "p" + i + "-" + k).toList();
        for (String id : ids) {
            player(a, id);
            selections(a, team, id, each);
        }
        proxy.inject(FaultProxy.Fault.DELAY, 5);
        var jobs = new ArrayList<CompletableFuture<String>>();
        for (int i = 0; i < players; i++) {
            PackagedApp app = i % 2 == 0 ? a : b;
            String id = ids.get(i);
            jobs.add(CompletableFuture.supplyAsync(() -> {
                try {
                    Answer answer = send(app, "PATCH", "/players/" + id, "application/merge-patch+json", "{\"firstName\":\"New\"}");
                    assertThat(answer.status()).isIn(200, 202);
                    return (String) answer.body().get("job");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, POOL));
        }
        List<String> jobIds = jobs.stream().map(CompletableFuture::join).toList();
        assertThat(jobIds).doesNotContainNull().doesNotHaveDuplicates();
        kill(a);
        proxy.clear();
        for (int i = 0; i < players; i++) {
            String id = ids.get(i);
            waitFor("the copies of " + id + " converge", Duration.ofSeconds(60), () -> copiesNamed(id, "New") == each);
        }
        for (String job : jobIds) {
            waitFor("job " + job + " is done", Duration.ofSeconds(30), () -> "done".equals(jobField(b, "/cascades/" + job, "state")));
            assertThat(get(b, "/cascades/" + job).body()).containsEntry("failed", 0);
        }
        Answer running = get(b, "/cascades?state=running&limit=100");
        assertThat(running.status()).isEqualTo(200);
        @SuppressWarnings("unchecked")
        var left = ((List<Map<String, Object>>) running.body().get("items")).stream().map(j -> j.get("id")).toList();
        assertThat(left).as("no job of this test is left running").doesNotContainAnyElementsOf(jobIds);
    }

    // --- aggregates -----------------------------------------------------------------------------------------------

    /** Two sheets of 95 players: the match needs several transactions. */
    String match(PackagedApp app, String id, boolean reversed) {
        return "{\"id\":\"" + id + "\",\"name\":\"Test\",\"venueId\":\"v-" + k + "\","
                + "\"team1\":" + sheet("t1-" + k, "c1-" + k, true, 0, reversed) + ","
                + "\"team2\":" + sheet("t2-" + k, "c2-" + k, false, 95, reversed) + "}";
    }

    String sheet(String team, String coach, boolean home, int from, boolean reversed) {
        var players = new StringBuilder();
        for (int i = 0; i < 95; i++) {
            players.append(i > 0 ? "," : "").append("{\"playerId\":\"p").append(from + i).append('-').append(k)
                    .append("\",\"battingPosition\":").append(reversed ? 95 - i : i + 1)
                    .append(",\"isCaptain\":").append(i == 0).append('}');
        }
        return "{\"teamId\":\"" + team + "\",\"coachId\":\"" + coach + "\",\"homeTeam\":" + home + ",\"players\":[" + players + "]}";
    }

    void matchFixtures(PackagedApp app) throws Exception {
        team(app, "t1-" + k, "Australia");
        team(app, "t2-" + k, "India");
        created(app, "/coaches", "{\"id\":\"c1-" + k + "\",\"name\":\"A\"}");
        created(app, "/coaches", "{\"id\":\"c2-" + k + "\",\"name\":\"B\"}");
        created(app, "/venues", "{\"id\":\"v-" + k + "\",\"name\":\"MCG\",\"city\":\"Melbourne\"}");
        createdAll(app, "/players", IntStream.range(0, 190).mapToObj(i -> "{\"id\":\"p" + i + "-" + k
                + "\",\"firstName\":\"F" + i + "\",\"lastName\":\"L\",\"role\":\"batter\"}").toList());
    }

    /** Sends a write without waiting, and kills the app as soon as the write has begun (its marks on the root). */
    void killMidWrite(PackagedApp app, String method, String id, String body) throws Exception {
        proxy.inject(FaultProxy.Fault.DELAY, 400); // every DynamoDB answer is late: the write's steps are far apart
        CompletableFuture.runAsync(() -> {
            try {
                send(app, method, method.equals("POST") ? "/matches" : "/matches/" + id, "application/json", body);
            } catch (Exception e) {
                // the process is killed under it
            }
        }, POOL);
        waitFor("the write has begun", Duration.ofSeconds(30), () -> {
            var root = item("MATCH#" + id, "MATCH");
            return root != null && root.containsKey("_txn");
        });
        kill(app);
        proxy.clear();
        var root = item("MATCH#" + id, "MATCH");
        assertThat(root).as("killed between transactions: the write never committed").containsKey("_txn");
        assertThat(item("JOB#" + root.get("_txn").s(), "JOB")).as("its intent is recorded").isNotNull();
    }

    boolean settled(String id) {
        return partition("MATCH#" + id).stream().noneMatch(i -> i.containsKey("_txn") || i.get("sk").s().startsWith("~UNDO#"));
    }

    @Test
    void aDeleteKilledBetweenItsMarkAndItsDeleteLeavesTheEntityWhichIsUsableAgainOnceTheMarkExpires() throws Exception {
        PackagedApp first = startApp();
        String team = "t-" + k;
        String player = "p-" + k;
        team(first, team, "T");
        player(first, player);
        proxy.inject(FaultProxy.Fault.DELAY, 1500); // every DynamoDB answer is late: the delete's steps are far apart
        CompletableFuture.runAsync(() -> {
            try {
                send(first, "DELETE", "/players/" + player, null, null);
            } catch (Exception e) {
                // the process is killed under it
            }
        }, POOL);
        waitFor("the delete has marked the player", Duration.ofSeconds(30),
                () -> item("PLAYER#" + player, "PLAYER") != null && item("PLAYER#" + player, "PLAYER").containsKey("_deleting"));
        kill(first);
        proxy.clear();
        assertThat(item("PLAYER#" + player, "PLAYER")).as("killed between its steps: marked, not deleted").isNotNull();

        PackagedApp second = startApp();
        String selection = "{\"selectionNumber\":1,\"teamId\":\"" + team + "\",\"playerId\":\"" + player
                + "\",\"squadRole\":\"batter\",\"isCaptain\":false}";
        var statuses = new java.util.TreeSet<Integer>();
        waitFor("the mark expires and the player can be embedded again", Duration.ofSeconds(30), () -> {
            try {
                int status = send(second, "POST", "/squads/sq-" + k + "/selections", "application/json", selection).status();
                statuses.add(status);
                return status == 201;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(statuses).as("refused as gone while the mark held, then accepted").isSubsetOf(422, 201);
        assertThat(get(second, "/players/" + player).status()).as("the entity was never deleted").isEqualTo(200);
        assertThat(get(second, "/squads/sq-" + k + "/selections/1").raw().body()).contains(player);
    }

    @Test
    void aMatchCreateKilledBetweenTransactionsIsGoneAfterRestartAndCanBeCreatedAgain() throws Exception {
        PackagedApp first = startApp();
        matchFixtures(first);
        String id = "m-" + k;
        killMidWrite(first, "POST", id, match(first, id, false));
        String txn = item("MATCH#" + id, "MATCH").get("_txn").s();

        PackagedApp second = startApp();
        var statuses = new java.util.TreeSet<Integer>();
        waitFor("the interrupted create is undone by the worker", Duration.ofSeconds(LEASE.toSeconds() + 20), () -> {
            try {
                statuses.add(get(second, "/matches/" + id).status());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return partition("MATCH#" + id).isEmpty();
        });
        assertThat(statuses).as("an uncommitted create reads as absent, never busy").containsOnly(404);
        assertThat(item("JOB#" + txn, "JOB")).as("its intent is gone").isNull();
        assertThat(read(second.log())).contains("undoing the interrupted create of Match " + id);

        Answer again = send(second, "POST", "/matches", "application/json", match(second, id, false));
        assertThat(again.status()).as(again.raw().body()).isEqualTo(201);
        Answer read = get(second, "/matches/" + id);
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.header("ETag")).isEqualTo("\"1\"");
        assertThat(partition("MATCH#" + id)).hasSize(1 + 1 + 2 * (1 + 1 + 95));
    }

    @Test
    void aMatchUpdateKilledBetweenTransactionsReadsAsTheOldMatchAndIsUndoneWithoutAClient() throws Exception {
        PackagedApp first = startApp();
        matchFixtures(first);
        String id = "m-" + k;
        created(first, "/matches", match(first, id, false));
        killMidWrite(first, "PUT", id, match(first, id, true));

        PackagedApp second = startApp();
        var etags = new java.util.TreeSet<String>();
        waitFor("the interrupted update is undone by the worker", Duration.ofSeconds(LEASE.toSeconds() + 20), () -> {
            try {
                Answer read = get(second, "/matches/" + id);
                assertThat(read.status()).as("readers never wait nor fail: " + read.raw().body()).isEqualTo(200);
                etags.add(read.header("ETag"));
                @SuppressWarnings("unchecked")
                var sheet = (Map<String, Object>) read.body().get("team1");
                @SuppressWarnings("unchecked")
                var players = (List<Map<String, Object>>) sheet.get("players");
                assertThat(players).hasSize(95);
                assertThat(players).extracting(p -> p.get("battingPosition")).as("the old generation, whole")
                        .isEqualTo(IntStream.rangeClosed(1, 95).boxed().toList());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return settled(id);
        });
        assertThat(etags).containsOnly("\"1\"");
        assertThat(read(second.log())).contains("undoing the interrupted update of Match " + id);

        Answer again = send(second, "PUT", "/matches/" + id, "application/json", match(second, id, true));
        assertThat(again.status()).as(again.raw().body()).isEqualTo(200);
        assertThat(again.header("ETag")).isEqualTo("\"2\"");
        // After the commit the undo log is garbage: it is deleted right after the answer.
        waitFor("the undo log of the committed update is deleted", Duration.ofSeconds(10), () -> settled(id));
    }

    // --- the list backfill ------------------------------------------------------------------------------------------

    /** Match roots listed on the list of all matches (its four shards on gsi1), read directly. */
    long listedMatches() {
        long listed = 0;
        for (int shard = 0; shard < 4; shard++) {
            listed += queryAll(QueryRequest.builder().tableName("cairn").indexName("gsi1").keyConditionExpression("gsi1pk = :pk")
                    .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS("MATCHES#ALL#0" + shard))))
                    .stream().filter(i -> i.get("pk").s().contains("-bf-" + k)).count();
        }
        return listed;
    }

    /** 480 matches stored as an older release stored them (roots without list keys or summary). */
    int unlistedMatches(PackagedApp first) throws Exception {
        team(first, "t1-" + k, "Australia");
        team(first, "t2-" + k, "India");
        created(first, "/coaches", "{\"id\":\"c1-" + k + "\",\"name\":\"A\"}");
        created(first, "/coaches", "{\"id\":\"c2-" + k + "\",\"name\":\"B\"}");
        created(first, "/venues", "{\"id\":\"v-" + k + "\",\"name\":\"MCG\",\"city\":\"Melbourne\"}");
        int matches = 480; // about 2,900 items: 6 Scan pages of 500
        List<String> ids = IntStream.range(0, matches).mapToObj(i -> "m" + i + "-bf-" + k).toList();
        createdAll(first, "/matches", ids.stream().map(id -> "{\"id\":\"" + id + "\",\"name\":\"M\",\"venueId\":\"v-" + k
                + "\",\"team1\":{\"teamId\":\"t1-" + k + "\",\"coachId\":\"c1-" + k + "\",\"homeTeam\":true,\"players\":[]},"
                + "\"team2\":{\"teamId\":\"t2-" + k + "\",\"coachId\":\"c2-" + k + "\",\"homeTeam\":false,\"players\":[]}}").toList());
        // As an older release stored them: roots without list keys or summary.
        for (String id : ids) {
            direct.updateItem(b -> b.tableName("cairn")
                    .key(Map.of("pk", AttributeValue.fromS("MATCH#" + id), "sk", AttributeValue.fromS("MATCH")))
                    .updateExpression("REMOVE gsi1pk, gsi1sk, gsi2pk, gsi2sk, gsi3pk, gsi3sk, gsi4pk, gsi4sk, #a, #b, #c, #d, #e, #f, #g")
                    .expressionAttributeNames(Map.of("#a", "_s_name", "#b", "_s_venueId", "#c", "_s_venueName", "#d", "_s_team1Id",
                            "#e", "_s_team1Name", "#f", "_s_team2Id", "#g", "_s_team2Name"))).join();
        }
        assertThat(listedMatches()).isZero();
        return matches;
    }


    /** Starts the backfill with DynamoDB slowed (a page takes about a second): the job's path. */
    String slowBackfill(PackagedApp app) throws Exception {
        proxy.inject(FaultProxy.Fault.DELAY, 20);
        Answer started = send(app, "POST", "/maintenance/aggregates/Match/list-backfills", "application/json", "");
        assertThat(started.status()).as(started.raw().body()).isEqualTo(202);
        return URI.create(started.header("Location")).getPath();
    }

    @Test
    void aListBackfillKilledMidwayIsFinishedByTheNextProcessWithoutAnyClientRequest() throws Exception {
        PackagedApp first = startApp();
        int matches = unlistedMatches(first);
        String job = slowBackfill(first);
        waitFor("the backfill has checkpointed a page", Duration.ofSeconds(60), () -> pagesAtLeast(first, job, 1));
        kill(first);
        long listed = listedMatches();
        assertThat(listed).as("killed mid-backfill: some matches listed, some not").isBetween(1L, (long) matches - 1);
        System.out.printf("list backfill killed with %d of %d matches listed%n", listed, matches);

        proxy.clear();
        long restarted = System.nanoTime();
        PackagedApp second = startApp();
        // Nothing is started again: the second process's worker finds the job once its lease expires and resumes it.
        waitFor("every match is listed", Duration.ofSeconds(60), () -> listedMatches() == matches);
        waitFor("the job is done", Duration.ofSeconds(30), () -> "done".equals(jobField(second, job, "state")));
        System.out.printf("every match listed %d ms after the second process was started (lease %d s)%n",
                Duration.ofNanos(System.nanoTime() - restarted).toMillis(), LEASE.toSeconds());
        Answer page = get(second, "/teams/t1-" + k + "/matches?limit=100");
        assertThat(page.status()).isEqualTo(200);
        assertThat((List<?>) page.body().get("items")).hasSize(100);
        assertThat(read(second.log())).contains("took over list-backfill job");
    }

    @Test
    void aReplicaStoppedGracefullyHandsItsBackfillOverAtOnceInsteadOfAfterItsLease() throws Exception {
        String[] longLease = {"-Dcairn.jobs.lease=60s", "-Dquarkus.shutdown.delay-enabled=false"};
        PackagedApp first = startApp(longLease);
        PackagedApp second = startApp(longLease);
        int matches = unlistedMatches(first);
        String job = slowBackfill(first);
        waitFor("the backfill has checkpointed a page", Duration.ofSeconds(60), () -> pagesAtLeast(first, job, 1));
        String owner = jobItem(idOf(job)).get("_lease").s();
        long stopped = System.nanoTime();
        first.process().destroy(); // SIGTERM: a rollout, a scale-down
        assertThat(first.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(listedMatches()).as("stopped mid-backfill; its log:%n%s", read(first.log())).isLessThan(matches);
        assertThat(read(first.log())).contains("handed over");
        assertThat(heldAfterItsStop(idOf(job), owner)).as("the stopped replica holds the backfill past its stop").isFalse();
        proxy.clear();
        waitFor("every match is listed long before the lease would have expired", Duration.ofSeconds(30),
                () -> listedMatches() == matches);
        System.out.printf("backfill handed over: every match listed %d ms after SIGTERM (lease 60 s)%n",
                (System.nanoTime() - stopped) / 1_000_000);
        waitFor("the job reads done", Duration.ofSeconds(10), () -> "done".equals(jobField(second, job, "state")));
        assertThat(read(second.log())).contains("took over list-backfill job");
    }
}
