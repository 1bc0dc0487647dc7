package dev.cairn.platform;

import dev.cairn.core.query.CursorCodec;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import java.util.List;
import java.util.Optional;

/**
 * Fails closed: the service does not start with a cursor secret, current or previous, too short to seal cursors with —
 * else it would start and answer 500 on every listing. Checked by hand at start rather than by a constraint on the
 * config mapping, which would build a validator factory before readiness.
 */
@Singleton
public class CursorSecretCheck {

    void check(@Observes @Priority(1) StartupEvent event, CairnConfig config) {
        problem(config.cursor().secret(), config.cursor().previousSecrets().orElse(List.of())).ifPresent(problem -> {
            throw new IllegalStateException(problem + "; refusing to start");
        });
    }

    /** What is wrong with the secrets, naming the setting (never the secret), if anything is. */
    static Optional<String> problem(String secret, List<String> previousSecrets) {
        if (secret.length() < CursorCodec.MIN_SECRET_LENGTH) {
            return Optional.of("cairn.cursor.secret " + CursorCodec.SECRET_TOO_SHORT);
        }
        for (int i = 0; i < previousSecrets.size(); i++) {
            if (previousSecrets.get(i).length() < CursorCodec.MIN_SECRET_LENGTH) {
                return Optional.of("cairn.cursor.previous-secrets[" + i + "] " + CursorCodec.SECRET_TOO_SHORT);
            }
        }
        return Optional.empty();
    }
}
