package dev.cairn.declared;

import dev.cairn.core.aggregate.Listing;
import dev.cairn.core.aggregate.PartitionRanges;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.model.AggregateModel;
import dev.cairn.core.model.CopiesModel;
import dev.cairn.core.model.DeclaredAggregate;
import dev.cairn.core.model.DeclaredEntity;
import dev.cairn.core.model.DomainModel;
import dev.cairn.core.model.DomainPlan;
import dev.cairn.core.model.ModelReader;
import dev.cairn.core.query.AccessPattern;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.platform.Http;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The access patterns of the declared aggregates and of the entities whose whole copies they hold, each with the
 * exact request it sends for the domain's demo data: the read of a whole aggregate, each list's Query (a shard of
 * the list of every root; each index of a list by an id), the members found through a ref index, and where the
 * copies of an entity live.
 */
final class AggregatePatterns {

    private AggregatePatterns() {
    }

    static List<AccessPattern> of(DomainPlan plan, String table) {
        var out = new ArrayList<AccessPattern>();
        for (DomainModel domain : plan.domains()) {
            for (AggregateModel model : domain.aggregates()) {
                DeclaredAggregate aggregate = plan.aggregate(model.name());
                Map<String, Object> demo = model.demo().isEmpty() ? Map.of() : model.demo().get(0).values();
                String id = String.valueOf(demo.getOrDefault(model.idField(), "example"));
                String words = ModelReader.words(model.name());
                int first = out.size();
                out.add(AccessPattern.query("A whole " + words + " (every item of its partition, projected on the view): this "
                                + "ONE Query up to " + PartitionRanges.FIRST_PAGE_ITEMS + " items; a larger aggregate continues "
                                + "with one Query per range of its root's _fences, all at once, then 1 GetItem of the root",
                        "GET " + model.path(), table, aggregate.aggregate().viewQuery(id)));
                for (AggregateModel.Listing list : model.lists()) {
                    Listing listing = aggregate.listing(list.name());
                    String route = "GET " + list.route().path();
                    if (list.all()) {
                        out.add(AccessPattern.query(list.route().label() + ": shard 0 of " + listing.shards()
                                        + " (each shard alike, all in parallel, merged)", route, table,
                                listing.fanOut(null, listing.shards(), Http.DEFAULT_LIMIT).shards().get(0)));
                        continue;
                    }
                    var paths = new ArrayList<>(list.by().keySet());
                    String key = example(demo, paths.get(0));
                    List<QuerySpec> queries = listing.fanOut(key, 1, Http.DEFAULT_LIMIT).shards();
                    for (int i = 0; i < queries.size(); i++) {
                        String label = paths.size() == 1 ? list.route().label()
                                : list.route().label() + ": by " + paths.get(i) + " (in parallel with the other "
                                + (paths.size() - 1) + ")";
                        out.add(AccessPattern.query(label, route, table, queries.get(i)));
                    }
                }
                for (AggregateModel.Appearances found : model.appearances()) {
                    String key = exampleOfEntity(domain, found.entity());
                    out.add(AccessPattern.query(found.route().label(), "GET " + found.route().path(), table,
                            aggregate.appearancesQuery(found, key, Http.DEFAULT_LIMIT)));
                }
                if (model.servesVersions()) {
                    versionPatterns(model, aggregate, id, table, out);
                }
                if (model.softDelete()) {
                    softDeletePatterns(model, aggregate, id, table, out);
                }
                uniquePatterns(model, demo, table, out);
                if (model.ttl() != null) {
                    // every item of an expiring aggregate carries its expiry: each of its reads leaves expired ones out
                    for (int i = first; i < out.size(); i++) {
                        out.set(i, out.get(i).hidingExpired());
                    }
                }
            }
        }
        for (DeclaredEntity entity : plan.entities()) {
            CopiesModel copies = entity.model().copies();
            if (copies != null && copies.references() != null) {
                String key = plan.domains().stream().filter(d -> d.entities().containsKey(entity.name()))
                        .map(d -> exampleOfEntity(d, entity.name())).findFirst().orElse("example");
                var references = AccessPattern.query(copies.references().label(), "GET " + copies.references().path(), table,
                        QuerySpec.on(copies.index(), copies.partitionOf(key)).limit(Http.DEFAULT_LIMIT).build());
                // copies held by the members of an expiring aggregate expire with it
                boolean expiring = plan.aggregates().stream().anyMatch(a -> a.model().ttl() != null
                        && a.model().referencedEntities().contains(entity.name()));
                out.add(expiring ? references.hidingExpired() : references);
            }
        }
        return out;
    }

    /**
     * An aggregate with history: what its versions' routes read, and what each of its writes costs more — the pattern's
     * name says it.
     */
    private static void versionPatterns(AggregateModel model, DeclaredAggregate aggregate, String id, String table,
                                        List<AccessPattern> out) {
        var history = model.history();
        String words = ModelReader.words(model.name());
        String pk = aggregate.aggregate().partitionOf(id);
        String writes = "every write that changes a " + words + " (PUT, PATCH, DELETE, a cascade's rewrite of a copy its "
                + "members hold) puts the version it replaces, the whole " + words + " as one item, in its commit "
                + "transaction: +1 Put" + (history.keep() != null ? " and +1 Delete of the snapshot that falls out of the "
                + "last " + history.keep() : "") + " (2 WCU per KB each); a create reads the newest retained version first "
                + "(+1 Query of at most one item, beside its other reads), a cascade reads the " + words + " first (+1 Query)";
        out.add(AccessPattern.query("A " + words + "'s current version: the first page of its versions starts with the "
                + words + " as its GET reads it, beside the snapshots' Query", "GET " + model.versionsPath(), table,
                aggregate.aggregate().viewQuery(id)));
        var listing = AccessPattern.query("A " + words + "'s retained versions, newest first (it keeps "
                + history.describe() + "): the snapshots in their own partition ~VERSION#<partition>, which the "
                + words + "'s reads never meet; " + writes, "GET " + model.versionsPath(), table,
                dev.cairn.core.aggregate.AggregateVersions.listing(pk, Http.DEFAULT_LIMIT));
        out.add(history.retain() != null ? listing.hidingExpired() : listing);
        out.add(AccessPattern.getItem("One retained version of a " + words + " (beside the " + words + "'s read)",
                "GET " + model.versionsPath() + "/{version}", table, dev.cairn.core.aggregate.AggregateVersions.key(pk, 1)));
    }

    /**
     * The sentinels that keep an aggregate's unique values, its root's and its members', by key (what an operator reads
     * to see that a value is taken): never read by the API, each written in the commit of the write that takes, moves
     * or gives up the value. Keyed for the demo data's first aggregate (a member's value from its first such member).
     */
    @SuppressWarnings("unchecked")
    private static void uniquePatterns(AggregateModel model, Map<String, Object> demo, String table,
                                       List<AccessPattern> out) {
        String words = ModelReader.words(model.name());
        String writes = "written in the commit of the " + words + "'s write: a create puts it (+1 Put, condition "
                + "attribute_not_exists(pk) or its own), a change of the value moves it (+1 Delete, +1 Put; a value "
                + "passed between two members is ONE Put), a delete removes it (+1 Delete"
                + (model.softDelete() ? "; a soft delete passes a value its constraint keeps to the tombstone, +1 Put, "
                + "a restore takes it back and a purge gives it up" : "") + "); a write that leaves the value as it is "
                + "costs nothing more";
        for (var unique : model.unique()) {
            out.add(AccessPattern.getItem("The sentinel that keeps a " + words + "'s " + String.join(" + ",
                            unique.fields()) + " unique (" + unique.describe() + "): never read by the API, " + writes,
                    "POST " + model.path().substring(0, model.path().lastIndexOf('/')) + ", PUT|PATCH|DELETE "
                            + model.path() + " (unique " + unique.name() + ")", table,
                    unique.sentinel(model.name(), sample(unique.allFields(), demo, Map.of())).orElseThrow()));
        }
        memberUniquePatterns(model, model.root(), demo, demo, "", writes, table, out, new java.util.HashSet<>());
    }

    /** Each member's constraints, at any depth; a member's demo values where the demo data holds one, else "example". */
    @SuppressWarnings("unchecked")
    private static void memberUniquePatterns(AggregateModel model, AggregateModel.Node node, Map<String, Object> at,
                                             Map<String, Object> demo, String path, String writes, String table,
                                             List<AccessPattern> out, java.util.Set<AggregateModel.Node> seen) {
        if (!seen.add(node)) {
            return;
        }
        String words = ModelReader.words(model.name());
        for (AggregateModel.Child child : node.children()) {
            if (child.node() == null) {
                continue;
            }
            Object value = at.get(child.name());
            Map<String, Object> member = value instanceof Map<?, ?> map ? (Map<String, Object>) map
                    : value instanceof List<?> list && !list.isEmpty() && list.get(0) instanceof Map<?, ?> first
                    ? (Map<String, Object>) first : Map.of();
            String name = path + child.name();
            for (var unique : child.node().unique()) {
                out.add(AccessPattern.getItem("The sentinel that keeps a " + words + " " + name + " member's "
                                + String.join(" + ", unique.fields()) + " unique across every " + words + " ("
                                + unique.describe() + "), owned by the member's item: never read by the API, " + writes,
                        "POST " + model.path().substring(0, model.path().lastIndexOf('/')) + ", PUT|PATCH|DELETE "
                                + model.path() + " (unique " + child.node().type() + " " + unique.name() + ")", table,
                        unique.sentinel(child.node().type(), sample(unique.allFields(), member, demo)).orElseThrow()));
            }
            memberUniquePatterns(model, child.node(), member, demo, name + ".", writes, table, out, seen);
        }
    }

    /** Each field's demo value (the member's, else the root's), or "example". */
    private static Map<String, Object> sample(List<String> fields, Map<String, Object> own, Map<String, Object> root) {
        var values = new LinkedHashMap<String, Object>();
        for (String field : fields) {
            Object value = own.containsKey(field) ? own.get(field) : root.get(field);
            values.put(field, value == null ? "example" : value);
        }
        return values;
    }

    /** A soft-deleted aggregate: its deleted listing, and its tombstone (what each of its routes reads and writes). */
    private static void softDeletePatterns(AggregateModel model, DeclaredAggregate aggregate, String id, String table,
                                           List<AccessPattern> out) {
        String words = ModelReader.words(model.name());
        var tombstones = dev.cairn.core.entity.Tombstones.LISTING;
        out.add(AccessPattern.query("The deleted " + words + "s, newest deleted first (1 Query of " + tombstones.indexName()
                        + ")", "GET " + model.deletedPath(), table,
                QuerySpec.on(tombstones, dev.cairn.core.entity.Tombstones.listing(model.name(), null)).descending()
                        .limit(Http.DEFAULT_LIMIT).build()));
        out.add(AccessPattern.getItem("A deleted " + words + "'s tombstone, the whole " + words + " in ONE item outside its "
                        + "partition: a delete reads the " + words + " (1 Query) and, in its commit, deletes every item and "
                        + "puts this (+1 Put, and +1 action per unique value); a restore reads it (1 GetItem), then as a "
                        + "create (its refs' BatchGetItem and its partition's Query side by side) writes the " + words
                        + " back and deletes this in one commit; a purge reads it and deletes it (1 DeleteItem, or 1 "
                        + "TransactWriteItems with the unique values it kept)",
                "DELETE " + model.path() + ", POST " + model.restorePath() + ", DELETE " + model.purgePath(), table,
                dev.cairn.core.entity.Tombstones.keyOf(aggregate.aggregate().rootKey(id))));
    }

    /** The partitions the console opens by id: each aggregate's, by its name in lower case. */
    static Map<String, KeyTemplate> partitions(DomainPlan plan) {
        var out = new LinkedHashMap<String, KeyTemplate>();
        plan.aggregates().forEach(a -> out.put(a.name().toLowerCase(java.util.Locale.ROOT), a.model().partition()));
        return out;
    }

    /** The value a demo input holds at a view path: a root field its own, {@code team1.team.id} the input's {@code team1.teamId}. */
    private static String example(Map<String, Object> demo, String viewPath) {
        String[] steps = viewPath.split("\\.");
        if (steps.length == 1) {
            // a root field (an order's status): the demo input's own value
            Object value = demo.get(viewPath);
            return value == null ? "example" : value.toString();
        }
        Object at = demo;
        for (int i = 0; i < steps.length - 2 && at instanceof Map<?, ?> map; i++) {
            at = map.get(steps[i]);
        }
        Object id = at instanceof Map<?, ?> map && steps.length >= 2 ? map.get(steps[steps.length - 2] + "Id") : null;
        return id == null ? "example" : id.toString();
    }

    private static String exampleOfEntity(DomainModel domain, String entity) {
        var model = domain.entity(entity);
        Function<DomainModel.DemoItem, Object> id = item -> item.values().get(model.idField());
        return domain.demo().stream().filter(d -> d.entity().equals(entity) && id.apply(d) != null)
                .map(d -> id.apply(d).toString()).findFirst().orElse("example");
    }
}
