package dev.cairn.core.model;

import dev.cairn.core.NaturalIndex;
import dev.cairn.core.cascade.CascadePlanner;
import dev.cairn.core.cascade.CascadeSpec;
import dev.cairn.core.cascade.CopyRule;
import dev.cairn.core.query.QuerySpec;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Every declared domain made ready to serve: the entities by name, and for each entity that others copy fields
 * from, its {@link CascadeSpec} — where the copies are (an edge's partition or its inverse index, a ref's index)
 * and how each copy attribute is rendered — so renames reach every copy through the one cascade engine.
 */
public final class DomainPlan {

    /** How many copies one page of a cascade's query reads. */
    static final int CASCADE_PAGE = 100;

    private final List<DomainModel> domains;
    private final Map<String, DeclaredEntity> entities = new LinkedHashMap<>();
    private final Map<String, CascadeSpec> cascades = new LinkedHashMap<>();
    private final Map<String, Function<String, List<QuerySpec>>> dependents = new LinkedHashMap<>();
    private final List<NaturalIndex> naturalIndexes = new ArrayList<>();
    /** The declared aggregates by name: built before the cascades, whose copies they may hold. */
    private final Map<String, DeclaredAggregate> aggregates = new LinkedHashMap<>();

    private DomainPlan(List<DomainModel> domains) {
        this.domains = List.copyOf(domains);
        for (DomainModel domain : domains) {
            for (EntityModel entity : domain.entities().values()) {
                if (entities.put(entity.name(), new DeclaredEntity(entity)) != null) {
                    throw new ModelException(domain.file(), entity.line(), "entities." + entity.name(),
                            "another model file declares '" + entity.name() + "' too");
                }
            }
        }
        for (DomainModel domain : domains) {
            for (AggregateModel aggregate : domain.aggregates()) {
                if (entities.containsKey(aggregate.name()) || aggregates.put(aggregate.name(),
                        new DeclaredAggregate(aggregate, entities)) != null) {
                    throw new ModelException(domain.file(), aggregate.line(), "aggregates." + aggregate.name(),
                            "another model file declares '" + aggregate.name() + "' too");
                }
            }
        }
        for (DomainModel domain : domains) {
            for (EntityModel source : domain.entities().values()) {
                plan(domain, source);
            }
        }
        checkNaturalIndexes();
    }

    /**
     * The declared natural indexes share the table with every entity: each name once, each key attribute of one type
     * (S or N) wherever it is keyed, and any declared field of that name of a kind stored as that type — an item whose
     * attribute had another type would be refused by DynamoDB on write.
     */
    private void checkNaturalIndexes() {
        var names = new LinkedHashMap<String, String>();
        var keyed = new LinkedHashMap<String, Boolean>();
        for (DomainModel domain : domains) {
            for (EntityModel entity : domain.entities().values()) {
                for (NaturalIndexModel index : entity.indexes()) {
                    String where = "entities." + entity.name() + ".indexes." + index.name();
                    String before = names.putIfAbsent(index.name(), entity.name());
                    if (before != null) {
                        throw new ModelException(domain.file(), index.line(), where, "'" + index.name()
                                + "' is an index of " + before + " already: index names are the table's, one each");
                    }
                    for (NaturalIndex.Attribute attribute : index.index().attributes()) {
                        Boolean numeric = keyed.putIfAbsent(attribute.name(), attribute.numeric());
                        if (numeric != null && numeric != attribute.numeric()) {
                            throw new ModelException(domain.file(), index.line(), where, "'" + attribute.name()
                                    + "' keys another index as " + (numeric ? "a number" : "text") + ": one type per attribute");
                        }
                    }
                    naturalIndexes.add(index.index());
                }
            }
        }
        for (DomainModel domain : domains) {
            for (EntityModel entity : domain.entities().values()) {
                for (FieldModel field : entity.fields()) {
                    Boolean numeric = keyed.get(field.name());
                    if (numeric != null && !entity.timestamps().contains(field.name()) && storedAs(field) != (numeric ? 'N' : 'S')) {
                        throw new ModelException(domain.file(), field.line(), "entities." + entity.name() + ".fields."
                                + field.name(), "'" + field.name() + "' keys an index as " + (numeric ? "a number" : "text")
                                + ": a field of that name must be stored so too (or be named otherwise)");
                    }
                }
            }
        }
    }

    /** The attribute type a field is stored as: S, N, or something no key can be ('-'). */
    private static char storedAs(FieldModel field) {
        return switch (field.kind()) {
            case ID, STRING, ENUM, DATE, INSTANT -> 'S';
            case INTEGER, NUMBER -> 'N';
            default -> '-';
        };
    }

    /** Every declared natural index of the table, in file and declaration order. */
    public List<NaturalIndex> naturalIndexes() {
        return List.copyOf(naturalIndexes);
    }

    public static DomainPlan of(List<DomainModel> domains) {
        checkOneKindOfTenant(domains);
        return new DomainPlan(domains);
    }

    /**
     * A token's tenant claim ({@code workspaces}) names ids of ONE kind: two entities that are tenants themselves
     * ({@code tenant:} their own id) would let a caller scoped to workspace X into the other's X too.
     */
    private static void checkOneKindOfTenant(List<DomainModel> domains) {
        String first = null;
        for (DomainModel domain : domains) {
            for (EntityModel entity : domain.entities().values()) {
                if (entity.access().tenant() == null || !entity.access().tenant().equals(entity.idField())) {
                    continue;
                }
                if (first != null) {
                    throw new ModelException(domain.file(), entity.line(), "entities." + entity.name() + ".tenant",
                            "the token's workspaces claim already names " + first + " ids: a second kind of tenant would "
                                    + "share its ids (declare the entity self and private for a user's own data)");
                }
                first = entity.name();
            }
        }
    }

    public List<DomainModel> domains() {
        return domains;
    }

    public Collection<DeclaredEntity> entities() {
        return entities.values();
    }

    public DeclaredEntity entity(String name) {
        return entities.get(name);
    }

    /** Every declared aggregate, in file and declaration order. */
    public Collection<DeclaredAggregate> aggregates() {
        return aggregates.values();
    }

    public DeclaredAggregate aggregate(String name) {
        return aggregates.get(name);
    }

    /** The cascade of an entity others copy from; null when nothing copies it. */
    public CascadeSpec cascade(String entity) {
        return cascades.get(entity);
    }

    public Collection<CascadeSpec> cascades() {
        return cascades.values();
    }

    /**
     * The queries that find, by an entity's id, every item that depends on it — edges at either end, items that
     * refer to it, its children — which must all be gone before it is deleted. Null when nothing can depend on it.
     */
    public Function<String, List<QuerySpec>> dependents(String entity) {
        return dependents.get(entity);
    }

    private void plan(DomainModel domain, EntityModel source) {
        DeclaredEntity sourceEntity = entities.get(source.name());
        var rules = new LinkedHashMap<String, CopyRule>();
        var ruleNames = new LinkedHashMap<String, String>();
        var copyQueries = new ArrayList<Function<String, QuerySpec>>();
        var dependentQueries = new ArrayList<Function<String, QuerySpec>>();
        var histories = new LinkedHashMap<String, HistoryModel>();
        for (EntityModel other : domain.entities().values()) {
            DeclaredEntity copier = entities.get(other.name());
            for (RefModel ref : other.refs()) {
                if (!ref.entity().equals(source.name()) || ref.embed() != null) {
                    continue;   // a whole copy (embed) is found with the others on the source's copies index, below
                }
                Function<String, QuerySpec> where = whereRefsAre(domain, other, ref, copier);
                if (!ref.copies().isEmpty()) {
                    ref.copies().forEach((copy, field) -> {
                        // Two copiers may hold one copy attribute, if it is the same field under the same id field.
                        String rule = field + "<-" + ref.field();
                        String before = ruleNames.put(copy, rule);
                        rules.put(copy, CopyRule.field(field, ref.field()));
                        if (before != null && !before.equals(rule)) {
                            throw new ModelException(domain.file(), ref.line(), other.name() + "." + ref.field(),
                                    "'" + copy + "' is copied from " + source.name() + " twice");
                        }
                    });
                    copyQueries.add(where);
                    if (other.history() != null) {
                        histories.put(other.name(), other.history());
                    }
                }
                if (where != null) {
                    dependentQueries.add(where);
                }
            }
            if (other.parent() != null && other.parent().entity().equals(source.name())) {
                dependentQueries.add(id -> copier.partitionQuery(id, 1, false));
            }
        }
        CopiesModel whole = source.copies();
        if (whole != null && whole.targets() != null) {
            checkTargets(domain, source.name(), whole);
        }
        if (whole != null) {
            // Whole copies (aggregate members, embedded refs) are all on the source's ref index: ONE Query finds them.
            Function<String, QuerySpec> copiesOf = id -> QuerySpec.on(whole.index(), whole.partitionOf(id)).build();
            copyQueries.add(copiesOf);
            dependentQueries.add(copiesOf);
        }
        if (!copyQueries.isEmpty()) {
            var holders = aggregates.values().stream().map(DeclaredAggregate::aggregate).toList();
            cascades.put(source.name(), new CascadeSpec(source.name(), id -> sourceEntity.key(List.of(id)),
                    id -> copyQueries.stream().map(q -> q.apply(id)).toList(),
                    new CascadePlanner(rules, holders, whole == null || whole.targets() == null ? null
                            : new java.util.HashSet<>(whole.targets()), histories, aggregateHistories()),
                    sourceEntity.spec()::fieldsOf));
        }
        if (!dependentQueries.isEmpty()) {
            dependents.put(source.name(), id -> dependentQueries.stream().map(q -> q.apply(id)).toList());
        }
    }

    /** The aggregates that keep history: a cascade writes each from the aggregate as read, with a snapshot. */
    private Map<String, dev.cairn.core.cascade.CascadePlanner.AggregateHistory> aggregateHistories() {
        var out = new java.util.HashMap<String, dev.cairn.core.cascade.CascadePlanner.AggregateHistory>();
        aggregates.values().stream().filter(a -> a.model().history() != null).forEach(a -> out.put(a.aggregate().name(),
                new dev.cairn.core.cascade.CascadePlanner.AggregateHistory(a.model().history(), a.model().timestamps())));
        return out;
    }

    /**
     * A cascade's targets are item types that hold a whole copy of the source: a name that holds none (a misspelt
     * one) would silently leave every copy a snapshot.
     */
    private void checkTargets(DomainModel domain, String source, CopiesModel whole) {
        var holders = new LinkedHashSet<String>();
        aggregates.values().forEach(a -> collectHolders(a.model().root(), source, holders));
        entities.values().forEach(e -> e.model().refs().stream()
                .filter(r -> r.embed() != null && r.entity().equals(source)).findFirst()
                .ifPresent(r -> holders.add(e.name())));
        for (String target : whole.targets()) {
            if (!holders.contains(target)) {
                throw new ModelException(domain.file(), whole.line(), "entities." + source + ".copies.targets", "'"
                        + target + "' holds no copy of " + source + " (the item types that do: "
                        + (holders.isEmpty() ? "none" : String.join(", ", holders)) + ")");
            }
        }
    }

    /** The item types under a node that hold a whole copy of an entity: an inline ref's holder, a copy member. */
    private static void collectHolders(AggregateModel.Node node, String entity, Set<String> out) {
        for (AggregateModel.Child child : node.children()) {
            if (child.kind() == AggregateModel.Kind.REF && child.entity().equals(entity)) {
                out.add(node.type());
            } else if (child.kind() == AggregateModel.Kind.COPY && child.entity().equals(entity)) {
                out.add(child.node().type());
            } else if (child.node() != null) {
                collectHolders(child.node(), entity, out);
            }
        }
    }

    /**
     * Where the items that refer to a source are found by the source's id: an edge's own partition (its from end)
     * or its inverse index (its to end); a ref's index. A ref with copies and no way to find them is refused.
     */
    private static Function<String, QuerySpec> whereRefsAre(DomainModel domain, EntityModel other, RefModel ref,
                                                            DeclaredEntity copier) {
        if (other.identity().get(0).equals(ref.field()) && other.pk().fieldNames().equals(List.of(ref.field()))) {
            return id -> copier.partitionQuery(id, CASCADE_PAGE, false);
        }
        var index = other.indexBy(ref.field());
        if (index.isPresent()) {
            return id -> copier.indexQuery(index.get(), id, CASCADE_PAGE, false);
        }
        if (!ref.copies().isEmpty()) {
            throw new ModelException(domain.file(), ref.line(), other.name() + "." + ref.field(),
                    "copies of " + ref.entity() + " must be findable for its cascade: give " + other.name()
                            + " an index whose pk is {" + ref.field() + "}");
        }
        return null;
    }
}
