package dev.cairn.platform;

import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import io.smallrye.jwt.util.KeyUtils;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.lang.JoseException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Set;

/** Bearer tokens for tests, signed with the test-only key pair under src/test/resources/auth. */
public final class TestTokens {

    public static final String ISSUER = "https://cairn.test";
    /** The audience the test configuration expects (mp.jwt.verify.audiences); every token here carries it. */
    public static final String AUDIENCE = "cairn-test";
    public static final Path PUBLIC_KEY_FILE = Path.of("src/test/resources/auth/test-public-key.pem").toAbsolutePath();
    private static final Path PRIVATE_KEY_FILE = Path.of("src/test/resources/auth/test-private-key.pem");

    private TestTokens() {
    }

    /** A valid token for the given roles and workspace scope ({@code "*"} for all). */
    public static String token(String subject, List<String> workspaces, String... groups) {
        return claims(subject, workspaces, groups).sign(privateKey());
    }

    public static String bearer(String subject, List<String> workspaces, String... groups) {
        return "Bearer " + token(subject, workspaces, groups);
    }

    public static String admin() {
        return bearer("admin", List.of("*"), "cairn-admin");
    }

    public static JwtClaimsBuilder claims(String subject, List<String> workspaces, String... groups) {
        var claims = Jwt.issuer(ISSUER).audience(AUDIENCE).subject(subject).upn(subject).groups(Set.of(groups))
                .issuedAt(Instant.now()).expiresAt(Instant.now().plusSeconds(600));
        return workspaces == null ? claims : claims.claim("workspaces", workspaces);
    }

    public static String expired() {
        return claims("late", List.of("*"), "cairn-admin").issuedAt(Instant.now().minusSeconds(7200))
                .expiresAt(Instant.now().minusSeconds(3600)).sign(privateKey());
    }

    public static String wrongIssuer() {
        return Jwt.issuer("https://someone-else.example").audience(AUDIENCE).subject("mallory").groups(Set.of("cairn-admin"))
                .claim("workspaces", List.of("*")).sign(privateKey());
    }

    /** An admin token signed by the trusted key, issued {@code issuedAgo} ago (negative: ahead) and living {@code lifetime}. */
    public static String admin(Duration issuedAgo, Duration lifetime) {
        Instant issuedAt = Instant.now().minus(issuedAgo);
        return claims("admin", List.of("*"), "cairn-admin").issuedAt(issuedAt).expiresAt(issuedAt.plus(lifetime))
                .sign(privateKey());
    }

    /**
     * A valid admin token without an {@code iat} claim, signed by hand: smallrye-jwt-build adds one whenever it is
     * missing.
     */
    public static String withoutIssuedAt() {
        var jws = new JsonWebSignature();
        jws.setPayload("{\"iss\":\"" + ISSUER + "\",\"aud\":\"" + AUDIENCE + "\",\"sub\":\"admin\",\"upn\":\"admin\","
                + "\"groups\":[\"cairn-admin\"],\"workspaces\":\"*\",\"exp\":" + (Instant.now().getEpochSecond() + 600) + "}");
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        jws.setKey(privateKey());
        try {
            return jws.getCompactSerialization();
        } catch (JoseException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Signed by a key the service does not trust. */
    public static String wrongSignature() {
        try {
            var generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return claims("mallory", List.of("*"), "cairn-admin").sign(generator.generateKeyPair().getPrivate());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** An unsigned token ({@code alg: none}) with admin claims. */
    public static String algNone() {
        var encoder = Base64.getUrlEncoder().withoutPadding();
        String header = encoder.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        long now = Instant.now().getEpochSecond();
        String payload = encoder.encodeToString(("{\"iss\":\"" + ISSUER + "\",\"aud\":\"" + AUDIENCE + "\",\"sub\":\"mallory\","
                + "\"groups\":[\"cairn-admin\"],\"workspaces\":\"*\",\"iat\":" + now + ",\"exp\":" + (now + 600) + "}")
                .getBytes(StandardCharsets.UTF_8));
        return header + "." + payload + ".";
    }

    public static PrivateKey privateKey() {
        try {
            return KeyUtils.decodePrivateKey(Files.readString(PRIVATE_KEY_FILE));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
