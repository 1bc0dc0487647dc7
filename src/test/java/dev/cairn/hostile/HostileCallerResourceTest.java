package dev.cairn.hostile;

import dev.cairn.platform.Management;
import dev.cairn.platform.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static dev.cairn.Eventually.within;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

/**
 * A caller out to hurt the service, with a valid token: each request below costs it what it costs (work, memory,
 * DynamoDB spend, a guard on shared data) and no more, and the bound is asserted — a concurrent reader's pace, the
 * number of metric series, a delete mark lifted, the copies written, the 429s. Each test has callers (token subjects)
 * of its own.
 */
@QuarkusTest
@TestProfile(HostileProfile.class)
class HostileCallerResourceTest {

    static final int PORT = Integer.getInteger("quarkus.http.test-port", 8081);
    static final String MERGE_PATCH = "application/merge-patch+json";
    static final String JSON_PATCH = "application/json-patch+json";
    final String k = UUID.randomUUID().toString().substring(0, 8);

    static RequestSpecification as(String subject, String role) {
        return given().header("Authorization", TestTokens.bearer(subject, List.of("*"), role));
    }

    static String token(String subject, String role) {
        return TestTokens.bearer(subject, List.of("*"), role);
    }

    /** Fixtures are written by an admin of their own each, so they spend no test caller's budget. */
    static void setUp(String path, String body) {
        as("setup-" + UUID.randomUUID(), "cairn-admin").contentType(ContentType.JSON).body(body).post(path)
                .then().statusCode(201);
    }

    // --- work: the worst JSON Patch ---------------------------------------------------------------------------

    /** The patch that cost half a minute before: a 240,000-element list added by the patch itself, then 999 moves in it. */
    static String worstPatch() {
        var out = new StringBuilder("[{\"op\":\"add\",\"path\":\"/big\",\"value\":[");
        for (int i = 0; i < 240_000; i++) {
            out.append(i == 0 ? "" : ",").append(i % 10);
        }
        out.append("]}");
        for (int i = 0; i < 999; i++) {
            out.append(",{\"op\":\"move\",\"from\":\"/big/0\",\"path\":\"/big/-\"}");
        }
        return out.append(']').toString();
    }

    @Test
    void theWorstJsonPatchIsRefusedByItsWorkBudgetWhileAConcurrentReaderKeepsItsPace() throws Exception {
        String author = "ha-" + k;
        setUp("/authors", "{\"authorId\":\"" + author + "\",\"name\":\"Ursula\"}");
        String reader = token("pace-reader-" + k, "cairn-reader");
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        var read = HttpRequest.newBuilder(URI.create("http://localhost:" + PORT + "/authors/" + author))
                .header("Authorization", reader).GET().build();
        for (int i = 0; i < 30; i++) { // warm the read path
            client.send(read, HttpResponse.BodyHandlers.discarding());
        }
        double idle = p50(client, read, 40);

        String patch = worstPatch();
        assertThat(patch.length()).isGreaterThan(500_000);
        var stop = new AtomicBoolean();
        var answers = Collections.synchronizedList(new ArrayList<Integer>());
        ExecutorService writers = Executors.newFixedThreadPool(2);
        List<CompletableFuture<?>> running = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            String writer = token("patcher-" + w + "-" + k, "cairn-writer");
            running.add(CompletableFuture.runAsync(() -> {
                var request = HttpRequest.newBuilder(URI.create("http://localhost:" + PORT + "/authors/" + author))
                        .header("Authorization", writer).header("Content-Type", JSON_PATCH)
                        .method("PATCH", HttpRequest.BodyPublishers.ofString(patch)).build();
                while (!stop.get()) {
                    try {
                        var answer = client.send(request, HttpResponse.BodyHandlers.ofString());
                        answers.add(answer.statusCode());
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            }, writers));
        }
        Thread.sleep(1000);
        double loaded = p50(client, read, 40);
        stop.set(true);
        CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).get();
        writers.shutdown();

        // refused by the work budget, or not admitted at all: past the caller's write limit (429), or while the large
        // bodies admitted at once are as many as the cores allow (503, over HTTP/2, which never queues)
        assertThat(answers).as("every worst patch refused").isNotEmpty()
                .allMatch(status -> status == 413 || status == 429 || status == 503);
        assertThat(answers).contains(413);
        var refused = as("patcher-probe-" + k, "cairn-writer").contentType(JSON_PATCH).body(patch)
                .patch("/authors/{id}", author);
        assertThat(refused.statusCode()).isEqualTo(413);
        assertThat(refused.<String>path("code")).isEqualTo("PayloadTooLarge");
        assertThat(refused.<Integer>path("limitWork")).isEqualTo(50_000);
        as("pace-reader-" + k, "cairn-reader").get("/authors/{id}", author).then().statusCode(200)
                .body("name", equalTo("Ursula"));
        // Two cores share the patches' parsing with the reader, so it may slow by their share of the CPU; a patch
        // that held an event loop or ran unbounded (half a minute each before the budget) stalls it by far more.
        assertThat(loaded).as("the reader's p50 (ms) while the worst patches run, against idle %.2f ms", idle)
                .isLessThan(Math.max(3 * idle, idle + 25));
    }

    private static double p50(HttpClient client, HttpRequest request, int samples) throws Exception {
        var times = new ArrayList<Double>();
        for (int i = 0; i < samples; i++) {
            long start = System.nanoTime();
            var answer = client.send(request, HttpResponse.BodyHandlers.discarding());
            times.add((System.nanoTime() - start) / 1e6);
            assertThat(answer.statusCode()).isEqualTo(200);
            Thread.sleep(20);
        }
        Collections.sort(times);
        return times.get(samples / 2);
    }

    // --- memory: metric series ------------------------------------------------------------------------------

    @Test
    void tenThousandRequestsWithRandomMethodsAndPathsLeaveTheMetricsAsTheyWere() throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        var random = new Random(7);
        String[] routes = {"/teams/%s", "/junk-%s/x", "/authors/%s", "/workspaces/%s/projects", "/%s"};
        // every kind once, so the series they fold into exist before counting
        for (String method : List.of("BREW", "GET", "POST", "PROPFIND")) {
            for (String route : routes) {
                send(client, method, String.format(route, "warm"));
            }
        }
        String before = metrics();
        var permits = new Semaphore(16);
        var sent = new ArrayList<CompletableFuture<?>>();
        for (int i = 0; i < 10_000; i++) {
            String method = randomMethod(random);
            String path = String.format(routes[random.nextInt(routes.length)], Long.toString(random.nextLong() >>> 1, 36));
            permits.acquire();
            sent.add(client.sendAsync(request(method, path), HttpResponse.BodyHandlers.discarding())
                    .whenComplete((answer, failure) -> permits.release()));
        }
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get();
        String after = metrics();
        // the HTTP series are the ones a request can add (by its method or path); other series (background jobs,
        // DynamoDB calls of earlier tests' cascades) may appear meanwhile and are not this caller's doing
        var added = new java.util.TreeSet<>(httpSeries(after));
        added.removeAll(httpSeries(before));
        assertThat(added).as("HTTP series the random requests added").isEmpty();
        assertThat(after).doesNotContain("method=\"" + randomMethod(new Random(7)) + "\"").contains("method=\"OTHER\"");
    }

    private static String randomMethod(Random random) {
        var name = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            name.append((char) ('A' + random.nextInt(26)));
        }
        return name.toString();
    }

    private static HttpRequest request(String method, String path) {
        return HttpRequest.newBuilder(URI.create("http://localhost:" + PORT + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).build();
    }

    private static void send(HttpClient client, String method, String path) throws Exception {
        client.send(request(method, path), HttpResponse.BodyHandlers.discarding());
    }

    static String metrics() {
        return Management.management().get("/q/metrics").then().statusCode(200).extract().asString();
    }

    /** Each HTTP server series by its name and labels, without its value. */
    static java.util.Set<String> httpSeries(String metrics) {
        return metrics.lines().filter(line -> line.startsWith("http_server"))
                .map(line -> line.substring(0, line.lastIndexOf(' '))).collect(java.util.stream.Collectors.toSet());
    }

    // --- guards: a delete the client walks away from ------------------------------------------------------------

    @Test
    void aDeleteWhoseClientGoesAwayAtOnceLeavesNoMarkOnTheEntity() throws Exception {
        // A team in a squad: its delete marks it, finds the selection, and must lift the mark again (409).
        String team = "ht-" + k;
        String player = "hp-" + k;
        setUp("/teams", "{\"id\":\"" + team + "\",\"name\":\"Hostile XI\",\"country\":\"NZ\",\"ranking\":3}");
        setUp("/players", "{\"id\":\"" + player + "\",\"firstName\":\"Pat\",\"lastName\":\"Kept\",\"role\":\"bowler\"}");
        setUp("/squads/hsq-" + k + "/selections", "{\"selectionNumber\":1,\"teamId\":\"" + team + "\",\"playerId\":\""
                + player + "\",\"squadRole\":\"bowler\",\"isCaptain\":false}");
        String admin = token("deleter-" + k, "cairn-admin");
        for (int i = 0; i < 5; i++) {
            try (Socket socket = new Socket("localhost", PORT)) {
                socket.getOutputStream().write(("DELETE /teams/" + team + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: "
                        + admin + "\r\nContent-Length: 0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                socket.getOutputStream().flush();
            } // closed at once: the client does not wait for the answer
        }
        // Another write that copies the team is served at once (a live mark would make it a 404 for 10 s).
        within(Duration.ofSeconds(3), () -> as("squad-writer-" + k, "cairn-writer").contentType(ContentType.JSON)
                .body("{\"selectionNumber\":2,\"teamId\":\"" + team + "\",\"playerId\":\"" + player
                        + "\",\"squadRole\":\"bowler\",\"isCaptain\":false}")
                .post("/squads/{id}/selections", "hsq2-" + k + "-" + UUID.randomUUID().toString().substring(0, 4))
                .then().statusCode(201));
        as("reader-" + k, "cairn-reader").get("/teams/{id}", team).then().statusCode(200);
    }

    // --- budgets under concurrency ------------------------------------------------------------------------------

    @Test
    void sixConcurrentCascadesCannotWriteMoreCopiesThanTheBudgetHolds() throws Exception {
        // Six players, each selected in 5 squads: 30 copies if every rename ran at once, 5 a minute allowed.
        String team = "bt-" + k;
        setUp("/teams", "{\"id\":\"" + team + "\",\"name\":\"Budget XI\",\"country\":\"NZ\",\"ranking\":3}");
        List<String> players = new ArrayList<>();
        for (int p = 0; p < 6; p++) {
            String player = "bp" + p + "-" + k;
            players.add(player);
            setUp("/players", "{\"id\":\"" + player + "\",\"firstName\":\"Old\",\"lastName\":\"L" + p + "\",\"role\":\"bowler\"}");
            for (int s = 0; s < 5; s++) {
                setUp("/squads/bsq" + p + s + "-" + k + "/selections", "{\"selectionNumber\":1,\"teamId\":\"" + team
                        + "\",\"playerId\":\"" + player + "\",\"squadRole\":\"bowler\",\"isCaptain\":false}");
            }
        }
        String renamer = "budget-renamer-" + k;
        ExecutorService pool = Executors.newFixedThreadPool(6);
        List<CompletableFuture<Response>> renames = new ArrayList<>();
        for (String player : players) {
            renames.add(CompletableFuture.supplyAsync(() -> as(renamer, "cairn-writer").contentType(MERGE_PATCH)
                    .body("{\"firstName\":\"New\"}").patch("/players/{id}", player), pool));
        }
        var statuses = renames.stream().map(CompletableFuture::join).map(Response::statusCode).toList();
        pool.shutdown();
        assertThat(statuses).isSubsetOf(200, 202, 429);
        assertThat(statuses.stream().filter(s -> s == 429).count()).as("the sixth finds no copy to reserve").isPositive();
        Thread.sleep(3000); // the admitted cascades' jobs take what the budget holds, and wait for the rest
        int written = 0;
        for (int p = 0; p < 6; p++) {
            for (int s = 0; s < 5; s++) {
                String name = as("budget-reader-" + k, "cairn-reader").get("/squads/{id}/selections", "bsq" + p + s + "-" + k)
                        .then().statusCode(200).extract().path("items[0].player.firstName");
                written += "New".equals(name) ? 1 : 0;
            }
        }
        // 5 a minute, plus what refilled in the seconds the test took (one every 12 s); a page's copies are written
        // once the budget holds them all, so the admitted renames' jobs are still waiting
        assertThat(written).as("copies written").isLessThanOrEqualTo(HostileProfile.COPIES_PER_MINUTE + 1);
        String job = renames.stream().map(CompletableFuture::join).filter(r -> r.statusCode() == 202).findFirst()
                .orElseThrow().path("job");
        as("budget-admin-" + k, "cairn-admin").get("/cascades/{id}", job).then().statusCode(200)
                .body("state", equalTo("running"));
    }

    @Test
    void readsPastTheCallersReadCapacityAre429WithRetryAfterWhileAnotherReaderReadsOn() throws Exception {
        String author = "hr-" + k;
        setUp("/authors", "{\"authorId\":\"" + author + "\",\"name\":\"Read Often\"}");
        // 80 reads at once: each reserves 10 read units of the caller's 300 before it runs, so at most 30 are admitted
        // however little each then consumes
        String greedy = token("greedy-" + k, "cairn-reader");
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        var request = HttpRequest.newBuilder(URI.create("http://localhost:" + PORT + "/authors/" + author))
                .header("Authorization", greedy).GET().build();
        var answers = new ArrayList<CompletableFuture<HttpResponse<String>>>();
        for (int i = 0; i < 80; i++) {
            answers.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
        }
        var done = answers.stream().map(CompletableFuture::join).toList();
        long served = done.stream().filter(a -> a.statusCode() == 200).count();
        var refused = done.stream().filter(a -> a.statusCode() == 429).toList();
        assertThat(served + refused.size()).isEqualTo(80);
        assertThat(refused).as("reads refused once the caller's reserves hold its read capacity").isNotEmpty();
        assertThat(served).isBetween(1L, 40L);
        HttpResponse<String> first = refused.get(0);
        assertThat(first.body()).contains("\"code\":\"RateLimited\"").contains("\"rateLimit\":\"read-capacity\"");
        assertThat(Integer.parseInt(first.headers().firstValue("Retry-After").orElseThrow())).isBetween(1, 2);
        as("calm-reader-" + k, "cairn-reader").get("/authors/{id}", author).then().statusCode(200);
        assertThat(metrics()).containsPattern("cairn_rate_limited_total\\{limit=\"read-capacity\"[^}]*} [1-9]");
    }

    // --- maintenance ----------------------------------------------------------------------------------------------

    @Test
    void oneTableScanAtATimeItsRateCappedAndItCanBeCancelled() {
        var admin = token("maintainer-" + k, "cairn-admin");
        given().header("Authorization", admin).contentType(ContentType.JSON).body("{\"rate\":" + (HostileProfile.MAX_RATE + 1) + "}")
                .post("/maintenance/reconcile").then().statusCode(400).body("errors[0].field", equalTo("rate"));
        String first = startScan(admin);
        try {
            // a second scan of the table, of everything or of an entity type, or a list backfill: refused while one runs
            for (String body : List.of("{}", "{\"entity\":\"player\"}")) {
                given().header("Authorization", admin).contentType(ContentType.JSON).body(body).post("/maintenance/reconcile")
                        .then().statusCode(409).contentType("application/problem+json").body("code", equalTo("MaintenanceBusy"))
                        .body("runningJobs", hasItem(first));
            }
            given().header("Authorization", admin).post("/maintenance/aggregates/{a}/list-backfills", "Match")
                    .then().statusCode(409).body("code", equalTo("MaintenanceBusy"));
            // one source's reconcile reads only its copies: no slot needed
            given().header("Authorization", admin).contentType(ContentType.JSON).body("{\"entity\":\"player\",\"id\":\"nobody-" + k + "\"}")
                    .post("/maintenance/reconcile").then().statusCode(202);
            as("writer-" + k, "cairn-writer").post("/maintenance/jobs/{id}/cancel", first).then().statusCode(403);
        } finally {
            given().header("Authorization", admin).post("/maintenance/jobs/{id}/cancel", first).then().statusCode(200)
                    .body("state", equalTo("cancelled"));
        }
        given().header("Authorization", admin).post("/maintenance/jobs/{id}/cancel", first).then().statusCode(409)
                .body("code", equalTo("Conflict"));
        given().header("Authorization", admin).get("/maintenance/reconcile?state=cancelled").then().statusCode(200);
        // the slot is free again at once
        String next = startScan(admin);
        given().header("Authorization", admin).post("/maintenance/jobs/{id}/cancel", next).then().statusCode(200);
    }

    /** Starts a whole-table reconcile, cancelling whatever other test left scanning first. */
    private static String startScan(String admin) {
        for (int attempt = 0; attempt < 5; attempt++) {
            // one copy a second: the scan is still running when the test cancels it
            Response answer = given().header("Authorization", admin).contentType(ContentType.JSON).body("{\"rate\":1}")
                    .post("/maintenance/reconcile");
            if (answer.statusCode() == 202) {
                return answer.path("id");
            }
            assertThat(answer.statusCode()).as(answer.asString()).isEqualTo(409);
            List<String> running = answer.path("runningJobs");
            running.forEach(job -> given().header("Authorization", admin).post("/maintenance/jobs/{id}/cancel", job));
        }
        throw new AssertionError("no scan slot came free");
    }

    // --- what answers say ------------------------------------------------------------------------------------------

    @Test
    void answersAreNotForCachesAndLinksIgnoreTheHostTheClientNamed() throws IOException {
        Raw created = raw("POST /authors HTTP/1.1\r\nHost: evil.example\r\nAuthorization: " + token("hw-" + k, "cairn-writer")
                + "\r\nContent-Type: application/json\r\nContent-Length: %d\r\n", "{\"authorId\":\"loc-" + k + "\",\"name\":\"X\"}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.header("Location")).isEqualTo("/authors/loc-" + k);
        assertThat(created.header("Cache-Control")).isEqualTo("no-store");
        assertThat(created.header("X-Content-Type-Options")).isEqualTo("nosniff");
        as("hr-" + k, "cairn-reader").get("/authors/{id}", "loc-" + k).then().statusCode(200)
                .header("Cache-Control", "no-store").header("X-Content-Type-Options", "nosniff");
        as("hr-" + k, "cairn-reader").get("/authors/{id}", "none-" + k).then().statusCode(404)
                .header("Cache-Control", "no-store").header("X-Content-Type-Options", "nosniff");
        // OPTIONS tells which methods a path has: a caller without a token learns nothing, hand-written or declared
        for (String path : List.of("/teams/t1", "/books/b1/authors")) {
            Raw anonymous = raw("OPTIONS " + path + " HTTP/1.1\r\nHost: localhost\r\n", "");
            assertThat(anonymous.status()).as(path).isEqualTo(401);
            assertThat(anonymous.header("Allow")).as(path).isNull();
            Raw reader = raw("OPTIONS " + path + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: " + token("hr-" + k, "cairn-reader")
                    + "\r\n", "");
            assertThat(reader.status()).as(path).isEqualTo(200);
            assertThat(reader.header("Allow")).as(path).contains("GET");
        }
    }

    @Test
    void declaredReferenceDataIsDeletedByAdminsOnly() {
        String book = "hb-" + k;
        setUp("/books", "{\"bookId\":\"" + book + "\",\"title\":\"Referenced\"}");
        as("hw-" + k, "cairn-writer").delete("/books/{id}", book).then().statusCode(403)
                .body("code", equalTo("Forbidden")).body("requiredRole", equalTo("cairn-admin"));
        as("hr-" + k, "cairn-reader").get("/books/{id}", book).then().statusCode(200);
        as("ha-" + k, "cairn-admin").delete("/books/{id}", book).then().statusCode(204);
        // an entity nothing copies is not an admin's alone: a member (private to its user) is deleted by that member
        String member = "hm-" + k;
        setUp("/members", "{\"memberId\":\"" + member + "\",\"name\":\"M\",\"email\":\"" + member + "@example.org\",\"address\":{\"city\":\"Leeds\"}}");
        as("hw-" + k, "cairn-writer").delete("/members/{id}", member).then().statusCode(404);
        as(member, "cairn-writer").delete("/members/{id}", member).then().statusCode(204);
    }

    @Test
    void aChunkedBodyPastTheLimitIsAProblemAndNoErrorIsLogged() throws IOException {
        var errors = Collections.synchronizedList(new ArrayList<LogRecord>());
        Handler handler = new Handler() {
            @Override public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.SEVERE.intValue()) {
                    errors.add(record);
                }
            }
            @Override public void flush() { }
            @Override public void close() { }
        };
        Logger root = Logger.getLogger("");
        root.addHandler(handler);
        try {
            String chunk = "{\"id\":\"" + "a".repeat(600_000);
            String chunked = Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n"
                    + Integer.toHexString(chunk.length()) + "\r\n" + "b".repeat(chunk.length()) + "\r\n0\r\n\r\n";
            Raw cut = raw("POST /authors HTTP/1.1\r\nHost: localhost\r\nAuthorization: " + token("chunk-" + k, "cairn-writer")
                    + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n", chunked);
            assertThat(cut.status()).isEqualTo(413);
            assertThat(cut.header("Content-Type")).isEqualTo("application/problem+json");
            assertThat(cut.body()).contains("\"code\":\"PayloadTooLarge\"");
            assertThat(cut.header("X-Request-Id")).isNotBlank();
        } finally {
            root.removeHandler(handler);
        }
        assertThat(errors).as("ERROR lines").isEmpty();
    }

    record Raw(int status, java.util.Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(java.util.Locale.ROOT));
        }
    }

    /** A raw request; {@code %d} in the head is the body's length in bytes. */
    static Raw raw(String head, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        try (Socket socket = new Socket("localhost", PORT)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write((String.format(head.replace("%d", "%1$d"), bytes.length) + "Connection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
            var out = new ByteArrayOutputStream();
            try {
                socket.getInputStream().transferTo(out);
            } catch (IOException e) {
                // a reset after the answer: what was read is the answer
            }
            String text = out.toString(StandardCharsets.UTF_8);
            int end = text.indexOf("\r\n\r\n");
            assertThat(end).as("an HTTP answer: %s", text).isPositive();
            String[] lines = text.substring(0, end).split("\r\n");
            var headers = new java.util.LinkedHashMap<String, String>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(java.util.Locale.ROOT), lines[i].substring(colon + 1).trim());
            }
            return new Raw(Integer.parseInt(lines[0].split(" ")[1]), headers, text.substring(end + 4));
        }
    }
}
