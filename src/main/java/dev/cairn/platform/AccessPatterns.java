package dev.cairn.platform;

import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.cascade.CascadeSpec;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.query.AccessPattern;

import java.util.List;
import java.util.Map;

/** A domain's access patterns, each with the exact request it sends (served at {@code GET /access-patterns}). */
public interface AccessPatterns {

    List<AccessPattern> accessPatterns(String table);

    /** Partitions the console opens by entity id, by kind: e.g. {@code match} → {@code MATCH#{id}}. */
    default Map<String, KeyTemplate> partitions() {
        return Map.of();
    }

    /** The cascades of this domain's referenced entities, by source entity (run as durable jobs by any replica). */
    default List<CascadeSpec> cascades() {
        return List.of();
    }

    /** Aggregates stored one per partition (the console groups their members by sub-aggregate). */
    default List<Aggregate> aggregates() {
        return List.of();
    }
}
