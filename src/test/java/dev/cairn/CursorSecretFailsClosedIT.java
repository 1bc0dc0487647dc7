package dev.cairn;

import dev.cairn.platform.TestTokens;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged app refuses to start with a cursor secret (current or previous) shorter than 16 characters, naming the
 * setting, instead of starting and answering 500 on every listing.
 */
class CursorSecretFailsClosedIT {

    /** Everything else a prod start needs, authentication included, so only the cursor secret can stop it. */
    static String startAndFail(String... cursorSettings) throws Exception {
        var settings = new java.util.ArrayList<>(java.util.List.of(
                "-Dmp.jwt.verify.publickey.location=" + TestTokens.PUBLIC_KEY_FILE,
                "-Dmp.jwt.verify.issuer=" + TestTokens.ISSUER, "-Dmp.jwt.verify.audiences=" + TestTokens.AUDIENCE));
        settings.addAll(java.util.List.of(cursorSettings));
        return AuthFailsClosedIT.startAndFail(settings.toArray(String[]::new));
    }

    @Test
    void thePackagedAppRefusesToStartWithACursorSecretShorterThan16Characters() throws Exception {
        assertThat(startAndFail("-Dcairn.cursor.secret=fifteen-chars-x"))
                .contains("cairn.cursor.secret must have at least 16 characters; refusing to start")
                .doesNotContain("fifteen-chars-x")
                .doesNotContain("Authentication is on (cairn.auth.enabled=true) but");
    }

    @Test
    void thePackagedAppRefusesToStartWithAPreviousCursorSecretShorterThan16Characters() throws Exception {
        assertThat(startAndFail("-Dcairn.cursor.secret=a-long-enough-cursor-secret",
                "-Dcairn.cursor.previous-secrets=an-older-long-enough-secret,too-short"))
                .contains("cairn.cursor.previous-secrets[1] must have at least 16 characters; refusing to start")
                .doesNotContain("cairn.cursor.secret must")
                .doesNotContain("Authentication is on (cairn.auth.enabled=true) but");
    }
}
