package dev.cairn.cricket;

import dev.cairn.platform.ValidId;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

public record Coach(@ValidId String id, @NotBlank @Size(max = 200) String name) {
}
