package dev.cairn.store;

import dev.cairn.core.aggregate.CopyVersions;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

import java.util.List;
import java.util.Map;

/**
 * The one Scan of a reconcile: the items that hold copies ({@code _refv}), one page at a time from a raw position
 * (the job checkpoints it). No index finds every copy of every source, so a whole-table reconcile reads the table;
 * no request path scans.
 */
@ApplicationScoped
public class CopyScan {

    private final EntityStore store;
    private final DynamoGateway gateway;

    public CopyScan(EntityStore store, DynamoGateway gateway) {
        this.store = store;
        this.gateway = gateway;
    }

    /**
     * One page: {@code limit} items read (the filter applies after the read, so a page costs what it reads, copies
     * or not), eventually consistent (half the cost of a strongly consistent Scan: a copy the page reads stale is
     * only written if its recorded version is still older, so a stale read costs nothing but a skipped write).
     */
    /** The items of one page that hold copies, how many items it read, and where the next page starts (null: none). */
    public record Page(List<Map<String, AttributeValue>> items, int scanned, Map<String, AttributeValue> lastKey) {
    }

    public Uni<Page> page(Map<String, AttributeValue> start, int limit) {
        return Uni.createFrom().deferred(() -> gateway.scan(ScanRequest.builder()
                        .tableName(store.table()).limit(limit).consistentRead(false)
                        .filterExpression("attribute_exists(#refv)")
                        .expressionAttributeNames(Map.of("#refv", CopyVersions.ATTRIBUTE))
                        .exclusiveStartKey(start).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build())
                .map(r -> new Page(r.items(), r.scannedCount() == null ? r.items().size() : r.scannedCount(),
                        r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty() ? r.lastEvaluatedKey() : null)));
    }
}
