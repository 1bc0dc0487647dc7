package dev.cairn.bench;

import com.fasterxml.jackson.databind.JsonNode;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code school} scenario: the school routes of this build beside the same routes of the other build
 * ({@code -Dbench.other}), in the same interleaved rounds — made to compare the school domain served from its model
 * file with the hand-written Java it replaced. Routes: a student read, a course's roster, an enrollment create (a
 * fresh edge per request) and a course title change cascading to its enrollments. Per build and concurrency: ops/s,
 * p50, p99, DynamoDB calls and capacity per request (as each app answers them), and CPU per request of its process,
 * merged and round by round.
 *
 * <p>Both builds serve one DynamoDB Local table. Reads go to the same student and course; each build enrolls its own
 * students (into the same courses) and patches its own courses, so neither collides with the other.
 */
final class SchoolBuilds {

    static final String SCENARIO = "school";
    /** Courses every enrollment create picks from, and students per build: a fresh (student, course) pair per request. */
    static final int ENROLL_COURSES = 200;
    static final int ENROLL_STUDENTS = 300;
    /** Enrollments each patched course carries: the copies its title change cascades to. */
    static final int CASCADE_ENROLLMENTS = 5;

    private final CairnBench bench;

    SchoolBuilds(CairnBench bench) {
        this.bench = bench;
    }

    void run() throws Exception {
        if (bench.other == null) {
            if (bench.scenarios.contains(SCENARIO)) {
                throw new IllegalStateException("the school scenario compares two builds: give -Dbench.other=<checkout>/target/quarkus-app");
            }
            bench.report.append("\nSchool builds skipped: no other build (-Dbench.other) to compare with.\n");
            return;
        }
        Map<AppProcess, String> tags = Map.of(bench.app, "this", bench.other, "other");
        int maxWorkers = bench.concurrencies.stream().mapToInt(Integer::intValue).max().orElse(1);

        // GET /students/{id}: one student, read by both builds; both must answer the same document.
        bench.post("/students", student("bench-read", "Reader"));
        String readPath = "/students/bench-read";
        JsonNode mine = CairnBench.JSON.readTree(body(bench.app, readPath));
        JsonNode theirs = CairnBench.JSON.readTree(body(bench.other, readPath));
        if (!mine.equals(theirs)) {
            bench.report.append("\n**GET ").append(readPath).append(" answers differ**: this build ").append(mine)
                    .append(", the other build ").append(theirs).append(".\n");
        }

        // GET /courses/{id}/students: a course of 30 enrollments (the lists scenario's shape), read by both builds.
        bench.post("/courses", course("bench-roster", "Roster"));
        parallel(30, i -> {
            bench.post("/students", student("roster-" + i, "Student " + i));
            return send(enroll(bench.app, "roster-" + i, "bench-roster"), 201);
        });
        String rosterPath = "/courses/bench-roster/students";
        JsonNode myRoster = CairnBench.JSON.readTree(body(bench.app, rosterPath)).path("items");
        JsonNode theirRoster = CairnBench.JSON.readTree(body(bench.other, rosterPath)).path("items");
        if (!myRoster.equals(theirRoster)) {
            bench.report.append("\n**GET ").append(rosterPath).append(" items differ** between the builds.\n");
        }

        // PUT /students/{sid}/enrollments/{cid}: shared courses, each build its own students.
        parallel(ENROLL_COURSES, i -> bench.post("/courses", course("ec-" + i, "Enrollment course " + i)));
        for (var build : tags.entrySet()) {
            parallel(ENROLL_STUDENTS, i -> send(post(build.getKey(), "/students", student("en-" + build.getValue() + "-" + i,
                    "Enrolled " + i)), 201));
        }

        // PATCH /courses/{cid}: per build and worker one course with its own enrollments.
        for (var build : tags.entrySet()) {
            AppProcess target = build.getKey();
            String tag = build.getValue();
            for (int s = 0; s < CASCADE_ENROLLMENTS; s++) {
                send(post(target, "/students", student("pc-" + tag + "-s" + s, "Copied " + s)), 201);
            }
            for (int w = 0; w < maxWorkers; w++) {
                String cid = "pc-" + tag + "-" + w;
                send(post(target, "/courses", course(cid, "Title 0")), 201);
                for (int s = 0; s < CASCADE_ENROLLMENTS; s++) {
                    send(enroll(target, "pc-" + tag + "-s" + s, cid), 201);
                }
            }
        }
        // Each build's cascade reaches the course's enrollments before anything is measured.
        for (var build : tags.entrySet()) {
            String cid = "pc-" + build.getValue() + "-0";
            JsonNode report = CairnBench.JSON.readTree(send(patchTitle(build.getKey(), cid, "Title check"), 200).body());
            assertThat(report.path("updated").asInt()).as(build.getValue() + " build: copies updated by a course PATCH: " + report)
                    .isEqualTo(CASCADE_ENROLLMENTS);
            JsonNode roster = CairnBench.JSON.readTree(body(bench.app, "/courses/" + cid + "/students"));
            for (JsonNode edge : roster.path("items")) {
                assertThat(edge.path("courseTitle").asText()).as(build.getValue() + " build: copied title").isEqualTo("Title check");
            }
            send(patchTitle(build.getKey(), cid, "Title 0"), 200);
        }

        // What each process spends with no load (job polling, timers): part of every CPU-per-request figure.
        double idleThis = bench.app.cpuMillis();
        double idleOther = bench.other.cpuMillis();
        Thread.sleep(5000);
        bench.report.append(String.format(Locale.ROOT, "%nIdle CPU over 5 s before the school routes: this build %.0f ms, the other build %.0f ms.%n",
                bench.app.cpuMillis() - idleThis, bench.other.cpuMillis() - idleOther));

        compare("GET /students/{id}", "student read (GetItem)",
                (target, tag) -> w -> bench.sendMetered(HttpRequest.newBuilder(URI.create(target.base() + readPath)).GET().build(), 200));
        compare("GET /courses/{id}/students", "roster, 20 of 30 enrollments (1 Query of gsi1)",
                (target, tag) -> w -> bench.sendMetered(HttpRequest.newBuilder(URI.create(target.base() + rosterPath)).GET().build(), 200));
        var counters = new ConcurrentHashMap<String, AtomicInteger>();
        compare("PUT /students/{sid}/enrollments/{cid}", "enrollment create, a fresh pair per request (BatchGetItem + TransactWriteItems)",
                (target, tag) -> w -> {
                    int n = counters.computeIfAbsent(tag, t -> new AtomicInteger()).getAndIncrement();
                    if (n >= ENROLL_COURSES * ENROLL_STUDENTS) {
                        throw new IllegalStateException("no fresh enrollment left for " + tag);
                    }
                    return bench.sendMetered(enroll(target, "en-" + tag + "-" + n / ENROLL_COURSES, "ec-" + n % ENROLL_COURSES), 201);
                });
        var flips = new ConcurrentHashMap<String, Boolean>();
        compare("PATCH /courses/{cid}", "course title merge patch, cascade to " + CASCADE_ENROLLMENTS + " enrollments (eventual)",
                (target, tag) -> w -> {
                    boolean flip = flips.merge(tag + "-" + w, true, (a, b) -> !a);
                    return bench.sendMetered(patchTitle(target, "pc-" + tag + "-" + w, flip ? "Title 1" : "Title 0"), 200);
                });
    }

    /**
     * One route, this build beside the other build: {@link CairnBench#ROUNDS} interleaved rounds (every other round
     * in reverse order), then per concurrency each build's row and this / other.
     */
    void compare(String route, String title, CairnBench.BuildOp op) throws Exception {
        compare(SCENARIO, route, title, op);
    }

    /** As above, reported under another scenario (the social builds use the same comparison). */
    void compare(String scenario, String route, String title, CairnBench.BuildOp op) throws Exception {
        var rows = new ArrayList<RunData.Row>();
        StringBuilder report = bench.report;
        report.append("\n### ").append(route).append(", ").append(title).append(": this build vs the other build\n\n")
                .append("| concurrency | build | ops/s | p50 ms | p99 ms | DynamoDB calls/op | capacity units/op | app CPU ms/op | errors |\n")
                .append("|---|---|---|---|---|---|---|---|---|\n");
        var notes = new StringBuilder();
        for (int concurrency : bench.concurrencies) {
            var otherBuild = bench.new Contender(RunData.OTHER_BUILD, bench.other, op.on(bench.other, "other"));
            var cairn = bench.new Contender(RunData.CAIRN, bench.app, op.on(bench.app, "this"));
            var order = new ArrayList<>(List.of(otherBuild, cairn));
            // CPU per request of each build in each round: whether a ratio holds round after round or rests on one
            var rounds = new java.util.IdentityHashMap<CairnBench.Contender, List<Double>>();
            for (int round = 0; round < CairnBench.ROUNDS; round++) {
                for (CairnBench.Contender contender : order) {
                    double before = contender.cpuMillis;
                    System.out.printf(Locale.ROOT, "%s %s c%d round %d %s: start%n", java.time.Instant.now(), route, concurrency,
                            round + 1, contender.name);
                    contender.run(concurrency);
                    System.out.printf(Locale.ROOT, "%s %s c%d round %d %s: end%n", java.time.Instant.now(), route, concurrency,
                            round + 1, contender.name);
                    long ops = contender.runs.get(contender.runs.size() - 1).ops();
                    rounds.computeIfAbsent(contender, k -> new ArrayList<>()).add((contender.cpuMillis - before) / Math.max(1, ops));
                }
                Collections.reverse(order);
            }
            for (CairnBench.Contender contender : List.of(cairn, otherBuild)) {
                Load.Result r = contender.merged();
                double cpu = contender.cpuPerOp();
                report.append(String.format(Locale.ROOT, "| %d | %s | %.0f | %.2f | %.2f | %.2f | %.1f | %.3f | %d |%n", concurrency,
                        contender == cairn ? "this build" : "other build", r.opsPerSecond(), r.p50Ms(), r.p99Ms(), r.callsPerOp(),
                        r.capacityPerOp(), cpu, r.errors()));
                rows.add(new RunData.Row(concurrency, contender.name, r.opsPerSecond(), r.p50Ms(), r.p99Ms(), r.callsPerOp(),
                        Double.isNaN(cpu) ? null : cpu, r.errors(), Double.isNaN(r.capacityPerOp()) ? null : r.capacityPerOp()));
            }
            Load.Result c = cairn.merged();
            Load.Result b = otherBuild.merged();
            report.append(String.format(Locale.ROOT, "| %d | **this / other** | **%.2f** | **%.2f** | %.2f | %.2f | %.2f | **%.2f** | |%n",
                    concurrency, c.opsPerSecond() / b.opsPerSecond(), c.p50Ms() / b.p50Ms(), c.p99Ms() / b.p99Ms(),
                    c.callsPerOp() / b.callsPerOp(), c.capacityPerOp() / b.capacityPerOp(), cairn.cpuPerOp() / otherBuild.cpuPerOp()));
            var byRound = new ArrayList<String>();
            for (int round = 0; round < CairnBench.ROUNDS; round++) {
                double mine = rounds.get(cairn).get(round);
                double theirs = rounds.get(otherBuild).get(round);
                byRound.add(String.format(Locale.ROOT, "%.3f · %.3f (%.2f)", mine, theirs, mine / theirs));
            }
            notes.append(String.format(Locale.ROOT, "- concurrency %d, CPU ms per request by round, this · other (this / other): %s%n",
                    concurrency, String.join("; ", byRound)));
            if (Math.abs(c.callsPerOp() - b.callsPerOp()) > 0.005) {
                notes.append(String.format(Locale.ROOT, "- **calls differ** at concurrency %d: %.3f against %.3f per request%n",
                        concurrency, c.callsPerOp(), b.callsPerOp()));
            }
        }
        report.append('\n').append(notes);
        bench.data.comparisons.add(new RunData.Comparison(scenario, route, title, rows));
    }

    // --- requests ------------------------------------------------------------------------------------------------

    static String student(String id, String name) {
        return "{\"id\":\"" + id + "\",\"name\":\"" + name + "\",\"year\":1,\"major\":\"CS\"}";
    }

    static String course(String id, String title) {
        return "{\"id\":\"" + id + "\",\"title\":\"" + title + "\",\"credits\":5,\"term\":\"t\"}";
    }

    HttpRequest post(AppProcess target, String path, String body) {
        return bench.postTo(target, path, body);
    }

    static HttpRequest enroll(AppProcess target, String sid, String cid) {
        return HttpRequest.newBuilder(URI.create(target.base() + "/students/" + sid + "/enrollments/" + cid))
                .PUT(HttpRequest.BodyPublishers.ofString("{}")).header("Content-Type", "application/json").build();
    }

    static HttpRequest patchTitle(AppProcess target, String cid, String title) {
        return HttpRequest.newBuilder(URI.create(target.base() + "/courses/" + cid))
                .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"title\":\"" + title + "\"}"))
                .header("Content-Type", "application/merge-patch+json").build();
    }

    String body(AppProcess target, String path) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(target.base() + path)).GET().build(), 200).body();
    }

    HttpResponse<String> send(HttpRequest request, int expected) throws Exception {
        HttpResponse<String> response = bench.http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != expected) {
            throw new IllegalStateException(request.method() + " " + request.uri() + " answered " + response.statusCode()
                    + ": " + response.body());
        }
        return response;
    }

    @FunctionalInterface
    interface Step {
        Object run(int i) throws Exception;
    }

    /** {@code count} set-up requests, 8 at a time. */
    static void parallel(int count, Step step) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            var futures = new ArrayList<Future<Object>>();
            for (int i = 0; i < count; i++) {
                int n = i;
                futures.add(pool.submit(() -> step.run(n)));
            }
            for (var f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
