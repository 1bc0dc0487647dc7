package dev.cairn.workspace;

import dev.cairn.core.TimeOrderedIds;
import dev.cairn.platform.DemoData;
import dev.cairn.store.EntityStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Seed 000's example: workspaces acme and globex with a few projects. */
@ApplicationScoped
public class WorkspaceDemoData implements DemoData {

    private final EntityStore store;
    private final TimeOrderedIds ids;

    public WorkspaceDemoData(EntityStore store, TimeOrderedIds ids) {
        this.store = store;
        this.ids = ids;
    }

    @Override
    public Uni<Void> seed() {
        return store.create(WorkspaceModel.WORKSPACE, new Workspace("acme", "Acme Corp", "eu-west-1", 50))
                .chain(() -> store.create(WorkspaceModel.WORKSPACE, new Workspace("globex", "Globex", "us-east-1", 20)))
                .chain(() -> project("acme", "Website relaunch", ProjectStatus.ACTIVE, "wile"))
                .chain(() -> project("acme", "Rocket skates", ProjectStatus.PAUSED, "wile"))
                .chain(() -> project("acme", "Anvil logistics", ProjectStatus.ACTIVE, "road.runner"))
                .chain(() -> project("globex", "Doomsday device", ProjectStatus.ARCHIVED, "hank"))
                .replaceWithVoid();
    }

    private Uni<?> project(String workspaceId, String title, ProjectStatus status, String createdBy) {
        return store.create(WorkspaceModel.PROJECT, new Project(workspaceId, ids.next(), title, status, createdBy));
    }
}
