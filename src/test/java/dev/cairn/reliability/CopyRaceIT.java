package dev.cairn.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.Eventually;
import dev.cairn.platform.EmbeddedDynamoDb;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A copy written from a source read just before the source changed must not keep the old source for good. Two
 * replicas of the packaged app share one DynamoDB Local table: the writer W reaches it through a semantics layer
 * that holds every write call back a while (so between W's read of a player and the commit of its copy there is
 * time), the patcher C reaches it directly. Each round W starts a write that embeds a player (a squad selection
 * created or re-pointed, a match created or changed, a match large enough for several transactions created or
 * replaced) or a product (a shop order created, or given a line, whose lines copy their products: the shop exists only
 * as a model file) and, a moment later, C renames that player or product with an eventual cascade. C's cascade, and its settle pass a
 * second later, may run before W's copy exists; only a writer that checks the versions it copied when it commits
 * can keep such a copy from staying old. After the settle window every copy must show its source's current name, and
 * every order (the shop's orders keep their versions, a cascade's rewrite included) has each of its versions once.
 */
class CopyRaceIT {

    static final int ROUNDS = Integer.getInteger("copy-race.rounds", 32);
    /** Between round starts: rounds overlap, each on its own player. */
    static final Duration STAGGER = Duration.ofMillis(400);
    /** C's rename starts this long (at most) after W's write. */
    static final int MAX_PATCH_OFFSET_MS = 400;
    /**
     * How long W's write calls are held. A copy committed before C's settle pass reads the index is healed by that
     * pass (with 150-400 ms every copy was), so the range straddles the settle window: some races are healed by
     * the settle pass, the rest only by a writer that checks what it copied.
     */
    static final Duration WRITE_LATENCY_MIN = Duration.ofMillis(Integer.getInteger("copy-race.latency-min-ms", 200));
    static final Duration WRITE_LATENCY_MAX = Duration.ofMillis(Integer.getInteger("copy-race.latency-max-ms", 2500));
    static final Duration SETTLE = Duration.ofMillis(Integer.getInteger("copy-race.settle-ms", 1000));
    static final Duration POLL = Duration.ofMillis(300);
    /** Fillers of a large match: 60 players per sheet need more than one transaction. */
    static final int SHEET = 60;
    static final ObjectMapper JSON = new ObjectMapper();
    static final String GUARD_METRIC = "cairn_copies_guard_caught_total";

    enum Kind {
        SELECTION_CREATE, SELECTION_PATCH, MATCH_CREATE, MATCH_PATCH, LARGE_MATCH_CREATE, LARGE_MATCH_PUT, ORDER_CREATE, ORDER_PATCH;

        /** The shop's rounds race a product's rename; the others a player's. */
        boolean shop() {
            return this == ORDER_CREATE || this == ORDER_PATCH;
        }
    }

    /** What one round did: its write on W and its rename on C, with when each was answered. */
    record Round(int n, Kind kind, String source, Answer write, long writeSent, long writeAnswered, Answer rename,
                 long renameSent, long renameAnswered) {

        /** The rename was sent after the write and answered before it: it ran inside the write's window. */
        boolean overlapped() {
            return renameSent > writeSent && renameAnswered < writeAnswered;
        }
    }

    record Answer(int status, String contentType, JsonNode body) {
    }

    final String k = UUID.randomUUID().toString().substring(0, 8);
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    final ExecutorService pool = Executors.newFixedThreadPool(48, r -> {
        Thread t = new Thread(r, "copy-race-client");
        t.setDaemon(true);
        return t;
    });
    final List<String> fillers = IntStream.range(0, 2 * SHEET).mapToObj(i -> "f" + i + "-" + k).toList();
    EmbeddedDynamoDb dynamo;
    DynamoDbSemantics slowWrites;
    PackagedApp patcher;
    PackagedApp writer;

    @BeforeEach
    void start() throws Exception {
        dynamo = EmbeddedDynamoDb.start(0, null);
        slowWrites = DynamoDbSemantics.start(dynamo.endpoint());
        var settings = List.of("-Dcairn.cascade.settle=" + SETTLE.toMillis() + "ms", "-Dcairn.jobs.poll=" + POLL.toMillis() + "ms",
                "-Dquarkus.dynamodb.api-call-timeout=30S", "-Dquarkus.dynamodb.api-call-attempt-timeout=15S",
                // a large write's calls are each held back: its lease must outlast them, or the other replica undoes it
                "-Dcairn.jobs.aggregate-lease=30s");
        // C first: it creates the table.
        patcher = PackagedApp.start(dynamo.endpoint(), settings);
        writer = PackagedApp.start(slowWrites.endpoint(), settings);
    }

    @AfterEach
    void stop() throws Exception {
        pool.shutdownNow();
        if (writer != null) {
            writer.stop();
        }
        if (patcher != null) {
            patcher.stop();
        }
        slowWrites.close();
        dynamo.close();
    }

    @Test
    void everyCopyShowsItsSourcesCurrentNameAfterRenamesRacingTheWritesThatCopyThem() throws Exception {
        List<String> raced = IntStream.range(0, ROUNDS).mapToObj(i -> "r" + i + "-" + k).toList();
        fixtures(raced);
        slowWrites.latency(WRITE_LATENCY_MIN, WRITE_LATENCY_MAX, "TransactWriteItems", "PutItem", "UpdateItem");

        long started = System.nanoTime();
        var rounds = new ArrayList<CompletableFuture<Round>>();
        for (int n = 0; n < ROUNDS; n++) {
            int round = n;
            rounds.add(CompletableFuture.supplyAsync(() -> race(round, raced.get(round)), pool));
            Thread.sleep(STAGGER.toMillis());
        }
        List<Round> done = rounds.stream().map(CompletableFuture::join).toList();
        slowWrites.reset();

        var refused = new TreeMap<String, Integer>();
        for (Round r : done) {
            assertThat(r.rename().status()).as("round %d: the rename on C: %s", r.n(), r.rename().body()).isIn(200, 202);
            int status = r.write().status();
            if (status == 409 || status == 503) {
                // Documented retryable answers of a write that met another one; they must be problems, not crashes.
                assertThat(r.write().contentType()).as("round %d: %d %s", r.n(), status, r.write().body())
                        .startsWith("application/problem+json");
                refused.merge(r.kind() + " " + status + " " + r.write().body().path("code").asText(), 1, Integer::sum);
            } else {
                assertThat(status).as("round %d (%s): %s", r.n(), r.kind(), r.write().body())
                        .isEqualTo(r.kind().name().endsWith("CREATE") ? 201 : 200);
            }
        }
        long overlapped = done.stream().filter(Round::overlapped).count();
        // Without the window the test proves nothing: most renames must run while a write is under way.
        assertThat(overlapped).as("rounds whose rename ran inside the write").isGreaterThanOrEqualTo(ROUNDS / 3);
        // The shop's rounds too: a product renamed inside an order write that then succeeded.
        long shopOverlapped = done.stream().filter(r -> r.kind().shop() && r.overlapped() && r.write().status() < 300).count();
        assertThat(shopOverlapped).as("shop rounds whose rename ran inside a successful order write").isPositive();

        AssertionError notConverged = null;
        try {
            // The settle pass runs SETTLE after the first pass, on whichever worker polls first; a few seconds more.
            Eventually.within(SETTLE.plus(POLL).plusSeconds(8), () -> assertThat(stale(done)).as("copies older than their player").isEmpty());
        } catch (AssertionError e) {
            notConverged = e;
        }
        List<String> stale = stale(done);
        long caught = guardCaught();
        var staleByKind = new TreeMap<Kind, Integer>();
        stale.forEach(s -> staleByKind.merge(Kind.valueOf(s.substring(0, s.indexOf(' '))), 1, Integer::sum));
        System.out.printf("copy race: %d rounds (%d overlapped, %d of them shop orders), races caught by the writer: %s, stale copies: %d %s,"
                        + " refused writes: %s, write latency %d-%d ms, settle %d ms, %d s%n",
                ROUNDS, overlapped, shopOverlapped, caught, stale.size(), staleByKind,
                refused, WRITE_LATENCY_MIN.toMillis(), WRITE_LATENCY_MAX.toMillis(), SETTLE.toMillis(),
                Duration.ofNanos(System.nanoTime() - started).toSeconds());
        stale.forEach(s -> System.out.println("  stale: " + s));
        if (notConverged != null) {
            throw notConverged;
        }
        // The writer reports what it caught: with renames inside most writes, it must have caught some.
        assertThat(caught).as(GUARD_METRIC).isPositive();
        // The shop's orders keep their versions: whoever wrote them (W's writes, C's cascade into their lines, either
        // process's settle pass), each order's versions run from its current one down to 1 without a gap or a twin.
        int cascaded = 0;
        for (Round r : done) {
            if (r.kind().shop() && r.write().status() < 300) {
                cascaded += versionsOnce(orderId(r.n()), r.source()).size();
            }
        }
        System.out.printf("copy race: order versions written by the product's cascade: %d%n", cascaded);
    }

    /**
     * A product's eventual cascade into orders that keep their versions, on C, while W changes the same orders: the
     * cascade reads each order and writes its copy checked at the version read, with the version it replaces kept, and
     * W's changes are checked at theirs. Whichever commits first, the other reads again: no version is lost, twice, or
     * out of order, and every order ends with the product's last name.
     */
    @Test
    void aProductsCascadeIntoOrdersRacingTheirChangesOnAnotherReplicaKeepsEachVersionOnce() throws Exception {
        String product = "pv-" + k;
        created(patcher, "/products", "{\"id\":\"" + product + "\",\"name\":\"Original\",\"brand\":\"race\",\"price\":10}");
        created(patcher, "/products", "{\"id\":\"" + fillerProduct() + "\",\"name\":\"Filler\",\"brand\":\"race\",\"price\":1}");
        int orders = 6;
        all(IntStream.range(0, orders).mapToObj(n -> (Runnable) () -> created(patcher, "/orders",
                order(n, List.of(product, fillerProduct())))).toList());
        slowWrites.latency(Duration.ofMillis(50), Duration.ofMillis(400), "TransactWriteItems", "PutItem", "UpdateItem");
        // W: five changes of each order's quantities, one after another per order, all orders at once
        var changes = new ArrayList<CompletableFuture<List<Integer>>>();
        for (int n = 0; n < orders; n++) {
            int order = n;
            changes.add(CompletableFuture.supplyAsync(() -> {
                var statuses = new ArrayList<Integer>();
                for (int q = 2; q <= 6; q++) {
                    statuses.add(send(writer, "PATCH", "/orders/" + orderId(order), "application/merge-patch+json",
                            "{\"lines\":[{\"productId\":\"" + product + "\",\"quantity\":" + q + "},{\"productId\":\""
                                    + fillerProduct() + "\",\"quantity\":1}]}").status());
                }
                return statuses;
            }, pool));
        }
        // C: three renames while they run, each cascading into every order
        for (int r = 1; r <= 3; r++) {
            sleep(250);
            Answer renamed = send(patcher, "PATCH", "/products/" + product + "?cascade=eventual",
                    "application/merge-patch+json", "{\"name\":\"Renamed" + r + "\"}");
            assertThat(renamed.status()).as("rename %d: %s", r, renamed.body()).isIn(200, 202);
        }
        var statuses = changes.stream().map(CompletableFuture::join).flatMap(List::stream).toList();
        slowWrites.reset();
        // a change that met the cascade's commit is a documented retryable answer; most go through
        assertThat(statuses).as("the changes' answers").contains(200).allMatch(status -> status == 200 || status == 409
                || status == 503);
        Eventually.within(SETTLE.plus(POLL).plusSeconds(10), () -> {
            for (int n = 0; n < orders; n++) {
                JsonNode lines = ok(send(patcher, "GET", "/orders/" + orderId(n), null, null)).path("lines");
                assertThat(copyName(lines, product)).as("the copy in %s", orderId(n)).isEqualTo("Renamed3");
            }
        });
        int cascaded = 0;
        for (int n = 0; n < orders; n++) {
            var byCascade = versionsOnce(orderId(n), product);
            cascaded += byCascade.size();
            // a version the cascade wrote holds a new name of the product, never the one it replaced
            for (JsonNode version : byCascade) {
                assertThat(copyName(version.path("item").path("lines"), product))
                        .as("%s's version %s, written by the cascade", orderId(n), version.path("version"))
                        .isIn("Renamed1", "Renamed2", "Renamed3");
            }
        }
        System.out.printf("cascade race: %d orders, changes answered %s, versions written by the cascade: %d%n", orders,
                statuses.stream().collect(java.util.stream.Collectors.groupingBy(s -> s, TreeMap::new,
                        java.util.stream.Collectors.counting())), cascaded);
        assertThat(cascaded).as("versions the cascade wrote (it rewrote orders W was changing)").isPositive();
    }

    /** The name the copy of {@code product} in an order's lines holds. */
    static String copyName(JsonNode lines, String product) {
        for (JsonNode line : lines) {
            if (line.path("product").path("id").asText().equals(product)) {
                return line.path("product").path("name").asText();
            }
        }
        throw new AssertionError("no line of " + product + " in " + lines);
    }

    /**
     * An order's versions, read through C: from its current one down to 1, each once, each naming who wrote it. Returns
     * the ones {@code product}'s cascade wrote.
     */
    List<JsonNode> versionsOnce(String order, String product) {
        JsonNode items = ok(send(patcher, "GET", "/orders/" + order + "/versions?limit=100", null, null)).path("items");
        var numbers = new ArrayList<Integer>();
        var byCascade = new ArrayList<JsonNode>();
        for (JsonNode item : items) {
            numbers.add(item.path("version").asInt());
            String writer = item.path("writtenBy").asText();
            assertThat(writer).as("%s: who wrote version %s", order, item.path("version")).isNotBlank();
            if (writer.equals("cascade:Product/" + product)) {
                byCascade.add(item);
            }
        }
        var expected = new ArrayList<Integer>();
        for (int v = numbers.isEmpty() ? 0 : numbers.get(0); v >= 1; v--) {
            expected.add(v);
        }
        assertThat(numbers).as("the versions of %s", order).isNotEmpty().isEqualTo(expected);
        return byCascade;
    }

    // --- one round ----------------------------------------------------------------------------------------------

    Round race(int n, String source) {
        Kind kind = Kind.values()[n % Kind.values().length];
        long writeSent = System.nanoTime();
        var writeAnswered = new AtomicLong();
        CompletableFuture<Answer> write = CompletableFuture.supplyAsync(() -> {
            Answer answer = write(kind, n, source);
            writeAnswered.set(System.nanoTime());
            return answer;
        }, pool);
        sleep(ThreadLocalRandom.current().nextInt(MAX_PATCH_OFFSET_MS + 1));
        long renameSent = System.nanoTime();
        Answer rename = kind.shop()
                ? send(patcher, "PATCH", "/products/" + source + "?cascade=eventual", "application/merge-patch+json",
                "{\"name\":\"Renamed" + n + "\"}")
                : send(patcher, "PATCH", "/players/" + source + "?cascade=eventual", "application/merge-patch+json",
                "{\"firstName\":\"Renamed" + n + "\"}");
        long renameAnswered = System.nanoTime();
        return new Round(n, kind, source, write.join(), writeSent, writeAnswered.get(), rename, renameSent, renameAnswered);
    }

    /** W's write that embeds {@code player} (a product in the shop's rounds); what it changes was made by {@link #fixtures}. */
    Answer write(Kind kind, int n, String player) {
        return switch (kind) {
            case SELECTION_CREATE -> send(writer, "POST", "/squads/sq-" + k + "/selections", "application/json",
                    selection(n, player));
            case SELECTION_PATCH -> send(writer, "PATCH", "/squads/sq-" + k + "/selections/" + (n + 1),
                    "application/merge-patch+json", "{\"playerId\":\"" + player + "\"}");
            case MATCH_CREATE -> send(writer, "POST", "/matches", "application/json",
                    match(matchId(n), List.of(player, fillers.get(0)), List.of(fillers.get(1))));
            case MATCH_PATCH -> send(writer, "PATCH", "/matches/" + matchId(n), "application/json-patch+json",
                    "[{\"op\":\"add\",\"path\":\"/team1/players/-\",\"value\":{\"playerId\":\"" + player
                            + "\",\"battingPosition\":2,\"isCaptain\":false}}]");
            case LARGE_MATCH_CREATE -> send(writer, "POST", "/matches", "application/json", largeMatch(n, player));
            case LARGE_MATCH_PUT -> send(writer, "PUT", "/matches/" + matchId(n), "application/json", largeMatch(n, player));
            case ORDER_CREATE -> send(writer, "POST", "/orders", "application/json", order(n, List.of(player, fillerProduct())));
            case ORDER_PATCH -> send(writer, "PATCH", "/orders/" + orderId(n), "application/json-patch+json",
                    "[{\"op\":\"add\",\"path\":\"/lines/-\",\"value\":{\"productId\":\"" + player + "\",\"quantity\":2}}]");
        };
    }

    // --- fixtures (written through C, unslowed) -------------------------------------------------------------------

    void fixtures(List<String> raced) {
        created(patcher, "/teams", "{\"id\":\"t1-" + k + "\",\"name\":\"Australia\",\"country\":\"Australia\",\"ranking\":1}");
        created(patcher, "/teams", "{\"id\":\"t2-" + k + "\",\"name\":\"India\",\"country\":\"India\",\"ranking\":2}");
        created(patcher, "/coaches", "{\"id\":\"c1-" + k + "\",\"name\":\"Andrew McDonald\"}");
        created(patcher, "/coaches", "{\"id\":\"c2-" + k + "\",\"name\":\"Gautam Gambhir\"}");
        created(patcher, "/venues", "{\"id\":\"v-" + k + "\",\"name\":\"Melbourne Cricket Ground\",\"city\":\"Melbourne\"}");
        var players = new ArrayList<String>(fillers);
        players.addAll(raced);
        all(players.stream().map(id -> (Runnable) () -> created(patcher, "/players", "{\"id\":\"" + id
                + "\",\"firstName\":\"Original\",\"lastName\":\"Player\",\"role\":\"batter\"}")).toList());
        var products = new ArrayList<String>(List.of(fillerProduct()));
        IntStream.range(0, raced.size()).filter(n -> Kind.values()[n % Kind.values().length].shop()).forEach(n -> products.add(raced.get(n)));
        all(products.stream().map(id -> (Runnable) () -> created(patcher, "/products", "{\"id\":\"" + id
                + "\",\"name\":\"Original\",\"brand\":\"race\",\"price\":10}")).toList());
        // What the rounds that change something change: made now, embedding fillers only.
        var before = new ArrayList<Runnable>();
        for (int n = 0; n < raced.size(); n++) {
            int round = n;
            switch (Kind.values()[n % Kind.values().length]) {
                case SELECTION_PATCH -> before.add(() -> created(patcher, "/squads/sq-" + k + "/selections",
                        selection(round, fillers.get(0))));
                case MATCH_PATCH -> before.add(() -> created(patcher, "/matches",
                        match(matchId(round), List.of(fillers.get(0)), List.of(fillers.get(1)))));
                case LARGE_MATCH_PUT -> before.add(() -> created(patcher, "/matches", largeMatch(round, fillers.get(2 * SHEET - 1))));
                case ORDER_PATCH -> before.add(() -> created(patcher, "/orders", order(round, List.of(fillerProduct()))));
                default -> {
                }
            }
        }
        all(before);
    }

    String selection(int n, String player) {
        return "{\"selectionNumber\":" + (n + 1) + ",\"teamId\":\"t1-" + k + "\",\"playerId\":\"" + player
                + "\",\"squadRole\":\"batter\",\"isCaptain\":false}";
    }

    String fillerProduct() {
        return "pf-" + k;
    }

    String orderId(int n) {
        return "o" + n + "-" + k;
    }

    /** A shop order whose lines copy {@code products}. */
    String order(int n, List<String> products) {
        var lines = new StringBuilder();
        for (int i = 0; i < products.size(); i++) {
            lines.append(i > 0 ? "," : "").append("{\"productId\":\"").append(products.get(i)).append("\",\"quantity\":1}");
        }
        return "{\"id\":\"" + orderId(n) + "\",\"workspaceId\":\"race\",\"customerId\":\"c-" + k + "\",\"status\":\"placed\","
                + "\"shipTo\":{\"name\":\"Ann\",\"street\":\"1 High St\",\"city\":\"Leeds\"},\"lines\":[" + lines + "]}";
    }

    String matchId(int n) {
        return "m" + n + "-" + k;
    }

    String match(String id, List<String> team1, List<String> team2) {
        return "{\"id\":\"" + id + "\",\"name\":\"AUS vs IND\",\"venueId\":\"v-" + k + "\","
                + "\"team1\":" + sheet("t1-" + k, "c1-" + k, true, team1) + ","
                + "\"team2\":" + sheet("t2-" + k, "c2-" + k, false, team2) + "}";
    }

    /** Two sheets of {@link #SHEET}: {@code player} first in team1, then fillers. */
    String largeMatch(int n, String player) {
        var team1 = new ArrayList<String>();
        team1.add(player);
        team1.addAll(fillers.subList(0, SHEET - 1));
        return match(matchId(n), team1, fillers.subList(SHEET - 1, 2 * SHEET - 1));
    }

    static String sheet(String team, String coach, boolean home, List<String> players) {
        var out = new StringBuilder();
        for (int i = 0; i < players.size(); i++) {
            out.append(i > 0 ? "," : "").append("{\"playerId\":\"").append(players.get(i))
                    .append("\",\"battingPosition\":").append(i + 1).append(",\"isCaptain\":").append(i == 0).append('}');
        }
        return "{\"teamId\":\"" + team + "\",\"coachId\":\"" + coach + "\",\"homeTeam\":" + home + ",\"players\":[" + out + "]}";
    }

    // --- what the rounds left ---------------------------------------------------------------------------------------

    /**
     * Every copy of a raced player or product that does not show its current name, read through C: the round's
     * selection, match or order (GET), and the player or product (GET). A write W was refused left no copy to check.
     */
    List<String> stale(List<Round> rounds) {
        var stale = new ArrayList<String>();
        for (Round r : rounds) {
            if (r.write().status() >= 300) {
                continue;
            }
            String name = r.kind().shop() ? "name" : "firstName";
            String current = ok(send(patcher, "GET", (r.kind().shop() ? "/products/" : "/players/") + r.source(), null, null))
                    .path(name).asText();
            var copies = new ArrayList<JsonNode>();
            switch (r.kind()) {
                case ORDER_CREATE, ORDER_PATCH -> ok(send(patcher, "GET", "/orders/" + orderId(r.n()), null, null)).path("lines")
                        .forEach(line -> copies.add(line.path("product")));
                case SELECTION_CREATE, SELECTION_PATCH -> copies.add(ok(send(patcher, "GET",
                        "/squads/sq-" + k + "/selections/" + (r.n() + 1), null, null)).path("player"));
                default -> {
                    JsonNode match = ok(send(patcher, "GET", "/matches/" + matchId(r.n()), null, null));
                    for (String team : List.of("team1", "team2")) {
                        match.path(team).path("players").forEach(p -> copies.add(p.path("player")));
                    }
                }
            }
            var ofSource = copies.stream().filter(c -> r.source().equals(c.path("id").asText())).toList();
            assertThat(ofSource).as("round %d (%s): the written copy of %s", r.n(), r.kind(), r.source()).hasSize(1);
            ofSource.stream().filter(c -> !current.equals(c.path(name).asText())).forEach(c -> stale.add(
                    r.kind() + " round " + r.n() + ": " + r.source() + " copy '" + c.path(name).asText()
                            + "', source '" + current + "'"));
        }
        return stale;
    }

    /** What W's guard counted ({@value #GUARD_METRIC}, every tag); 0 before its first catch (no series yet). */
    long guardCaught() {
        try {
            var response = http.send(HttpRequest.newBuilder(URI.create(writer.management() + "/q/metrics"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as("W's /q/metrics").isEqualTo(200);
            var lines = response.body().lines().filter(l -> l.startsWith(GUARD_METRIC)).toList();
            return lines.stream().mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    // --- HTTP ---------------------------------------------------------------------------------------------------

    Answer send(PackagedApp app, String method, String path, String contentType, String body) {
        var request = HttpRequest.newBuilder(URI.create(app.base() + path)).timeout(Duration.ofSeconds(60))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode parsed = response.body().isEmpty() ? JSON.nullNode() : JSON.readTree(response.body());
            return new Answer(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""), parsed);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (Exception e) {
            throw new IllegalStateException(method + " " + path, e);
        }
    }

    static JsonNode ok(Answer answer) {
        assertThat(answer.status()).as("%s", answer.body()).isEqualTo(200);
        return answer.body();
    }

    void created(PackagedApp app, String path, String json) {
        Answer answer = send(app, "POST", path, "application/json", json);
        assertThat(answer.status()).as("POST %s: %s", path, answer.body()).isEqualTo(201);
    }

    /** Runs every task, 16 at once, and waits for all of them. */
    void all(List<Runnable> tasks) {
        var batch = Executors.newFixedThreadPool(16);
        try {
            tasks.stream().map(t -> CompletableFuture.runAsync(t, batch)).toList().forEach(CompletableFuture::join);
        } finally {
            batch.shutdownNow();
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
