package dev.cairn.platform;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A cursor secret, current or previous, has at least 16 characters, or the service refuses to start. */
class CursorSecretCheckTest {

    @Test
    void secretsOf16CharactersOrMoreAreAccepted() {
        assertThat(CursorSecretCheck.problem("sixteen-chars-xx", List.of())).isEmpty();
        assertThat(CursorSecretCheck.problem("a-long-enough-cursor-secret", List.of("an-older-long-enough-secret",
                "sixteen-chars-xx"))).isEmpty();
    }

    @Test
    void aShortSecretIsNamedByItsSettingWithoutShowingIt() {
        assertThat(CursorSecretCheck.problem("fifteen-chars-x", List.of())).hasValue(
                "cairn.cursor.secret must have at least 16 characters");
        assertThat(CursorSecretCheck.problem("", List.of())).isPresent();
    }

    @Test
    void aShortPreviousSecretIsNamedByItsPlaceInTheList() {
        assertThat(CursorSecretCheck.problem("a-long-enough-cursor-secret", List.of("an-older-long-enough-secret", "too-short")))
                .hasValueSatisfying(problem -> assertThat(problem)
                        .isEqualTo("cairn.cursor.previous-secrets[1] must have at least 16 characters")
                        .doesNotContain("too-short"));
    }
}
