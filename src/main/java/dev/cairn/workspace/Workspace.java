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
        @NotNull @Min(1) @Max(1_000_000) Integer seatLimit,
        @Min(1) @Max(WorkspaceModel.MAX_SHARDS) Integer shards) {

    /** {@code shards}: how many partitions new projects spread over (1 unless the workspace is write-sharded). */
    public Workspace {
        shards = shards == null ? 1 : shards;
    }

    public Workspace(String id, String displayName, String region, Integer seatLimit) {
        this(id, displayName, region, seatLimit, 1);
    }
}
