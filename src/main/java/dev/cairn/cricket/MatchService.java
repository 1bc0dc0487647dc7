package dev.cairn.cricket;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.aggregate.Aggregate.FoundMember;
import dev.cairn.core.aggregate.Aggregate.Items;
import dev.cairn.core.aggregate.Aggregate.RefCopy;
import dev.cairn.core.aggregate.Aggregate.RefUse;
import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.aggregate.AggregateWrites.Plan;
import dev.cairn.core.aggregate.AggregateWrites;
import dev.cairn.core.aggregate.Listing;
import dev.cairn.core.query.Page;
import dev.cairn.cricket.MatchInput.PlayerSheetInput;
import dev.cairn.cricket.MatchInput.TeamSheetInput;
import dev.cairn.platform.Http;
import dev.cairn.platform.Offload;
import dev.cairn.service.EntityService;
import dev.cairn.store.AggregateStore.Snapshot;
import dev.cairn.store.AggregateStore;
import dev.cairn.store.EntityStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

import static dev.cairn.cricket.CricketModel.MATCH;

/**
 * The match aggregate's use cases (reads, lists, writes): every check that needs no I/O runs first (rules, duplicates, transaction
 * group sizes), then ONE BatchGetItem hydrates the refs, then the plan is written (ONE transaction when it fits).
 */
@ApplicationScoped
public class MatchService {

    /** An assembled match and its version (the ETag). */
    public record Versioned(Map<String, Object> match, long version) {
    }

    @Inject AggregateStore aggregates;
    @Inject EntityStore store;
    @Inject EntityService entities;
    @Inject ObjectMapper json;

    public Uni<Versioned> find(String id) {
        return aggregates.read(MATCH, id)
                .onItem().ifNull().failWith(() -> EntityService.notFound("match " + id))
                .map(s -> new Versioned(s.assembled().view(), s.assembled().version()));
    }

    /**
     * A page of a list of matches, newest first, as summaries from root items: 1 Query per shard of the list of
     * all, 2 for a team's (its home and away sides), 1 for a venue's. A list of an unknown team or venue is empty.
     */
    public Uni<Page<Map<String, Object>>> list(Listing listing, String key, int limit, String cursor) {
        return aggregates.list(MATCH, listing, key, limit, cursor);
    }

    /** The matches a player is in: ONE Query of the player's ref partition (gsi1), from the player-sheet items. */
    public Uni<Page<Map<String, Object>>> appearancesOf(String playerId, int limit, String cursor) {
        return store.page(CricketModel.matchesOfPlayer(playerId, limit), cursor)
                .map(page -> page.map(item -> appearance(MATCH.foundMember(item))));
    }

    private static Map<String, Object> appearance(FoundMember sheet) {
        var out = new LinkedHashMap<String, Object>();
        out.put("matchId", sheet.aggregateId());
        out.put("matchName", sheet.context().get("name"));
        out.put("teamNumber", ((Number) sheet.discriminator().get("teamNumber")).intValue());
        out.put("battingPosition", Integer.parseInt(sheet.item().get("battingPosition").n()));
        out.put("isCaptain", sheet.item().get("isCaptain").bool());
        return out;
    }

    public Uni<Versioned> create(MatchInput input) {
        Map<String, Object> in = toMap(input);
        List<RefUse> refs = checked(input, in);
        // The partition must be empty (a create never adopts leftovers): checked beside the refs, in parallel.
        // A ref that changed before the write committed makes the whole create run again (RefChanged).
        return entities.againOnCollision(Uni.combine().all()
                .unis(aggregates.resolve(refs, Map.of()), aggregates.requireEmpty(MATCH, input.id()))
                .asTuple().map(both -> both.getItem1()).chain(resolved -> {
            Instant now = Instant.now();
            Map<String, Object> view = MATCH.hydrate(in, resolved.copies());
            Items items = MATCH.decompose(view, versions(resolved.copies()), 1, now, now);
            return aggregates.write(MATCH, AggregateWrites.create(MATCH, items).guardedBy(resolved.sourceGuards()), Map.of())
                    .map(done -> new Versioned(view, 1));
        }));
    }

    /**
     * Reads the match (1 Query), applies {@code change} to its input shape, and writes only the changed groups,
     * conditioned on the version read: a concurrent change is a 409, a stale If-Match a 412.
     */
    public Uni<Versioned> update(String id, Long ifMatch, UnaryOperator<MatchInput> change) {
        return entities.againOnCollision(readForWrite(id, ifMatch).chain(snapshot -> Offload.apply(change,
                fromMap(MATCH.toInput(snapshot.assembled().view()))).chain(next -> {
            var current = snapshot.assembled();
            if (!id.equals(next.id())) {
                throw Http.invalid("id", "must be the match's id '" + id + "'");
            }
            Map<String, Object> in = toMap(next);
            List<RefUse> refs = checked(next, in);
            return aggregates.resolve(refs, MATCH.copies(current.view(), current.refVersions())).chain(resolved -> {
                Map<String, Object> view = MATCH.hydrate(in, resolved.copies());
                Instant now = Instant.now();
                Items before = MATCH.decompose(current.view(), current.refVersions(), current.version(),
                        current.createdAt(), current.updatedAt());
                Items after = MATCH.decompose(view, versions(resolved.copies()), current.version() + 1, current.createdAt(), now);
                var changes = Aggregate.diff(before, after);
                if (changes.isEmpty()) {
                    // Nothing changed: no write, and the version (the ETag) stays.
                    return Uni.createFrom().item(new Versioned(current.view(), current.version()));
                }
                Plan plan = AggregateWrites.update(MATCH, after, changes, current.version(), now)
                        .guardedBy(resolved.sourceGuards());
                return aggregates.write(MATCH, plan, snapshot.bySk())
                        .map(done -> new Versioned(view, current.version() + 1));
            });
        })));
    }

    /**
     * Deletes the match at the version read; a partition that does not form a match (its root gone, members that
     * do not fit) is cleaned whole instead: the way out of such a state.
     */
    public Uni<Void> delete(String id, Long ifMatch) {
        return readForWrite(id, ifMatch).onFailure(e -> CairnException.is(e, CairnError.AggregateAssemblyError.class))
                .recoverWithUni(() -> aggregates.purge(MATCH, id).replaceWith((Snapshot) null))
                .chain(snapshot -> snapshot == null ? Uni.createFrom().voidItem() : deleteWhole(snapshot));
    }

    private Uni<Void> deleteWhole(Snapshot snapshot) {
        var current = snapshot.assembled();
        Items items = MATCH.decompose(current.view(), current.refVersions(), current.version(),
                current.createdAt(), current.updatedAt());
        return aggregates.write(MATCH, AggregateWrites.delete(MATCH, items, current.version(), Instant.now()),
                snapshot.bySk());
    }

    private Uni<Snapshot> readForWrite(String id, Long ifMatch) {
        return aggregates.readForWrite(MATCH, id)
                .onItem().ifNull().failWith(() -> EntityService.notFound("match " + id))
                .invoke(snapshot -> {
                    if (snapshot.assembled() == null) {
                        throw EntityService.notFound("match " + id);
                    }
                    Http.requireVersion("match " + id, ifMatch, snapshot.assembled().version());
                });
    }

    /**
     * Everything that needs no I/O: the cricket rules, then a dry decomposition with placeholder copies, which
     * finds duplicate members and transaction groups that can never fit before a single call is made.
     */
    private List<RefUse> checked(MatchInput input, Map<String, Object> in) {
        rules(input);
        List<RefUse> refs = MATCH.refs(in);
        var placeholders = new HashMap<String, RefCopy>();
        refs.forEach(use -> placeholders.put(Aggregate.refKey(use.ref(), use.id()), new RefCopy(Map.of("id", use.id()), 0)));
        Instant now = Instant.now();
        AggregateWrites.create(MATCH, MATCH.decompose(MATCH.hydrate(in, placeholders), Map.of(), 1, now, now));
        return refs;
    }

    static void rules(MatchInput match) {
        if (match.team1().teamId().equals(match.team2().teamId())) {
            throw structural("team2.teamId", "a match is played by two different teams; both sheets name '"
                    + match.team1().teamId() + "'");
        }
        var seen = new HashSet<String>();
        checkSheet(match.team1(), "team1", seen);
        checkSheet(match.team2(), "team2", seen);
    }

    private static void checkSheet(TeamSheetInput sheet, String path, Set<String> playersInMatch) {
        var positions = new HashSet<Integer>();
        for (int i = 0; i < sheet.players().size(); i++) {
            PlayerSheetInput player = sheet.players().get(i);
            String at = path + ".players[" + i + "]";
            if (!playersInMatch.add(player.playerId())) {
                throw structural(at + ".playerId", "player '" + player.playerId() + "' appears twice in the match");
            }
            if (!positions.add(player.battingPosition())) {
                throw structural(at + ".battingPosition", "batting position " + player.battingPosition()
                        + " is taken twice in " + path);
            }
        }
    }

    private static CairnException structural(String member, String detail) {
        return new CairnException(new CairnError.AggregateDecompositionError(detail, MATCH.name(), member));
    }

    private static Map<String, Long> versions(Map<String, RefCopy> resolved) {
        var versions = new HashMap<String, Long>();
        resolved.forEach((key, copy) -> versions.put(key, copy.version()));
        return versions;
    }

    Map<String, Object> toMap(MatchInput input) {
        return json.convertValue(input, new TypeReference<Map<String, Object>>() {
        });
    }

    MatchInput fromMap(Map<String, Object> input) {
        return json.convertValue(input, MatchInput.class);
    }
}
