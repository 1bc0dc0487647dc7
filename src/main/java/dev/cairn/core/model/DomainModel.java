package dev.cairn.core.model;

import java.util.List;
import java.util.Map;

/** One model file: a domain's entities (edges among them), aggregate views, demo items and aggregates. */
public record DomainModel(String file, String name, String description, Map<String, EntityModel> entities,
                          List<ViewModel> views, List<DemoItem> demo, List<AggregateModel> aggregates) {

    /** A domain without aggregates. */
    public DomainModel(String file, String name, String description, Map<String, EntityModel> entities,
                       List<ViewModel> views, List<DemoItem> demo) {
        this(file, name, description, entities, views, demo, List.of());
    }

    /** The same domain with other entity models (settings resolved). */
    public DomainModel withEntities(Map<String, EntityModel> replaced) {
        return new DomainModel(file, name, description, replaced, views, demo, aggregates);
    }


    /** One demo item: an entity's field values, written into an empty table in dev mode. */
    public record DemoItem(String entity, Map<String, Object> values, int line) {
    }

    public DomainModel {
        entities = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(entities));
        views = List.copyOf(views);
        demo = List.copyOf(demo);
        aggregates = List.copyOf(aggregates);
    }

    public EntityModel entity(String entityName) {
        return entities.get(entityName);
    }
}
