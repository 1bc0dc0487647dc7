package dev.cairn.platform;

import dev.cairn.core.NaturalIndex;
import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.cascade.CascadeSpec;
import dev.cairn.core.expr.builder.AttributeType;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.query.AccessPattern;

import java.util.List;
import java.util.Map;
import java.util.Optional;

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

    /**
     * The tenant (workspace) a partition of this domain belongs to, if it belongs to one; shared domains own none.
     * The console hides partitions of tenants outside a scoped caller's workspaces by it.
     */
    default Optional<String> tenantOf(String partitionKey) {
        return Optional.empty();
    }

    /**
     * The attributes this domain's entities declare and their DynamoDB types, by entity: the expression builder types
     * a value compared with one of them by it.
     */
    default Map<String, Map<String, AttributeType>> attributeTypes() {
        return Map.of();
    }

    /** The table's indexes keyed on items' own attributes that this domain declares (provisioned with the table). */
    default List<NaturalIndex> naturalIndexes() {
        return List.of();
    }

    /** Aggregates stored one per partition (the console groups their members by sub-aggregate). */
    default List<Aggregate> aggregates() {
        return List.of();
    }
}
