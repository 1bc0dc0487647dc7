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
 * capabilities — against DynamoDB Local. Run by .ci/run after the suite (it needs root and podman):
 * {@code ./mvnw failsafe:integration-test failsafe:verify -Dit.test=JvmImageIT}.
 */
class JvmImageIT {

    static final Path IMAGE = Path.of(System.getProperty("cairn.image", "target/cairn-jvm-image.tar"));
    static final Path REPORT = Path.of("target/image/jvm-image-report.txt");
    static final ObjectMapper JSON = new ObjectMapper();
    static final Pattern STARTED_IN = Pattern.compile("started in ([0-9.]+)s");

    final String name = "cairn-image-it-" + UUID.randomUUID().toString().substring(0, 8);
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    EmbeddedDynamoDb dynamo;

    @AfterEach
    void stop() throws Exception {
        podman("rm", "--force", "--ignore", "--time", "0", name, name + "-plain", name + "-cds");
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
        assertThat(config.at("/config/Entrypoint").toString()).contains("/deployments/quarkus-run.jar");
        assertThat(config.at("/config/ExposedPorts").has("8080/tcp")).isTrue();
        assertThat(config.at("/config/ExposedPorts").has("9000/tcp")).isTrue();
        assertThat(run("podman", "load", "--input", IMAGE.toString())).contains("cairn:jvm");
        // Real DynamoDB is HTTPS (DynamoDB Local here is not): the JRE must trust the public CAs.
        String trusted = podman("run", "--rm", "--network", "host", "--cgroups", "disabled", "--ulimit", "nofile=4096:4096",
                "--ulimit", "nproc=4096:4096", "--entrypoint", "keytool", "localhost/cairn:jvm",
                "-list", "-cacerts", "-storepass", "changeit");
        assertThat(trusted.lines().filter(l -> l.contains("trustedCertEntry")).count())
                .as("the JRE's trust store holds Debian's CA certificates").isGreaterThan(100);

        // The app's files are root's and not writable by the user it runs as, even on a writable root (no --read-only
        // here): the service can neither change its own code nor add files beside it.
        assertThat(findAsAppUser("/deployments", "(", "-writable", "-o", "!", "-user", "0", "-o", "-perm", "/022", ")"))
                .as("under /deployments: writable by user 185, or not root's, or group/other-writable").isEmpty();
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
        assertThat(Files.readString(Path.of("/proc/" + pid + "/maps"))).as("the JVM maps the image's AppCDS archive")
                .contains("/deployments/app-cds.jsa");

        RestAssured.baseURI = "http://127.0.0.1";
        RestAssured.port = port;
        String k = UUID.randomUUID().toString().substring(0, 8);
        try {
            String id = PackagedAppIT.createMatch(k);
            PackagedAppIT.given().get("/matches/{id}", id).then().statusCode(200)
                    .header("X-DynamoDB-Calls", "1").header("ETag", "\"1\"")
                    .body("venue.name", equalTo("MCG"))
                    .body("team2.players[0].player.lastName", equalTo("Kohli"));
            RestAssured.given().get("/matches/{id}", id).then().statusCode(401);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\nthe container's log:\n" + logs(), e);
        }

        Thread.sleep(2000);
        long rssIdleKb = Long.parseLong(field(Files.readString(Path.of("/proc/" + pid + "/status")), "VmRSS").split("\\s+")[0]);
        String log = logs();
        assertThat(log).doesNotContain("\"level\":\"ERROR\"");
        Matcher started = STARTED_IN.matcher(log);
        assertThat(started.find()).as(log).isTrue();

        podman("stop", "--time", "45", name);
        assertThat(logs()).as("a graceful stop").contains("stopped in");

        // The archive's effect, measured here: two more starts on the same (now warm) DynamoDB Local and table,
        // without the archive (the entrypoint minus its flag) and with it.
        long withoutArchive = startToReady(name + "-plain", podSpec, List.of("--entrypoint", "java"), ready,
                "-Djava.util.logging.manager=org.jboss.logmanager.LogManager", "-jar", "/deployments/quarkus-run.jar");
        podman("stop", "--time", "45", name + "-plain");
        long withArchive = startToReady(name + "-cds", podSpec, List.of(), ready);
        podman("stop", "--time", "45", name + "-cds");

        long imageMb = Files.size(IMAGE) / (1024 * 1024);
        String report = "image " + IMAGE.getFileName() + ": " + imageMb + " MiB (compressed layers)"
                + "\npodman run to /q/health/ready: " + readyMillis + " ms (Quarkus: started in " + started.group(1) + " s,"
                + " creating the table)\nrestarted on the existing table: " + withArchive + " ms with the AppCDS archive, "
                + withoutArchive + " ms without (" + String.format(java.util.Locale.ROOT, "%.2f", (double) withArchive / withoutArchive) + "×)"
                + "\nRSS after the first requests, idle: " + rssIdleKb / 1024 + " MiB\n";
        Files.createDirectories(REPORT.getParent());
        Files.writeString(REPORT, report);
        System.out.print(report);
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
        var command = new ArrayList<>(List.of("run", "--detach", "--name", container));
        command.addAll(podSpec);
        command.addAll(runOptions);
        command.add("localhost/cairn:jvm");
        command.addAll(List.of(args));
        long launched = System.nanoTime();
        podman(command.toArray(String[]::new));
        long deadline = launched + TimeUnit.SECONDS.toNanos(90);
        while (status(readyUrl) != 200) {
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
        try {
            return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
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
