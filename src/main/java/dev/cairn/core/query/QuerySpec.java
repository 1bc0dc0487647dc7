package dev.cairn.core.query;

import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.TableSpec;
import dev.cairn.core.expr.Condition;
import dev.cairn.core.expr.Placeholders;
import dev.cairn.core.expr.SortCondition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One Query: partition value, optional sort-key condition, direction, page size, consistency, filter and
 * projection, on the table or one GSI — or, with {@code natural}, on an index keyed on the items' own attributes
 * (then {@code index}, {@code partition} and {@code sort} are null: the condition holds them). {@link #toRequest} is the
 * exact request sent; {@link #binding} names the query a cursor belongs to, so a cursor cannot be replayed against
 * another partition or condition.
 */
public record QuerySpec(Index index, String partition, SortCondition sort, boolean descending, Integer limit,
                        boolean consistent, Condition filter, List<String> projection, NaturalKeyCondition natural) {

    public QuerySpec {
        projection = projection == null ? List.of() : List.copyOf(projection);
        if (consistent && (natural != null || index != Index.TABLE)) {
            throw new IllegalArgumentException("global secondary indexes only support eventually consistent reads");
        }
    }

    /** A Query of an index keyed on the items' own attributes. */
    public static Builder on(NaturalKeyCondition condition) {
        var builder = new Builder(null, null);
        builder.natural = condition;
        return builder;
    }

    public static Builder on(Index index, String partition) {
        return new Builder(index, partition);
    }

    public static Builder table(String partition) {
        return new Builder(Index.TABLE, partition);
    }

    /** The same query with {@code extra} as its filter too (ANDed to one it has); the filter is bound into its cursors. */
    public QuerySpec filtered(Condition extra) {
        return new QuerySpec(index, partition, sort, descending, limit, consistent,
                filter == null ? extra : filter.and(extra), projection, natural);
    }

    public QuerySpec withLimit(Integer newLimit) {
        return new QuerySpec(index, partition, sort, descending, newLimit, consistent, filter, projection, natural);
    }

    /**
     * The same query asking for one item more than a page holds, so that a page that ends exactly at the last item
     * is known to be the last one (no cursor to an empty page). Unchanged without a limit, or when a projection may
     * leave out the keys a cursor is made of.
     */
    public QuerySpec lookingAhead() {
        return limit == null || !projection.isEmpty() ? this : withLimit(limit + 1);
    }

    /** One page of this query's answer: at most {@code limit} items, and where the next page starts (null at the end). */
    public record PageOf(List<Map<String, AttributeValue>> items, Map<String, AttributeValue> next) {
    }

    /**
     * Cuts what {@link #lookingAhead} returned to a page: with an item beyond the limit, the page ends at the limit
     * and the next one starts after its last item; otherwise DynamoDB's own LastEvaluatedKey (set only when it
     * stopped at 1 MB, or a filter left items out) says whether there is more.
     */
    public PageOf cut(List<Map<String, AttributeValue>> items, Map<String, AttributeValue> lastEvaluatedKey) {
        if (limit == null || items.size() <= limit) {
            return new PageOf(items, lastEvaluatedKey == null || lastEvaluatedKey.isEmpty() ? null : lastEvaluatedKey);
        }
        List<Map<String, AttributeValue>> kept = items.subList(0, limit);
        Map<String, AttributeValue> last = kept.get(limit - 1);
        if (natural == null) {
            return new PageOf(kept, startKeyOf(last, index));
        }
        var key = startKeyOf(last, Index.TABLE);
        natural.addKeyOf(last, key);
        return new PageOf(kept, key);
    }

    /** The ExclusiveStartKey that continues after an item on this index: the table key, plus the index key on a GSI. */
    public static Map<String, AttributeValue> startKeyOf(Map<String, AttributeValue> item, Index index) {
        var key = new LinkedHashMap<String, AttributeValue>();
        key.put(TableSpec.PK, item.get(TableSpec.PK));
        key.put(TableSpec.SK, item.get(TableSpec.SK));
        if (index != Index.TABLE) {
            key.put(index.pkName(), item.get(index.pkName()));
            key.put(index.skName(), item.get(index.skName()));
        }
        return key;
    }

    /**
     * The request sent: rendered once per shape (everything but the partition's value and the start key) and then only
     * filled in. Most routes send a few shapes on every request; some carry an id or a caller's values in their sort
     * condition or filter (version listings, a nested parent's children, a tenant's workspaces), one shape each. So
     * the cache is bounded twice: only small shapes are kept (a tenant filter of hundreds of workspaces renders anew),
     * and when full it starts again, so callers' shapes can neither grow it nor keep a route's own shapes out for long.
     */
    public QueryRequest toRequest(String table, Map<String, AttributeValue> exclusiveStartKey) {
        if (natural != null) {
            return render(table, exclusiveStartKey);
        }
        var shape = new Shape(table, new QuerySpec(index, null, sort, descending, limit, consistent, filter, projection, null));
        QueryRequest template = SHAPES.get(shape);
        if (template == null) {
            template = render(table, null);
            if (!small(template)) {
                // rendered with this request's partition already: only its start key is missing
                return exclusiveStartKey == null ? template : template.toBuilder().exclusiveStartKey(exclusiveStartKey).build();
            }
            if (SHAPES.size() >= MAX_SHAPES) {
                SHAPES.clear();
            }
            SHAPES.putIfAbsent(shape, template);
        }
        // the partition's value is the first value rendered (see render): the only one that differs
        var values = new LinkedHashMap<>(template.expressionAttributeValues());
        values.put(PARTITION_VALUE, AttributeValue.fromS(partition));
        return template.toBuilder().expressionAttributeValues(values).exclusiveStartKey(exclusiveStartKey).build();
    }

    /** Whether this query's shape is kept: small enough that a full cache holds a few megabytes at most. */
    boolean cached(String table) {
        return natural == null && SHAPES.containsKey(new Shape(table,
                new QuerySpec(index, null, sort, descending, limit, consistent, filter, projection, null)));
    }

    /** Whether a rendered shape is small: a few values, and its expressions and values within a kilobyte of characters. */
    private static boolean small(QueryRequest template) {
        if (template.expressionAttributeValues().size() > MAX_SHAPE_VALUES) {
            return false;
        }
        long chars = template.keyConditionExpression().length()
                + (template.filterExpression() == null ? 0 : template.filterExpression().length());
        for (AttributeValue value : template.expressionAttributeValues().values()) {
            if (value.s() != null) {
                chars += value.s().length();
            } else if (value.n() != null) {
                chars += value.n().length();
            } else if (value.bool() != null || value.nul() != null) {
                chars += 8;
            } else {
                return false; // a set, list, map or binary: not a shape worth sizing
            }
        }
        return chars <= MAX_SHAPE_CHARS;
    }

    private static final String PARTITION_VALUE = ":v0";
    private static final int MAX_SHAPES = 1024;
    private static final int MAX_SHAPE_VALUES = 16;
    private static final int MAX_SHAPE_CHARS = 1024;
    private static final Map<Shape, QueryRequest> SHAPES = new java.util.concurrent.ConcurrentHashMap<>();

    private record Shape(String table, QuerySpec spec) {
    }

    /** The request rendered anew (the template cache's source, and its test's reference). */
    QueryRequest render(String table, Map<String, AttributeValue> exclusiveStartKey) {
        var p = new Placeholders();
        String keyCondition = natural != null ? natural.render(p)
                : p.name(index.pkName()) + " = " + p.value(AttributeValue.fromS(partition))
                + (sort == null ? "" : " AND " + sort.render(index.skName(), p));
        String filterText = filter == null ? null : filter.render(p);
        String projectionText = projection.isEmpty() ? null
                : String.join(", ", projection.stream().map(p::name).toList());
        return QueryRequest.builder()
                .tableName(table)
                .indexName(natural != null ? natural.index().name() : index.indexName())
                .keyConditionExpression(keyCondition)
                .filterExpression(filterText)
                .projectionExpression(projectionText)
                .expressionAttributeNames(p.names())
                .expressionAttributeValues(p.values())
                .scanIndexForward(!descending)
                .limit(limit)
                .consistentRead(index == Index.TABLE && natural == null ? consistent : null)
                .exclusiveStartKey(exclusiveStartKey)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /**
     * A stable description of what this query selects (not its page size), bound into its cursors: the same text in
     * every process (both maps sorted), so a cursor one replica sealed opens on any other.
     */
    public String binding() {
        QueryRequest r = toRequest("-", null);
        return (natural != null ? natural.index().name() : index) + "|" + r.keyConditionExpression() + "|" + r.filterExpression() + "|" + descending + "|"
                + new TreeMap<>(r.expressionAttributeNames()) + "|" + new TreeMap<>(r.expressionAttributeValues());
    }

    public static final class Builder {
        private final Index index;
        private final String partition;
        private SortCondition sort;
        private boolean descending;
        private Integer limit;
        private boolean consistent;
        private Condition filter;
        private List<String> projection = List.of();
        private NaturalKeyCondition natural;

        private Builder(Index index, String partition) {
            this.index = index;
            this.partition = partition;
        }

        public Builder sort(SortCondition sort) {
            this.sort = sort;
            return this;
        }

        public Builder descending() {
            this.descending = true;
            return this;
        }

        public Builder limit(Integer limit) {
            this.limit = limit;
            return this;
        }

        /** Strongly consistent (table only). */
        public Builder consistent() {
            this.consistent = true;
            return this;
        }

        public Builder filter(Condition filter) {
            this.filter = filter;
            return this;
        }

        public Builder project(String... names) {
            this.projection = List.of(names);
            return this;
        }

        public QuerySpec build() {
            return new QuerySpec(index, partition, sort, descending, limit, consistent, filter, projection, natural);
        }
    }
}
