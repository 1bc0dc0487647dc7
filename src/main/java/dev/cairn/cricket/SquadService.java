package dev.cairn.cricket;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.core.aggregate.Aggregate.RefCopy;
import dev.cairn.core.aggregate.Aggregate.RefUse;
import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.aggregate.CopyVersions;
import dev.cairn.core.aggregate.JsonAttributes;
import dev.cairn.core.entity.Stored;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.query.Page;
import dev.cairn.core.write.WriteAction;
import dev.cairn.platform.Http;
import dev.cairn.platform.MergePatcher;
import dev.cairn.service.EntityService;
import dev.cairn.store.AggregateStore;
import dev.cairn.store.EntityStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.cairn.cricket.CricketModel.PLAYER_REF;
import static dev.cairn.cricket.CricketModel.SELECTION_SPEC;
import static dev.cairn.cricket.CricketModel.TEAM_REF;

/** Squad selections' use cases: refs by id in, hydrated with ONE BatchGetItem, full team and player stored. */
@ApplicationScoped
public class SquadService {

    @Inject EntityStore store;
    @Inject AggregateStore refs;
    @Inject EntityService entities;
    @Inject MergePatcher patcher;
    @Inject ObjectMapper json;

    /**
     * ONE BatchGetItem for the team and the player, then ONE transaction: the put (an existing number is a 409) and
     * the guards that both are still at the versions copied; one that changed meanwhile makes it run again.
     */
    Uni<Stored<SquadSelection>> create(String squadId, SquadSelection.Input input) {
        return entities.againOnCollision(hydrate(squadId, input, Map.of())
                .chain(hydrated -> store.create(SELECTION_SPEC, hydrated.selection(), hydrated.copyVersions(),
                        hydrated.sourceGuards())));
    }

    Uni<Stored<SquadSelection>> find(String squadId, int number) {
        return entities.find(SELECTION_SPEC, CricketModel.selectionKey(squadId, number), selection(squadId, number));
    }

    /** One Query of the squad's partition. */
    Uni<Page<SquadSelection>> list(String squadId, int limit, String cursor) {
        return store.page(SELECTION_SPEC, CricketModel.selectionsOf(squadId, limit), cursor).map(page -> page.map(Stored::value));
    }

    /** One Query of the player's ref partition (gsi1). */
    Uni<Page<SquadSelection>> ofPlayer(String playerId, int limit, String cursor) {
        return store.page(SELECTION_SPEC, CricketModel.selectionsOfPlayer(playerId, limit), cursor)
                .map(page -> page.map(Stored::value));
    }

    /**
     * A merge patch of the input shape, written conditioned on the version read; a changed {@code teamId} or
     * {@code playerId} is hydrated again, unchanged refs are not read. No change: no write, the version stays.
     * Without If-Match, a concurrent change makes the cycle run again, as for every PATCH.
     */
    Uni<Stored<SquadSelection>> patch(String squadId, int number, String patch, Long ifMatch) {
        PrimaryKey key = CricketModel.selectionKey(squadId, number);
        return entities.againOnConflict(store.getItem(key, true)
                .onItem().ifNull().failWith(() -> EntityService.notFound(selection(squadId, number)))
                .chain(item -> {
                    Stored<SquadSelection> current = SELECTION_SPEC.fromItem(item);
                    Http.requireVersion(selection(squadId, number), ifMatch, current.version());
                    SquadSelection.Input next = patcher.apply(current.value().toInput(), SquadSelection.Input.class, patch,
                            Set.of("selectionNumber"));
                    return hydrate(squadId, next, known(current, item))
                            .chain(hydrated -> hydrated.selection().equals(current.value())
                                    ? Uni.createFrom().item(current)
                                    : store.replace(SELECTION_SPEC, hydrated.selection(), current, hydrated.copyVersions(),
                                    hydrated.sourceGuards()));
                }), ifMatch);
    }

    Uni<Void> delete(String squadId, int number, Long ifMatch) {
        return store.delete(SELECTION_SPEC, CricketModel.selectionKey(squadId, number), true, ifMatch,
                selection(squadId, number)).replaceWithVoid();
    }

    /**
     * A hydrated selection, the {@code _refv} attribute recording the source version of each copy, and the guards
     * of the copies read now (a changed {@code teamId} or {@code playerId}).
     */
    private record Hydrated(SquadSelection selection, Map<String, AttributeValue> copyVersions,
                            List<WriteAction> sourceGuards) {
    }

    private Uni<Hydrated> hydrate(String squadId, SquadSelection.Input input, Map<String, RefCopy> known) {
        List<RefUse> uses = List.of(new RefUse("team", TEAM_REF, input.teamId()),
                new RefUse("player", PLAYER_REF, input.playerId()));
        return refs.resolve(uses, known).map(resolved -> {
            RefCopy team = resolved.copy(TEAM_REF, input.teamId());
            RefCopy player = resolved.copy(PLAYER_REF, input.playerId());
            var selection = new SquadSelection(squadId, input.selectionNumber(),
                    json.convertValue(team.fields(), Team.class), json.convertValue(player.fields(), Player.class),
                    input.squadRole(), input.isCaptain());
            return new Hydrated(selection, CricketModel.selectionCopyVersions(team.version(), player.version()),
                    resolved.sourceGuards());
        });
    }

    /** The current copies with the versions they were taken at, so an unchanged ref is not read again. */
    private static Map<String, RefCopy> known(Stored<SquadSelection> current, Map<String, AttributeValue> item) {
        SquadSelection s = current.value();
        return Map.of(
                Aggregate.refKey(TEAM_REF, s.team().id()),
                new RefCopy(JsonAttributes.fromMap(CricketModel.TEAM_CODEC.encode(s.team())),
                        CopyVersions.copiesOf(item, TEAM_REF.entity()).getOrDefault("team", 0L)),
                Aggregate.refKey(PLAYER_REF, s.player().id()),
                new RefCopy(JsonAttributes.fromMap(CricketModel.PLAYER_CODEC.encode(s.player())),
                        CopyVersions.copiesOf(item, PLAYER_REF.entity()).getOrDefault("player", 0L)));
    }

    private static String selection(String squadId, int number) {
        return "selection " + number + " of squad " + squadId;
    }
}
