package dev.cairn.bench;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The {@code controls} scenario: what Cairn's process costs every request, whatever its route. The quarkus-rest
 * baseline's own resources (src/bench/baseline-rest) are compiled into builds of the app (the {@code bench-control}
 * profile, into target/controls/&lt;build&gt;/; never a shipped build), where they answer the three GET routes in place
 * of Cairn's declared ones, through Cairn's client, filters and handlers. Each control serves them with one
 * process-wide feature switched off — at build time where Quarkus fixes the feature then, at start where it can be —
 * and one with all of them off; all beside the baseline in its own process and Cairn's own routes, in the same
 * interleaved rounds, each process loaded until its JIT compilers settle ({@code -Dbench.prewarm}).
 *
 * <p>What a feature costs is the control with everything on less the control without it; the gap it is a share of is
 * Cairn's own route less the baseline in its own process. A second process with everything on (the twin) is the
 * noise floor: a difference between two controls smaller than the twins' is not a measurement. What no switch removes
 * (the security layer with authentication off, Cairn's own request filters, a bigger process) is the all-off control
 * less the standalone baseline; Hibernate Validator's interceptors apply to no method of the baseline's resources.
 */
final class Controls {

    static final String SCENARIO = "controls";
    static final String STANDALONE = "quarkus-rest (its own process)";
    static final String OWN_ROUTE = "Cairn's own route";
    static final String CONTROL = "control: every feature on";
    static final String TWIN = "control: every feature on, its twin";
    static final String ALL_OFF = "control: all off";
    static final String JSON_LOGS = "control: JSON logs";

    /** A build of the app with the baseline's resources, and the build-time properties it differs by. */
    record Build(String name, List<String> properties) {
    }

    /** A control: its build, its start-time properties, and what they switch off. */
    record Control(String name, String switchedOff, Build build, List<String> properties) {
    }

    static final Build SHIPPED = new Build("shipped", List.of());
    static final Build NO_HTTP_METRICS = new Build("no-http-metrics",
            List.of("-Dquarkus.micrometer.binder.http-server.enabled=false"));
    static final Build NO_SDK_INTERCEPTOR = new Build("no-sdk-interceptor", List.of("-Dquarkus.dynamodb.interceptors="));
    static final Build NO_BODY_LIMIT = new Build("no-body-limit",
            List.of("-Dquarkus.arc.exclude-types=dev.cairn.platform.BodyLimit"));
    static final Build NONE = new Build("none", Stream.of(NO_HTTP_METRICS, NO_SDK_INTERCEPTOR, NO_BODY_LIMIT)
            .flatMap(b -> b.properties().stream()).toList());

    static final String NO_DIAGNOSTICS = "-Dcairn.diagnostics.headers=false";

    static final List<Control> CONTROLS = List.of(
            new Control(CONTROL, "nothing", SHIPPED, List.of()),
            new Control(TWIN, "nothing: a second process like the first, the noise between two alike", SHIPPED, List.of()),
            new Control("control: no HTTP server metrics", "the HTTP server metrics (Micrometer's binder, a build-time switch)",
                    NO_HTTP_METRICS, List.of()),
            new Control("control: no diagnostics headers", "X-DynamoDB-Calls, X-DynamoDB-Capacity and Server-Timing "
                    + "(cairn.diagnostics.headers=false; the request id and the call ledger stay)", SHIPPED, List.of(NO_DIAGNOSTICS)),
            new Control("control: no SDK interceptor", "the client's call-counting execution interceptor (a build-time list)",
                    NO_SDK_INTERCEPTOR, List.of()),
            new Control("control: no body-limit handler", "the router's body-limit handler (its bean excluded at build time)",
                    NO_BODY_LIMIT, List.of()),
            new Control(JSON_LOGS, "nothing: JSON console logs switched ON, as in production (the benchmark "
                    + "runs Cairn with plain logs); a cost here is logging's", SHIPPED, List.of("-Dquarkus.log.console.json.enabled=true")),
            new Control(ALL_OFF, "every switch above but the logs", NONE, List.of(NO_DIAGNOSTICS)));

    /** The routes, each with the path Cairn and every control answer. */
    static final Map<String, String> ROUTES = new LinkedHashMap<>();

    static {
        ROUTES.put("GET /matches/{id}", "/matches/control-get");
        ROUTES.put("GET /workspaces/{id}/projects", "/workspaces/control/projects");
        ROUTES.put("GET /courses/{id}/students", "/courses/control101/students");
    }

    private final CairnBench bench;
    private final String dynamoEndpoint;

    Controls(CairnBench bench, String dynamoEndpoint) {
        this.bench = bench;
        this.dynamoEndpoint = dynamoEndpoint;
    }

    void run() throws Exception {
        setUp();
        if (bench.rest == null) {
            bench.handWrittenRoutes();
            bench.startQuarkusRest(dynamoEndpoint);
        }
        var builds = new LinkedHashMap<Build, Path>();
        for (Control control : CONTROLS) {
            if (!builds.containsKey(control.build())) {
                builds.put(control.build(), build(control.build()));
            }
        }
        var processes = new LinkedHashMap<Control, AppProcess>();
        try {
            for (Control control : CONTROLS) {
                var properties = new ArrayList<>(List.of("-Dcairn.auth.enabled=false",
                        "-Dbaseline.access-patterns=" + Path.of("target/bench/hand-written-routes.json").toAbsolutePath()));
                properties.addAll(control.properties());
                String name = "control-" + processes.size() + "-" + control.build().name();
                processes.put(control, AppProcess.start(dynamoEndpoint, properties, name, builds.get(control.build())));
                if (control.name().equals(JSON_LOGS) && !Files.readString(Path.of("target/bench/" + name + ".log")).contains("{\"timestamp\"")) {
                    throw new IllegalStateException(control.name() + " did not switch JSON logs on: see target/bench/" + name + ".log");
                }
            }
            for (var route : ROUTES.entrySet()) {
                // the same answer from every control as from the standalone baseline: the same resource
                String expected = bench.http.send(HttpRequest.newBuilder(URI.create(bench.rest.base() + route.getValue())).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString()).body();
                for (var control : processes.entrySet()) {
                    var answer = bench.http.send(HttpRequest.newBuilder(URI.create(control.getValue().base() + route.getValue())).build(),
                            java.net.http.HttpResponse.BodyHandlers.ofString());
                    // The baseline's resource calls the client itself, past Cairn's call accounting: 0 calls where the
                    // declared route would count its Query; no count at all where the diagnostics headers are off.
                    boolean diagnostics = !control.getKey().properties().contains(NO_DIAGNOSTICS);
                    var calls = answer.headers().firstValue("X-DynamoDB-Calls");
                    if (answer.statusCode() != 200 || !answer.body().equals(expected)
                            || (diagnostics ? !calls.equals(java.util.Optional.of("0")) : calls.isPresent())) {
                        throw new IllegalStateException(control.getKey().name() + " answers " + route.getKey() + " with "
                                + answer.statusCode() + ", X-DynamoDB-Calls " + calls + ", unlike the baseline's resource: "
                                + answer.body());
                    }
                }
                measure(route.getKey(), route.getValue(), processes);
            }
        } finally {
            processes.values().forEach(AppProcess::close);
        }
    }

    /** Data of the scenario's own, so it runs alone or beside any other. */
    void setUp() throws Exception {
        bench.post("/matches", bench.matchJson("control-get"));
        bench.post("/workspaces", "{\"id\":\"control\",\"displayName\":\"Control\",\"region\":\"eu-west-1\",\"seatLimit\":10}");
        for (int i = 0; i < 50; i++) {
            bench.post("/workspaces/control/projects", "{\"title\":\"Project " + i + "\",\"status\":\"ACTIVE\",\"createdBy\":\"bench\"}");
        }
        bench.post("/courses", "{\"id\":\"control101\",\"title\":\"Controls\",\"credits\":5,\"term\":\"t\"}");
        for (int i = 0; i < 30; i++) {
            bench.post("/students", "{\"id\":\"control-s" + i + "\",\"name\":\"Student " + i + "\",\"year\":1,\"major\":\"CS\"}");
            bench.send(HttpRequest.newBuilder(URI.create(bench.app.base() + "/students/control-s" + i + "/enrollments/control101"))
                    .PUT(HttpRequest.BodyPublishers.ofString("{}")).header("Content-Type", "application/json").build(), 201);
        }
    }

    /** Builds the app with the baseline's resources and {@code build}'s properties, with this build's Maven. */
    static Path build(Build build) throws Exception {
        Path dir = Path.of("target/controls", build.name()).toAbsolutePath();
        Files.createDirectories(dir);
        var command = new ArrayList<>(List.of(System.getProperty("bench.maven", "mvn"), "--batch-mode", "--quiet"));
        String mode = System.getProperty("bench.maven.mode", "");
        if (mode.equals("--offline")) {
            command.add(mode);
        }
        String repo = System.getProperty("bench.maven.repo", "");
        if (!repo.isBlank()) {
            command.add("-Dmaven.repo.local=" + repo);
        }
        command.addAll(List.of("-Pbench-control", "-Dcairn.build.directory=" + dir, "-Dmaven.test.skip=true",
                "-Dquarkus.platform.version=" + System.getProperty("bench.quarkus.version", "")));
        command.addAll(build.properties());
        command.add("package");
        long started = System.nanoTime();
        Path log = Path.of("target/bench/control-build-" + build.name() + ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(15, java.util.concurrent.TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException("the control build " + build.name() + " took over 15 minutes: see " + log);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("the control build " + build.name() + " failed: see " + log);
        }
        System.out.printf(Locale.ROOT, "control build %s in %.0f s%n", build.name(), (System.nanoTime() - started) / 1e9);
        return dir.resolve("quarkus-app/quarkus-run.jar");
    }

    void measure(String route, String path, Map<Control, AppProcess> processes) throws Exception {
        bench.measuredRoute = route;
        StringBuilder report = bench.report;
        report.append("\n### ").append(route).append(": the baseline's resource in Cairn's process, each feature off in turn\n\n")
                .append("| concurrency | contender | ops/s | p50 ms | app CPU µs/request | by round | errors |\n")
                .append("|---|---|---|---|---|---|---|\n");
        for (int concurrency : bench.concurrencies) {
            var contenders = new LinkedHashMap<String, CairnBench.Contender>();
            contenders.put(STANDALONE, bench.new Contender(STANDALONE, bench.rest, CairnBench.counted(w -> bench.getFrom(bench.rest, path))));
            contenders.put(OWN_ROUTE, bench.new Contender(OWN_ROUTE, bench.app, CairnBench.counted(w -> bench.getFrom(bench.app, path))));
            processes.forEach((control, process) -> contenders.put(control.name(),
                    bench.new Contender(control.name(), process, CairnBench.counted(w -> bench.getFrom(process, path)))));
            var order = new ArrayList<>(contenders.values());
            if (concurrency == bench.concurrencies.get(0)) {
                bench.settle(order);
            }
            for (int round = 0; round < CairnBench.ROUNDS; round++) {
                for (CairnBench.Contender contender : order) {
                    contender.run(concurrency);
                }
                Collections.reverse(order);
            }
            for (CairnBench.Contender contender : contenders.values()) {
                Load.Result r = contender.merged();
                List<Double> rounds = contender.rounds(concurrency).stream().map(RunData.RoundRow::cpuMsPerOp).toList();
                String switchedOff = CONTROLS.stream().filter(c -> c.name().equals(contender.name)).map(Control::switchedOff)
                        .findFirst().orElse("");
                bench.data.controls.add(new RunData.Control(route, concurrency, contender.name, switchedOff, contender.cpuPerOp(),
                        rounds, r.opsPerSecond(), r.p50Ms(), r.errors()));
                report.append(String.format(Locale.ROOT, "| %d | %s | %.0f | %.2f | %.0f | %s | %d |%n", concurrency, contender.name,
                        r.opsPerSecond(), r.p50Ms(), contender.cpuPerOp() * 1000,
                        String.join(" · ", rounds.stream().map(c -> String.format(Locale.ROOT, "%.0f", c * 1000)).toList()), r.errors()));
            }
        }
    }
}
