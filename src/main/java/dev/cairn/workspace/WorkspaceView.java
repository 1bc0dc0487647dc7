package dev.cairn.workspace;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cairn.core.entity.Stored;
import dev.cairn.core.query.Page;

import java.time.Instant;

/** A workspace as answered over REST; {@code projects} only with {@code ?include=projects}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WorkspaceView(String id, String displayName, String region, Integer seatLimit, Integer shards,
                            Instant createdAt, Instant updatedAt, Page<ProjectView> projects) {

    static WorkspaceView of(Stored<Workspace> stored) {
        return of(stored, null);
    }

    static WorkspaceView of(Stored<Workspace> stored, Page<ProjectView> projects) {
        Workspace w = stored.value();
        return new WorkspaceView(w.id(), w.displayName(), w.region(), w.seatLimit(), w.shards(), stored.createdAt(),
                stored.updatedAt(), projects);
    }
}
