package dev.cairn.core.cascade;

import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.query.QuerySpec;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Where the copies of one source entity are and how they are written: the source's key, the queries that find
 * every item embedding it (a ref index or a partition, never a Scan; read in order, page by page), the planner
 * of the copy writes, and the source's domain fields read from its stored item (what a copy holds, for a
 * reconcile that starts from the table rather than from a PATCH). A cascade job names only the entity; any
 * replica finds its spec by that name.
 */
public record CascadeSpec(String entity, Function<String, PrimaryKey> sourceKey,
                          Function<String, List<QuerySpec>> copies, CascadePlanner planner,
                          Function<Map<String, AttributeValue>, Map<String, AttributeValue>> fieldsOf) {

    /** The source as it is stored now: what its copies must hold, at its current version. */
    public CascadeSource sourceOf(String id, Map<String, AttributeValue> item) {
        return new CascadeSource(entity, id, EntitySpec.versionOf(item), fieldsOf.apply(item));
    }
}
