package dev.cairn.core.query;

import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.expr.Condition;
import dev.cairn.core.expr.Placeholders;
import dev.cairn.core.expr.SortCondition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

import java.util.List;
import java.util.Map;

/**
 * One Query: partition value, optional sort-key condition, direction, page size, consistency, filter and
 * projection, on the table or one GSI. {@link #toRequest} is the exact request sent; {@link #binding} names
 * the query a cursor belongs to, so a cursor cannot be replayed against another partition or condition.
 */
public record QuerySpec(Index index, String partition, SortCondition sort, boolean descending, Integer limit,
                        boolean consistent, Condition filter, List<String> projection) {

    public QuerySpec {
        projection = projection == null ? List.of() : List.copyOf(projection);
        if (consistent && index != Index.TABLE) {
            throw new IllegalArgumentException("global secondary indexes only support eventually consistent reads");
        }
    }

    public static Builder on(Index index, String partition) {
        return new Builder(index, partition);
    }

    public static Builder table(String partition) {
        return new Builder(Index.TABLE, partition);
    }

    public QuerySpec withLimit(Integer newLimit) {
        return new QuerySpec(index, partition, sort, descending, newLimit, consistent, filter, projection);
    }

    public QueryRequest toRequest(String table, Map<String, AttributeValue> exclusiveStartKey) {
        var p = new Placeholders();
        String keyCondition = p.name(index.pkName()) + " = " + p.value(AttributeValue.fromS(partition))
                + (sort == null ? "" : " AND " + sort.render(index.skName(), p));
        String filterText = filter == null ? null : filter.render(p);
        String projectionText = projection.isEmpty() ? null
                : String.join(", ", projection.stream().map(p::name).toList());
        return QueryRequest.builder()
                .tableName(table)
                .indexName(index.indexName())
                .keyConditionExpression(keyCondition)
                .filterExpression(filterText)
                .projectionExpression(projectionText)
                .expressionAttributeNames(p.names())
                .expressionAttributeValues(p.values())
                .scanIndexForward(!descending)
                .limit(limit)
                .consistentRead(index == Index.TABLE ? consistent : null)
                .exclusiveStartKey(exclusiveStartKey)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /** A stable description of what this query selects (not its page size), bound into its cursors. */
    public String binding() {
        QueryRequest r = toRequest("-", null);
        return index + "|" + r.keyConditionExpression() + "|" + r.filterExpression() + "|" + descending + "|"
                + r.expressionAttributeNames() + "|" + new java.util.TreeMap<>(r.expressionAttributeValues());
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
            return new QuerySpec(index, partition, sort, descending, limit, consistent, filter, projection);
        }
    }
}
