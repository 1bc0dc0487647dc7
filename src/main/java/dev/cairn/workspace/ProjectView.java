package dev.cairn.workspace;

import dev.cairn.core.entity.Stored;

import java.time.Instant;

/** A project as answered over REST. */
public record ProjectView(String workspaceId, String id, String title, ProjectStatus status, String createdBy,
                          Instant createdAt, Instant updatedAt) {

    static ProjectView of(Stored<Project> stored) {
        Project p = stored.value();
        return new ProjectView(p.workspaceId(), p.id(), p.title(), p.status(), p.createdBy(), stored.createdAt(),
                stored.updatedAt());
    }
}
