package dev.cairn.reliability;

import java.io.File;
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
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged app ({@code target/quarkus-app}) as a process of its own, for ITs that run several replicas, kill
 * one, or put each behind its own path to DynamoDB. Authentication and per-caller limits are off, the table is
 * created if absent; {@code settings} ({@code -D…}) come after these defaults, so they may override them.
 */
final class PackagedApp {

    static final Path JAR = Path.of("target/quarkus-app/quarkus-run.jar");

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private final Process process;
    private final String base;
    private final String management;
    private final File log;

    private PackagedApp(Process process, String base, String management, File log) {
        this.process = process;
        this.base = base;
        this.management = management;
        this.log = log;
    }

    /** Starts a process talking to DynamoDB at {@code dynamoEndpoint} and waits until it serves requests. */
    static PackagedApp start(String dynamoEndpoint, List<String> settings) throws Exception {
        assertThat(JAR).exists();
        int port = freePort();
        // Chosen here rather than 0, so the management interface (/q/metrics) can be reached.
        int managementPort = freePort();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        File log = File.createTempFile("cairn-app", ".log");
        log.deleteOnExit();
        var command = new ArrayList<>(List.of(java, "-Xmx256m",
                "-Dquarkus.http.port=" + port, "-Dquarkus.management.port=" + managementPort,
                "-Dquarkus.log.console.json.enabled=false",
                "-Dcairn.auth.enabled=false", "-Dcairn.cursor.secret=packaged-app-test", "-Dcairn.table.create=true",
                "-Dquarkus.dynamodb.endpoint-override=" + dynamoEndpoint,
                "-Dquarkus.dynamodb.aws.region=us-east-1",
                "-Dquarkus.dynamodb.aws.credentials.type=static",
                "-Dquarkus.dynamodb.aws.credentials.static-provider.access-key-id=local",
                "-Dquarkus.dynamodb.aws.credentials.static-provider.secret-access-key=local",
                // one anonymous caller writes far faster than any client should: not what these tests are about
                "-Dcairn.limits.enabled=false"));
        command.addAll(settings);
        command.addAll(List.of("-jar", JAR.toString()));
        var process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start();
        var app = new PackagedApp(process, "http://127.0.0.1:" + port, "http://127.0.0.1:" + managementPort, log);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!app.serves()) {
            assertThat(process.isAlive()).as("the app is running; its log:%n%s", app.logText()).isTrue();
            assertThat(System.nanoTime()).as("the app serves within 60 s; its log:%n%s", app.logText()).isLessThan(deadline);
            Thread.sleep(100);
        }
        return app;
    }

    private boolean serves() {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(base + "/access-patterns")).timeout(Duration.ofSeconds(5))
                    .build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    Process process() {
        return process;
    }

    /** The public API's base URL. */
    String base() {
        return base;
    }

    /** The management interface's base URL (health, {@code /q/metrics}). */
    String management() {
        return management;
    }

    File log() {
        return log;
    }

    String logText() {
        try {
            return Files.readString(log.toPath());
        } catch (IOException e) {
            return "(unreadable)";
        }
    }

    /** SIGKILL: no shutdown hook, no graceful drain — as an OOM kill or a lost node. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }

    /** Ends the process whatever it is doing (a test's cleanup). */
    void stop() throws InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
}
