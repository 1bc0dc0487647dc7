package dev.cairn.workspace;

import dev.cairn.platform.ValidId;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/** A workspace's settings: the parent of its projects, sharing their partition. */
public record Workspace(
        @ValidId String id,
        @NotBlank @Size(max = 200) String displayName,
        @NotBlank @Size(max = 64) String region,
        @NotNull @Min(1) @Max(1_000_000) Integer seatLimit) {
}
