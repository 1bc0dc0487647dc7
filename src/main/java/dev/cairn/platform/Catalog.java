package dev.cairn.platform;

import dev.cairn.core.NaturalIndex;
import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.cascade.CascadeSpec;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every domain's aggregates, cascades and natural indexes by name, collected from their {@link AccessPatterns} declarations, so a
 * job record that names an entity or an aggregate can be run by any replica.
 */
@ApplicationScoped
public class Catalog {

    private final Map<String, CascadeSpec> cascades = new LinkedHashMap<>();
    private final Map<String, Aggregate> aggregates = new LinkedHashMap<>();
    private final List<NaturalIndex> naturalIndexes = new ArrayList<>();

    public Catalog(Instance<AccessPatterns> domains) {
        for (AccessPatterns domain : domains) {
            domain.cascades().forEach(spec -> cascades.put(spec.entity(), spec));
            domain.aggregates().forEach(aggregate -> aggregates.put(aggregate.name(), aggregate));
            naturalIndexes.addAll(domain.naturalIndexes());
        }
    }

    /** Every domain's natural indexes: the table has them beside its overloaded ones. */
    public List<NaturalIndex> naturalIndexes() {
        return List.copyOf(naturalIndexes);
    }

    /** The cascade of a source entity type; null when no domain declares one. */
    public CascadeSpec cascade(String entity) {
        return cascades.get(entity);
    }

    /** Every declared cascade, by source entity type. */
    public Collection<CascadeSpec> cascades() {
        return cascades.values();
    }

    public Aggregate aggregate(String name) {
        return aggregates.get(name);
    }

    /** Whether the partition holds an aggregate (its members are written with a bump of its root). */
    public boolean holdsAggregate(String partitionKey) {
        return aggregates.values().stream().anyMatch(a -> a.holdsPartition(partitionKey));
    }
}
