package dev.cairn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.platform.EmbeddedDynamoDb;
import dev.cairn.platform.Manifests;
import dev.cairn.platform.TestTokens;
import io.restassured.RestAssured;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/**
 * The JVM image as it ships: target/cairn-jvm-image.tar (deploy/image/build-jvm-image.sh) is loaded into podman and
 * started as the local overlay's Deployment describes the pod — its ConfigMap and env, the Secret's cursor secret, the
 * JWT key as a read-only volume, user 185, a read-only root filesystem with /tmp as the only writable place, no
 * capabilities — against DynamoDB Local. Then the start is measured side by side: the image with its AOT cache,
 * without it, the hand-written floor (src/bench baseline.HandWritten, compiled and trained by the same script) and the
 * hand-written quarkus-rest service (src/bench/baseline-rest, built and trained by it too), each started the same way
 * from the same image, Java 25 and its own AOT cache; time to ready and memory as a Kubernetes
 * limit sees it (RSS and its anonymous part), idle and after the same load. Run by .ci/run after the suite (it needs
 * root and podman): {@code ./mvnw failsafe:integration-test failsafe:verify -Dit.test=JvmImageIT}.
 */
class JvmImageIT {

    static final Path IMAGE = Path.of(System.getProperty("cairn.image", "target/cairn-jvm-image.tar"));
    /** The floor's jar, classpath, AOT cache and routes, written by build-jvm-image.sh beside the image. */
    static final Path FLOOR = Path.of("target/image/floor");
    /** The quarkus-rest service's packaged app and AOT cache, written by build-jvm-image.sh beside the image. */
    static final Path QUARKUS_REST = Path.of("target/image/quarkus-rest");
    /** Interleaved rounds of the side-by-side starts. */
    static final int ROUNDS = Integer.getInteger("cairn.image.rounds", 3);
    /**
     * The manifests' limits (512Mi, 1 CPU) as the JVM takes them in a pod, for the measured starts: podman here can
     * set no cgroup limit, so the JVM is told (its heap, GC — Serial on 1 CPU — and thread pools follow from them).
     */
    static final String POD_LIMITS = "-XX:MaxRAM=512m -XX:ActiveProcessorCount=1";
    static final Path REPORT = Path.of("target/image/jvm-image-report.txt");
    static final ObjectMapper JSON = new ObjectMapper();
    static final Pattern STARTED_IN = Pattern.compile("started in ([0-9.]+)s");

    final String name = "cairn-image-it-" + UUID.randomUUID().toString().substring(0, 8);
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    EmbeddedDynamoDb dynamo;

    @AfterEach
    void stop() throws Exception {
        podman("rm", "--force", "--ignore", "--time", "0", name, name + "-check");
        for (Variant variant : Variant.values()) {
            podman("rm", "--force", "--ignore", "--time", "0", name + "-" + variant.id);
        }
        RestAssured.reset();
        if (dynamo != null) {
            dynamo.close();
        }
    }

    @Test
    void theImageStartsAsThePodSpecSaysAndServesMatches() throws Exception {
        assertThat(IMAGE).as("built by deploy/image/build-jvm-image.sh").exists();
        JsonNode config = JSON.readTree(run("tar", "-xOf", IMAGE.toString(), "config.json"));
        assertThat(config.at("/config/User").asText()).as("never root").isEqualTo("185");
        assertThat(config.at("/config/Entrypoint").toString()).contains("/deployments/quarkus-run.jar")
                .contains("-XX:AOTCache=/deployments/app.aot");
        assertThat(config.at("/config/ExposedPorts").has("8080/tcp")).isTrue();
        assertThat(config.at("/config/ExposedPorts").has("9000/tcp")).isTrue();
        assertThat(run("podman", "load", "--input", IMAGE.toString())).contains("cairn:jvm");
        // Real DynamoDB is HTTPS (DynamoDB Local here is not): the runtime must trust the public CAs.
        String trusted = podman("run", "--rm", "--network", "host", "--cgroups", "disabled", "--ulimit", "nofile=4096:4096",
                "--ulimit", "nproc=4096:4096", "--entrypoint", "keytool", "localhost/cairn:jvm",
                "-list", "-cacerts", "-storepass", "changeit");
        assertThat(trusted.lines().filter(l -> l.contains("trustedCertEntry")).count())
                .as("the runtime's trust store holds the public CA certificates").isGreaterThan(100);
        String version = podman("run", "--rm", "--network", "none", "--cgroups", "disabled", "--ulimit", "nofile=4096:4096",
                "--ulimit", "nproc=4096:4096", "--entrypoint", "java", "localhost/cairn:jvm", "-version");
        assertThat(version).as("a Java 25 runtime").contains("version \"25");

        // The app's files are root's and not writable by the user it runs as, even on a writable root (no --read-only
        // here): the service can neither change its own code nor add files beside it.
        assertThat(findAsAppUser("/deployments", "/opt/java", "(", "-writable", "-o", "!", "-user", "0", "-o", "-perm", "/022", ")"))
                .as("under /deployments and /opt/java: writable by user 185, or not root's, or group/other-writable").isEmpty();
        // The same check sees a place user 185 may write, and reads the app's files.
        assertThat(findAsAppUser("/tmp", "-maxdepth", "0", "-writable")).containsExactly("/tmp");
        assertThat(findAsAppUser("/deployments", "-name", "quarkus-run.jar")).containsExactly("/deployments/quarkus-run.jar");

        List<JsonNode> local = Manifests.render("local");
        JsonNode deployment = Manifests.find(local, "Deployment", "cairn");
        JsonNode container = deployment.at("/spec/template/spec/containers/0");
        assertThat(container.at("/image").asText()).as("the manifests run this image").isEqualTo("cairn:jvm");

        Thread.currentThread().setContextClassLoader(JvmImageIT.class.getClassLoader());
        dynamo = EmbeddedDynamoDb.start(0, null);
        int port = freePort();
        int management = freePort();
        // The cursor secret is no literal of the overlay: created as its header says, with a random value.
        Map<String, Map<String, String>> created = Map.of("cairn-secrets", Map.of("cursor-secret", randomHex(32)));
        Map<String, String> env = podEnvironment(local, container, created);
        // What differs from the cluster: DynamoDB Local's address, host ports, and the test issuer's key and audience.
        env.put("QUARKUS_DYNAMODB_ENDPOINT_OVERRIDE", "http://127.0.0.1:" + dynamo.port());
        env.put("QUARKUS_HTTP_PORT", String.valueOf(port));
        env.put("QUARKUS_MANAGEMENT_PORT", String.valueOf(management));
        env.put("MP_JWT_VERIFY_ISSUER", TestTokens.ISSUER);
        env.put("MP_JWT_VERIFY_AUDIENCES", TestTokens.AUDIENCE);
        // The call counts asserted below are diagnostics headers, which the shipped ConfigMap turns off.
        env.put("CAIRN_DIAGNOSTICS_HEADERS", "true");
        Path jwtVolume = Files.createTempDirectory("cairn-jwt");
        Files.copy(TestTokens.PUBLIC_KEY_FILE, jwtVolume.resolve("public-key.pem"));
        // As a Secret volume: readable by the pod's user, not writable.
        Files.setPosixFilePermissions(jwtVolume, PosixFilePermissions.fromString("r-xr-xr-x"));
        Files.setPosixFilePermissions(jwtVolume.resolve("public-key.pem"), PosixFilePermissions.fromString("r--r--r--"));

        var podSpec = new ArrayList<>(List.of("--network", "host",
                "--user", deployment.at("/spec/template/spec/securityContext/runAsUser").asText(),
                "--read-only", "--tmpfs", "/tmp", "--cap-drop", "ALL", "--security-opt", "no-new-privileges",
                "--volume", jwtVolume + ":" + mountPath(container, "jwt") + ":ro",
                // No cgroups and explicit limits: this machine's sandbox lets crun set neither (see README).
                "--cgroups", "disabled", "--ulimit", "nofile=4096:4096", "--ulimit", "nproc=4096:4096"));
        env.forEach((key, value) -> podSpec.addAll(List.of("--env", key + "=" + value)));
        String ready = "http://127.0.0.1:" + management + "/q/health/ready";
        long readyMillis = startToReady(name, podSpec, List.of(), ready);

        long pid = Long.parseLong(podman("inspect", "--format", "{{.State.Pid}}", name).trim());
        String status = Files.readString(Path.of("/proc/" + pid + "/status"));
        assertThat(field(status, "Uid")).as("the JVM runs as user 185").startsWith("185\t");
        assertThat(rootMountOptions(pid).split(",")).as("the root filesystem is read-only").contains("ro");
        assertThat(Files.readString(Path.of("/proc/" + pid + "/maps"))).as("the JVM maps the image's AOT cache")
                .contains("/deployments/app.aot");

        RestAssured.baseURI = "http://127.0.0.1";
        RestAssured.port = port;
        String k = UUID.randomUUID().toString().substring(0, 8);
        String id;
        String course = "cs-" + k;
        String workspace = "ws-" + k;
        try {
            id = PackagedAppIT.createMatch(k);
            PackagedAppIT.given().get("/matches/{id}", id).then().statusCode(200)
                    .header("X-DynamoDB-Calls", "1").header("ETag", "\"1\"")
                    .body("venue.name", equalTo("MCG"))
                    .body("team2.players[0].player.lastName", equalTo("Kohli"));
            RestAssured.given().get("/matches/{id}", id).then().statusCode(401);
            // What the side-by-side load below reads: a course roster and a workspace's projects besides the match.
            createLoadData(k, course, workspace);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\nthe container's log:\n" + logs(), e);
        }

        Thread.sleep(2000);
        Memory firstIdle = Memory.of(pid);
        String log = logs();
        assertThat(log).doesNotContain("\"level\":\"ERROR\"");
        Matcher started = STARTED_IN.matcher(log);
        assertThat(started.find()).as(log).isTrue();

        podman("stop", "--time", "45", name);
        assertThat(logs()).as("a graceful stop").contains("stopped in");

        // The cache is used, not only mapped: a start that must use it (-XX:AOTMode=on fails otherwise) loads most of
        // its classes from it.
        var strict = new ArrayList<>(podSpec);
        strict.addAll(List.of("--env", "JDK_JAVA_OPTIONS=" + env.get("JDK_JAVA_OPTIONS") + " " + POD_LIMITS
                + " -XX:AOTMode=on -Xlog:class+load=info:file=/tmp/class-load.log"));
        startToReady(name + "-check", strict, List.of(), ready);
        String classLoad = podman("exec", name + "-check", "cat", "/tmp/class-load.log");
        Files.createDirectories(REPORT.getParent());
        Files.writeString(REPORT.resolveSibling("class-load-aot.log"), classLoad);
        List<String> loaded = classLoad.lines().filter(line -> line.contains(" source: ")).toList();
        long fromCache = loaded.stream().filter(line -> line.contains("source: shared objects file")).count();
        podman("stop", "--time", "45", name + "-check");
        assertThat(fromCache).as("classes a start loads from the AOT cache, of %d", loaded.size())
                .isGreaterThan(loaded.size() * 3L / 4);

        // Side by side, on the same (now warm) DynamoDB Local and table, interleaved rounds: the image with its AOT
        // cache, without it (the entrypoint minus its flag), and the hand-written floor from the same image with its
        // own cache. Each JVM takes the pod's memory limit as its machine's memory; RSS and its anonymous part
        // (RssAnon: what a memory limit cannot reclaim, unlike the mapped files) idle, then after the same load.
        List<String> loadPaths = List.of("/matches/" + id, "/workspaces/" + workspace + "/projects", "/courses/" + course + "/students");
        var results = new LinkedHashMap<Variant, List<Start>>();
        for (int round = 0; round < ROUNDS; round++) {
            for (Variant variant : Variant.values()) {
                results.computeIfAbsent(variant, v -> new ArrayList<>())
                        .add(measure(variant, podSpec, env, port, management, loadPaths));
            }
        }

        long withCache = median(results.get(Variant.IMAGE), Start::readyMillis);
        long withoutCache = median(results.get(Variant.IMAGE_NO_CACHE), Start::readyMillis);
        long floor = median(results.get(Variant.FLOOR), Start::readyMillis);
        long quarkusRest = median(results.get(Variant.QUARKUS_REST), Start::readyMillis);
        long imageMb = Files.size(IMAGE) / (1024 * 1024);
        var report = new StringBuilder("image " + IMAGE.getFileName() + ": " + imageMb + " MiB (compressed layers); "
                + version.lines().filter(l -> l.contains("Runtime Environment")).findFirst().orElse("").trim()
                + "\npodman run to /q/health/ready: " + readyMillis + " ms (Quarkus: started in " + started.group(1) + " s,"
                + " creating the table); RSS after the first requests, idle: " + firstIdle
                + "\nthe AOT cache: " + fromCache + " of " + loaded.size() + " classes loaded from it\n"
                + "\nside by side, " + ROUNDS + " interleaved rounds on the existing table (CAIRN_TABLE_CREATE=false; " + POD_LIMITS
                + "; RSS / anonymous MiB, idle 2 s after ready, then after " + LOAD_REQUESTS + " GETs of "
                + String.join(", ", loadPaths) + "):\n");
        results.forEach((variant, starts) -> report.append(String.format(java.util.Locale.ROOT,
                "%-34s ready %s ms (median %d); CPU to ready %s ms (median %d); idle %s; after load %s%n", variant.label,
                starts.stream().map(st -> String.valueOf(st.readyMillis())).toList(), median(starts, Start::readyMillis),
                starts.stream().map(st -> String.valueOf(st.cpuMillis())).toList(), median(starts, Start::cpuMillis),
                starts.stream().map(st -> st.idle().toString()).toList(),
                starts.stream().map(st -> st.loaded().toString()).toList())));
        long cpuWithCache = median(results.get(Variant.IMAGE), Start::cpuMillis);
        long cpuWithoutCache = median(results.get(Variant.IMAGE_NO_CACHE), Start::cpuMillis);
        report.append(String.format(java.util.Locale.ROOT, "start to ready, medians: with the AOT cache / without %.2f×"
                        + " (CPU %.2f×); image / hand-written floor %.2f×; image / hand-written quarkus-rest %.2f×;"
                        + " quarkus-rest / floor %.2f× (both ready when they listen); anonymous memory idle: image %d MiB,"
                        + " floor %d MiB, quarkus-rest %d MiB%n",
                (double) withCache / withoutCache, (double) cpuWithCache / cpuWithoutCache, (double) withCache / floor,
                (double) withCache / quarkusRest, (double) quarkusRest / floor,
                median(results.get(Variant.IMAGE), st -> st.idle().anonKb()) / 1024,
                median(results.get(Variant.FLOOR), st -> st.idle().anonKb()) / 1024,
                median(results.get(Variant.QUARKUS_REST), st -> st.idle().anonKb()) / 1024));
        Files.createDirectories(REPORT.getParent());
        Files.writeString(REPORT, report);
        System.out.print(report);
        // CPU time, not wall time: on a machine shared with other work the wall time of single starts varies by
        // seconds, the work a start does much less. Each variant's cheapest start: other work on the machine only
        // adds to a start's CPU (caches, frequency, preempted spinning), so a median of a few starts can still catch
        // one disturbed round (CI, 2026-11-27: medians 6,770 vs 6,400 ms where this machine measures 0.74x).
        long cheapestWithCache = min(results.get(Variant.IMAGE), Start::cpuMillis);
        long cheapestWithoutCache = min(results.get(Variant.IMAGE_NO_CACHE), Start::cpuMillis);
        assertThat(cheapestWithCache).as("the image's cheapest start costs less CPU with its AOT cache than without"
                        + " it\n%s", report).isLessThan(cheapestWithoutCache);
    }

    /** A way to start a JVM from the image. */
    enum Variant {
        IMAGE("image", "image (AOT cache)"),
        IMAGE_NO_CACHE("plain", "image without the AOT cache"),
        FLOOR("floor", "hand-written floor (its AOT cache)"),
        QUARKUS_REST("quarkus-rest", "hand-written quarkus-rest (its cache)");

        final String id;
        final String label;

        Variant(String id, String label) {
            this.id = id;
            this.label = label;
        }
    }

    record Start(long readyMillis, long cpuMillis, Memory idle, Memory loaded) {
    }

    /** The CPU time (user + system, all threads) a process has used so far, from /proc/PID/stat (100 ticks/s). */
    static long cpuMillis(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10;
    }

    /** A process' resident memory from /proc/PID/status: all of it, and its anonymous part (heap, stacks, code). */
    record Memory(long rssKb, long anonKb) {
        static Memory of(long pid) throws IOException {
            String status = Files.readString(Path.of("/proc/" + pid + "/status"));
            return new Memory(Long.parseLong(field(status, "VmRSS").split("\\s+")[0]),
                    Long.parseLong(field(status, "RssAnon").split("\\s+")[0]));
        }

        @Override
        public String toString() {
            return rssKb / 1024 + "/" + anonKb / 1024;
        }
    }

    static final int LOAD_REQUESTS = 1500;

    Start measure(Variant variant, List<String> podSpec, Map<String, String> env, int port, int management,
                  List<String> loadPaths) throws Exception {
        String container = name + "-" + variant.id;
        var spec = new ArrayList<>(podSpec);
        // As a production pod starts (the base manifests and the aws overlay): the table exists, managed apart from
        // the app, which checks it beside its start instead of creating it.
        spec.addAll(List.of("--env", "JDK_JAVA_OPTIONS=" + env.get("JDK_JAVA_OPTIONS") + " " + POD_LIMITS,
                "--env", "CAIRN_TABLE_CREATE=false"));
        long ready;
        String base = "http://127.0.0.1:" + port;
        String authorization = TestTokens.admin();
        switch (variant) {
            case IMAGE -> ready = startToReady(container, spec, List.of(), "http://127.0.0.1:" + management + "/q/health/ready");
            case IMAGE_NO_CACHE -> ready = startToReady(container, spec, List.of("--entrypoint", "java"),
                    "http://127.0.0.1:" + management + "/q/health/ready",
                    "-Djava.util.logging.manager=org.jboss.logmanager.LogManager", "-jar", "/deployments/quarkus-run.jar");
            case QUARKUS_REST -> {
                spec.addAll(List.of("--volume", QUARKUS_REST.toAbsolutePath() + ":/quarkus-rest:ro",
                        "--volume", FLOOR.toAbsolutePath() + ":/floor:ro"));
                // It has no readiness route: ready, as the floor, when it listens (any answer, here a 404); it makes
                // no DynamoDB call before its first request either.
                ready = startToReady(container, spec, List.of("--entrypoint", "java"), base + "/ready", status -> status > 0,
                        "-XX:AOTCache=/quarkus-rest/quarkus-rest.aot", "-Djava.util.logging.manager=org.jboss.logmanager.LogManager",
                        "-Dbaseline.access-patterns=/floor/access-patterns.json", "-jar", "/quarkus-rest/quarkus-app/quarkus-run.jar");
                authorization = null;
            }
            default -> {
                spec.addAll(List.of("--volume", FLOOR.toAbsolutePath() + ":/floor:ro"));
                // The floor is ready when it listens: it makes no DynamoDB call before its first request.
                ready = startToReady(container, spec, List.of("--entrypoint", "java"), base + "/ready",
                        "-XX:AOTCache=/floor/floor.aot", "@/floor/args", String.valueOf(port),
                        "http://127.0.0.1:" + dynamo.port(), "/floor/access-patterns.json", "false");
                authorization = null;
            }
        }
        long pid = Long.parseLong(podman("inspect", "--format", "{{.State.Pid}}", container).trim());
        long cpuMillis = cpuMillis(pid);
        String maps = Files.readString(Path.of("/proc/" + pid + "/maps"));
        switch (variant) {
            case IMAGE -> assertThat(maps).as("the image's start maps its AOT cache").contains("/deployments/app.aot");
            case IMAGE_NO_CACHE -> assertThat(maps).doesNotContain(".aot");
            case QUARKUS_REST -> assertThat(maps).as("the quarkus-rest start maps its AOT cache").contains("/quarkus-rest/quarkus-rest.aot");
            default -> assertThat(maps).as("the floor's start maps its AOT cache").contains("/floor/floor.aot");
        }
        Thread.sleep(2000);
        Memory idle = Memory.of(pid);
        load(base, loadPaths, authorization);
        Thread.sleep(1000);
        Memory loaded = Memory.of(pid);
        podman("stop", "--time", "45", container);
        podman("rm", "--force", "--ignore", "--time", "0", container);
        return new Start(ready, cpuMillis, idle, loaded);
    }

    /** LOAD_REQUESTS GETs over the paths, 8 at a time, each answered 200 (bounded: 120 s at most). */
    void load(String base, List<String> paths, String authorization) throws Exception {
        var pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        var failures = new java.util.concurrent.atomic.AtomicInteger();
        var statuses = java.util.concurrent.ConcurrentHashMap.<String>newKeySet();
        try {
            var futures = new ArrayList<java.util.concurrent.Future<?>>();
            for (int i = 0; i < LOAD_REQUESTS; i++) {
                String path = paths.get(i % paths.size());
                futures.add(pool.submit(() -> {
                    var request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10));
                    if (authorization != null) {
                        request.header("Authorization", authorization);
                    }
                    try {
                        int status = http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
                        if (status != 200) {
                            failures.incrementAndGet();
                            statuses.add(path + " " + status);
                        }
                    } catch (Exception e) {
                        failures.incrementAndGet();
                        statuses.add(path + " " + e);
                    }
                    return null;
                }));
            }
            for (var future : futures) {
                future.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(failures.get()).as("GETs of %s from %s that did not answer 200: %s", paths, base, statuses).isZero();
    }

    /** A course with a student and a workspace with a project, for the load's list routes. */
    static void createLoadData(String k, String course, String workspace) {
        String student = "s-" + k;
        PackagedAppIT.post("/students", "{\"id\":\"" + student + "\",\"name\":\"Ada\",\"year\":2,\"major\":\"Mathematics\"}");
        PackagedAppIT.post("/courses", "{\"id\":\"" + course + "\",\"title\":\"Linear Algebra\",\"credits\":4,\"term\":\"2026-fall\"}");
        PackagedAppIT.given().contentType("application/json").body("{\"grade\":\"A\"}")
                .put("/students/{s}/enrollments/{c}", student, course).then().statusCode(201);
        PackagedAppIT.post("/workspaces", "{\"id\":\"" + workspace + "\",\"displayName\":\"Acme\",\"region\":\"eu-west-1\",\"seatLimit\":10}");
        PackagedAppIT.post("/workspaces/" + workspace + "/projects", "{\"title\":\"Apollo\",\"status\":\"ACTIVE\"}");
    }

    static <T> long min(List<T> values, java.util.function.ToLongFunction<T> of) {
        return values.stream().mapToLong(of).min().orElseThrow();
    }

    static <T> long median(List<T> values, java.util.function.ToLongFunction<T> of) {
        long[] sorted = values.stream().mapToLong(of).sorted().toArray();
        return sorted[sorted.length / 2];
    }

    /** What find(1) prints, run in a throwaway container of the image as user 185 (the image's root writable). */
    static List<String> findAsAppUser(String... args) throws Exception {
        var command = new ArrayList<>(List.of("run", "--rm", "--network", "none", "--user", "185", "--cgroups", "disabled",
                "--ulimit", "nofile=4096:4096", "--ulimit", "nproc=4096:4096", "--entrypoint", "find", "localhost/cairn:jvm"));
        command.addAll(List.of(args));
        return podman(command.toArray(String[]::new)).lines().toList();
    }

    /** Starts a container of the image (detached) and waits for readiness; the milliseconds from launch to ready. */
    long startToReady(String container, List<String> podSpec, List<String> runOptions, String readyUrl, String... args)
            throws Exception {
        return startToReady(container, podSpec, runOptions, readyUrl, status -> status == 200, args);
    }

    long startToReady(String container, List<String> podSpec, List<String> runOptions, String readyUrl,
                      java.util.function.IntPredicate ready, String... args) throws Exception {
        var command = new ArrayList<>(List.of("run", "--detach", "--name", container));
        command.addAll(podSpec);
        command.addAll(runOptions);
        command.add("localhost/cairn:jvm");
        command.addAll(List.of(args));
        long launched = System.nanoTime();
        podman(command.toArray(String[]::new));
        long deadline = launched + TimeUnit.SECONDS.toNanos(90);
        while (!ready.test(status(readyUrl))) {
            assertThat(System.nanoTime()).as("ready within 90 s; the container's log:%n%s", podman("logs", container))
                    .isLessThan(deadline);
            Thread.sleep(50);
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - launched);
    }

    /**
     * The container's environment as the kubelet builds it: the ConfigMap (envFrom), then env, secrets resolved — from
     * the rendered Secrets, or from those the user creates beside the overlay ({@code created}: name → key → value).
     */
    static Map<String, String> podEnvironment(List<JsonNode> docs, JsonNode container, Map<String, Map<String, String>> created) {
        var env = new LinkedHashMap<String, String>();
        for (JsonNode from : container.path("envFrom")) {
            if (from.has("configMapRef")) {
                Manifests.find(docs, "ConfigMap", from.at("/configMapRef/name").asText()).path("data").fields()
                        .forEachRemaining(e -> env.put(e.getKey(), e.getValue().asText()));
            } else {
                Manifests.find(docs, "Secret", from.at("/secretRef/name").asText()).path("data").fields()
                        .forEachRemaining(e -> env.put(e.getKey(), decoded(e.getValue())));
            }
        }
        for (JsonNode var : container.path("env")) {
            if (var.has("value")) {
                env.put(var.get("name").asText(), var.get("value").asText());
            } else {
                JsonNode ref = var.at("/valueFrom/secretKeyRef");
                String secret = ref.get("name").asText();
                String key = ref.get("key").asText();
                boolean rendered = docs.stream().anyMatch(d -> d.path("kind").asText().equals("Secret")
                        && d.at("/metadata/name").asText().equals(secret));
                String value = rendered ? decoded(Manifests.find(docs, "Secret", secret).at("/data/" + key))
                        : created.getOrDefault(secret, Map.of()).get(key);
                assertThat(value).as("Secret %s key %s, rendered or created", secret, key).isNotNull();
                env.put(var.get("name").asText(), value);
            }
        }
        return env;
    }

    static String randomHex(int bytes) {
        byte[] random = new byte[bytes];
        new java.security.SecureRandom().nextBytes(random);
        return java.util.HexFormat.of().formatHex(random);
    }

    static String decoded(JsonNode secretValue) {
        return new String(Base64.getDecoder().decode(secretValue.asText()), StandardCharsets.UTF_8);
    }

    static String mountPath(JsonNode container, String volume) {
        for (JsonNode mount : container.path("volumeMounts")) {
            if (mount.get("name").asText().equals(volume)) {
                return mount.get("mountPath").asText();
            }
        }
        throw new AssertionError("no volume mount " + volume);
    }

    static String field(String procStatus, String name) {
        return procStatus.lines().filter(l -> l.startsWith(name + ":")).findFirst().orElseThrow()
                .substring(name.length() + 1).trim();
    }

    /** The mount options of the process' root, from its mountinfo (field 5 is the mount point, 6 the options). */
    static String rootMountOptions(long pid) throws IOException {
        return Files.readAllLines(Path.of("/proc/" + pid + "/mountinfo")).stream()
                .map(l -> l.split(" ")).filter(f -> f[4].equals("/")).map(f -> f[5]).reduce((a, b) -> b).orElseThrow();
    }

    int status(String url) {
        return HttpProbe.status(http, url, Duration.ofSeconds(2));
    }

    String logs() throws Exception {
        return podman("logs", name);
    }

    /**
     * Podman in its own mount namespace without the cgroup2 mount: this machine mixes cgroup v1 and v2 ("hybrid"),
     * which crun refuses; with the v2 mount out of sight and --cgroups disabled it runs containers.
     */
    static String podman(String... args) throws Exception {
        var command = new ArrayList<>(List.of("unshare", "--mount", "sh", "-c",
                "if mountpoint -q /sys/fs/cgroup/unified; then umount /sys/fs/cgroup/unified; fi; exec podman \"$@\"", "podman"));
        command.addAll(List.of(args));
        return run(command.toArray(String[]::new));
    }

    static String run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("%s finished", command[0]).isTrue();
        assertThat(process.exitValue()).as("%s: %s", String.join(" ", command), output).isZero();
        return output;
    }

    static int freePort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
