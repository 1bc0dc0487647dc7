package dev.cairn.core.cascade;

import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.query.QuerySpec;

import java.util.List;
import java.util.function.Function;

/**
 * Where the copies of one source entity are and how they are written: the source's key, the queries that find
 * every item embedding it (a ref index or a partition, never a Scan; read in order, page by page), and the
 * planner of the copy writes. A cascade job names only the entity; any replica finds its spec by that name.
 */
public record CascadeSpec(String entity, Function<String, PrimaryKey> sourceKey,
                          Function<String, List<QuerySpec>> copies, CascadePlanner planner) {
}
