package dev.cairn.bench;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The packaged app as a separate process, so its CPU time and RSS can be read from the OS. */
final class AppProcess implements AutoCloseable {

    private static final long CLOCK_TICKS_PER_SECOND = 100;

    final Process process;
    final int port;
    final long startupMillis;
    /** Whether the profiler's agent was loaded at start (window profiling attaches to no other process). */
    final boolean profilable;

    private AppProcess(Process process, int port, long startupMillis, boolean profilable) {
        this.process = process;
        this.port = port;
        this.startupMillis = startupMillis;
        this.profilable = profilable;
    }

    static AppProcess start(String dynamoEndpoint) throws Exception {
        // Measures the data path; token verification is measured on its own (the auth scenario).
        return start(dynamoEndpoint, List.of("-Dcairn.auth.enabled=false"), "app");
    }

    /** The packaged app with extra system properties; its log goes to target/bench/{name}.log. */
    static AppProcess start(String dynamoEndpoint, List<String> properties, String name) throws Exception {
        return start(dynamoEndpoint, properties, name, Path.of("target/quarkus-app/quarkus-run.jar"));
    }

    /** Another build of the app (its quarkus-app directory's jar), with the same settings. */
    static AppProcess start(String dynamoEndpoint, List<String> properties, String name, Path jar) throws Exception {
        return start(dynamoEndpoint, properties, name, jar, null);
    }

    /**
     * The packaged app serving, beside its own model files, those under {@code models}/models/ (a benchmark's domain
     * that is never shipped): that directory goes on the class path ahead of the jar, whose class loader lists the
     * model files of its parent too.
     */
    static AppProcess startWithModels(String dynamoEndpoint, List<String> properties, String name, Path models) throws Exception {
        return start(dynamoEndpoint, properties, name, Path.of("target/quarkus-app/quarkus-run.jar"), models);
    }

    private static AppProcess start(String dynamoEndpoint, List<String> properties, String name, Path jar, Path models) throws Exception {
        int port = freePort();
        int managementPort = freePort();
        if (!Files.exists(jar)) {
            throw new IllegalStateException("package the app first: " + jar);
        }
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // the heap a pod gets from deploy/kubernetes (60 % of its 512 Mi limit)
                "-Xmx300m",
                "-Dquarkus.http.port=" + port,
                "-Dquarkus.management.port=" + managementPort,
                "-Dquarkus.dynamodb.endpoint-override=" + dynamoEndpoint,
                "-Dquarkus.dynamodb.aws.region=us-east-1",
                "-Dquarkus.dynamodb.aws.credentials.type=static",
                "-Dquarkus.dynamodb.aws.credentials.static-provider.access-key-id=local",
                "-Dquarkus.dynamodb.aws.credentials.static-provider.secret-access-key=local",
                "-Dcairn.table.create=true",
                "-Dcairn.cursor.secret=benchmark-cursor-secret",
                // one load client is one caller: the benchmark measures throughput, not the per-caller limits
                "-Dcairn.limits.enabled=false",
                "-Dquarkus.log.level=WARN",
                "-Dquarkus.log.console.json.enabled=false",
                "-Dquarkus.shutdown.delay-enabled=false"));
        if (models == null) {
            command.addAll(List.of("-jar", jar.toString()));
        } else {
            // The jar's own entry point, as -jar would run it; the jar's manifest still names its boot libraries.
            command.addAll(List.of("-cp", models.toAbsolutePath() + java.io.File.pathSeparator + jar,
                    "io.quarkus.bootstrap.runner.QuarkusEntryPoint"));
        }
        // after the base flags, before -jar/-cp: the JVM keeps the last of a repeated -D, so a caller's setting wins
        command.addAll(command.indexOf(models == null ? "-jar" : "-cp"), properties);
        if (!name.startsWith("startup")) {
            profiled(command, name);
        }
        if (Boolean.getBoolean("bench.jfr") && name.equals("app")) {
            // Profile the app that serves the load (never the startup variants: a recording slows a start down):
            // jfr print --events jdk.ExecutionSample target/bench/app.jfr
            command.add(1, "-XX:StartFlightRecording=filename=target/bench/app.jfr,settings=profile");
        }
        long started = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(Path.of("target/bench/" + name + ".log").toFile()).start();
        awaitReady(process, "http://127.0.0.1:" + managementPort + "/q/health/ready", name, started);
        return new AppProcess(process, port, (System.nanoTime() - started) / 1_000_000, !name.startsWith("startup") && windowProfiling());
    }

    /**
     * The hand-written baseline service (dev.cairn.bench.baseline.HandWritten) as its own process, with the app's
     * heap and this JVM's class path, answering the access patterns in {@code patterns}; its log goes to
     * target/bench/{name}.log.
     */
    static AppProcess startHandWritten(String dynamoEndpoint, Path patterns, boolean directCompletion, String name) throws Exception {
        int port = freePort();
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx300m",
                "-cp", System.getProperty("java.class.path"), "dev.cairn.bench.baseline.HandWritten",
                String.valueOf(port), dynamoEndpoint, patterns.toString(), String.valueOf(directCompletion));
        long started = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(Path.of("target/bench/" + name + ".log").toFile()).start();
        awaitReady(process, "http://127.0.0.1:" + port + "/ready", name, started);
        return new AppProcess(process, port, (System.nanoTime() - started) / 1_000_000, false);
    }

    /**
     * The quarkus-rest baseline (src/bench/baseline-rest, built by the bench profile into target/baseline-rest/) as
     * its own process with the app's heap: the extension's default client pointed at DynamoDB Local, answering the
     * access patterns in {@code patterns}; its log goes to target/bench/{name}.log. Ready when it answers at all (it
     * has no health endpoint): a 404 for its root.
     */
    static AppProcess startQuarkusRest(String dynamoEndpoint, Path patterns, String name) throws Exception {
        Path jar = Path.of("target/baseline-rest/quarkus-app/quarkus-run.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException("build the quarkus-rest baseline first (the bench profile does): " + jar);
        }
        int port = freePort();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx300m",
                "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.http.port=" + port,
                "-Dquarkus.dynamodb.endpoint-override=" + dynamoEndpoint,
                "-Dquarkus.dynamodb.aws.region=us-east-1",
                "-Dquarkus.dynamodb.aws.credentials.type=static",
                "-Dquarkus.dynamodb.aws.credentials.static-provider.access-key-id=local",
                "-Dquarkus.dynamodb.aws.credentials.static-provider.secret-access-key=local",
                "-Dbaseline.access-patterns=" + patterns.toAbsolutePath(),
                "-Dquarkus.log.level=WARN",
                "-jar", jar.toString()));
        profiled(command, name);
        if (Boolean.getBoolean("bench.jfr")) {
            // Profiled like the app, with the same settings: jfr print --events jdk.ExecutionSample target/bench/quarkus-rest.jfr
            command.add(1, "-XX:StartFlightRecording=filename=target/bench/" + name + ".jfr,settings=profile");
        }
        long started = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(Path.of("target/bench/" + name + ".log").toFile()).start();
        awaitAnswer(process, "http://127.0.0.1:" + port + "/", name, started, false);
        return new AppProcess(process, port, (System.nanoTime() - started) / 1_000_000, windowProfiling());
    }

    /**
     * {@code -Dbench.profiler=<libasyncProfiler.so>}: the process runs under async-profiler in {@code itimer} mode (a
     * sample per 1 ms of the process' CPU time, unlike JFR's samples, which also take preempted threads), its stacks
     * written collapsed to target/bench/{name}.collapsed when it stops — comparable across processes as samples per
     * request. With {@code -Dbench.profiler.windows=true} the profiler is loaded idle and runs only in each measured
     * window instead ({@link #profileWindow}), so a window's samples divide by its own requests.
     */
    private static void profiled(List<String> command, String name) {
        String profiler = System.getProperty("bench.profiler", "");
        if (!profiler.isBlank()) {
            if (windowProfiling()) {
                // loaded at start (a later attach would deoptimise what the JIT compiled), started per window
                command.add(1, "-XX:+UnlockDiagnosticVMOptions");
                command.add(2, "-XX:+DebugNonSafepoints");
                command.add(3, "-agentpath:" + profiler);
                return;
            }
            // -Dbench.profiler.event=alloc: what each process allocates instead (bytes, sampled every 512 KiB)
            String event = System.getProperty("bench.profiler.event", "itimer");
            command.add(1, "-agentpath:" + profiler + "=start,event=" + event
                    + (event.equals("alloc") ? ",alloc=512k" : ",interval=1ms") + ",collapsed,file="
                    + Path.of("target/bench/" + name + ".collapsed").toAbsolutePath());
        }
    }

    static boolean windowProfiling() {
        return !System.getProperty("bench.profiler", "").isBlank() && Boolean.getBoolean("bench.profiler.windows");
    }

    /**
     * Starts the profiler ({@code file} null) or stops it and writes the window's stacks, collapsed, to {@code file}:
     * a command to the agent loaded at start, sent with jcmd as async-profiler's own launcher sends it.
     */
    void profileWindow(Path file) throws Exception {
        String event = System.getProperty("bench.profiler.event", "itimer");
        String command = file == null
                ? "start,event=" + event + (event.equals("alloc") ? ",alloc=512k" : ",interval=1ms")
                : "stop,collapsed,file=" + file.toAbsolutePath();
        // quoted: jcmd would read the option's "=" as its own name=value syntax (the agent says so in the app's log)
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(process.pid()), "JVMTI.agent_load", System.getProperty("bench.profiler"), '"' + command + '"')
                .redirectErrorStream(true).start();
        String out = new String(jcmd.getInputStream().readAllBytes());
        if (jcmd.waitFor() != 0 || (file != null && !Files.exists(file))) {
            throw new IllegalStateException("the profiler did not take '" + command + "' (see the process' log): " + out);
        }
    }

    private static void awaitReady(Process process, String readyUrl, String name, long started) throws Exception {
        awaitAnswer(process, readyUrl, name, started, true);
    }

    /** Polls {@code url} until it answers 200 ({@code ok}) or anything at all. */
    private static void awaitAnswer(Process process, String readyUrl, String name, long started, boolean ok) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited; see target/bench/" + name + ".log");
            }
            try {
                var response = http.send(HttpRequest.newBuilder(URI.create(readyUrl))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
                if (!ok || response.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(50);
            if (Duration.ofNanos(System.nanoTime() - started).toSeconds() > 60) {
                process.destroyForcibly(); // never left running behind a failed run
                throw new IllegalStateException(name + " did not become ready in 60 s");
            }
        }
    }

    /** User + system CPU time of the app so far, in milliseconds (from /proc). */
    double cpuMillis() throws IOException {
        String stat = Files.readString(Path.of("/proc/" + process.pid() + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        return ticks * 1000.0 / CLOCK_TICKS_PER_SECOND;
    }

    /**
     * User + system CPU time so far of each group of the process' threads, in milliseconds (from /proc): threads named
     * alike but for their numbers ("vert.x-eventloop-thread-0", "-1") form one group ("vert.x-eventloop-thread-#").
     * A thread that ended is no longer counted.
     */
    Map<String, Double> threadCpuMillis() {
        var groups = new TreeMap<String, Double>();
        try (var tasks = Files.list(Path.of("/proc/" + process.pid() + "/task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("[0-9]+", "#");
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                    groups.merge(name, ticks * 1000.0 / CLOCK_TICKS_PER_SECOND, Double::sum);
                } catch (IOException | RuntimeException e) {
                    // the thread ended while it was read
                }
            }
        } catch (IOException e) {
            return Map.of();
        }
        return groups;
    }

    /** Resident set size in MB (from /proc). */
    double rssMb() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
            }
        }
        return -1;
    }

    String base() {
        return "http://127.0.0.1:" + port;
    }

    @Override
    public void close() {
        process.destroy();
        if (!System.getProperty("bench.profiler", "").isBlank()) {
            // a profiled process writes its stacks as it exits: the run waits for them
            try {
                if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** SIGTERM, then waits for the exit (a graceful stop: shutdown hooks run, -XX:ArchiveClassesAtExit writes). */
    void stopAndWait() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
