package dev.cairn.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.core.TableSpec;
import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.aggregate.AggregateNode;
import dev.cairn.core.aggregate.CopyVersions;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.key.OrderedNumber;
import dev.cairn.platform.EmbeddedDynamoDb;
import dev.cairn.store.AggregateStore;
import dev.cairn.store.DynamoGateway;
import dev.cairn.store.EntityStore;
import dev.cairn.store.JobSettings;
import dev.cairn.store.Leases;
import dev.cairn.store.StoreMetrics;
import dev.cairn.store.StoreSettings;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cairn side by side with the raw SDK, interleaved in one run against one DynamoDB Local and one data set:
 * {@code ./mvnw -Pbench verify -Dbench.scenarios=all}. Writes its raw tables to target/bench/results.md and its
 * report (settings, machine, ratios, charts, data) to target/bench/report/; see {@link Report} for publishing it.
 */
class CairnBench {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String TABLE = "cairn";
    /** Interleaved rounds per implementation and concurrency ({@code -Dbench.rounds}, 2 unless told). */
    static final int ROUNDS = Integer.getInteger("bench.rounds", 2);

    final Duration warmup = Duration.ofSeconds(Long.getLong("bench.warmup", 2));
    /**
     * An unmeasured load of each contender before a GET route's first round ({@code -Dbench.prewarm} seconds at the
     * highest concurrency, 0: none), so that the JIT compilers have settled before anything is measured: a run's
     * first windows otherwise carry C2 compilations in the process' CPU.
     */
    final Duration prewarm = Duration.ofSeconds(Long.getLong("bench.prewarm", 0));
    final Duration duration = Duration.ofSeconds(Long.getLong("bench.duration", 5));
    /**
     * The measured window of the large match create ({@code -Dbench.duration.large} seconds, six windows of the others
     * unless told): a request takes 0.3 s at one connection and seconds at 16, so a 5 s window holds a handful of them
     * and one collection or retry decides its CPU per request.
     */
    final Duration largeDuration = Duration.ofSeconds(Long.getLong("bench.duration.large", 6 * duration.toSeconds()));
    final List<Integer> concurrencies = parse(System.getProperty("bench.concurrency", "1,16"));
    final Set<String> scenarios = Set.of(System.getProperty("bench.scenarios", "all").split(","));
    final StringBuilder report = new StringBuilder();
    /** What the report and its charts are drawn from. */
    final RunData.Builder data = new RunData.Builder();
    /**
     * HTTP/1.1 unless {@code -Dbench.http=2}: left to itself the JDK client upgrades to cleartext HTTP/2 and
     * multiplexes every worker over ONE connection, which the server then handles on one event loop — not what
     * 16 concurrent clients look like.
     */
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .version("2".equals(System.getProperty("bench.http", "1.1")) ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1)
            .build();

    AppProcess app;
    /** The hand-written service answering the GET routes (baseline.HandWritten), started with the GET scenarios. */
    AppProcess hand;
    /**
     * The quarkus-rest baseline (src/bench/baseline-rest, built by the bench profile): a plain Quarkus REST service
     * with the extension's default client, one resource per GET route, started with the GET scenarios.
     */
    AppProcess rest;
    /**
     * Another build of Cairn ({@code -Dbench.other=<its target/quarkus-app>}, e.g. the commit before a change),
     * measured in the same interleaved rounds as this one on every GET route: a regression check side by side.
     */
    AppProcess other;
    DynamoDbAsyncClient raw;

    @Test
    void benchmark() throws Exception {
        String render = System.getProperty("bench.render", "");
        if (!render.isBlank()) {
            // Nothing measured: a published run's report and charts drawn again from its data.json.
            Report.render(Path.of(render));
            return;
        }
        Files.createDirectories(Path.of("target/bench"));
        // Every process the run started ends with it, whatever stops it (the controls start nine).
        Runtime.getRuntime().addShutdownHook(new Thread(() -> ProcessHandle.current().descendants()
                .forEach(ProcessHandle::destroyForcibly)));
        Files.deleteIfExists(WINDOWS);
        Files.deleteIfExists(THREADS);
        if (Files.isDirectory(PROFILES)) {
            try (var stale = Files.list(PROFILES)) {
                for (Path file : stale.toList()) {
                    Files.delete(file);
                }
            }
        }
        String otherBuild = System.getProperty("bench.other", "");
        boolean publish = Boolean.getBoolean("bench.publish");
        // Read before anything runs: the tree as it was measured.
        RunInfo info = RunInfo.collect(List.of(System.getProperty("bench.scenarios", "all").split(",")), warmup.toSeconds(),
                duration.toSeconds(), concurrencies, ROUNDS, System.getProperty("bench.http", "1.1"), Boolean.getBoolean("bench.jfr"),
                otherBuild.isBlank() ? null : checkoutName(Path.of(otherBuild)), Long.getLong("bench.soak", 120), publish, prewarm.toSeconds());
        String failure = null;
        try (EmbeddedDynamoDb dynamo = EmbeddedDynamoDb.start(0, null)) {
            app = AppProcess.start(dynamo.endpoint());
            raw = DynamoDbAsyncClient.builder().endpointOverride(URI.create(dynamo.endpoint())).region(Region.US_EAST_1)
                    .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                    .httpClientBuilder(NettyNioAsyncHttpClient.builder().maxConcurrency(64))
                    .overrideConfiguration(ClientOverrideConfiguration.builder().apiCallTimeout(Duration.ofSeconds(10)).build())
                    .build();
            try {
                double idleRss = app.rssMb();
                header(idleRss);
                setUpReferences();
                if (enabled("get") || enabled("lists")) {
                    startHandWritten(dynamo.endpoint());
                    startQuarkusRest(dynamo.endpoint());
                }
                if ((enabled("get") || enabled("lists") || enabled("copywrites") || enabled(SchoolBuilds.SCENARIO)
                        || enabled(SocialBuilds.SCENARIO)) && !otherBuild.isBlank()) {
                    startOther(dynamo.endpoint(), Path.of(otherBuild));
                }
                if (enabled("get")) getMatch();
                if (enabled("post")) postMatch();
                if (enabled("patch")) captainChange();
                if (enabled("lists")) lists();
                if (enabled("copywrites")) copyWrites();
                if (enabled(SchoolBuilds.SCENARIO)) new SchoolBuilds(this).run();
                if (enabled(SocialBuilds.SCENARIO)) new SocialBuilds(this).run();
                if (enabled(FeatureWrites.SCENARIO)) new FeatureWrites(this, dynamo).run();
                if (enabled(Controls.SCENARIO)) new Controls(this, dynamo.endpoint()).run();
                if (enabled("reconcile")) reconcile();
                if (enabled("cascade")) cascade(dynamo.endpoint());
                if (enabled("scaling")) scaling();
                if (enabled("sharding")) sharding();
                if (enabled("auth")) auth(dynamo.endpoint());
                if (enabled("startup")) startup(dynamo.endpoint());
                if (scenarios.contains("soak")) soak();
                if (!settled.isEmpty()) {
                    report.append("\nUnmeasured load before each route's first round, until the JIT compilers took at most a tenth"
                            + " of the process' CPU (at least ").append(prewarm.toSeconds()).append(" s):\n");
                    settled.forEach((name, routes) -> report.append("- ").append(name).append(": ").append(routes).append('\n'));
                }
                report.append("\nApp RSS after the run: ").append(String.format(Locale.ROOT, "%.0f MB", app.rssMb())).append('\n');
            } catch (Exception | AssertionError e) {
                failure = e.getClass().getSimpleName() + ": " + e.getMessage();
                throw e;
            } finally {
                // What was measured is kept even when a later scenario fails (the report then says it is incomplete).
                Files.writeString(Path.of("target/bench/results.md"), TITLE + report);
                raw.close();
                app.close();
                if (hand != null) {
                    hand.close();
                }
                if (rest != null) {
                    rest.close();
                }
                if (other != null) {
                    other.close();
                }
                Report.write(data.build(info, report.toString(), failure), Report.OUT);
            }
        }
        String text = report.toString();
        System.out.println(TITLE + text);
        System.out.println("Report: " + Report.OUT.resolve("report.md"));
        assertThat(text).contains("###");
        if (publish) {
            System.out.println("Published: " + Report.publish(info).resolve("report.md"));
        }
    }

    static final String TITLE = "## Cairn benchmark\n\n";

    /** A checkout named by its directory (…/&lt;checkout&gt;/target/quarkus-app), never by a path on this machine. */
    static String checkoutName(Path quarkusApp) {
        Path checkout = quarkusApp.toAbsolutePath().normalize().getParent().getParent();
        return checkout == null || checkout.getFileName() == null ? "?" : checkout.getFileName().toString();
    }

    // --- reference data ----------------------------------------------------------------------------------

    static final int SHEET = 15;
    final List<String> players = new ArrayList<>();

    void setUpReferences() throws Exception {
        post("/teams", "{\"id\":\"aus\",\"name\":\"Australia\",\"country\":\"Australia\",\"ranking\":1}");
        post("/teams", "{\"id\":\"ind\",\"name\":\"India\",\"country\":\"India\",\"ranking\":2}");
        post("/coaches", "{\"id\":\"mcdonald\",\"name\":\"Andrew McDonald\"}");
        post("/coaches", "{\"id\":\"gambhir\",\"name\":\"Gautam Gambhir\"}");
        post("/venues", "{\"id\":\"mcg\",\"name\":\"Melbourne Cricket Ground\",\"city\":\"Melbourne\"}");
        for (int i = 0; i < 2 * SHEET; i++) {
            String id = "player-" + i;
            post("/players", "{\"id\":\"" + id + "\",\"firstName\":\"First" + i + "\",\"lastName\":\"Last" + i + "\",\"role\":\"batter\"}");
            players.add(id);
        }
    }

    String matchJson(String id) {
        return "{\"id\":\"" + id + "\",\"name\":\"AUS vs IND\",\"venueId\":\"mcg\",\"team1\":" + sheet("aus", "mcdonald", true, 0)
                + ",\"team2\":" + sheet("ind", "gambhir", false, SHEET) + "}";
    }

    String sheet(String team, String coach, boolean home, int from) {
        var p = new StringBuilder();
        for (int i = 0; i < SHEET; i++) {
            p.append(i == 0 ? "" : ",").append("{\"playerId\":\"").append(players.get(from + i))
                    .append("\",\"battingPosition\":").append(i + 1).append(",\"isCaptain\":").append(i == 0).append('}');
        }
        return "{\"teamId\":\"" + team + "\",\"coachId\":\"" + coach + "\",\"homeTeam\":" + home + ",\"players\":[" + p + "]}";
    }

    // --- scenarios ---------------------------------------------------------------------------------------

    void getMatch() throws Exception {
        post("/matches", matchJson("bench-get"));
        QueryRequest query = endpointQuery("GET /matches/{id}", "MATCH#bench-get");
        compareGet("get", "GET /matches/{id}", "GET /matches/{id} (2 × 15 players) vs hand-written and raw Query", "/matches/bench-get",
                w -> queryAll(query));
    }

    void postMatch() throws Exception {
        List<Map<String, AttributeValue>> template = queryAllItems("MATCH#bench-get");
        if (template.isEmpty()) {
            post("/matches", matchJson("bench-get"));
            template = queryAllItems("MATCH#bench-get");
        }
        List<Map<String, AttributeValue>> items = template;
        var counter = new AtomicInteger();
        var keys = new ArrayList<Map<String, AttributeValue>>();
        keys.add(key("TEAM#aus", "TEAM"));
        keys.add(key("TEAM#ind", "TEAM"));
        keys.add(key("COACH#mcdonald", "COACH"));
        keys.add(key("COACH#gambhir", "COACH"));
        keys.add(key("VENUE#mcg", "VENUE"));
        players.forEach(p -> keys.add(key("PLAYER#" + p, "PLAYER")));
        compare("post", "POST /matches", "POST /matches vs raw BatchGetItem + TransactWriteItems",
                w -> post("/matches", matchJson("post-" + counter.incrementAndGet())),
                w -> {
                    raw.batchGetItem(BatchGetItemRequest.builder().requestItems(Map.of(TABLE,
                            KeysAndAttributes.builder().keys(keys).consistentRead(true).build())).build()).join();
                    String pk = "MATCH#raw-" + counter.incrementAndGet();
                    var writes = new ArrayList<TransactWriteItem>();
                    for (var item : items) {
                        var copy = new HashMap<>(item);
                        copy.put("pk", s(pk));
                        boolean root = item.get("sk").s().equals("MATCH");
                        writes.add(TransactWriteItem.builder().put(Put.builder().tableName(TABLE).item(copy)
                                .conditionExpression(root ? "attribute_not_exists(pk)" : null).build()).build());
                    }
                    raw.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(writes).build()).join();
                    return 2;
                });
    }

    void captainChange() throws Exception {
        int maxWorkers = concurrencies.stream().mapToInt(Integer::intValue).max().orElse(1);
        for (int w = 0; w < maxWorkers; w++) {
            post("/matches", matchJson("cap-" + w));
            post("/matches", matchJson("capraw-" + w));
        }
        var flips = new ConcurrentHashMap<Integer, Boolean>();
        compare("patch", "PATCH /matches/{id}", "captain change: PATCH (JSON Patch) vs raw Query + TransactWriteItems",
                w -> {
                    boolean first = flips.merge(w, true, (a, b) -> !a);
                    String patch = "[{\"op\":\"replace\",\"path\":\"/team1/players/0/isCaptain\",\"value\":" + first + "},"
                            + "{\"op\":\"replace\",\"path\":\"/team1/players/1/isCaptain\",\"value\":" + !first + "}]";
                    return send(HttpRequest.newBuilder(URI.create(app.base() + "/matches/cap-" + w))
                            .method("PATCH", HttpRequest.BodyPublishers.ofString(patch))
                            .header("Content-Type", "application/json-patch+json").build(), 200);
                },
                w -> {
                    String pk = "MATCH#capraw-" + w;
                    List<Map<String, AttributeValue>> items = queryAllItems(pk);
                    var root = items.stream().filter(i -> i.get("sk").s().equals("MATCH")).findFirst().orElseThrow();
                    var sheetPlayers = items.stream().filter(i -> i.get("sk").s().startsWith("TEAM#1#PLAYER#"))
                            .sorted((a, b) -> a.get("_pos").n().compareTo(b.get("_pos").n())).toList();
                    var writes = new ArrayList<TransactWriteItem>();
                    writes.add(TransactWriteItem.builder().update(Update.builder().tableName(TABLE).key(key(pk, "MATCH"))
                            .updateExpression("SET #v = #v + :one").conditionExpression("#v = :expected")
                            .expressionAttributeNames(Map.of("#v", "_version"))
                            .expressionAttributeValues(Map.of(":one", n("1"), ":expected", root.get("_version"))).build()).build());
                    for (int i = 0; i < 2; i++) {
                        var item = new HashMap<>(sheetPlayers.get(i));
                        item.put("isCaptain", AttributeValue.fromBool(!item.get("isCaptain").bool()));
                        writes.add(TransactWriteItem.builder().put(Put.builder().tableName(TABLE).item(item).build()).build());
                    }
                    raw.transactWriteItems(TransactWriteItemsRequest.builder().transactItems(writes).build()).join();
                    return 2;
                });
    }

    void lists() throws Exception {
        post("/workspaces", "{\"id\":\"bench\",\"displayName\":\"Bench\",\"region\":\"eu-west-1\",\"seatLimit\":10}");
        for (int i = 0; i < 50; i++) {
            post("/workspaces/bench/projects", "{\"title\":\"Project " + i + "\",\"status\":\"ACTIVE\",\"createdBy\":\"bench\"}");
        }
        QueryRequest projects = QueryRequest.builder().tableName(TABLE)
                .keyConditionExpression("#pk = :pk AND #sk <= :sk").expressionAttributeNames(Map.of("#pk", "pk", "#sk", "sk"))
                .expressionAttributeValues(Map.of(":pk", s("WS#bench"), ":sk", s("WORKSPACE")))
                .scanIndexForward(false).limit(21).consistentRead(true).build();
        compareGet("lists", "GET /workspaces/{id}/projects", "GET /workspaces/{id}/projects (20 per page) vs hand-written and raw Query",
                "/workspaces/bench/projects",
                w -> {
                    raw.query(projects).join();
                    return 1;
                });
        post("/courses", "{\"id\":\"bench101\",\"title\":\"Benchmarks\",\"credits\":5,\"term\":\"t\"}");
        for (int i = 0; i < 30; i++) {
            post("/students", "{\"id\":\"s" + i + "\",\"name\":\"Student " + i + "\",\"year\":1,\"major\":\"CS\"}");
            send(HttpRequest.newBuilder(URI.create(app.base() + "/students/s" + i + "/enrollments/bench101"))
                    .PUT(HttpRequest.BodyPublishers.ofString("{}")).header("Content-Type", "application/json").build(), 201);
        }
        QueryRequest roster = QueryRequest.builder().tableName(TABLE).indexName("gsi1")
                .keyConditionExpression("#pk = :pk AND begins_with(#sk, :p)")
                .expressionAttributeNames(Map.of("#pk", "gsi1pk", "#sk", "gsi1sk"))
                .expressionAttributeValues(Map.of(":pk", s("CRS#bench101"), ":p", s("STU#"))).limit(20).build();
        compareGet("lists", "GET /courses/{id}/students", "GET /courses/{id}/students vs hand-written and raw Query (gsi1)",
                "/courses/bench101/students",
                w -> {
                    raw.query(roster).join();
                    return 1;
                });
    }

    // --- copy writes: this build beside the other build --------------------------------------------------

    /** Players of the 60 + 60 match (its own pool: a match names a player once). */
    static final int LARGE_SHEET = 60;

    /**
     * Every route that writes copies of other entities (a selection embeds its team and player, a match its venue,
     * teams and players), this build beside the other build ({@code -Dbench.other}) in the same interleaved rounds:
     * what a change to the copy-writing path costs — calls, consumed capacity, p50, throughput. Both apps read the
     * same reference data (made here, before either writes); each writes its own selections and matches, ids unique
     * per request, so no create collides with an earlier one or with the other app's.
     */
    void copyWrites() throws Exception {
        if (other == null) {
            if (scenarios.contains("copywrites")) {
                throw new IllegalStateException("the copywrites scenario compares two builds: give -Dbench.other=<checkout>/target/quarkus-app");
            }
            report.append("\nCopy writes skipped: no other build (-Dbench.other) to compare with.\n");
            return;
        }
        int maxWorkers = concurrencies.stream().mapToInt(Integer::intValue).max().orElse(1);
        for (int w = 0; w < maxWorkers; w++) {
            post("/players", "{\"id\":\"spare-" + w + "\",\"firstName\":\"Spare\",\"lastName\":\"S" + w + "\",\"role\":\"bowler\"}");
        }
        var large = new ArrayList<String>();
        for (int i = 0; i < 2 * LARGE_SHEET; i++) {
            String id = "large-" + i;
            post("/players", "{\"id\":\"" + id + "\",\"firstName\":\"Large" + i + "\",\"lastName\":\"L" + i + "\",\"role\":\"all-rounder\"}");
            large.add(id);
        }
        // What each app changes under load: per worker one selection and one match of its own.
        Map<AppProcess, String> tags = Map.of(app, "cw-this", other, "cw-other");
        for (var build : tags.entrySet()) {
            for (int w = 0; w < maxWorkers; w++) {
                sendMetered(postTo(build.getKey(), "/squads/" + build.getValue() + "-squad-" + w + "/selections",
                        selectionJson(1, players.get(1))), 201);
                sendMetered(postTo(build.getKey(), "/matches", matchJson(build.getValue() + "-match-" + w)), 201);
            }
        }
        var counter = new AtomicInteger();
        var flips = new ConcurrentHashMap<String, Boolean>();
        compareBuilds("POST /squads/{id}/selections", "selection create (copies of a team and a player)",
                (target, tag) -> w -> sendMetered(postTo(target, "/squads/" + tag + "-new-" + counter.incrementAndGet() + "/selections",
                        selectionJson(1, players.get(w % players.size()))), 201));
        compareBuilds("PATCH /squads/{id}/selections/{n}", "selection PATCH of playerId (a new player copy)",
                (target, tag) -> w -> {
                    boolean flip = flips.merge(tag + "-sel-" + w, true, (a, b) -> !a);
                    return sendMetered(HttpRequest.newBuilder(URI.create(target.base() + "/squads/" + tag + "-squad-" + w + "/selections/1"))
                            .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"playerId\":\"" + players.get(flip ? 2 : 1) + "\"}"))
                            .header("Content-Type", "application/merge-patch+json").build(), 200);
                });
        compareBuilds("POST /matches", "match create, 2 × 15 players (copies of a venue, 2 teams, 2 coaches, 30 players)",
                (target, tag) -> w -> sendMetered(postTo(target, "/matches", matchJson(tag + "-new-" + counter.incrementAndGet())), 201));
        compareBuilds("PATCH /matches/{id}", "match PATCH replacing one player (JSON Patch of playerId)",
                (target, tag) -> w -> {
                    boolean flip = flips.merge(tag + "-match-" + w, true, (a, b) -> !a);
                    String player = flip ? "spare-" + w : players.get(SHEET - 1);
                    String patch = "[{\"op\":\"replace\",\"path\":\"/team1/players/" + (SHEET - 1) + "/playerId\",\"value\":\"" + player + "\"}]";
                    return sendMetered(HttpRequest.newBuilder(URI.create(target.base() + "/matches/" + tag + "-match-" + w))
                            .method("PATCH", HttpRequest.BodyPublishers.ofString(patch))
                            .header("Content-Type", "application/json-patch+json").build(), 200);
                });
        compareBuilds("POST /matches (60 + 60 players)", "large match create, 2 × 60 players (several transactions under a lease)",
                largeDuration, (target, tag) -> w -> sendMetered(postTo(target, "/matches",
                        largeMatchJson(tag + "-large-" + counter.incrementAndGet(), large)), 201));
    }

    /** A route's load against one build: {@code tag} prefixes every id it writes. */
    @FunctionalInterface
    interface BuildOp {
        Load.MeteredOp on(AppProcess target, String tag);
    }

    /**
     * One route, this build beside the other build: interleaved rounds (every other round in reverse order), then
     * per concurrency each build's row — ops/s, p50, p99, calls and capacity per request, CPU per request — and
     * this / other.
     */
    void compareBuilds(String route, String title, BuildOp op) throws Exception {
        compareBuilds(route, title, duration, op);
    }

    /** As above, with measured windows of {@code window} each. */
    void compareBuilds(String route, String title, Duration window, BuildOp op) throws Exception {
        var rows = new ArrayList<RunData.Row>();
        var compilerShares = new ArrayList<String>();
        measuredRoute = route;
        measuredWindow = window;
        report.append("\n### ").append(title).append(": this build vs the other build\n\n");
        if (!window.equals(duration)) {
            report.append("Measured windows of ").append(window.toSeconds()).append(" s.\n\n");
        }
        report
                .append("| concurrency | build | ops/s | p50 ms | p99 ms | DynamoDB calls/op | capacity units/op | app CPU ms/op | errors |\n")
                .append("|---|---|---|---|---|---|---|---|---|\n");
        for (int concurrency : concurrencies) {
            var otherBuild = new Contender(RunData.OTHER_BUILD, other, op.on(other, "cw-other"));
            var cairn = new Contender(RunData.CAIRN, app, op.on(app, "cw-this"));
            var order = new ArrayList<>(List.of(otherBuild, cairn));
            if (concurrency == concurrencies.get(0)) {
                settle(order);
            }
            for (int round = 0; round < ROUNDS; round++) {
                for (Contender contender : order) {
                    contender.run(concurrency);
                }
                Collections.reverse(order);
            }
            for (Contender contender : List.of(cairn, otherBuild)) {
                Load.Result r = contender.merged();
                double cpu = contender.cpuPerOp();
                report.append(String.format(Locale.ROOT, "| %d | %s | %.0f | %.2f | %.2f | %.2f | %.1f | %.2f | %d |%n", concurrency,
                        contender == cairn ? "this build" : "other build", r.opsPerSecond(), r.p50Ms(), r.p99Ms(), r.callsPerOp(),
                        r.capacityPerOp(), cpu, r.errors()));
                rows.add(new RunData.Row(concurrency, contender.name, r.opsPerSecond(), r.p50Ms(), r.p99Ms(), r.callsPerOp(),
                        Double.isNaN(cpu) ? null : cpu, r.errors(), Double.isNaN(r.capacityPerOp()) ? null : r.capacityPerOp()));
            }
            Load.Result c = cairn.merged();
            Load.Result b = otherBuild.merged();
            report.append(String.format(Locale.ROOT, "| %d | **this / other** | **%.2f** | **%.2f** | %.2f | %.2f | %.2f | %.2f | |%n",
                    concurrency, c.opsPerSecond() / b.opsPerSecond(), c.p50Ms() / b.p50Ms(), c.p99Ms() / b.p99Ms(),
                    c.callsPerOp() / b.callsPerOp(), c.capacityPerOp() / b.capacityPerOp(), cairn.cpuPerOp() / otherBuild.cpuPerOp()));
            compilerShares.add(compilerShares(concurrency, order));
        }
        report.append("\nThe JIT compilers' share of each process' measured CPU: ").append(String.join("; ", compilerShares))
                .append(".\n");
        data.comparisons.add(new RunData.Comparison("copywrites", route, title, rows));
    }

    /** "at 16: Cairn 2 %, other build 3 %": how much of a window's CPU per request was compilation, not the request. */
    static String compilerShares(int concurrency, List<Contender> contenders) {
        var shares = new ArrayList<String>();
        for (Contender contender : contenders) {
            if (contender.process != null && contender.cpuMillis > 0) {
                shares.add(String.format(Locale.ROOT, "%s %.0f %%", contender.name, 100 * contender.compileMillis / contender.cpuMillis));
            }
        }
        return "at " + concurrency + ": " + String.join(", ", shares);
    }

    /** The JIT compilers' seconds of settling per contender, and their share of its measured windows' CPU, for the report. */
    final Map<String, String> settled = new LinkedHashMap<>();

    /**
     * Unmeasured load on each contender before a route's first round, at the highest concurrency: at least
     * {@code -Dbench.prewarm} seconds, then on in 5 s steps while its JIT compiler threads still take more than a tenth of
     * its CPU, up to {@code -Dbench.settle} seconds (120 unless told). A C2 compilation in a measured window is CPU the
     * request did not cost, and which build it falls on is chance; on a busy machine 15 s of load left the compilers
     * using as much CPU as the event loops (2026-11-27).
     */
    void settle(List<Contender> order) throws Exception {
        if (prewarm.isZero()) {
            return;
        }
        int most = concurrencies.stream().mapToInt(Integer::intValue).max().orElse(1);
        long limit = Long.getLong("bench.settle", 120) * 1000;
        for (Contender contender : order) {
            long started = System.currentTimeMillis();
            Load.metered(most, prewarm, Duration.ZERO, contender.op);
            if (contender.process == null) {
                continue;
            }
            double share = 1;
            while (System.currentTimeMillis() - started < limit) {
                Map<String, Double> before = contender.process.threadCpuMillis();
                Load.metered(most, Duration.ofSeconds(5), Duration.ZERO, contender.op);
                share = compilerShare(before, contender.process.threadCpuMillis());
                if (share <= 0.10) {
                    break;
                }
            }
            settled.merge(contender.name, String.format(Locale.ROOT, "%s: %.0f s (compilers %.0f %% of its CPU at the end)",
                    measuredRoute, (System.currentTimeMillis() - started) / 1000.0, share * 100), (a, b) -> a + "; " + b);
        }
    }

    /** The JIT compiler threads' share of the CPU between two readings of a process' threads. */
    static double compilerShare(Map<String, Double> before, Map<String, Double> after) {
        double all = 0;
        double compilers = 0;
        for (var group : after.entrySet()) {
            double used = group.getValue() - before.getOrDefault(group.getKey(), 0.0);
            all += Math.max(0, used);
            if (group.getKey().contains("CompilerThre")) {
                compilers += Math.max(0, used);
            }
        }
        return all == 0 ? 0 : compilers / all;
    }

    String selectionJson(int number, String player) {
        return "{\"selectionNumber\":" + number + ",\"teamId\":\"aus\",\"playerId\":\"" + player
                + "\",\"squadRole\":\"batter\",\"isCaptain\":false}";
    }

    /** A 60 + 60 match: too large for one transaction, so written in groups under a lease on its root. */
    String largeMatchJson(String id, List<String> large) {
        var sheets = new String[2];
        for (int t = 0; t < 2; t++) {
            var p = new StringBuilder();
            for (int i = 0; i < LARGE_SHEET; i++) {
                p.append(i == 0 ? "" : ",").append("{\"playerId\":\"").append(large.get(t * LARGE_SHEET + i))
                        .append("\",\"battingPosition\":").append(i + 1).append(",\"isCaptain\":").append(i == 0).append('}');
            }
            sheets[t] = "{\"teamId\":\"" + (t == 0 ? "aus" : "ind") + "\",\"coachId\":\"" + (t == 0 ? "mcdonald" : "gambhir")
                    + "\",\"homeTeam\":" + (t == 0) + ",\"players\":[" + p + "]}";
        }
        return "{\"id\":\"" + id + "\",\"name\":\"AUS vs IND\",\"venueId\":\"mcg\",\"team1\":" + sheets[0] + ",\"team2\":" + sheets[1] + "}";
    }

    HttpRequest postTo(AppProcess target, String path, String body) {
        return HttpRequest.newBuilder(URI.create(target.base() + path)).POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json").build();
    }

    // --- reconcile: the job beside a hand-written loop -------------------------------------------------------

    /** Squad selections planted for the reconcile scenario, each embedding one of the scenario's players. */
    static final int RECONCILE_SELECTIONS = 2000;
    static final int RECONCILE_PLAYERS = 100;
    /** Players changed behind the service's back before each run: their copies (20 each) are the stale ones. */
    static final int RECONCILE_STALE_PLAYERS = 75;
    static final int RECONCILE_ROUNDS = 2;
    /** The highest rate a job may ask for: high enough that pacing is not what limits the run. */
    static final int RECONCILE_RATE = 10000;
    /** What the job reads per page and writes at once: cairn.reconcile.page-size and cairn.cascade.concurrency. */
    static final int RECONCILE_PAGE = 100;
    static final int RECONCILE_WRITES = 16;

    /** What one reconcile pass did and how long it took. */
    record Pass(long checked, long repaired, long current, long orphaned, long pages, double seconds) {
    }

    /**
     * Reconcile throughput: the job ({@code POST /maintenance/reconcile} of the player entity, timed from the POST to
     * {@code done}) against the same pass written by hand with the async SDK — the same Scan (filtered on
     * {@code _refv}, pages of 100, as the job reads an entity scope), ONE strongly consistent BatchGetItem of a page's
     * distinct sources, one conditional UpdateItem per stale copy (16 in flight). Before each pass the same players are
     * changed again with raw writes (no cascade), so both passes repair the same copies; after each, every planted
     * copy must be current.
     */
    void reconcile() throws Exception {
        var ids = new ArrayList<String>();
        for (int i = 0; i < RECONCILE_PLAYERS; i++) {
            ids.add("rc-" + i);
            post("/players", "{\"id\":\"rc-" + i + "\",\"firstName\":\"Rec" + i + "\",\"lastName\":\"Planted\",\"role\":\"bowler\"}");
        }
        int perSquad = 20;
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            var futures = new ArrayList<Future<Integer>>();
            for (int i = 0; i < RECONCILE_SELECTIONS; i++) {
                String squad = "rc-" + (i / perSquad);
                int number = i % perSquad + 1;
                String player = ids.get(i % RECONCILE_PLAYERS);
                futures.add(pool.submit(() -> post("/squads/" + squad + "/selections", "{\"selectionNumber\":" + number
                        + ",\"teamId\":\"aus\",\"playerId\":\"" + player + "\",\"squadRole\":\"bowler\",\"isCaptain\":false}")));
            }
            for (var f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        long stale = (long) RECONCILE_STALE_PLAYERS * RECONCILE_SELECTIONS / RECONCILE_PLAYERS;
        var counter = new AtomicInteger();
        // warm-up, not reported: one pass of each on a cold JIT (in the app and in this JVM)
        plantStale(ids, "Warm" + counter.incrementAndGet());
        checkCurrent(ids, "warm-up job", cairnReconcile(RECONCILE_RATE), stale);
        plantStale(ids, "Warm" + counter.incrementAndGet());
        checkCurrent(ids, "warm-up raw", rawReconcile(), stale);

        report.append("\n### Reconcile of the player entity: ").append(RECONCILE_SELECTIONS).append(" copies, ").append(stale)
                .append(" stale, job at rate ").append(RECONCILE_RATE).append(" vs a raw Scan + BatchGetItem + UpdateItem loop\n\n")
                .append("| round | pass | checked | repaired | current | pages | seconds | checked/s | repaired/s |\n")
                .append("|---|---|---|---|---|---|---|---|---|\n");
        var passes = new LinkedHashMap<String, List<Pass>>();
        for (int round = 1; round <= RECONCILE_ROUNDS; round++) {
            for (String impl : List.of(RunData.CAIRN, RunData.RAW_SDK)) {
                plantStale(ids, "Round" + counter.incrementAndGet());
                Pass pass = impl.equals(RunData.CAIRN) ? cairnReconcile(RECONCILE_RATE) : rawReconcile();
                checkCurrent(ids, impl + " round " + round, pass, stale);
                passes.computeIfAbsent(impl, k -> new ArrayList<>()).add(pass);
                reconcileRow(String.valueOf(round), impl.equals(RunData.CAIRN) ? "Cairn job" : "raw SDK loop", pass);
                data.throughput.add(new RunData.Throughput("reconcile", "player entity, " + RECONCILE_SELECTIONS
                        + " copies, " + stale + " stale", impl, round, pass.checked(), pass.repaired(), pass.seconds()));
            }
        }
        Pass cairn = sum(passes.get(RunData.CAIRN));
        Pass rawPass = sum(passes.get(RunData.RAW_SDK));
        reconcileRow("all", "Cairn job", cairn);
        reconcileRow("all", "raw SDK loop", rawPass);
        double ratio = (cairn.checked() / cairn.seconds()) / (rawPass.checked() / rawPass.seconds());
        double repairedRatio = (cairn.repaired() / cairn.seconds()) / (rawPass.repaired() / rawPass.seconds());
        report.append(String.format(Locale.ROOT, "| all | **Cairn / raw** | | | | | | **%.2f** | **%.2f** |%n", ratio, repairedRatio));

        // What production runs at: the default rate (cairn.reconcile.rate, 200/s), once, for its duration only.
        plantStale(ids, "Paced" + counter.incrementAndGet());
        Pass paced = cairnReconcile(0);
        checkCurrent(ids, "paced job", paced, stale);
        reconcileRow("paced", "Cairn job at the default rate (200/s)", paced);
        data.throughput.add(new RunData.Throughput("reconcile", "player entity, " + RECONCILE_SELECTIONS + " copies, " + stale
                + " stale", RunData.CAIRN + " at the default rate (200/s)", 0, paced.checked(), paced.repaired(), paced.seconds()));
        report.append("\nChecked/s counts copies (a page also reads the items holding none: at 200/s the job paces on the larger "
                + "of the two). Timed from the POST to the job's `done` (polled every 5 ms) and from the first Scan to the "
                + "last write; every planted copy was verified current after each pass.\n");
    }

    void reconcileRow(String round, String pass, Pass p) {
        report.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %d | %d | %.2f | %.0f | %.0f |%n", round, pass, p.checked(),
                p.repaired(), p.current(), p.pages(), p.seconds(), p.checked() / p.seconds(), p.repaired() / p.seconds()));
    }

    static Pass sum(List<Pass> passes) {
        return new Pass(passes.stream().mapToLong(Pass::checked).sum(), passes.stream().mapToLong(Pass::repaired).sum(),
                passes.stream().mapToLong(Pass::current).sum(), passes.stream().mapToLong(Pass::orphaned).sum(),
                passes.stream().mapToLong(Pass::pages).sum(), passes.stream().mapToDouble(Pass::seconds).sum());
    }

    /** Changes the first RECONCILE_STALE_PLAYERS players as a script would: a new last name and version, no cascade. */
    void plantStale(List<String> ids, String name) {
        var writes = new ArrayList<java.util.concurrent.CompletableFuture<?>>();
        for (String id : ids.subList(0, RECONCILE_STALE_PLAYERS)) {
            writes.add(raw.updateItem(UpdateItemRequest.builder().tableName(TABLE).key(key("PLAYER#" + id, "PLAYER"))
                    .updateExpression("SET #n = :n ADD #v :one").conditionExpression("attribute_exists(pk)")
                    .expressionAttributeNames(Map.of("#n", "lastName", "#v", TableSpec.VERSION))
                    .expressionAttributeValues(Map.of(":n", s(name), ":one", n("1"))).build()));
        }
        java.util.concurrent.CompletableFuture.allOf(writes.toArray(java.util.concurrent.CompletableFuture[]::new)).join();
    }

    /**
     * Every planted selection's player copy is at its source's version and shows its last name, and the pass
     * repaired exactly the planted stale copies: a pass that repairs nothing proves nothing.
     */
    void checkCurrent(List<String> ids, String what, Pass pass, long stale) {
        assertThat(pass.repaired()).as(what + ": copies repaired").isEqualTo(stale);
        assertThat(pass.checked()).as(what + ": copies checked").isGreaterThanOrEqualTo(RECONCILE_SELECTIONS);
        var sources = batchGetPlayers(ids);
        int seen = 0;
        for (int squad = 0; squad < RECONCILE_SELECTIONS / 20; squad++) {
            for (var item : queryAllItems("SQUAD#rc-" + squad)) {
                if (item.get("player") == null) {
                    continue;
                }
                var copy = item.get("player").m();
                var source = sources.get(copy.get("id").s());
                long copied = Long.parseLong(item.get(CopyVersions.ATTRIBUTE).m().get("player").m().get("v").n());
                assertThat(copied).as(what + ": " + item.get("pk").s() + " " + item.get("sk").s() + " copy version")
                        .isEqualTo(Long.parseLong(source.get(TableSpec.VERSION).n()));
                assertThat(copy.get("lastName")).as(what + ": copied last name").isEqualTo(source.get("lastName"));
                seen++;
            }
        }
        assertThat(seen).as(what + ": planted selections").isEqualTo(RECONCILE_SELECTIONS);
    }

    /** The players, read with ONE strongly consistent BatchGetItem per 100 (unprocessed keys asked again). */
    Map<String, Map<String, AttributeValue>> batchGetPlayers(java.util.Collection<String> ids) {
        var out = new HashMap<String, Map<String, AttributeValue>>();
        var all = new ArrayList<>(ids);
        for (int from = 0; from < all.size(); from += 100) {
            var keys = all.subList(from, Math.min(all.size(), from + 100)).stream().map(id -> key("PLAYER#" + id, "PLAYER")).toList();
            Map<String, KeysAndAttributes> request = Map.of(TABLE, KeysAndAttributes.builder().keys(keys).consistentRead(true).build());
            while (!request.isEmpty()) {
                var response = raw.batchGetItem(BatchGetItemRequest.builder().requestItems(request).build()).join();
                response.responses().getOrDefault(TABLE, List.of()).forEach(item -> out.put(item.get("id").s(), item));
                request = response.hasUnprocessedKeys() ? response.unprocessedKeys() : Map.of();
            }
        }
        return out;
    }

    /** The job: POST /maintenance/reconcile for the player entity, followed to its end; rate 0: the configured rate. */
    Pass cairnReconcile(int rate) {
        try {
            String body = rate > 0 ? "{\"entity\":\"player\",\"rate\":" + rate + "}" : "{\"entity\":\"player\"}";
            long started = System.nanoTime();
            var response = http.send(postTo(app, "/maintenance/reconcile", body), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 202) {
                throw new IllegalStateException("reconcile answered " + response.statusCode() + " " + response.body());
            }
            String job = URI.create(response.headers().firstValue("Location").orElseThrow()).getPath();
            JsonNode state;
            do {
                Thread.sleep(5);
                state = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(app.base() + job)).GET().build(),
                        HttpResponse.BodyHandlers.ofString()).body());
            } while (!"done".equals(state.get("state").asText()) && !"failed".equals(state.get("state").asText()));
            double seconds = (System.nanoTime() - started) / 1e9;
            if (!"done".equals(state.get("state").asText())) {
                throw new IllegalStateException("reconcile ended as " + state);
            }
            return new Pass(state.get("checked").asLong(), state.get("repaired").asLong(), state.get("current").asLong(),
                    state.get("orphaned").asLong(), state.get("pages").asLong(), seconds);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A copy of a player found on a Scan page: the item, its copy attribute, the source and the version copied. */
    record PlayerCopy(Map<String, AttributeValue> item, String attribute, String sourceId, long version) {
    }

    /**
     * The same pass by hand: Scan pages of 100 filtered on {@code _refv} (eventually consistent, as the job's), per
     * page ONE strongly consistent BatchGetItem of the distinct players copied on it, then one UpdateItem per stale
     * copy, 16 in flight, each conditioned on the copy still being older (a newer one is never overwritten). A copy
     * inside an aggregate would need a transaction with its root's bump: none is planted, so one is an error here.
     */
    Pass rawReconcile() {
        long started = System.nanoTime();
        long checked = 0;
        long orphaned = 0;
        long pages = 0;
        var repaired = new java.util.concurrent.atomic.AtomicLong();
        var current = new java.util.concurrent.atomic.AtomicLong();
        var inFlight = new java.util.concurrent.Semaphore(RECONCILE_WRITES);
        Map<String, AttributeValue> start = null;
        do {
            var page = raw.scan(ScanRequest.builder().tableName(TABLE).limit(RECONCILE_PAGE).consistentRead(false)
                    .filterExpression("attribute_exists(#refv)").expressionAttributeNames(Map.of("#refv", CopyVersions.ATTRIBUTE))
                    .exclusiveStartKey(start).build()).join();
            pages++;
            var copies = new ArrayList<PlayerCopy>();
            for (var item : page.items()) {
                item.get(CopyVersions.ATTRIBUTE).m().forEach((attribute, descriptor) -> {
                    var d = descriptor.m();
                    AttributeValue copy = item.get(attribute);
                    if (d != null && "Player".equals(d.get("e").s()) && copy != null && copy.m() != null && copy.m().get("id") != null) {
                        copies.add(new PlayerCopy(item, attribute, copy.m().get("id").s(), Long.parseLong(d.get("v").n())));
                    }
                });
            }
            checked += copies.size();
            var sources = batchGetPlayers(copies.stream().map(PlayerCopy::sourceId).distinct().toList());
            var writes = new ArrayList<java.util.concurrent.CompletableFuture<?>>();
            String now = Instant.now().toString();
            for (PlayerCopy copy : copies) {
                var source = sources.get(copy.sourceId());
                if (source == null) {
                    orphaned++;
                    continue;
                }
                long version = Long.parseLong(source.get(TableSpec.VERSION).n());
                if (copy.version() >= version) {
                    current.incrementAndGet();
                    continue;
                }
                if (!copy.item().get("pk").s().startsWith("SQUAD#")) {
                    throw new IllegalStateException("a stale copy inside an aggregate, not planted here: " + copy.item().get("pk").s());
                }
                var fields = new HashMap<String, AttributeValue>();
                for (String field : List.of("id", "firstName", "lastName", "role")) {
                    if (source.get(field) != null) {
                        fields.put(field, source.get(field));
                    }
                }
                var request = UpdateItemRequest.builder().tableName(TABLE)
                        .key(key(copy.item().get("pk").s(), copy.item().get("sk").s()))
                        .updateExpression("SET #a = :copy, #refv.#a = :refv, #at = :now ADD #ver :one")
                        .conditionExpression("#refv.#a.#v < :version")
                        .expressionAttributeNames(Map.of("#a", copy.attribute(), "#refv", CopyVersions.ATTRIBUTE, "#v", "v",
                                "#at", TableSpec.UPDATED_AT, "#ver", TableSpec.VERSION))
                        .expressionAttributeValues(Map.of(":copy", AttributeValue.fromM(fields),
                                ":refv", AttributeValue.fromM(Map.of("e", s("Player"), "v", n(Long.toString(version)))),
                                ":now", s(now), ":one", n("1"), ":version", n(Long.toString(version))))
                        .build();
                inFlight.acquireUninterruptibly();
                writes.add(raw.updateItem(request).handle((ok, failure) -> {
                    inFlight.release();
                    Throwable cause = failure instanceof java.util.concurrent.CompletionException ? failure.getCause() : failure;
                    if (cause == null) {
                        repaired.incrementAndGet();
                    } else if (cause instanceof ConditionalCheckFailedException) {
                        current.incrementAndGet();
                    } else {
                        throw new IllegalStateException(cause);
                    }
                    return null;
                }));
            }
            // the page's writes are over before the next page, as the job's are before its checkpoint
            java.util.concurrent.CompletableFuture.allOf(writes.toArray(java.util.concurrent.CompletableFuture[]::new)).join();
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return new Pass(checked, repaired.get(), current.get(), orphaned, pages, (System.nanoTime() - started) / 1e9);
    }

    /**
     * Write sharding: listing latency of a workspace with 1, 8 and 32 write shards (parallel fan-out, one Query per
     * shard) against ONE raw Query of 20 items, and project-create throughput into one workspace, sharded vs not.
     */
    void sharding() throws Exception {
        int[] counts = {1, 8, 32};
        for (int shards : counts) {
            String ws = "bench-shards-" + shards;
            post("/workspaces", "{\"id\":\"" + ws + "\",\"displayName\":\"B\",\"region\":\"eu-west-1\",\"seatLimit\":10,\"shards\":" + shards + "}");
            for (int i = 0; i < 200; i++) {
                post("/workspaces/" + ws + "/projects", "{\"title\":\"P" + i + "\",\"status\":\"ACTIVE\",\"createdBy\":\"bench\"}");
            }
        }
        QueryRequest single = QueryRequest.builder().tableName(TABLE)
                .keyConditionExpression("#pk = :pk AND begins_with(#sk, :p)").expressionAttributeNames(Map.of("#pk", "pk", "#sk", "sk"))
                .expressionAttributeValues(Map.of(":pk", s("WS#bench-shards-1"), ":p", s("PROJ#")))
                .scanIndexForward(false).limit(20).consistentRead(true).build();
        report.append("\n### Sharded listing: GET /workspaces/{id}/projects (20 per page) by write-shard count vs ONE raw Query\n\n")
                .append("| concurrency | shards | ops/s | p50 ms | p99 ms | DynamoDB calls/op | p50 / raw single Query p50 |\n")
                .append("|---|---|---|---|---|---|---|\n");
        for (int concurrency : concurrencies) {
            Load.Result rawSingle = Load.run(concurrency, warmup, duration, w -> {
                raw.query(single).join();
                return 1;
            });
            report.append(String.format(Locale.ROOT, "| %d | raw Query | %.0f | %.2f | %.2f | 1 | 1.00 |%n", concurrency,
                    rawSingle.opsPerSecond(), rawSingle.p50Ms(), rawSingle.p99Ms()));
            for (int shards : counts) {
                String path = "/workspaces/bench-shards-" + shards + "/projects";
                Load.Result r = Load.run(concurrency, warmup, duration, w -> get(path));
                report.append(String.format(Locale.ROOT, "| %d | %d | %.0f | %.2f | %.2f | %.1f | %.2f |%n", concurrency, shards,
                        r.opsPerSecond(), r.p50Ms(), r.p99Ms(), r.callsPerOp(), r.p50Ms() / rawSingle.p50Ms()));
                // The same N shard Queries issued directly, all at once: what the fan-out must cost at least.
                List<QueryRequest> fan = new ArrayList<>();
                for (int shard = 0; shard < shards; shard++) {
                    String pk = "WS#bench-shards-" + shards + (shard == 0 ? "" : String.format("#%02d", shard));
                    fan.add(single.toBuilder().expressionAttributeValues(Map.of(":pk", s(pk), ":p", s("PROJ#"))).build());
                }
                Load.Result parallel = Load.run(concurrency, warmup, duration, w -> {
                    java.util.concurrent.CompletableFuture.allOf(fan.stream().map(raw::query)
                            .toArray(java.util.concurrent.CompletableFuture[]::new)).join();
                    return shards;
                });
                report.append(String.format(Locale.ROOT, "| %d | raw: the %d Queries in parallel | %.0f | %.2f | %.2f | %d | %.2f (Cairn / this: %.2f) |%n",
                        concurrency, shards, parallel.opsPerSecond(), parallel.p50Ms(), parallel.p99Ms(), shards,
                        parallel.p50Ms() / rawSingle.p50Ms(), r.p50Ms() / parallel.p50Ms()));
                data.headline("sharding", "Cairn listing over " + shards + " shards / the same " + shards
                        + " raw Queries in parallel: p50 at concurrency " + concurrency, r.p50Ms() / parallel.p50Ms());
            }
        }
        report.append("\n### Project creates into ONE workspace, 8 write shards vs unsharded (interleaved)\n\n")
                .append("| concurrency | shards | ops/s | p50 ms | p99 ms | DynamoDB calls/op |\n|---|---|---|---|---|---|\n");
        for (int concurrency : concurrencies) {
            for (int round = 0; round < ROUNDS; round++) {
                for (int shards : new int[]{1, 8}) {
                    String path = "/workspaces/bench-shards-" + shards + "/projects";
                    Load.Result r = Load.run(concurrency, warmup, duration,
                            w -> post(path, "{\"title\":\"W\",\"status\":\"PAUSED\",\"createdBy\":\"bench\"}"));
                    report.append(String.format(Locale.ROOT, "| %d | %d | %.0f | %.2f | %.2f | %.1f |%n", concurrency, shards,
                            r.opsPerSecond(), r.p50Ms(), r.p99Ms(), r.callsPerOp()));
                }
            }
        }
        report.append("\nDynamoDB Local has no per-partition throughput limit, so the write rows show only what sharding costs "
                + "(nothing: one PutItem either way); on DynamoDB each shard is its own partition with its own ~1,000 WCU/s.\n");
    }

    /**
     * Startup to ready and idle RSS of the packaged app per JVM variant: starts interleaved (variant after variant,
     * 3 rounds, medians). The AppCDS archive comes from a real run — start, serve each GET route, stop — so it holds
     * the classes of startup AND of the request path (the JVM writes it at exit: -XX:ArchiveClassesAtExit).
     */
    void startup(String dynamoEndpoint) throws Exception {
        Path archive = Path.of("target/bench/app-cds.jsa").toAbsolutePath();
        Files.deleteIfExists(archive);
        AppProcess trainer = AppProcess.start(dynamoEndpoint,
                List.of("-XX:ArchiveClassesAtExit=" + archive, "-Dcairn.auth.enabled=false"), "appcds-training");
        for (String path : List.of("/matches/bench-get", "/workspaces/bench/projects", "/courses/bench101/students",
                "/access-patterns", "/users/nobody/posts")) {
            // Found or not (this scenario may run alone), each answer walks the request path's classes.
            int status = http.send(HttpRequest.newBuilder(URI.create(trainer.base() + path)).GET().build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
            assertThat(status).as(path).isLessThan(500);
        }
        trainer.stopAndWait();
        assertThat(archive).as("the AppCDS archive written at exit").exists();
        var variants = new ArrayList<JvmVariant>();
        variants.add(new JvmVariant("default (G1 here: 2 CPUs, 24 GiB)", "default", List.of()));
        variants.add(new JvmVariant("AppCDS", "AppCDS", List.of("-XX:SharedArchiveFile=" + archive)));
        variants.add(new JvmVariant("SerialGC (the JVM's own choice in a 1-CPU or < 1792 MB pod)", "SerialGC",
                List.of("-XX:+UseSerialGC")));
        variants.add(new JvmVariant("AppCDS + SerialGC", "AppCDS + SerialGC",
                List.of("-XX:SharedArchiveFile=" + archive, "-XX:+UseSerialGC")));
        variants.add(new JvmVariant("AppCDS + SerialGC + 64 MB code cache + 512k stacks", "AppCDS + SerialGC + trimmed",
                List.of("-XX:SharedArchiveFile=" + archive, "-XX:+UseSerialGC", "-XX:ReservedCodeCacheSize=64m", "-Xss512k")));
        // The floor, started in the same rounds: ready when it listens (before any DynamoDB call), as measured elsewhere.
        JvmVariant floor = new JvmVariant("hand-written service (Vert.x + the SDK client, ready when listening)", "hand-written", null);
        variants.add(floor);
        Path routes = handWrittenRoutes();
        boolean direct = directCompletion();
        var startups = new LinkedHashMap<JvmVariant, List<Double>>();
        var rss = new LinkedHashMap<JvmVariant, List<Double>>();
        int rounds = 3;
        for (int round = 0; round < rounds; round++) {
            for (JvmVariant variant : variants) {
                AppProcess started;
                if (variant == floor) {
                    started = AppProcess.startHandWritten(dynamoEndpoint, routes, direct, "startup-hand-written");
                } else {
                    var properties = new ArrayList<>(variant.options());
                    properties.add("-Dcairn.auth.enabled=false");
                    started = AppProcess.start(dynamoEndpoint, properties, "startup");
                }
                Thread.sleep(2000);
                startups.computeIfAbsent(variant, k -> new ArrayList<>()).add((double) started.startupMillis);
                rss.computeIfAbsent(variant, k -> new ArrayList<>()).add(started.rssMb());
                started.stopAndWait();
            }
        }
        report.append("\n### Startup to ready and idle RSS by JVM variant (3 interleaved starts each, medians)\n\n")
                .append("| variant | startup to ready ms | RSS idle MB | startup vs default | RSS vs default |\n|---|---|---|---|---|\n");
        double baseStartup = median(startups.get(variants.get(0)));
        double baseRss = median(rss.get(variants.get(0)));
        for (JvmVariant variant : variants) {
            double startup = median(startups.get(variant));
            double memory = median(rss.get(variant));
            report.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.2f | %.2f |%n", variant.name(), startup, memory,
                    startup / baseStartup, memory / baseRss));
            data.startup.add(new RunData.StartupVariant(variant.name(), variant.label(), startup, memory, rounds, variant == floor));
            if (variant != variants.get(0) && variant != floor) {
                data.headline("startup", variant.label() + " / default: start to ready", startup / baseStartup);
                data.headline("startup", variant.label() + " / default: idle RSS", memory / baseRss);
            }
        }
        data.headline("startup", "Cairn (default JVM) / hand-written service: start to ready", baseStartup / median(startups.get(floor)));
        data.headline("startup", "Cairn (default JVM) / hand-written service: idle RSS", baseRss / median(rss.get(floor)));
    }

    /** A way to start a JVM for the startup scenario; options null: the hand-written service. */
    record JvmVariant(String name, String label, List<String> options) {
    }

    /**
     * What bearer-token verification costs: the same listing from two instances of the packaged app on the same
     * data, one with authentication off and one verifying an RS256 token (key pair made here) on every request.
     */
    void auth(String dynamoEndpoint) throws Exception {
        var generator = java.security.KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        var keys = generator.generateKeyPair();
        Path publicKey = Path.of("target/bench/jwt-public.pem").toAbsolutePath();
        Files.writeString(publicKey, "-----BEGIN PUBLIC KEY-----\n"
                + java.util.Base64.getMimeEncoder().encodeToString(keys.getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n");
        String issuer = "https://bench.cairn";
        String token = io.smallrye.jwt.build.Jwt.issuer(issuer).subject("bench").groups(java.util.Set.of("cairn-reader"))
                .claim("workspaces", List.of("*")).expiresAt(java.time.Instant.now().plusSeconds(3600)).sign(keys.getPrivate());
        post("/workspaces", "{\"id\":\"bench-auth\",\"displayName\":\"B\",\"region\":\"eu-west-1\",\"seatLimit\":10}");
        for (int i = 0; i < 25; i++) {
            post("/workspaces/bench-auth/projects", "{\"title\":\"P" + i + "\",\"status\":\"ACTIVE\",\"createdBy\":\"bench\"}");
        }
        try (AppProcess secured = AppProcess.start(dynamoEndpoint, List.of("-Dcairn.auth.enabled=true",
                "-Dmp.jwt.verify.publickey.location=" + publicKey.toUri(), "-Dmp.jwt.verify.issuer=" + issuer), "app-auth")) {
            HttpRequest open = HttpRequest.newBuilder(URI.create(app.base() + "/workspaces/bench-auth/projects")).GET().build();
            HttpRequest bearer = HttpRequest.newBuilder(URI.create(secured.base() + "/workspaces/bench-auth/projects"))
                    .header("Authorization", "Bearer " + token).GET().build();
            send(bearer, 200);
            report.append("\n### Token verification: GET /workspaces/{id}/projects, authentication off vs on (two app instances, interleaved)\n\n")
                    .append("| concurrency | auth | ops/s | p50 ms | p99 ms | app CPU ms/op |\n|---|---|---|---|---|---|\n");
            for (int concurrency : concurrencies) {
                var off = new ArrayList<Load.Result>();
                var on = new ArrayList<Load.Result>();
                double cpuOff = 0;
                double cpuOn = 0;
                for (int round = 0; round < ROUNDS; round++) {
                    double before = app.cpuMillis();
                    off.add(Load.run(concurrency, warmup, duration, w -> send(open, 200)));
                    cpuOff += (app.cpuMillis() - before) * duration.toNanos() / (duration.plus(warmup).toNanos() + 1.0);
                    before = secured.cpuMillis();
                    on.add(Load.run(concurrency, warmup, duration, w -> send(bearer, 200)));
                    cpuOn += (secured.cpuMillis() - before) * duration.toNanos() / (duration.plus(warmup).toNanos() + 1.0);
                }
                Load.Result a = merge(off);
                Load.Result b = merge(on);
                report.append(String.format(Locale.ROOT, "| %d | off | %.0f | %.2f | %.2f | %.2f |%n", concurrency,
                        a.opsPerSecond(), a.p50Ms(), a.p99Ms(), cpuOff / Math.max(1, a.ops())));
                report.append(String.format(Locale.ROOT, "| %d | on (RS256 bearer) | %.0f | %.2f | %.2f | %.2f |%n", concurrency,
                        b.opsPerSecond(), b.p50Ms(), b.p99Ms(), cpuOn / Math.max(1, b.ops())));
                report.append(String.format(Locale.ROOT, "| %d | **on / off** | **%.2f** | **%.2f** | %.2f | |%n", concurrency,
                        b.opsPerSecond() / a.opsPerSecond(), b.p50Ms() / a.p50Ms(), b.p99Ms() / a.p99Ms()));
                data.headline("auth", "token verification on / off: ops/s at concurrency " + concurrency,
                        b.opsPerSecond() / a.opsPerSecond());
                data.headline("auth", "token verification on / off: p50 at concurrency " + concurrency, b.p50Ms() / a.p50Ms());
            }
        }
    }

    void cascade(String dynamoEndpoint) throws Exception {
        int copies = 1000;
        post("/players", "{\"id\":\"cascade-1\",\"firstName\":\"Cas\",\"lastName\":\"Cade\",\"role\":\"bowler\"}");
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            var futures = new ArrayList<Future<Integer>>();
            for (int i = 1; i <= copies; i++) {
                int n = i;
                futures.add(pool.submit(() -> post("/squads/cascade/selections", "{\"selectionNumber\":" + n
                        + ",\"teamId\":\"aus\",\"playerId\":\"cascade-1\",\"squadRole\":\"bowler\",\"isCaptain\":false}")));
            }
            for (var f : futures) {
                f.get();
            }
            int concurrency = 16;
            report.append("\n### Cascade of a player rename to ").append(copies).append(" embedding items (concurrency ")
                    .append(concurrency).append(")\n\n| round | Cairn PATCH (copies/s) | raw UpdateItem (copies/s) | ratio |\n|---|---|---|---|\n");
            // warm-up, not reported: the first cascade runs on a cold JIT (in the app and in this JVM)
            for (int round = 1; round <= CASCADE_WARMUP_ROUNDS; round++) {
                rawUpdates(pool, copies, "Warm" + round);
                renameCascade(copies, "Warm" + round);
            }
            double cairnSum = 0;
            double rawSum = 0;
            for (int round = 1; round <= CASCADE_ROUNDS; round++) {
                String name = "Renamed" + round;
                double rawSeconds = Load.timeOnce(() -> rawUpdates(pool, copies, name));
                double cpuBefore = app.cpuMillis();
                double cairnSeconds = Load.timeOnce(() -> renameCascade(copies, name));
                double cpuMs = app.cpuMillis() - cpuBefore;
                cairnSum += copies / cairnSeconds;
                rawSum += copies / rawSeconds;
                report.append(String.format(Locale.ROOT, "| %d | %.0f (app CPU %.2f ms/copy) | %.0f | %.2f |%n", round,
                        copies / cairnSeconds, cpuMs / copies, copies / rawSeconds, rawSeconds / cairnSeconds));
            }
            report.append(String.format(Locale.ROOT, "| mean | %.0f | %.0f | %.2f |%n", cairnSum / CASCADE_ROUNDS,
                    rawSum / CASCADE_ROUNDS, cairnSum / rawSum));
            data.headline("cascade", "Cairn PATCH / raw UpdateItem: copies/s, a rename to " + copies + " copies (mean of "
                    + CASCADE_ROUNDS + " rounds)", cairnSum / rawSum);
            cascadeAnswers(dynamoEndpoint, copies);
        } finally {
            pool.shutdownNow();
        }
    }

    static final int CASCADE_WARMUP_ROUNDS = 2;
    static final int CASCADE_ROUNDS = 5;

    /**
     * One PATCH of the player: the app renames it and cascades to every copy as a job; all of them must be updated.
     * A 202 is followed to the job's end (GET /cascades/{id} every 5 ms), so the time is the cascade's whole time.
     */
    void renameCascade(int copies, String name) {
        renameCascade(app, "cascade-1", copies, name);
    }

    /** As above, on any app and player; answers the PATCH's own status. */
    int renameCascade(AppProcess target, String player, int copies, String name) {
        try {
            var response = http.send(HttpRequest.newBuilder(URI.create(target.base() + "/players/" + player))
                    .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"lastName\":\"" + name + "\"}"))
                    .header("Content-Type", "application/merge-patch+json").build(), HttpResponse.BodyHandlers.ofString());
            JsonNode body = JSON.readTree(response.body());
            if (response.statusCode() == 202) {
                String job = URI.create(response.headers().firstValue("Location").orElseThrow()).getPath();
                do {
                    Thread.sleep(5);
                    body = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(target.base() + job)).GET().build(),
                            HttpResponse.BodyHandlers.ofString()).body());
                } while (!"done".equals(body.get("state").asText()) && !"failed".equals(body.get("state").asText()));
            } else if (response.statusCode() != 200) {
                throw new IllegalStateException("cascade answered " + response.statusCode() + " " + response.body());
            }
            if (!"done".equals(body.get("state").asText()) || body.get("updated").asInt() + body.get("skipped").asInt() < copies) {
                throw new IllegalStateException("cascade ended as " + body);
            }
            return response.statusCode();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** PATCH latency of a cascade that ends within the bound (200) and of one answered 202 (a second app, bound 100 ms). */
    void cascadeAnswers(String dynamoEndpoint, int copies) throws Exception {
        post("/players", "{\"id\":\"cascade-small\",\"firstName\":\"Cas\",\"lastName\":\"Small\",\"role\":\"bowler\"}");
        for (int n = 1; n <= 20; n++) {
            post("/squads/cascade-small/selections", "{\"selectionNumber\":" + n
                    + ",\"teamId\":\"aus\",\"playerId\":\"cascade-small\",\"squadRole\":\"bowler\",\"isCaptain\":false}");
        }
        var small = new ArrayList<Double>();
        for (int i = 0; i < 40; i++) {
            String name = "Small" + i;
            double seconds = Load.timeOnce(() -> {
                if (renameCascade(app, "cascade-small", 20, name) != 200) {
                    throw new IllegalStateException("a 20-copy cascade was not answered within the bound");
                }
            });
            if (i >= 10) {
                small.add(seconds * 1000);
            }
        }
        var accepted = new ArrayList<Double>();
        try (AppProcess quick = AppProcess.start(dynamoEndpoint, List.of("-Dcairn.auth.enabled=false",
                "-Dcairn.jobs.answer-within=100ms"), "app-202")) {
            for (int i = 0; i < 8; i++) {
                String name = "Accepted" + i;
                long start = System.nanoTime();
                var response = http.send(HttpRequest.newBuilder(URI.create(quick.base() + "/players/cascade-1"))
                        .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"lastName\":\"" + name + "\"}"))
                        .header("Content-Type", "application/merge-patch+json").build(), HttpResponse.BodyHandlers.ofString());
                double ms = (System.nanoTime() - start) / 1e6;
                if (response.statusCode() != 202) {
                    throw new IllegalStateException("expected 202, got " + response.statusCode());
                }
                String job = URI.create(response.headers().firstValue("Location").orElseThrow()).getPath();
                while (!"done".equals(JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(quick.base() + job)).GET()
                        .build(), HttpResponse.BodyHandlers.ofString()).body()).get("state").asText())) {
                    Thread.sleep(20);
                }
                if (i >= 3) {
                    accepted.add(ms);
                }
            }
        }
        report.append(String.format(Locale.ROOT, "%nPATCH p50: a 20-copy cascade answered 200 within the bound %.2f ms "
                        + "(30 runs); a %d-copy cascade answered 202 (second app, `cairn.jobs.answer-within=100ms`) %.1f ms (5 runs)%n",
                median(small), copies, median(accepted)));
    }

    static double median(List<Double> values) {
        var sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        return sorted.get(sorted.size() / 2);
    }

    void rawUpdates(ExecutorService pool, int copies, String name) {
        var futures = new ArrayList<Future<?>>();
        Map<String, AttributeValue> player = Map.of("id", s("cascade-1"), "firstName", s("Cas"), "lastName", s("Raw" + name),
                "role", s("bowler"));
        for (int i = 1; i <= copies; i++) {
            String sk = "SEL#" + OrderedNumber.encode(java.math.BigDecimal.valueOf(i));
            futures.add(pool.submit(() -> raw.updateItem(UpdateItemRequest.builder().tableName(TABLE).key(key("SQUAD#cascade", sk))
                    .updateExpression("SET #p = :p").conditionExpression("attribute_exists(pk)")
                    .expressionAttributeNames(Map.of("#p", "player")).expressionAttributeValues(Map.of(":p", AttributeValue.fromM(player)))
                    .build()).join()));
        }
        for (var f : futures) {
            try {
                f.get();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /**
     * Aggregate reads by member count, in process (engine + store): the parallel range read, the sequential page
     * walk (1 MB pages one after another, as before ranges existed) and the raw Query pages of the same partition.
     */
    void scaling() throws Exception {
        var registry = new SimpleMeterRegistry();
        var gateway = new DynamoGateway(raw, new StoreMetrics(registry));
        var settings = new StoreSettings(TABLE, "benchmark-cursor-secret", 4, 8, Duration.ofMillis(25));
        var store = new EntityStore(gateway, settings);
        var aggregates = new AggregateStore(store, gateway, new StoreMetrics(new SimpleMeterRegistry()), new Leases(store),
                new JobSettings("bench", 4, Duration.ofDays(1), Duration.ofSeconds(15), Duration.ofSeconds(10)));
        var lines = AggregateNode.builder("BenchLine", "LINE").field("n").field("pad").keyedBy("n").build();
        var root = AggregateNode.builder("Bench", "BENCH").field("name");
        int groups = 40;
        for (int g = 0; g < groups; g++) {
            root.sub("g" + g, AggregateNode.builder("BenchGroup", "GROUP").many("lines", lines).build(), Map.of("group", g));
        }
        Aggregate bench = Aggregate.of("Bench", KeyTemplate.of("BENCH#{id}"), "id", root.build(), List.of());
        report.append("\n### Aggregate read by member count (in process: store + engine), concurrency 1, same run\n\n")
                .append("| members | raw 1 MB pages | parallel: calls / p50 ms | sequential: calls / p50 ms | raw pages p50 ms | parallel / sequential | parallel / raw | assembly alone p50 ms |\n")
                .append("|---|---|---|---|---|---|---|---|\n");
        String pad = "x".repeat(500);
        for (int members : List.of(41, 100, 1000, 3000, 6000)) {
            var view = new LinkedHashMap<String, Object>();
            String id = "scale-" + members + "-" + System.nanoTime();
            view.put("id", id);
            view.put("name", "bench");
            int perGroup = (int) Math.ceil((members - 1 - groups) / (double) groups);
            int left = members - 1 - groups;
            for (int g = 0; g < groups; g++) {
                var list = new ArrayList<Map<String, Object>>();
                for (int i = 0; i < Math.max(0, Math.min(perGroup, left)); i++) {
                    list.add(Map.of("n", "line-" + g + "-" + i, "pad", pad));
                }
                left -= list.size();
                view.put("g" + g, Map.of("lines", list));
            }
            var items = bench.decompose(view, Map.of(), 1, Instant.now(), Instant.now());
            store.batchPut(items.bySk().values().stream().map(Aggregate.Member::item).toList()).await().atMost(Duration.ofSeconds(60));
            int stored = items.bySk().size();
            var pages = new AtomicInteger();
            int[] calls = new int[2];
            for (var mode : AggregateStore.ReadMode.values()) {
                long before = callCount(registry);
                aggregates.read(bench, id, mode).await().atMost(Duration.ofSeconds(30));
                calls[mode.ordinal()] = (int) (callCount(registry) - before);
            }
            // Interleaved rounds, so the three reads see the same machine.
            var results = new Load.Result[3];
            for (int round = 0; round < 3; round++) {
                var parallel = Load.run(1, warmup, duration, w -> {
                    aggregates.read(bench, id, AggregateStore.ReadMode.PARALLEL).await().atMost(Duration.ofSeconds(30));
                    return 0;
                });
                var sequential = Load.run(1, warmup, duration, w -> {
                    aggregates.read(bench, id, AggregateStore.ReadMode.SEQUENTIAL).await().atMost(Duration.ofSeconds(30));
                    return 0;
                });
                var rawPages = Load.run(1, warmup, duration, w -> {
                    pages.set(queryAll(bench.viewQuery(id).withLimit(null).toRequest(TABLE, null))); // 1 MB pages in sequence
                    return pages.get();
                });
                results = better(results, new Load.Result[] {parallel, sequential, rawPages});
            }
            // The engine's share: assembling the items already read (what concurrent assembly could split).
            var read = aggregates.read(bench, id).await().atMost(Duration.ofSeconds(30)).items();
            var assembly = Load.run(1, warmup, duration, w -> {
                bench.assemble(read);
                return 0;
            });
            report.append(String.format(Locale.ROOT, "| %d | %d | %d / %.2f | %d / %.2f | %.2f | %.2f | %.2f | %.2f |%n", stored, pages.get(),
                    calls[0], results[0].p50Ms(), calls[1], results[1].p50Ms(), results[2].p50Ms(),
                    results[0].p50Ms() / results[1].p50Ms(), results[0].p50Ms() / results[2].p50Ms(), assembly.p50Ms()));
            data.headline("scaling", "parallel ranges / raw 1 MB pages: p50 of a " + stored + "-member aggregate read",
                    results[0].p50Ms() / results[2].p50Ms());
            data.headline("scaling", "parallel ranges / sequential walk: p50 of a " + stored + "-member aggregate read",
                    results[0].p50Ms() / results[1].p50Ms());
        }
        report.append("\nBest p50 of 3 interleaved rounds each. Calls per read include the root's re-read (GetItem) past one page.\n");
    }

    /** Per column, the round with the lowest p50 (the least disturbed by the machine). */
    private static Load.Result[] better(Load.Result[] best, Load.Result[] round) {
        var out = new Load.Result[round.length];
        for (int i = 0; i < round.length; i++) {
            out[i] = best[i] == null || round[i].p50Ms() < best[i].p50Ms() ? round[i] : best[i];
        }
        return out;
    }

    private static long callCount(SimpleMeterRegistry registry) {
        return registry.find("cairn.dynamodb.calls").timers().stream().mapToLong(t -> t.count()).sum();
    }

    /**
     * Mixed reads and writes at concurrency 32 for {@code bench.soak} seconds (bounded by time; loopback only):
     * zero 5xx expected, every acknowledged project readable afterwards, RSS sampled along the way.
     */
    void soak() throws Exception {
        int workers = 32;
        long seconds = Long.getLong("bench.soak", 120);
        for (int w = 0; w < workers; w++) {
            post("/workspaces", "{\"id\":\"soak-" + w + "\",\"displayName\":\"Soak\",\"region\":\"r\",\"seatLimit\":5}");
        }
        var acknowledged = new ConcurrentHashMap<Integer, java.util.Set<String>>();
        var statuses = new ConcurrentHashMap<Integer, AtomicInteger>();
        var stop = new java.util.concurrent.atomic.AtomicBoolean();
        var rss = new ArrayList<String>();
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        long started = System.nanoTime();
        for (int w = 0; w < workers; w++) {
            int worker = w;
            acknowledged.put(w, ConcurrentHashMap.newKeySet());
            pool.submit(() -> {
                var random = java.util.concurrent.ThreadLocalRandom.current();
                while (!stop.get()) {
                    try {
                        int dice = random.nextInt(10);
                        var mine = acknowledged.get(worker);
                        HttpRequest request;
                        if (dice < 4 || mine.isEmpty()) {
                            request = HttpRequest.newBuilder(URI.create(app.base() + "/workspaces/soak-" + worker + "/projects"))
                                    .POST(HttpRequest.BodyPublishers.ofString("{\"title\":\"t\",\"status\":\"ACTIVE\",\"createdBy\":\"soak\"}"))
                                    .header("Content-Type", "application/json").build();
                        } else if (dice < 7) {
                            request = HttpRequest.newBuilder(URI.create(app.base() + "/workspaces/soak-" + worker + "?include=projects")).build();
                        } else {
                            String project = mine.iterator().next();
                            request = dice < 9
                                    ? HttpRequest.newBuilder(URI.create(app.base() + "/workspaces/soak-" + worker + "/projects/" + project)).build()
                                    : HttpRequest.newBuilder(URI.create(app.base() + "/workspaces/soak-" + worker + "/projects/" + project))
                                    .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"title\":\"t" + random.nextInt() + "\"}"))
                                    .header("Content-Type", "application/merge-patch+json").build();
                        }
                        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                        statuses.computeIfAbsent(response.statusCode(), c -> new AtomicInteger()).incrementAndGet();
                        if (response.statusCode() == 201) {
                            mine.add(JSON.readTree(response.body()).get("id").asText());
                        }
                    } catch (Exception e) {
                        statuses.computeIfAbsent(-1, c -> new AtomicInteger()).incrementAndGet();
                    }
                }
            });
        }
        for (long t = 10; t <= seconds; t += 10) {
            Thread.sleep(10_000);
            rss.add(String.format(Locale.ROOT, "%d s: %.0f MB", t, app.rssMb()));
        }
        stop.set(true);
        pool.shutdown();
        pool.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS);
        double elapsed = (System.nanoTime() - started) / 1e9;
        int missing = 0;
        int written = 0;
        for (int w = 0; w < workers; w++) {
            var listed = new java.util.HashSet<String>();
            String cursor = null;
            do {
                String url = app.base() + "/workspaces/soak-" + w + "/projects?limit=100"
                        + (cursor == null ? "" : "&cursor=" + java.net.URLEncoder.encode(cursor, java.nio.charset.StandardCharsets.UTF_8));
                JsonNode page = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(url)).build(),
                        HttpResponse.BodyHandlers.ofString()).body());
                page.get("items").forEach(item -> listed.add(item.get("id").asText()));
                cursor = page.get("next").isNull() ? null : page.get("next").asText();
            } while (cursor != null);
            written += acknowledged.get(w).size();
            for (String id : acknowledged.get(w)) {
                if (!listed.contains(id)) {
                    missing++;
                }
            }
        }
        long total = statuses.values().stream().mapToLong(AtomicInteger::get).sum();
        long serverErrors = statuses.entrySet().stream().filter(e -> e.getKey() >= 500 || e.getKey() < 0)
                .mapToLong(e -> e.getValue().get()).sum();
        report.append(String.format(Locale.ROOT, "%n### Soak: %d workers, %.0f s, mixed POST / GET include / GET / PATCH%n%n", workers, elapsed))
                .append(String.format(Locale.ROOT, "- requests: %d (%.0f/s); statuses: %s%n", total, total / elapsed, new java.util.TreeMap<>(statuses)))
                .append(String.format(Locale.ROOT, "- 5xx or transport errors: %d%n", serverErrors))
                .append(String.format(Locale.ROOT, "- acknowledged project creates: %d; missing afterwards: %d%n", written, missing))
                .append("- app RSS: ").append(String.join(", ", rss)).append('\n');
        assertThat(serverErrors).isZero();
        assertThat(missing).isZero();
    }

    // --- measurement -------------------------------------------------------------------------------------

    void compare(String scenario, String route, String title, Load.Op cairn, Load.Op rawOp) throws Exception {
        compare(scenario, route, title, cairn, rawOp, null, null, null, null);
    }

    /**
     * A GET route of Cairn beside the raw call, the two hand-written services and (if started) the other build. The
     * quarkus-rest baseline makes its route's one Query by construction (it sends no X-DynamoDB-Calls): counted as 1.
     */
    void compareGet(String scenario, String route, String title, String path, Load.Op rawOp) throws Exception {
        String bodies = compareBodies(path);
        compare(scenario, route, title, w -> get(path), rawOp, w -> getFrom(hand, path), w -> {
            getFrom(rest, path);
            return 1;
        }, other == null ? null : w -> getFrom(other, path), bodies);
    }

    /**
     * Cairn's answer beside the quarkus-rest baseline's, byte for byte: identical, identical but for the {@code next}
     * cursor (Cairn seals its cursor with AES-GCM under a fresh nonce, so even two Cairn answers differ there; the
     * baseline writes the last key in base64url), or different (the first difference, which the report shows).
     */
    String compareBodies(String path) throws Exception {
        String cairn = http.send(HttpRequest.newBuilder(URI.create(app.base() + path)).build(), HttpResponse.BodyHandlers.ofString()).body();
        String baseline = http.send(HttpRequest.newBuilder(URI.create(rest.base() + path)).build(), HttpResponse.BodyHandlers.ofString()).body();
        String verdict;
        if (cairn.equals(baseline)) {
            verdict = "byte-identical (" + bytes(cairn) + " bytes)";
        } else {
            String cursor = "\"next\":\"[A-Za-z0-9_-]+\"";
            String a = cairn.replaceAll(cursor, "\"next\":\"…\"");
            String b = baseline.replaceAll(cursor, "\"next\":\"…\"");
            if (a.equals(b)) {
                verdict = "byte-identical but for the `next` cursor (" + bytes(cairn) + " and " + bytes(baseline) + " bytes)";
            } else {
                int at = 0;
                while (at < Math.min(a.length(), b.length()) && a.charAt(at) == b.charAt(at)) {
                    at++;
                }
                verdict = "DIFFERENT from byte " + at + ": Cairn `" + a.substring(at, Math.min(a.length(), at + 60))
                        + "`, quarkus-rest `" + b.substring(at, Math.min(b.length(), at + 60)) + "`";
            }
        }
        report.append("\nAnswer of `GET ").append(path).append("`, Cairn beside the quarkus-rest baseline: ").append(verdict).append(".\n");
        return verdict;
    }

    static int bytes(String body) {
        return body.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }

    /** One implementation in a comparison: its load, its process (null: the raw SDK in this JVM), its runs and CPU. */
    /** The measured windows of a run (contender, route, concurrency, start and end in epoch milliseconds). */
    static final Path WINDOWS = Path.of("target/bench/windows.csv");
    /** CPU per thread group in each measured window (contender, route, concurrency, round, group, CPU ms, requests). */
    static final Path THREADS = Path.of("target/bench/thread-cpu.csv");
    /** Each measured window's stacks (-Dbench.profiler.windows=true) and requests.csv, their requests. */
    static final Path PROFILES = Path.of("target/bench/profiles");

    /** The route being measured, for the windows file. */
    String measuredRoute = "";
    /** The measured window of the route being compared. */
    Duration measuredWindow = duration;

    final class Contender {
        final String name;
        final AppProcess process;
        final Load.MeteredOp op;
        final List<Load.Result> runs = new ArrayList<>();
        /** CPU time of each run's measured window (empty for the raw SDK). */
        final List<Double> runCpuMillis = new ArrayList<>();
        double cpuMillis;
        /** The part of {@link #cpuMillis} the JIT compiler threads used. */
        double compileMillis;

        Contender(String name, AppProcess process, Load.MeteredOp op) {
            this.name = name;
            this.process = process;
            this.op = op;
        }

        /** One run; the process' CPU is read at the edges of the measured window itself, warm-up excluded. */
        void run(int concurrency) throws Exception {
            boolean profiling = process != null && process.profilable;
            long[] profiled = new long[2];
            if (profiling) {
                Files.createDirectories(PROFILES);
            }
            double[] cpu = new double[2];
            long[] wall = new long[2];
            List<Map<String, Double>> threads = new ArrayList<>(List.of(Map.of(), Map.of()));
            Load.Window window = new Load.Window() {
                @Override
                public void opened() throws Exception {
                    if (profiling) {
                        process.profileWindow(null);
                        profiled[0] = System.nanoTime(); // sampling from here to the stop command's arrival
                    }
                    wall[0] = System.currentTimeMillis();
                    threads.set(0, process == null ? Map.of() : process.threadCpuMillis());
                    cpu[0] = process == null ? 0 : process.cpuMillis();
                }

                @Override
                public void closed() throws Exception {
                    cpu[1] = process == null ? 0 : process.cpuMillis();
                    threads.set(1, process == null ? Map.of() : process.threadCpuMillis());
                    wall[1] = System.currentTimeMillis();
                    if (profiling) {
                        long stopping = System.nanoTime();
                        process.profileWindow(PROFILES.resolve(String.format(Locale.ROOT, "%s-%s-c%d-r%d.collapsed",
                                Charts.slug(name), Charts.slug(measuredRoute), concurrency, runs.size() + 1)));
                        // the stop arrives while jcmd returns: count half of its round trip
                        profiled[1] = stopping + (System.nanoTime() - stopping) / 2;
                    }
                    // When each measured window ran, so a JFR recording (-Dbench.jfr) can be read window by window.
                    Files.writeString(WINDOWS, String.format(Locale.ROOT, "%s,%s,%d,%d,%d%n", name, measuredRoute, concurrency,
                            wall[0], wall[1]), java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
                }
            };
            Load.Result result = Load.metered(concurrency, warmup, measuredWindow, op, window);
            runs.add(result);
            if (profiling) {
                // the profiler ran from its start's return to its stop's arrival, about the window: its requests at the window's rate
                Files.writeString(PROFILES.resolve("requests.csv"), String.format(Locale.ROOT, "%s,%s,%d,%d,%.0f%n",
                        Charts.slug(name), Charts.slug(measuredRoute), concurrency, runs.size(),
                        result.opsPerSecond() * (profiled[1] - profiled[0]) / 1e9),
                        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            }
            // Where the process spent the window's CPU, by thread group: event loops, worker pool, GC, JIT compilers.
            var lines = new StringBuilder();
            threads.get(1).forEach((group, after) -> {
                double used = after - threads.get(0).getOrDefault(group, 0.0);
                if (used > 0 && group.contains("CompilerThre")) {
                    compileMillis += used;
                }
                if (used > 0) {
                    lines.append(String.format(Locale.ROOT, "%s,%s,%d,%d,%s,%.0f,%d%n", name, measuredRoute, concurrency, runs.size(),
                            group, used, result.ops()));
                }
            });
            Files.writeString(THREADS, lines, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            if (process != null) {
                runCpuMillis.add(cpu[1] - cpu[0]);
                cpuMillis += cpu[1] - cpu[0];
            }
        }

        /** The rounds one by one, in the order they ran. */
        List<RunData.RoundRow> rounds(int concurrency) {
            var rows = new ArrayList<RunData.RoundRow>();
            for (int i = 0; i < runs.size(); i++) {
                Load.Result r = runs.get(i);
                Double cpu = process == null ? null : runCpuMillis.get(i) / Math.max(1, r.ops());
                rows.add(new RunData.RoundRow(concurrency, name, i + 1, r.opsPerSecond(), r.p50Ms(), r.p99Ms(), cpu));
            }
            return rows;
        }

        Load.Result merged() {
            return merge(runs);
        }

        double cpuPerOp() {
            return process == null ? Double.NaN : cpuMillis / Math.max(1, merged().ops());
        }
    }

    /**
     * Cairn beside the raw SDK call and, for GET routes, beside the hand-written service (and another build of
     * Cairn, if one was given): interleaved rounds, in reverse order every other round so that no implementation
     * always runs first or last; each process' CPU is read from /proc over its own runs.
     */
    void compare(String scenario, String route, String title, Load.Op cairnOp, Load.Op rawOp, Load.Op handOp,
                 Load.Op restOp, Load.Op otherOp, String bodies) throws Exception {
        var rows = new ArrayList<RunData.Row>();
        var roundRows = new ArrayList<RunData.RoundRow>();
        var compilerShares = new ArrayList<String>();
        measuredRoute = route;
        measuredWindow = duration;
        report.append("\n### ").append(title).append("\n\n")
                .append("| concurrency | impl | ops/s | p50 ms | p99 ms | DynamoDB calls/op | app CPU ms/op | errors |\n")
                .append("|---|---|---|---|---|---|---|---|\n");
        for (int concurrency : concurrencies) {
            var rawSdk = new Contender(RunData.RAW_SDK, null, counted(rawOp));
            var handWritten = handOp == null ? null : new Contender(RunData.HAND_WRITTEN, hand, counted(handOp));
            var quarkusRest = restOp == null ? null : new Contender(RunData.QUARKUS_REST, rest, counted(restOp));
            var otherBuild = otherOp == null ? null : new Contender(RunData.OTHER_BUILD, other, counted(otherOp));
            var cairn = new Contender(RunData.CAIRN, app, counted(cairnOp));
            var order = new ArrayList<Contender>();
            for (Contender contender : Arrays.asList(rawSdk, handWritten, quarkusRest, otherBuild, cairn)) {
                if (contender != null) {
                    order.add(contender);
                }
            }
            if (concurrency == concurrencies.get(0)) {
                settle(order);
            }
            for (int round = 0; round < ROUNDS; round++) {
                for (Contender contender : order) {
                    contender.run(concurrency);
                }
                Collections.reverse(order);
            }
            row(concurrency, cairn);
            for (Contender baseline : Arrays.asList(quarkusRest, handWritten, otherBuild)) {
                if (baseline != null) {
                    row(concurrency, baseline);
                    ratio(concurrency, cairn, baseline);
                }
            }
            row(concurrency, rawSdk);
            ratio(concurrency, cairn, rawSdk);
            for (Contender contender : order) {
                Load.Result r = contender.merged();
                double cpu = contender.cpuPerOp();
                rows.add(new RunData.Row(concurrency, contender.name, r.opsPerSecond(), r.p50Ms(), r.p99Ms(), r.callsPerOp(),
                        Double.isNaN(cpu) ? null : cpu, r.errors(), Double.isNaN(r.capacityPerOp()) ? null : r.capacityPerOp()));
                roundRows.addAll(contender.rounds(concurrency));
            }
            if (quarkusRest != null && ROUNDS > 1) {
                roundRatios(concurrency, cairn, quarkusRest);
            }
            compilerShares.add(compilerShares(concurrency, order));
        }
        report.append("\nThe JIT compilers' share of each process' measured CPU: ").append(String.join("; ", compilerShares))
                .append(".\n");
        data.comparisons.add(new RunData.Comparison(scenario, route, title, rows, roundRows, bodies));
    }

    void row(int concurrency, Contender contender) {
        row(concurrency, contender.name, contender.merged(), contender.cpuPerOp());
    }

    /** Cairn / a baseline: throughput, p50, p99 and (for another process) CPU per request. */
    void ratio(int concurrency, Contender cairn, Contender baseline) {
        Load.Result c = cairn.merged();
        Load.Result b = baseline.merged();
        String cpu = baseline.process == null ? "" : String.format(Locale.ROOT, "**%.2f**", cairn.cpuPerOp() / baseline.cpuPerOp());
        report.append(String.format(Locale.ROOT, "| %d | **Cairn / %s** | **%.2f** | **%.2f** | %.2f | | %s | |%n", concurrency,
                baseline.name, c.opsPerSecond() / b.opsPerSecond(), c.p50Ms() / b.p50Ms(), c.p99Ms() / b.p99Ms(), cpu));
    }

    /** Cairn / a baseline round by round (round n of each): how far the rounds of one run spread. */
    void roundRatios(int concurrency, Contender cairn, Contender baseline) {
        var ops = new ArrayList<String>();
        var p50 = new ArrayList<String>();
        var cpu = new ArrayList<String>();
        for (int i = 0; i < Math.min(cairn.runs.size(), baseline.runs.size()); i++) {
            Load.Result c = cairn.runs.get(i);
            Load.Result b = baseline.runs.get(i);
            ops.add(String.format(Locale.ROOT, "%.2f", c.opsPerSecond() / b.opsPerSecond()));
            p50.add(String.format(Locale.ROOT, "%.2f", c.p50Ms() / b.p50Ms()));
            cpu.add(String.format(Locale.ROOT, "%.2f", (cairn.runCpuMillis.get(i) / Math.max(1, c.ops()))
                    / (baseline.runCpuMillis.get(i) / Math.max(1, b.ops()))));
        }
        report.append(String.format(Locale.ROOT, "| %d | Cairn / %s, round by round | %s | %s | | | %s | |%n", concurrency,
                baseline.name, String.join(" · ", ops), String.join(" · ", p50), String.join(" · ", cpu)));
    }

    void row(int concurrency, String impl, Load.Result r, double cpuPerOp) {
        report.append(String.format(Locale.ROOT, "| %d | %s | %.0f | %.2f | %.2f | %.2f | %s | %d |%n", concurrency, impl,
                r.opsPerSecond(), r.p50Ms(), r.p99Ms(), r.callsPerOp(),
                Double.isNaN(cpuPerOp) ? "-" : String.format(Locale.ROOT, "%.2f", cpuPerOp), r.errors()));
    }

    static Load.Result merge(List<Load.Result> runs) {
        long ops = runs.stream().mapToLong(Load.Result::ops).sum();
        double seconds = runs.stream().mapToDouble(Load.Result::seconds).sum();
        double p50 = runs.stream().mapToDouble(Load.Result::p50Ms).sorted().toArray()[runs.size() / 2];
        double p99 = runs.stream().mapToDouble(Load.Result::p99Ms).max().orElse(0);
        double calls = runs.stream().mapToDouble(r -> r.callsPerOp() * r.ops()).sum() / Math.max(1, ops);
        double capacity = runs.stream().mapToDouble(r -> r.capacityPerOp() * r.ops()).sum() / Math.max(1, ops);
        return new Load.Result(ops, seconds, p50, p99, calls, runs.stream().mapToLong(Load.Result::errors).sum(), capacity);
    }

    void header(double idleRss) {
        report.append("Machine: ").append(Runtime.getRuntime().availableProcessors()).append(" cores, Java ")
                .append(System.getProperty("java.version")).append(", DynamoDB Local 3.3.1 in-memory in the benchmark JVM; ")
                .append("the app is the packaged jar in its own JVM. Warm-up ").append(warmup.toSeconds()).append(" s, ")
                .append(ROUNDS).append(" interleaved rounds of ").append(duration.toSeconds()).append(" s per implementation and concurrency.\n\n")
                .append(String.format(Locale.ROOT, "App startup to ready: %d ms; RSS idle: %.0f MB.%n", app.startupMillis, idleRss));
    }

    // --- helpers -----------------------------------------------------------------------------------------

    /**
     * The raw baseline's copy of the Query an endpoint makes, as the app lists it at /access-patterns (key
     * condition, projection, names), for another partition: the same request, issued by the bare SDK.
     */
    QueryRequest endpointQuery(String route, String partition) throws Exception {
        JsonNode patterns = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(app.base() + "/access-patterns")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
        for (JsonNode pattern : patterns) {
            if (!route.equals(pattern.path("route").asText())) {
                continue;
            }
            JsonNode request = pattern.get("request");
            var names = new HashMap<String, String>();
            request.get("ExpressionAttributeNames").fields().forEachRemaining(e -> names.put(e.getKey(), e.getValue().asText()));
            String valueName = request.get("ExpressionAttributeValues").fieldNames().next();
            return QueryRequest.builder().tableName(TABLE).keyConditionExpression(request.get("KeyConditionExpression").asText())
                    .projectionExpression(request.hasNonNull("ProjectionExpression") ? request.get("ProjectionExpression").asText() : null)
                    .expressionAttributeNames(names).expressionAttributeValues(Map.of(valueName, s(partition)))
                    .consistentRead(request.path("ConsistentRead").asBoolean(false))
                    .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build();
        }
        throw new IllegalStateException("no access pattern for " + route);
    }

    /**
     * Starts the hand-written service with the app's own Queries for the GET routes the benchmark drives (from
     * /access-patterns, with the example id each was listed for).
     */
    void startHandWritten(String dynamoEndpoint) throws Exception {
        hand = AppProcess.startHandWritten(dynamoEndpoint, handWrittenRoutes(), directCompletion(), "hand-written");
        report.append(String.format(Locale.ROOT, "Hand-written service startup to ready: %d ms; RSS idle: %.0f MB.%n",
                hand.startupMillis, hand.rssMb()));
    }

    /** The app's access patterns of the GET routes the hand-written service answers, as a file it reads at start. */
    Path handWrittenRoutes() throws Exception {
        Map<String, String> exampleIds = Map.of("GET /matches/{id}", "bgt-2025-test-1",
                "GET /workspaces/{id}/projects", "acme", "GET /courses/{cid}/students", "math204");
        JsonNode patterns = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(app.base() + "/access-patterns")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
        var routes = JSON.createArrayNode();
        for (JsonNode pattern : patterns) {
            String exampleId = exampleIds.get(pattern.path("route").asText());
            if (exampleId != null) {
                routes.addObject().put("route", pattern.get("route").asText()).put("exampleId", exampleId)
                        .set("request", pattern.get("request"));
            }
        }
        assertThat(routes.size()).as("the access patterns of the hand-written routes").isEqualTo(exampleIds.size());
        Path file = Path.of("target/bench/hand-written-routes.json");
        Files.writeString(file, routes.toPrettyString());
        return file;
    }

    /** The hand-written client completes SDK futures where the app's does (application.properties). */
    static boolean directCompletion() throws IOException {
        return Files.readAllLines(Path.of("src/main/resources/application.properties")).stream()
                .anyMatch(line -> line.replace(" ", "").equals("quarkus.dynamodb.async-client.advanced.use-future-completion-thread-pool=false"));
    }

    /**
     * Starts the quarkus-rest baseline with the same access patterns as the hand-written service (the app's own
     * Queries, read at its start).
     */
    void startQuarkusRest(String dynamoEndpoint) throws Exception {
        rest = AppProcess.startQuarkusRest(dynamoEndpoint, Path.of("target/bench/hand-written-routes.json"), "quarkus-rest");
        report.append(String.format(Locale.ROOT, "quarkus-rest baseline startup to ready: %d ms; RSS idle: %.0f MB.%n",
                rest.startupMillis, rest.rssMb()));
    }

    int get(String path) throws Exception {
        return getFrom(app, path);
    }

    int getFrom(AppProcess target, String path) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(target.base() + path)).GET().build(), 200);
    }

    /** The other build, started like this one (its own log: target/bench/other.log). */
    void startOther(String dynamoEndpoint, Path quarkusApp) throws Exception {
        other = AppProcess.start(dynamoEndpoint, List.of("-Dcairn.auth.enabled=false"), "other",
                quarkusApp.resolve("quarkus-run.jar"));
        report.append(String.format(Locale.ROOT, "Other build (%s) startup to ready: %d ms; RSS idle: %.0f MB.%n",
                checkoutName(quarkusApp), other.startupMillis, other.rssMb()));
    }

    int post(String path, String body) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(app.base() + path)).POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json").build(), 201);
    }

    int send(HttpRequest request, int expected) throws Exception {
        return sendMetered(request, expected).calls();
    }

    /** Sends a request and reads what it cost DynamoDB from the answer: X-DynamoDB-Calls and X-DynamoDB-Capacity. */
    Load.Cost sendMetered(HttpRequest request, int expected) throws Exception {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != expected) {
            throw new IllegalStateException(request.method() + " " + request.uri() + " answered " + response.statusCode()
                    + ": " + response.body());
        }
        return new Load.Cost(response.headers().firstValue("X-DynamoDB-Calls").map(Integer::parseInt).orElse(0),
                response.headers().firstValue("X-DynamoDB-Capacity").map(Double::parseDouble).orElse(Double.NaN));
    }

    /** An operation that counts calls only, as one that reports no capacity. */
    static Load.MeteredOp counted(Load.Op op) {
        return op == null ? null : w -> new Load.Cost(op.run(w), Double.NaN);
    }

    int queryAll(QueryRequest request) {
        int pages = 0;
        Map<String, AttributeValue> start = null;
        do {
            QueryResponse page = raw.query(request.toBuilder().exclusiveStartKey(start).build()).join();
            pages++;
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return pages;
    }

    List<Map<String, AttributeValue>> queryAllItems(String pk) {
        return raw.query(QueryRequest.builder().tableName(TABLE).keyConditionExpression("#pk = :pk")
                .expressionAttributeNames(Map.of("#pk", TableSpec.PK)).expressionAttributeValues(Map.of(":pk", s(pk)))
                .consistentRead(true).build()).join().items();
    }

    boolean enabled(String scenario) {
        return scenarios.contains("all") || scenarios.contains(scenario);
    }

    static Map<String, AttributeValue> key(String pk, String sk) {
        return Map.of("pk", s(pk), "sk", s(sk));
    }

    static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    static AttributeValue n(String value) {
        return AttributeValue.fromN(value);
    }

    static List<Integer> parse(String list) {
        return Arrays.stream(list.split(",")).map(String::trim).map(Integer::parseInt).toList();
    }
}
