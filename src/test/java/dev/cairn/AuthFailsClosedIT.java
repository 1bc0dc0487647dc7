package dev.cairn;

import dev.cairn.platform.TestTokens;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged app in its prod profile refuses to start with authentication on and no usable verification key, or no
 * audience to verify tokens against.
 */
class AuthFailsClosedIT {

    @Test
    void thePackagedAppRefusesToStartWithoutAVerificationKey() throws Exception {
        assertThat(startAndFail())
                .contains("Authentication is on (cairn.auth.enabled=true) but no JWT verification key is configured")
                .contains("refusing to start");
    }

    @Test
    void thePackagedAppRefusesToStartWithAKeyItCannotRead() throws Exception {
        // E.g. a Secret volume mounted at another path, or unreadable for the pod's user: else every request is a 500.
        String missing = Files.createTempDirectory("cairn-no-key").resolve("public-key.pem").toString();
        assertThat(startAndFail("-Dmp.jwt.verify.publickey.location=" + missing, "-Dmp.jwt.verify.issuer=https://cairn.test",
                "-Dmp.jwt.verify.audiences=cairn-test"))
                .contains("the JWT verification key " + missing + " cannot be read")
                .contains("refusing to start");
    }

    @Test
    void thePackagedAppRefusesToStartWithoutAnAudience() throws Exception {
        // Else a token the issuer minted for any other service (any client of a shared user pool) would get in.
        assertThat(startAndFail("-Dmp.jwt.verify.publickey.location=" + TestTokens.PUBLIC_KEY_FILE,
                "-Dmp.jwt.verify.issuer=" + TestTokens.ISSUER))
                .contains("Authentication is on (cairn.auth.enabled=true) but no token audience is configured")
                .contains("mp.jwt.verify.audiences")
                .doesNotContain("no JWT verification key")
                .contains("refusing to start");
    }

    /** Starts the packaged app with everything else a prod start needs, so only what is tested can stop it; its log. */
    static String startAndFail(String... extra) throws Exception {
        Path jar = Path.of("target/quarkus-app/quarkus-run.jar");
        assertThat(jar).exists();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        File log = File.createTempFile("cairn-fails-closed", ".log");
        log.deleteOnExit();
        var command = new ArrayList<>(List.of(java,
                "-Dquarkus.http.port=0", "-Dquarkus.management.port=0",
                "-Dcairn.cursor.secret=fails-closed-test",
                "-Dquarkus.dynamodb.endpoint-override=http://127.0.0.1:9",
                "-Dquarkus.dynamodb.aws.region=us-east-1",
                "-Dquarkus.dynamodb.aws.credentials.type=static",
                "-Dquarkus.dynamodb.aws.credentials.static-provider.access-key-id=x",
                "-Dquarkus.dynamodb.aws.credentials.static-provider.secret-access-key=x"));
        command.addAll(List.of(extra));
        command.addAll(List.of("-jar", jar.toString()));
        var process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start();
        boolean exited = process.waitFor(60, TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly();
        }
        assertThat(exited).as("the app exits instead of serving").isTrue();
        assertThat(process.exitValue()).isNotZero();
        return Files.readString(log.toPath());
    }
}
