package dev.cairn.core.model;

import java.util.List;
import java.util.Map;

/** One model file: a domain's entities (edges among them), aggregate views and demo items. */
public record DomainModel(String file, String name, String description, Map<String, EntityModel> entities,
                          List<ViewModel> views, List<DemoItem> demo) {

    /** The same domain with other entity models (settings resolved). */
    public DomainModel withEntities(Map<String, EntityModel> replaced) {
        return new DomainModel(file, name, description, replaced, views, demo);
    }


    /** One demo item: an entity's field values, written into an empty table in dev mode. */
    public record DemoItem(String entity, Map<String, Object> values, int line) {
    }

    public DomainModel {
        entities = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(entities));
        views = List.copyOf(views);
        demo = List.copyOf(demo);
    }

    public EntityModel entity(String entityName) {
        return entities.get(entityName);
    }
}
