package dev.cairn.platform.auth;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Authentication on needs a verification key (found where smallrye-jwt will look for it), an issuer and an audience,
 * or the service refuses to start.
 */
class AuthStartupCheckTest {

    final ClassLoader classLoader = AuthStartupCheckTest.class.getClassLoader();

    @Test
    void keyIssuerAndAudienceTogetherAreEnough() {
        assertThat(AuthStartupCheck.missingSettings(Set.of("mp.jwt.verify.publickey.location", "mp.jwt.verify.issuer",
                "mp.jwt.verify.audiences")::contains)).isEmpty();
        assertThat(AuthStartupCheck.missingSettings(Set.of("mp.jwt.verify.publickey", "mp.jwt.verify.issuer",
                "mp.jwt.verify.audiences")::contains)).as("an inline key counts too").isEmpty();
    }

    @Test
    void withoutAnAudienceTheServiceRefusesToStartAndSaysWhichKeyToSet() {
        assertThat(AuthStartupCheck.missingSettings(Set.of("mp.jwt.verify.publickey.location", "mp.jwt.verify.issuer")::contains))
                .singleElement().asString().contains("no token audience is configured").contains("mp.jwt.verify.audiences");
    }

    @Test
    void everyMissingSettingIsNamed() {
        assertThat(AuthStartupCheck.missingSettings(name -> false)).hasSize(3)
                .anySatisfy(m -> assertThat(m).contains("mp.jwt.verify.publickey.location"))
                .anySatisfy(m -> assertThat(m).contains("mp.jwt.verify.issuer"))
                .anySatisfy(m -> assertThat(m).contains("mp.jwt.verify.audiences"));
    }

    @Test
    void aReadableFileIsAcceptedWithOrWithoutTheFilePrefix(@TempDir Path dir) throws Exception {
        Path key = Files.writeString(dir.resolve("public-key.pem"), "-----BEGIN PUBLIC KEY-----");
        assertThat(AuthStartupCheck.unreadableKey(key.toString(), classLoader)).isEmpty();
        assertThat(AuthStartupCheck.unreadableKey("file:" + key, classLoader)).isEmpty();
    }

    @Test
    void aMissingFileIsRefusedWithTheLocationNamed(@TempDir Path dir) {
        String missing = dir.resolve("no-such-key.pem").toString();
        assertThat(AuthStartupCheck.unreadableKey(missing, classLoader)).hasValueSatisfying(problem ->
                assertThat(problem).contains(missing).contains("cannot be read"));
        assertThat(AuthStartupCheck.unreadableKey("file:" + missing, classLoader)).isPresent();
    }

    @Test
    void classPathResourcesAreFoundAndMissingOnesRefused() {
        assertThat(AuthStartupCheck.unreadableKey("auth/test-public-key.pem", classLoader)).isEmpty();
        assertThat(AuthStartupCheck.unreadableKey("classpath:auth/test-public-key.pem", classLoader)).isEmpty();
        assertThat(AuthStartupCheck.unreadableKey("classpath:auth/missing.pem", classLoader)).isPresent();
    }

    @Test
    void remoteKeySetsAreNotProbedAtStartup() {
        assertThat(AuthStartupCheck.unreadableKey("https://idp.invalid/.well-known/jwks.json", classLoader)).isEmpty();
    }
}
