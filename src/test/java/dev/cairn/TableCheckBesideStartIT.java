package dev.cairn;

import dev.cairn.platform.TestTokens;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged app with a table it does not create (the production setting) does not wait for the table at start:
 * against a DynamoDB that accepts connections and never answers, it listens and is live while its table check is
 * still under way, and ready only once the table answers (here: never).
 */
class TableCheckBesideStartIT {

    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    @Test
    void theStartListensWhileItsTableCheckIsUnderWayAndStaysNotReady() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            int port = freePort();
            int management = freePort();
            File log = File.createTempFile("cairn-table-check", ".log");
            log.deleteOnExit();
            // The check cannot end before the SDK's timeouts: however slow the rest of the start, it is still under
            // way when the app first answers.
            var process = start(port, management, silent.getLocalPort(), false, log,
                    "-Dquarkus.dynamodb.api-call-timeout=30S", "-Dquarkus.dynamodb.api-call-attempt-timeout=30S");
            try {
                String live = "http://127.0.0.1:" + management + "/q/health/live";
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (status(live) != 200) {
                    assertThat(process.isAlive()).as(Files.readString(log.toPath())).isTrue();
                    assertThat(System.nanoTime()).as("live within 60 s").isLessThan(deadline);
                    Thread.sleep(20);
                }
                // The check's DescribeTable cannot end before the SDK's call timeout (30 s here): it is still under way.
                assertThat(Files.readString(log.toPath())).contains("started in")
                        .doesNotContain("DynamoDB table cairn at startup");
                assertThat(status("http://127.0.0.1:" + management + "/q/health/ready")).as("not ready").isEqualTo(503);

                long warned = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                while (!Files.readString(log.toPath()).contains("DynamoDB table cairn at startup: DynamoDB did not answer DescribeTable")) {
                    assertThat(System.nanoTime()).as("the check ends, with a warning").isLessThan(warned);
                    Thread.sleep(100);
                }
                assertThat(status("http://127.0.0.1:" + management + "/q/health/ready")).as("still not ready").isEqualTo(503);
                assertThat(status(live)).isEqualTo(200);
            } finally {
                process.destroy();
                process.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void aStartThatMustCreateItsTableAndCannotFailsWithoutEverListening() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            int management = freePort();
            File log = File.createTempFile("cairn-table-create", ".log");
            log.deleteOnExit();
            var process = start(freePort(), management, silent.getLocalPort(), true, log);
            try {
                // The creation is retried for 50 s before the start gives up; meanwhile nothing may answer.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                while (process.isAlive()) {
                    assertThat(status("http://127.0.0.1:" + management + "/q/health/live")).as("never listening").isEqualTo(-1);
                    assertThat(System.nanoTime()).as("the start gives up within 120 s").isLessThan(deadline);
                    Thread.sleep(500);
                }
                assertThat(process.exitValue()).as("a failed start").isNotZero();
                assertThat(Files.readString(log.toPath())).doesNotContain("started in");
            } finally {
                process.destroyForcibly();
            }
        }
    }

    int status(String url) {
        return HttpProbe.status(http, url, Duration.ofSeconds(10));
    }

    static int freePort() throws IOException {
        try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** The packaged app against a DynamoDB endpoint, prod profile with the test key pair, its output in {@code log}. */
    private static Process start(int port, int management, int dynamoPort, boolean createTable, File log, String... more)
            throws IOException {
        var command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dquarkus.http.port=" + port, "-Dquarkus.management.port=" + management,
                "-Dcairn.cursor.secret=a-long-enough-cursor-secret", "-Dcairn.table.create=" + createTable,
                "-Dquarkus.dynamodb.endpoint-override=http://127.0.0.1:" + dynamoPort,
                "-Dquarkus.dynamodb.aws.region=us-east-1", "-Dquarkus.dynamodb.aws.credentials.type=static",
                "-Dquarkus.dynamodb.aws.credentials.static-provider.access-key-id=x",
                "-Dquarkus.dynamodb.aws.credentials.static-provider.secret-access-key=x",
                "-Dmp.jwt.verify.publickey.location=" + TestTokens.PUBLIC_KEY_FILE,
                "-Dmp.jwt.verify.issuer=" + TestTokens.ISSUER, "-Dmp.jwt.verify.audiences=" + TestTokens.AUDIENCE));
        command.addAll(List.of(more));
        command.addAll(List.of("-jar", "target/quarkus-app/quarkus-run.jar"));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start();
    }
}
