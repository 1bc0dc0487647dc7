package dev.cairn.core.model;

import dev.cairn.core.cascade.CascadePlanner;
import dev.cairn.core.cascade.CascadeSpec;
import dev.cairn.core.cascade.CopyRule;
import dev.cairn.core.query.QuerySpec;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
            for (EntityModel source : domain.entities().values()) {
                plan(domain, source);
            }
        }
    }

    public static DomainPlan of(List<DomainModel> domains) {
        return new DomainPlan(domains);
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
        for (EntityModel other : domain.entities().values()) {
            DeclaredEntity copier = entities.get(other.name());
            for (RefModel ref : other.refs()) {
                if (!ref.entity().equals(source.name())) {
                    continue;
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
                }
                if (where != null) {
                    dependentQueries.add(where);
                }
            }
            if (other.parent() != null && other.parent().entity().equals(source.name())) {
                dependentQueries.add(id -> copier.partitionQuery(id, 1, false));
            }
        }
        if (!copyQueries.isEmpty()) {
            cascades.put(source.name(), new CascadeSpec(source.name(), id -> sourceEntity.key(List.of(id)),
                    id -> copyQueries.stream().map(q -> q.apply(id)).toList(), new CascadePlanner(rules, List.of()),
                    sourceEntity.spec()::fieldsOf));
        }
        if (!dependentQueries.isEmpty()) {
            dependents.put(source.name(), id -> dependentQueries.stream().map(q -> q.apply(id)).toList());
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
        IndexModel index = other.index();
        if (index != null && index.pk().fieldNames().equals(List.of(ref.field()))) {
            return id -> copier.indexQuery(id, CASCADE_PAGE, false);
        }
        if (!ref.copies().isEmpty()) {
            throw new ModelException(domain.file(), ref.line(), other.name() + "." + ref.field(),
                    "copies of " + ref.entity() + " must be findable for its cascade: give " + other.name()
                            + " an index whose pk is {" + ref.field() + "}");
        }
        return null;
    }
}
