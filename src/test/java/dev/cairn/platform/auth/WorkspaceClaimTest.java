package dev.cairn.platform.auth;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code workspaces} claim as the service reads it: ids, and nothing no id can be. */
class WorkspaceClaimTest {

    @Test
    void aClaimValueNoIdCanBeNamesNoWorkspace() {
        assertThat(AccessControl.workspaces(List.of("acme", "\u0000", "", "glo\nbex", "globex")))
                .containsExactly("acme", "globex");
        assertThat(AccessControl.workspaces("acme, \u0000 ,globex")).containsExactly("acme", "globex");
        assertThat(AccessControl.workspaces(List.of("*"))).containsExactly("*");
    }
}
