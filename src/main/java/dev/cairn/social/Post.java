package dev.cairn.social;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A user's post; {@code postId} is server-generated and time-ordered. */
public record Post(
        String postId,
        String userId,
        @NotBlank @Size(max = 200) String title,
        @NotBlank @Size(max = 20_000) String content) {

    @Schema(name = "PostInput", description = "The body of POST /users/{uid}/posts")
    public record New(@NotBlank @Size(max = 200) String title, @NotBlank @Size(max = 20_000) String content) {
    }
}
