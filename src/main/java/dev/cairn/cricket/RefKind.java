package dev.cairn.cricket;

import dev.cairn.core.aggregate.RefSpec;
import dev.cairn.core.cascade.CascadePlanner;
import dev.cairn.core.cascade.CascadeSpec;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.service.CascadeService;

import java.util.List;
import java.util.Map;

/**
 * One kind of referenced entity: its ref spec (entity spec, key, ref index), its Java type, and the word its
 * messages use. Every operation on teams, players, coaches and venues is one generic method over this table.
 */
record RefKind<T>(String singular, RefSpec<T> ref, Class<T> type, CascadeSpec cascade) {

    /** Copies of referenced entities live in matches (aggregates) and in plain items (squad selections). */
    static final CascadePlanner PLANNER = new CascadePlanner(Map.of(), List.of(CricketModel.MATCH));

    static final RefKind<Team> TEAM = of("team", CricketModel.TEAM_REF, Team.class);
    static final RefKind<Player> PLAYER = of("player", CricketModel.PLAYER_REF, Player.class);
    static final RefKind<Coach> COACH = of("coach", CricketModel.COACH_REF, Coach.class);
    static final RefKind<Venue> VENUE = of("venue", CricketModel.VENUE_REF, Venue.class);

    static final List<RefKind<?>> ALL = List.of(TEAM, PLAYER, COACH, VENUE);

    private static <T> RefKind<T> of(String singular, RefSpec<T> ref, Class<T> type) {
        // Every copy of the entity is found with ONE Query of its ref partition.
        var cascade = new CascadeSpec(ref.entity(), ref.keyOf(),
                id -> List.of(QuerySpec.on(ref.index(), ref.refPartition(id)).build()), PLANNER, ref.spec()::fieldsOf);
        return new RefKind<>(singular, ref, type, cascade);
    }

    CascadeService.Target<T> target(String id) {
        return new CascadeService.Target<>(ref.spec(), type, id, cascade);
    }

    /** The items embedding a copy of the entity, a page at a time. */
    QuerySpec references(String id, int limit) {
        return QuerySpec.on(ref.index(), ref.refPartition(id)).limit(limit).build();
    }

    String what(String id) {
        return singular + " " + id;
    }
}
