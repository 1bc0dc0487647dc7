package dev.cairn.bench;

import dev.cairn.platform.EmbeddedDynamoDb;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

/**
 * What each entity feature costs on a write, the feature on and off in the same run and the same Cairn process
 * ({@code -Dbench.scenarios=features}): six declared entities alike in every field and route but for one feature each
 * (src/bench/feature-models, put on the app's class path by the benchmark, never shipped) take the same creates, merge
 * patches and deletes, one request at a time over one connection, in an order shuffled anew for every cycle of one
 * write per entity, so that whatever disturbs the machine falls on every entity alike.
 *
 * <p>For each write and entity: the DynamoDB calls the app answers ({@code X-DynamoDB-Calls}); the calls, the actions
 * of each transaction and every write action's item size as DynamoDB Local's engine received them ({@link
 * DynamoCalls}, recorded in a pass of its own after the timed rounds, since recording slows DynamoDB Local down); the
 * write units DynamoDB bills for them; and the p50 at one connection, each beside the plain entity's.
 */
final class FeatureWrites {

    static final String SCENARIO = "features";
    /** The directory whose models/ holds the benchmark's own domain. */
    static final Path MODELS = Path.of("src/bench/feature-models");
    /** Timed writes per entity, write and round ({@code -Dbench.features.ops}). */
    static final int OPS = Integer.getInteger("bench.features.ops", 200);
    /** Unrecorded writes per entity and write before the first round ({@code -Dbench.features.warmup}). */
    static final int WARMUP = Integer.getInteger("bench.features.warmup", 100);
    /** Writes per entity and write recorded by DynamoDB Local's side for the actions and the write units. */
    static final int RECORDED = 3;
    static final String EXPIRES = "2036-12-01T17:00:00Z";

    /** One declared entity of the benchmark's domain: its feature (none for the plain one) and its path segment. */
    record Entity(String name, String feature, String segment) {

        String collection() {
            return "/feature-bench/" + segment;
        }

        boolean plain() {
            return segment.equals("plain");
        }

        /** An aggregate of the domain (a root and two note members), not an entity. */
        boolean aggregate() {
            return segment.startsWith("agg-");
        }
    }

    static final List<Entity> ENTITIES = List.of(
            new Entity("FeatPlain", "none", "plain"),
            new Entity("FeatUnique", "`unique` (one value)", "unique"),
            new Entity("FeatStamped", "`timestamps: true`", "stamped"),
            new Entity("FeatExpiring", "`ttl`", "expiring"),
            new Entity("FeatHistory", "`history: { keep: 5 }`", "history"),
            new Entity("FeatSoft", "`softDelete: true`", "soft"),
            // an aggregate's features beside the plain aggregate (Report.baseline: "aggregate, none")
            new Entity("FeatAggPlain", "aggregate, none", "agg-plain"),
            new Entity("FeatAggUnique", "aggregate, `unique` (one value, on the root)", "agg-unique"),
            new Entity("FeatAggMemberUnique", "aggregate, `unique` on a member (one value per note, two notes)",
                    "agg-member-unique"),
            new Entity("FeatAggExpiring", "aggregate, `ttl`", "agg-expiring"),
            new Entity("FeatAggHistory", "aggregate, `history: { keep: 5 }`", "agg-history"),
            new Entity("FeatAggSoft", "aggregate, `softDelete: true`", "agg-soft"));

    /** The writes a feature changes. */
    enum Write {
        CREATE("create: `POST <collection>`"),
        PATCH("merge patch of `name` (no unique value changed)"),
        PATCH_UNIQUE("merge patch of `email` (the unique value changed; of an aggregate's, one note's `text` too)"),
        DELETE("`DELETE <item>` (soft with `softDelete`, else hard)");

        final String label;

        Write(String label) {
            this.label = label;
        }
    }

    private final CairnBench bench;
    private final EmbeddedDynamoDb dynamo;
    private AppProcess app;
    private DynamoCalls recorder;
    private int next;

    FeatureWrites(CairnBench bench, EmbeddedDynamoDb dynamo) {
        this.bench = bench;
        this.dynamo = dynamo;
    }

    void run() throws Exception {
        recorder = DynamoCalls.install(dynamo);
        app = AppProcess.startWithModels(dynamo.endpoint(), List.of("-Dcairn.auth.enabled=false"), "features", MODELS);
        try {
            measure();
        } finally {
            app.close();
        }
    }

    private void measure() throws Exception {
        for (Entity e : ENTITIES) {
            send(create(e, "p-" + e.segment()), 201);
        }
        // samples[write][entity] = latencies (ms) per round; calls[write][entity] = X-DynamoDB-Calls of each timed write
        Map<Write, Map<Entity, List<List<Double>>>> samples = new LinkedHashMap<>();
        Map<Write, Map<Entity, List<Integer>>> headerCalls = new LinkedHashMap<>();
        for (Write w : Write.values()) {
            samples.put(w, new LinkedHashMap<>());
            headerCalls.put(w, new LinkedHashMap<>());
            for (Entity e : ENTITIES) {
                samples.get(w).put(e, new ArrayList<>());
                headerCalls.get(w).put(e, new ArrayList<>());
            }
        }
        var random = new Random(20261127L);
        long started = System.nanoTime();
        for (Write w : Write.values()) {
            for (int i = 0; i < WARMUP; i++) {
                cycle(w, random, null, null);
            }
        }
        double warmupSeconds = (System.nanoTime() - started) / 1e9;
        List<Write> writes = new ArrayList<>(List.of(Write.values()));
        for (int round = 0; round < CairnBench.ROUNDS; round++) {
            for (Write w : writes) {
                Map<Entity, List<Double>> latencies = new LinkedHashMap<>();
                ENTITIES.forEach(e -> latencies.put(e, new ArrayList<>()));
                for (int i = 0; i < OPS; i++) {
                    cycle(w, random, latencies, headerCalls.get(w));
                }
                latencies.forEach((e, l) -> samples.get(w).get(e).add(l));
            }
            Collections.reverse(writes);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        // What DynamoDB Local's engine received for each, recorded after the timed rounds (recording slows it down).
        Map<Write, Map<Entity, Recorded>> recorded = new LinkedHashMap<>();
        for (Write w : Write.values()) {
            recorded.put(w, new LinkedHashMap<>());
            for (Entity e : ENTITIES) {
                recorded.get(w).put(e, record(w, e));
            }
        }
        var rows = new ArrayList<RunData.FeatureWrite>();
        for (Write w : Write.values()) {
            for (Entity e : ENTITIES) {
                List<List<Double>> rounds = samples.get(w).get(e);
                List<Double> all = rounds.stream().flatMap(List::stream).sorted().toList();
                Recorded r = recorded.get(w).get(e);
                rows.add(new RunData.FeatureWrite(w.label, e.name(), e.feature(),
                        headerCalls.get(w).get(e).stream().mapToInt(Integer::intValue).average().orElse(Double.NaN),
                        r.calls(), r.operations(), r.actions(), r.writeUnits(), r.maxItemBytes(), r.localCapacity(),
                        r.agreed(), percentile(all, 0.50), percentile(all, 0.99), all.size(),
                        rounds.stream().map(l -> percentile(l.stream().sorted().toList(), 0.50)).toList()));
            }
        }
        bench.data.features.addAll(rows);
        bench.report.append(table(rows, warmupSeconds, seconds));
    }

    /** One write per entity, in a fresh shuffled order; timed into {@code latencies} unless that is null (warm-up). */
    private void cycle(Write w, Random random, Map<Entity, List<Double>> latencies, Map<Entity, List<Integer>> calls) throws Exception {
        var order = new ArrayList<>(ENTITIES);
        Collections.shuffle(order, random);
        for (Entity e : order) {
            HttpRequest request = prepare(w, e);
            long start = System.nanoTime();
            HttpResponse<String> response = bench.http.send(request, HttpResponse.BodyHandlers.ofString());
            double ms = (System.nanoTime() - start) / 1e6;
            check(request, response, expected(w));
            if (latencies != null) {
                latencies.get(e).add(ms);
                calls.get(e).add(response.headers().firstValue("X-DynamoDB-Calls").map(Integer::parseInt).orElse(-1));
            }
        }
    }

    /**
     * What one write sent DynamoDB Local, over {@link #RECORDED} writes: the calls and actions of the last (and whether
     * every one of them sent the same), the calls the app answered.
     */
    record Recorded(int calls, String operations, String actions, int writeUnits, long maxItemBytes, Double localCapacity,
                    boolean agreed) {
    }

    private Recorded record(Write w, Entity e) throws Exception {
        var shapes = new ArrayList<String>();
        Recorded last = null;
        for (int i = 0; i < RECORDED; i++) {
            HttpRequest request = prepare(w, e);
            HttpResponse<String> response;
            List<DynamoCalls.Call> seen;
            recorder.start();
            try {
                response = bench.http.send(request, HttpResponse.BodyHandlers.ofString());
            } finally {
                // Stopped either way: a recorder left on would slow every later request down.
                seen = recorder.stop();
            }
            check(request, response, expected(w));
            // Calls of this write only: every key and value of this domain names a Feat entity (other processes, such
            // as the main app's jobs, may call DynamoDB Local meanwhile).
            List<DynamoCalls.Call> mine = seen.stream()
                    .filter(c -> c.mentions(s -> s.toUpperCase(Locale.ROOT).contains("FEAT"))).toList();
            int answered = response.headers().firstValue("X-DynamoDB-Calls").map(Integer::parseInt).orElse(-1);
            String operations = mine.stream().map(c -> c.operation() + (c.failed() ? " (failed)" : "")).collect(Collectors.joining(" + "));
            String actions = mine.stream().filter(c -> !c.actions().isEmpty())
                    .map(c -> c.transactional()
                            ? c.actions().size() + " (" + c.actions().stream().map(DynamoCalls.Action::kind).collect(Collectors.joining(", ")) + ")"
                            : "1 (" + c.operation() + ", no transaction)")
                    .collect(Collectors.joining(" + "));
            int units = mine.stream().mapToInt(DynamoCalls.Call::writeUnits).sum();
            long bytes = mine.stream().flatMap(c -> c.actions().stream()).mapToLong(DynamoCalls.Action::bytes).max().orElse(0);
            double local = mine.stream().filter(c -> !c.actions().isEmpty()).mapToDouble(DynamoCalls.Call::localCapacity)
                    .filter(d -> !Double.isNaN(d)).sum();
            shapes.add(operations + " | " + actions + " | " + units + " | " + answered);
            last = new Recorded(mine.size(), operations, actions.isEmpty() ? "–" : actions, units, bytes, local, answered == mine.size());
        }
        boolean same = shapes.stream().distinct().count() == 1;
        return new Recorded(last.calls(), last.operations(), last.actions(), last.writeUnits(), last.maxItemBytes(),
                last.localCapacity(), last.agreed() && same);
    }

    private static int expected(Write w) {
        return switch (w) {
            case CREATE -> 201;
            case PATCH, PATCH_UNIQUE -> 200;
            case DELETE -> 204;
        };
    }

    /** The write's request; what it needs first (the item a delete removes) is made here, untimed. */
    private HttpRequest prepare(Write w, Entity e) throws Exception {
        int n = next++;
        return switch (w) {
            case CREATE -> create(e, "c-" + n);
            case PATCH -> patch(e, "{\"name\":\"name " + n + "\"}");
            case PATCH_UNIQUE -> patch(e, "{\"email\":\"e" + n + "@feat.example\"" + (e.aggregate()
                    ? ",\"notes\":" + notes("t" + n, "two-p-" + e.segment()) : "") + "}");
            case DELETE -> {
                String id = "d-" + n;
                send(create(e, id), 201);
                yield HttpRequest.newBuilder(URI.create(app.base() + e.collection() + "/" + id)).DELETE().build();
            }
        };
    }

    private HttpRequest create(Entity e, String id) {
        String body = "{\"id\":\"" + id + "\",\"name\":\"Item " + id + "\",\"email\":\"" + id + "@feat.example\",\"expiresAt\":\""
                + EXPIRES + "\",\"count\":1" + (e.aggregate() ? ",\"notes\":" + notes("one-" + id, "two-" + id) : "") + "}";
        return HttpRequest.newBuilder(URI.create(app.base() + e.collection())).POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json").build();
    }

    /** An aggregate's two notes; their texts are each one note's where a member declares them unique. */
    private static String notes(String a, String b) {
        return "[{\"tag\":\"a\",\"text\":\"" + a + "\"},{\"tag\":\"b\",\"text\":\"" + b + "\"}]";
    }

    private HttpRequest patch(Entity e, String body) {
        return HttpRequest.newBuilder(URI.create(app.base() + e.collection() + "/p-" + e.segment()))
                .method("PATCH", HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/merge-patch+json").build();
    }

    private void send(HttpRequest request, int expected) throws Exception {
        check(request, bench.http.send(request, HttpResponse.BodyHandlers.ofString()), expected);
    }

    private static void check(HttpRequest request, HttpResponse<String> response, int expected) {
        if (response.statusCode() != expected) {
            throw new IllegalStateException(request.method() + " " + request.uri().getPath() + " answered "
                    + response.statusCode() + ": " + response.body());
        }
    }

    static double percentile(List<Double> sorted, double p) {
        return sorted.isEmpty() ? Double.NaN : sorted.get(Math.min(sorted.size() - 1, (int) Math.floor(p * sorted.size())));
    }

    /** The raw table: every figure of every write and entity, as measured. */
    private static String table(List<RunData.FeatureWrite> rows, double warmupSeconds, double seconds) {
        var md = new StringBuilder("\n### Each entity feature on a write (features)\n\n");
        md.append(String.format(Locale.ROOT, "One connection, one request at a time. %d timed writes per entity, write and round, "
                + "%d rounds, after %d unrecorded per entity and write (%.0f s); %.0f s in all. Calls answered: the mean "
                + "`X-DynamoDB-Calls` of the timed writes; calls seen and the rest: what DynamoDB Local's engine received "
                + "for the last of %d recorded writes (same: every recorded write sent the same and the app answered as "
                + "many calls); capacity (DynamoDB Local): what it answered for the writes, not DynamoDB's bill.%n%n",
                OPS, CairnBench.ROUNDS, WARMUP, warmupSeconds, seconds, RECORDED));
        md.append("| write | entity | calls answered | calls seen | same | operations | actions | WCU | largest item bytes "
                + "| capacity (DynamoDB Local) | p50 ms | p99 ms | p50 by round | writes |\n")
                .append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (RunData.FeatureWrite r : rows) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %.2f | %d | %s | %s | %s | %d | %d | %s | %.2f | %.2f | %s | %d |%n",
                    r.write(), r.entity(), r.answeredCalls(), r.calls(), r.agreed() ? "yes" : "**no**", r.operations(),
                    r.actions(), r.writeUnits(), r.maxItemBytes(), r.localCapacity() == null ? "–"
                            : String.format(Locale.ROOT, "%.1f", r.localCapacity()), r.p50Ms(), r.p99Ms(),
                    r.roundP50Ms().stream().map(v -> String.format(Locale.ROOT, "%.2f", v)).collect(Collectors.joining(" · ")),
                    r.samples()));
        }
        return md.toString();
    }
}
