package dev.cairn.workspace;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A project of a workspace; {@code id} is server-generated and time-ordered. */
public record Project(
        String workspaceId,
        String id,
        @NotBlank @Size(max = 200) String title,
        @NotNull ProjectStatus status,
        @NotBlank @Size(max = 128) String createdBy) {

    /** The body of {@code POST /workspaces/{id}/projects}. */
    @Schema(name = "ProjectInput", description = "The body of POST /workspaces/{id}/projects")
    public record New(
            @NotBlank @Size(max = 200) String title,
            @NotNull ProjectStatus status,
            @Schema(description = "The author; the caller when absent (only cairn-admin may name someone else)")
            @Size(min = 1, max = 128) String createdBy) {
    }
}
