package dev.cairn.platform.auth;

import dev.cairn.platform.TestTokens;
import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/** The test app with authentication on, trusting the test key pair. */
public class AuthEnabledProfile implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("cairn.auth.enabled", "true",
                "mp.jwt.verify.publickey.location", TestTokens.PUBLIC_KEY_FILE.toUri().toString(),
                "mp.jwt.verify.issuer", TestTokens.ISSUER,
                "mp.jwt.verify.audiences", TestTokens.AUDIENCE);
    }
}
