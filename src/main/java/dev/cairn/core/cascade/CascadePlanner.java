package dev.cairn.core.cascade;

import dev.cairn.core.TableSpec;
import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.aggregate.AggregateTxn;
import dev.cairn.core.aggregate.CopyVersions;
import dev.cairn.core.expr.Condition;
import dev.cairn.core.expr.Update;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.model.HistoryModel;
import dev.cairn.core.write.VersionSnapshots;
import dev.cairn.core.write.WriteAction.Expectation;
import dev.cairn.core.write.WriteAction;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Plans the writes that bring copies of a source entity up to date. Each copy write is conditioned so that it
 * never resurrects a deleted item ({@code attribute_exists(pk)}) and never overwrites a newer copy (the copy's
 * recorded source version must be older), which also makes a repeated cascade skip current copies. Copies inside
 * an aggregate are written together with a bump of the aggregate root's version, in one transaction, so an
 * If-Match taken before the cascade no longer matches and a concurrent aggregate update cannot undo it.
 */
public final class CascadePlanner {

    /**
     * The writes for one unit: a single item, or the members of one aggregate plus its root bump. {@code history}: a
     * single item of an entity that keeps history — its copy write is checked at the version read and goes in ONE
     * transaction with that version's snapshot.
     */
    public record Unit(String partition, List<WriteAction> actions, boolean aggregate, int copies, boolean history) {

        public Unit(String partition, List<WriteAction> actions, boolean aggregate, int copies) {
            this(partition, actions, aggregate, copies, false);
        }
    }

    private final Map<String, CopyRule> rules;
    private final List<Aggregate> aggregates;
    private final Set<String> targets;
    /** The item types that keep history, and how: their copy writes store the version they replace. */
    private final Map<String, HistoryModel> histories;

    /**
     * @param rules      copy attribute → rule; attributes without a rule hold whole copies
     * @param aggregates aggregates whose members may embed copies (their roots are bumped)
     */
    public CascadePlanner(Map<String, CopyRule> rules, List<Aggregate> aggregates) {
        this(rules, aggregates, null);
    }

    /**
     * @param targets the item types ({@code _type}: an entity, or an aggregate's member type such as
     *                {@code MatchPlayer}) whose copies follow the source; null for every type. The copies other
     *                types hold are snapshots: a cascade (and a reconcile) leaves them as they were taken.
     */
    public CascadePlanner(Map<String, CopyRule> rules, List<Aggregate> aggregates, Set<String> targets) {
        this(rules, aggregates, targets, Map.of());
    }

    /** @param histories the item types ({@code _type}) holding copies that keep history, by type */
    public CascadePlanner(Map<String, CopyRule> rules, List<Aggregate> aggregates, Set<String> targets,
                          Map<String, HistoryModel> histories) {
        this(rules, aggregates, targets, histories, Map.of());
    }

    /** How an aggregate keeps history: its snapshots show the root's timestamps where its answers do. */
    public record AggregateHistory(HistoryModel history, boolean timestamps) {
    }

    /** The aggregates (by name) that keep history: a unit of one is written from the aggregate as read, with a snapshot. */
    private final Map<String, AggregateHistory> aggregateHistories;

    /** @param aggregateHistories the aggregates that keep history, by name */
    public CascadePlanner(Map<String, CopyRule> rules, List<Aggregate> aggregates, Set<String> targets,
                          Map<String, HistoryModel> histories, Map<String, AggregateHistory> aggregateHistories) {
        this.aggregateHistories = Map.copyOf(aggregateHistories);
        this.rules = Map.copyOf(rules);
        this.aggregates = List.copyOf(aggregates);
        this.targets = targets == null ? null : Set.copyOf(targets);
        this.histories = Map.copyOf(histories);
    }

    /** Whether an item's type keeps history (its copy write must be planned from the item as it is now). */
    public boolean keepsHistory(Map<String, AttributeValue> item) {
        return histories.containsKey(labelOf(item)) && aggregateFor(item.get(TableSpec.PK).s()) == null;
    }

    /** Who a cascade's version is written by: the cascade of the source, named ({@code cascade:Book/b1}). */
    public static String writer(CascadeSource source) {
        return "cascade:" + source.entity() + "/" + source.id();
    }

    /**
     * The unit that brings one stand-alone item's copies up to date, planned from the item as read (a retry plans
     * again from the item a refused write found): empty when they are current.
     */
    public Optional<Unit> unitOf(Map<String, AttributeValue> item, CascadeSource source, Instant now) {
        return copyWrite(item, source, now, true).map(write -> single(item, write.action(), source, now));
    }

    /**
     * A stand-alone item's unit: its copy write alone, or — for a type that keeps history — the write checked at the
     * version read, with the writer, and that version's snapshot (and the window's oldest deleted), in ONE transaction.
     */
    private Unit single(Map<String, AttributeValue> item, WriteAction write, CascadeSource source, Instant now) {
        String pk = item.get(TableSpec.PK).s();
        HistoryModel history = histories.get(labelOf(item));
        if (history == null) {
            return new Unit(pk, List.of(write), false, 1);
        }
        write.update().set(VersionSnapshots.WRITER, AttributeValue.fromS(writer(source)));
        var actions = new ArrayList<WriteAction>();
        actions.add(write.guardedBy(Expectation.present(dev.cairn.core.entity.EntitySpec.versionOf(item)),
                write.extraCondition()));
        actions.addAll(VersionSnapshots.snapshot(history, labelOf(item), item, now, null));
        return new Unit(pk, actions, false, 1, true);
    }

    /** Whether the copies an item holds follow their source (its type is one of the targets, or there are none). */
    public boolean follows(Map<String, AttributeValue> item) {
        return targets == null || targets.contains(labelOf(item));
    }

    /** The copy update of one item, or empty when every copy it holds is already at the source's version. */
    public Optional<WriteAction> copyUpdate(Map<String, AttributeValue> item, CascadeSource source, Instant now) {
        return copyWrite(item, source, now, aggregateFor(item.get(TableSpec.PK).s()) == null).map(CopyWrite::action);
    }

    /**
     * The ids of the sources of {@code entity} an item holds copies of (usually one); a copy whose item does not
     * name its source maps to null.
     */
    public Set<String> sourcesOf(Map<String, AttributeValue> item, String entity) {
        var ids = new LinkedHashSet<String>();
        CopyVersions.copiesOf(item, entity).keySet().forEach(attribute ->
                ids.add(rules.getOrDefault(attribute, CopyRule.whole()).sourceId(item, attribute)));
        return ids;
    }

    /** An item's copy update and the copy attributes it rewrites. */
    private record CopyWrite(WriteAction action, List<String> attributes) {
    }

    /**
     * @param bumpVersion true for a stand-alone item: its own version moves forward, so a read-modify-write
     *                    that read the old copy fails its version check instead of writing the old copy back
     */
    private Optional<CopyWrite> copyWrite(Map<String, AttributeValue> item, CascadeSource source, Instant now,
                                          boolean bumpVersion) {
        if (!follows(item)) {
            return Optional.empty();
        }
        Map<String, Long> copies = CopyVersions.copiesOf(item, source.entity());
        var update = Update.create();
        var attributes = new ArrayList<String>();
        Condition newer = null;
        for (var copy : copies.entrySet()) {
            String attribute = copy.getKey();
            CopyRule rule = rules.getOrDefault(attribute, CopyRule.whole());
            if (copy.getValue() >= source.version() || !rule.copies(item.get(attribute), source.id())) {
                continue;
            }
            attributes.add(attribute);
            update.set(attribute, rule.render(source.fields()))
                    .setPath(List.of(CopyVersions.ATTRIBUTE, attribute), CopyVersions.of(source.entity(), source.version()));
            List<String> versionPath = List.of(CopyVersions.ATTRIBUTE, attribute, "v");
            Condition older = Condition.pathLessThan(versionPath, AttributeValue.fromN(Long.toString(source.version())));
            newer = newer == null ? older : newer.and(older);
        }
        if (newer == null) {
            return Optional.empty();
        }
        if (bumpVersion) {
            update.add(TableSpec.VERSION, AttributeValue.fromN("1"))
                    .set(TableSpec.UPDATED_AT, AttributeValue.fromS(now.toString()));
        }
        PrimaryKey key = PrimaryKey.from(item);
        return Optional.of(new CopyWrite(WriteAction.updateItem(key, update, Expectation.present(null), newer,
                labelOf(item)), attributes));
    }

    /** Groups the found items into units: one per aggregate partition (with its root bump), one per other item. */
    public List<Unit> plan(List<Map<String, AttributeValue>> found, CascadeSource source, Instant now) {
        var units = new ArrayList<Unit>();
        var byAggregate = new LinkedHashMap<String, List<WriteAction>>();
        var aggregateOf = new LinkedHashMap<String, Aggregate>();
        var summaries = new LinkedHashMap<String, Map<String, AttributeValue>>();
        for (var item : found) {
            String pk = item.get(TableSpec.PK).s();
            Aggregate aggregate = aggregateFor(pk);
            Optional<CopyWrite> write = copyWrite(item, source, now, aggregate == null);
            if (write.isEmpty()) {
                continue;
            }
            if (aggregate == null) {
                units.add(single(item, write.get().action(), source, now));
            } else {
                byAggregate.computeIfAbsent(pk, p -> new ArrayList<>()).add(write.get().action());
                aggregateOf.put(pk, aggregate);
                // The root's summary shows some copies (a venue's name): rewritten with them, in the same transaction.
                String sk = item.get(TableSpec.SK).s();
                var summary = summaries.computeIfAbsent(pk, p -> new LinkedHashMap<>());
                for (String attribute : write.get().attributes()) {
                    for (var shown : aggregate.summaryCopies(sk, attribute)) {
                        AttributeValue value = source.fields().get(shown.sourceField());
                        if (value != null) {
                            summary.put(shown.attribute(), value);
                        }
                    }
                }
            }
        }
        byAggregate.forEach((pk, actions) -> {
            Aggregate aggregate = aggregateOf.get(pk);
            PrimaryKey root = PrimaryKey.of(pk, rootSortKey(aggregate));
            var all = new ArrayList<WriteAction>();
            var rootCopy = actions.stream().filter(a -> a.key().equals(root)).findFirst();
            all.add(rootBump(aggregate, root, rootCopy.orElse(null), summaries.getOrDefault(pk, Map.of()), now));
            actions.stream().filter(a -> !a.key().equals(root)).forEach(all::add);
            units.add(new Unit(pk, all, true, actions.size()));
        });
        return units;
    }

    /**
     * The root's version moves forward (and its own copies, if it holds any), unless a multi-transaction write is
     * in flight: that write's undo log would put the old copies back, so the unit waits until it is over.
     */
    private static WriteAction rootBump(Aggregate aggregate, PrimaryKey root, WriteAction rootCopy,
                                        Map<String, AttributeValue> summary, Instant now) {
        Update update = rootCopy == null ? Update.create() : rootCopy.update();
        update.add(TableSpec.VERSION, AttributeValue.fromN("1"))
                .set(TableSpec.UPDATED_AT, AttributeValue.fromS(now.toString()));
        summary.forEach(update::set);
        Condition leaseFree = AggregateTxn.noWriteInFlight();
        Condition condition = rootCopy == null || rootCopy.extraCondition() == null
                ? leaseFree : leaseFree.and(rootCopy.extraCondition());
        return WriteAction.updateItem(root, update, Expectation.present(null), condition, aggregate.name());
    }

    /** The aggregate an aggregate unit writes, if it keeps history (its unit needs the aggregate read first); else null. */
    public Aggregate keepingHistory(Unit unit) {
        if (!unit.aggregate()) {
            return null;
        }
        Aggregate aggregate = aggregateFor(unit.partition());
        return aggregate != null && aggregateHistories.containsKey(aggregate.name()) ? aggregate : null;
    }

    /**
     * An aggregate unit as it is written where the aggregate keeps history: the root's bump checked at the version
     * read ({@code current}) and marked with the cascade as its writer, and that version's snapshot (and the window's
     * oldest deleted) in the same transaction. The unit's own actions keep their places (the root first), the
     * snapshot's follow them.
     */
    public Unit keptAt(Unit unit, Aggregate.Assembled current, CascadeSource source, Instant now) {
        Aggregate aggregate = aggregateFor(unit.partition());
        AggregateHistory kept = aggregateHistories.get(aggregate.name());
        var actions = new ArrayList<>(unit.actions());
        WriteAction bump = actions.get(0);
        bump.update().set(VersionSnapshots.WRITER, AttributeValue.fromS(writer(source)));
        actions.set(0, bump.guardedBy(Expectation.present(current.version()), bump.extraCondition()));
        actions.addAll(dev.cairn.core.aggregate.AggregateVersions.snapshot(kept.history(), aggregate.name(),
                kept.timestamps(), unit.partition(), current, now, null));
        return new Unit(unit.partition(), actions, true, unit.copies());
    }

    private Aggregate aggregateFor(String pk) {
        return aggregates.stream().filter(a -> a.holdsPartition(pk)).findFirst().orElse(null);
    }

    private static String rootSortKey(Aggregate aggregate) {
        return aggregate.rootKey("x").sk();
    }

    private static String labelOf(Map<String, AttributeValue> item) {
        AttributeValue type = item.get(TableSpec.TYPE);
        return type == null ? "item" : type.s();
    }
}
