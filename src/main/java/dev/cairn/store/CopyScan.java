package dev.cairn.store;

import dev.cairn.core.aggregate.CopyVersions;
import dev.cairn.store.EntityStore.RawPage;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

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
    public Uni<RawPage> page(Map<String, AttributeValue> start, int limit) {
        return Uni.createFrom().deferred(() -> gateway.scan(ScanRequest.builder()
                        .tableName(store.table()).limit(limit).consistentRead(false)
                        .filterExpression("attribute_exists(#refv)")
                        .expressionAttributeNames(Map.of("#refv", CopyVersions.ATTRIBUTE))
                        .exclusiveStartKey(start).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build())
                .map(r -> new RawPage(r.items(), r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty()
                        ? r.lastEvaluatedKey() : null)));
    }
}
