package dev.cairn.core.aggregate;

import dev.cairn.core.TableSpec;
import dev.cairn.core.expr.SortCondition;
import dev.cairn.core.item.ItemSize;
import dev.cairn.core.query.QuerySpec;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * How a large aggregate's partition is read in parallel. Every write of an aggregate rewrites its root, so the root
 * can carry <em>fences</em>: sort keys that cut the partition, in DynamoDB's order, into ranges of at most
 * {@value #RANGE_ITEMS} items or {@value #RANGE_BYTES} bytes. A reader asks for the first
 * {@value #FIRST_PAGE_ITEMS} items (one Query holds every aggregate up to that size, the common case); when more
 * remain, the rest is read as one Query per range, all at once: {@code (last read, f1]}, {@code (f1, f2]}, …,
 * {@code (fn, end)} — disjoint and together everything after the first page whatever the fences say, so stale or
 * missing fences cost parallelism, never items. Pure: no I/O.
 */
public final class PartitionRanges {

    /** The root attribute holding the fences (a list of sort keys, ascending). */
    public static final String FENCES = "_fences";
    public static final int FIRST_PAGE_ITEMS = 512;
    static final int RANGE_ITEMS = 500;
    static final long RANGE_BYTES = 256 * 1024;

    private PartitionRanges() {
    }

    /** One range Query and the sort key it starts after (null: from the range's own lower bound). */
    public record Range(QuerySpec query, String startAfter) {
        /** The ExclusiveStartKey of the range's first page. */
        public Map<String, AttributeValue> startKey() {
            return startAfter == null ? null : Map.of(TableSpec.PK, AttributeValue.fromS(query.partition()),
                    TableSpec.SK, AttributeValue.fromS(startAfter));
        }
    }

    /** The fences of a partition's items: every {@value #RANGE_ITEMS} items or {@value #RANGE_BYTES} bytes, in key order. */
    static List<String> fencesOf(Collection<Map<String, AttributeValue>> items) {
        var sorted = new ArrayList<>(items);
        sorted.sort((a, b) -> compare(a.get(TableSpec.SK).s(), b.get(TableSpec.SK).s()));
        var fences = new ArrayList<String>();
        int count = 0;
        long bytes = 0;
        for (var item : sorted) {
            count++;
            bytes += ItemSize.of(item);
            if (count >= RANGE_ITEMS || bytes >= RANGE_BYTES) {
                fences.add(item.get(TableSpec.SK).s());
                count = 0;
                bytes = 0;
            }
        }
        return fences;
    }

    /** The fences a root carries (none for a small aggregate or a root written before fences existed). */
    public static List<String> fencesOf(Map<String, AttributeValue> root) {
        AttributeValue fences = root == null ? null : root.get(FENCES);
        if (fences == null || !fences.hasL()) {
            return List.of();
        }
        return fences.l().stream().map(AttributeValue::s).toList();
    }

    /**
     * The Queries that read everything after {@code lastRead} (the last sort key of the first page): one per
     * range the fences make there, each with the base query's consistency and projection.
     */
    public static List<Range> after(QuerySpec base, String lastRead, List<String> fences) {
        var ranges = new ArrayList<Range>();
        String low = lastRead;
        for (String fence : fences) {
            if (compare(fence, low) <= 0) {
                continue;
            }
            ranges.add(new Range(with(base, SortCondition.between(low, fence)), low));
            low = fence;
        }
        ranges.add(new Range(with(base, SortCondition.gt(low)), null));
        return ranges;
    }

    private static QuerySpec with(QuerySpec base, SortCondition sort) {
        return new QuerySpec(base.index(), base.partition(), sort, false, null, base.consistent(), base.filter(),
                base.projection(), null);
    }

    /** DynamoDB orders string keys by their UTF-8 bytes, which is code point order (not Java's UTF-16 order). */
    public static int compare(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
