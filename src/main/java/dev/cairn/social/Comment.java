package dev.cairn.social;

import dev.cairn.platform.Http;
import dev.cairn.platform.ValidId;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A comment on a post; {@code commentId} is server-generated and time-ordered. */
public record Comment(String postId, String commentId, String userId, String content) {

    @Schema(name = "CommentInput", description = "The body of POST /posts/{postId}/comments")
    public record New(
            @Schema(description = "The author; the caller when absent (only cairn-admin may name someone else)")
            @Size(min = 1, max = Http.MAX_ID_LENGTH) @Pattern(regexp = ValidId.NO_CONTROL_CHARACTERS) String userId,
            @NotBlank @Size(max = 5_000) String content) {
    }
}
