package dev.cairn.social;

import dev.cairn.platform.ValidId;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

public record User(
        @ValidId String id,
        @NotBlank @Size(max = 100) String firstName,
        @NotBlank @Size(max = 100) String lastName,
        @Size(max = 2048) String profilePicture) {
}
