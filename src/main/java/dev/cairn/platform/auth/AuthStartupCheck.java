package dev.cairn.platform.auth;

import dev.cairn.platform.CairnConfig;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Fails closed: with authentication on, the service does not start without a verification key, an issuer and an
 * audience.
 */
@Singleton
public class AuthStartupCheck {

    private static final Logger LOG = Logger.getLogger(AuthStartupCheck.class);

    void check(@Observes @Priority(1) StartupEvent event, CairnConfig cairn, Config config) {
        if (!cairn.auth().enabled()) {
            if (LaunchMode.current().isDevOrTest()) {
                // The dev and test default, said once; a warning is kept for a deployment that turned it off.
                LOG.infof("Authentication is OFF in %s mode (cairn.auth.enabled=false): every request is served without a"
                        + " token, with every role and every workspace", LaunchMode.current().getDefaultProfile());
            } else {
                LOG.warn("Authentication is OFF (cairn.auth.enabled=false)");
            }
            return;
        }
        List<String> missing = missingSettings(name -> present(config, name));
        if (!missing.isEmpty()) {
            throw new IllegalStateException("Authentication is on (cairn.auth.enabled=true) but " + String.join(" and ", missing)
                    + "; refusing to start. Set cairn.auth.enabled=false only where no one else can reach the service.");
        }
        config.getOptionalValue("mp.jwt.verify.publickey.location", String.class).filter(AuthStartupCheck::set)
                .flatMap(location -> unreadableKey(location, Thread.currentThread().getContextClassLoader()))
                .ifPresent(problem -> {
                    throw new IllegalStateException("Authentication is on (cairn.auth.enabled=true) but " + problem
                            + "; refusing to start.");
                });
        LOG.infof("Authentication is on: bearer JWTs from issuer %s for audience %s",
                config.getValue("mp.jwt.verify.issuer", String.class), config.getValue("mp.jwt.verify.audiences", String.class));
    }

    /**
     * What is missing of the settings authentication cannot go without: a key, an issuer, and an audience — without
     * one, a token the same issuer minted for any other service (any client of a shared user pool) would be accepted.
     */
    static List<String> missingSettings(Predicate<String> present) {
        var missing = new ArrayList<String>();
        if (!present.test("mp.jwt.verify.publickey.location") && !present.test("mp.jwt.verify.publickey")) {
            missing.add("no JWT verification key is configured (set mp.jwt.verify.publickey.location to a PEM or JWKS file"
                    + " or URL)");
        }
        if (!present.test("mp.jwt.verify.issuer")) {
            missing.add("no token issuer is configured (set mp.jwt.verify.issuer)");
        }
        if (!present.test("mp.jwt.verify.audiences")) {
            missing.add("no token audience is configured (set mp.jwt.verify.audiences to the aud value of tokens minted"
                    + " for this service)");
        }
        return missing;
    }

    /**
     * Why the key at this location cannot be read, if it cannot — else every request would fail later with a 500.
     * Read as smallrye-jwt reads it: "file:" from disk, "classpath:" from the class path, anything else from disk
     * first, then the class path. URLs (a JWKS endpoint) are not probed: one briefly down must not stop the service.
     */
    static Optional<String> unreadableKey(String location, ClassLoader classLoader) {
        if (location.contains("://") && !location.startsWith("file:")) {
            return Optional.empty();
        }
        boolean readable;
        if (location.startsWith("file:")) {
            readable = Files.isReadable(Path.of(location.substring("file:".length())));
        } else if (location.startsWith("classpath:")) {
            readable = onClassPath(location.substring("classpath:".length()), classLoader);
        } else {
            readable = Files.isReadable(Path.of(location)) || onClassPath(location, classLoader);
        }
        return readable ? Optional.empty()
                : Optional.of("the JWT verification key " + location + " cannot be read (mp.jwt.verify.publickey.location)");
    }

    private static boolean onClassPath(String resource, ClassLoader classLoader) {
        return classLoader.getResource(resource.startsWith("/") ? resource.substring(1) : resource) != null;
    }

    private static boolean present(Config config, String name) {
        return config.getOptionalValue(name, String.class).filter(AuthStartupCheck::set).isPresent();
    }

    private static boolean set(String value) {
        // NONE is smallrye-jwt's placeholder for "not set" in dev and test builds.
        return !value.isBlank() && !value.equals("NONE");
    }
}
