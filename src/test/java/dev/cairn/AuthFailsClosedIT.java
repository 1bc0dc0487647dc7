package dev.cairn;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The packaged app in its prod profile refuses to start with authentication on and no verification key. */
class AuthFailsClosedIT {

    @Test
    void thePackagedAppRefusesToStartWithoutAVerificationKey() throws Exception {
        Path jar = Path.of("target/quarkus-app/quarkus-run.jar");
        assertThat(jar).exists();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // Everything else a prod start needs is given, so only the missing key can stop it.
        File log = File.createTempFile("cairn-fails-closed", ".log");
        log.deleteOnExit();
        var process = new ProcessBuilder(List.of(java,
                "-Dquarkus.http.port=0", "-Dquarkus.management.port=0",
                "-Dcairn.cursor.secret=fails-closed-test",
                "-Dquarkus.dynamodb.endpoint-override=http://127.0.0.1:9",
                "-Dquarkus.dynamodb.aws.region=us-east-1",
                "-Dquarkus.dynamodb.aws.credentials.type=static",
                "-Dquarkus.dynamodb.aws.credentials.static-provider.access-key-id=x",
                "-Dquarkus.dynamodb.aws.credentials.static-provider.secret-access-key=x",
                "-jar", jar.toString()))
                .redirectErrorStream(true)
                .redirectOutput(log)
                .start();
        boolean exited = process.waitFor(60, TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly();
        }
        assertThat(exited).as("the app exits instead of serving").isTrue();
        assertThat(process.exitValue()).isNotZero();
        assertThat(Files.readString(log.toPath()))
                .contains("Authentication is on (cairn.auth.enabled=true) but no JWT verification key is configured")
                .contains("refusing to start");
    }
}
