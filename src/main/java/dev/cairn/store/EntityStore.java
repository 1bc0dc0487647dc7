package dev.cairn.store;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.TableSpec;
import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.entity.ItemCollection;
import dev.cairn.core.entity.Stored;
import dev.cairn.core.expr.Update;
import dev.cairn.core.expr.builder.BuiltRequest;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.query.CursorCodec;
import dev.cairn.core.query.FanOut;
import dev.cairn.core.query.Page;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.core.write.TransactionPlan;
import dev.cairn.core.write.WriteAction.Expectation;
import dev.cairn.core.write.WriteAction;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * Entity operations, queries, batches and transactions over the single table, executing the plans of
 * {@code dev.cairn.core} through the {@link DynamoGateway}. Every write carries the condition its plan needs.
 */
@ApplicationScoped
public class EntityStore {

    static final int BATCH_GET_CHUNK = 100;
    static final int BATCH_WRITE_CHUNK = 25;

    private final DynamoGateway gateway;
    private final StoreSettings settings;
    private final CursorCodec cursors;
    private final Clock clock;

    public EntityStore(DynamoGateway gateway, StoreSettings settings) {
        this.gateway = gateway;
        this.settings = settings;
        this.cursors = new CursorCodec(settings.cursorSecret(), settings.previousCursorSecrets());
        this.clock = gateway.clock();
    }

    public StoreSettings settings() {
        return settings;
    }

    public String table() {
        return settings.table();
    }

    /** Waits without blocking and resumes on the caller's Vert.x context (a request stays on its event loop). */
    public Uni<Void> pause(Duration delay) {
        return gateway.pause(delay);
    }

    public Instant now() {
        return clock.instant();
    }

    // --- single items ---------------------------------------------------------------------------------------

    /** The item, or null when absent (strongly consistent when asked). */
    public <T> Uni<Stored<T>> get(EntitySpec<T> spec, PrimaryKey key, boolean consistent) {
        var request = GetItemRequest.builder().tableName(settings.table()).key(key.toAttributes())
                .consistentRead(consistent).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build();
        return gateway.getItem(request)
                .map(r -> r.hasItem() && !r.item().isEmpty() ? spec.fromItem(r.item()) : null);
    }

    /** The raw item (system attributes included), or null when absent. */
    public Uni<Map<String, AttributeValue>> getItem(PrimaryKey key, boolean consistent) {
        var request = GetItemRequest.builder().tableName(settings.table()).key(key.toAttributes())
                .consistentRead(consistent).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build();
        return gateway.getItem(request).map(r -> r.hasItem() && !r.item().isEmpty() ? r.item() : null);
    }

    /** Planning errors (bad keys, oversized items, tampered cursors) surface as failures of the Uni, never as throws. */
    private static <T> Uni<T> deferred(Supplier<Uni<? extends T>> plan) {
        return Uni.createFrom().deferred(plan);
    }

    /** Creates the item; Conflict when one with the same key exists. */
    public <T> Uni<Stored<T>> create(EntitySpec<T> spec, T value) {
        return create(spec, value, Map.of());
    }

    /** Creates the item with extra system attributes (e.g. the versions of embedded copies). */
    public <T> Uni<Stored<T>> create(EntitySpec<T> spec, T value, Map<String, AttributeValue> extra) {
        return deferred(() -> {
            Instant now = now();
            WriteAction action = WriteAction.create(spec, value, now, extra);
            return gateway.putItem(action.toPutRequest(settings.table()), e -> SdkErrors.translate(e, action))
                    .map(r -> new Stored<>(spec.asStored(value), action.key(), 1, now, now));
        });
    }

    /**
     * Creates the item with extra system attributes, in ONE transaction with the source guards of the copies it
     * embeds ({@link WriteAction#copiedSource}); without guards it is the one PutItem of {@link #create}.
     */
    public <T> Uni<Stored<T>> create(EntitySpec<T> spec, T value, Map<String, AttributeValue> extra,
                                     List<WriteAction> sourceGuards) {
        if (sourceGuards.isEmpty()) {
            return create(spec, value, extra);
        }
        return deferred(() -> {
            Instant now = now();
            WriteAction action = WriteAction.create(spec, value, now, extra);
            return transact(TransactionPlan.of(concat(List.of(action), sourceGuards)))
                    .map(done -> new Stored<>(spec.asStored(value), action.key(), 1, now, now));
        });
    }

    /**
     * Replaces {@code current} with {@code value} at its version, in ONE transaction with the source guards of the
     * copies it takes fresh; without guards it is the one UpdateItem of {@link #put}.
     */
    public <T> Uni<Stored<T>> replace(EntitySpec<T> spec, T value, Stored<T> current, Map<String, AttributeValue> extra,
                                      List<WriteAction> sourceGuards) {
        if (sourceGuards.isEmpty()) {
            return put(spec, value, current.version(), extra);
        }
        return deferred(() -> {
            Instant now = now();
            WriteAction action = WriteAction.put(spec, value, Expectation.present(current.version()), now, extra);
            return transact(TransactionPlan.of(concat(List.of(action), sourceGuards)))
                    .map(done -> new Stored<>(spec.asStored(value), action.key(), current.version() + 1, current.createdAt(), now));
        });
    }

    /**
     * Writes the whole value. With an expected version it replaces an existing item only at that version
     * (NotFound / VersionConflict otherwise); without one it is an upsert.
     */
    public <T> Uni<Stored<T>> put(EntitySpec<T> spec, T value, Long expectedVersion) {
        return put(spec, value, expectedVersion, Map.of());
    }

    public <T> Uni<Stored<T>> put(EntitySpec<T> spec, T value, Long expectedVersion, Map<String, AttributeValue> extra) {
        return deferred(() -> {
            WriteAction action = WriteAction.put(spec, value, Expectation.ifVersion(expectedVersion), now(), extra);
            return gateway.updateItem(action.toUpdateRequest(settings.table()), e -> SdkErrors.translate(e, action))
                    .map(r -> spec.fromItem(r.attributes()));
        });
    }

    /** Updates the given attributes of an existing item (NotFound if missing: never creates a partial item). */
    public <T> Uni<Stored<T>> update(EntitySpec<T> spec, PrimaryKey key, Update update, Long expectedVersion) {
        return deferred(() -> {
            Instant now = now();
            WriteAction update1 = WriteAction.update(spec.type(), key, update, expectedVersion, now);
            WriteAction action = update1.guardedBy(WriteAction.live(spec, update1.expectation(), now), null);
            return gateway.updateItem(action.toUpdateRequest(settings.table()), e -> SdkErrors.translate(e, action))
                    .map(r -> spec.fromItem(r.attributes()));
        });
    }

    /**
     * Deletes the item. {@code mustExist} makes an absent item a NotFound; an expected version (the client's
     * If-Match) makes a different stored version a 412 VersionConflict. Answers whether an item was deleted.
     */
    public Uni<Boolean> delete(EntitySpec<?> spec, PrimaryKey key, boolean mustExist, Long expectedVersion) {
        return delete(spec, key, mustExist, expectedVersion, spec.type());
    }

    /** As above; {@code what} names the item in failures as the API does ("team t1"). */
    public Uni<Boolean> delete(EntitySpec<?> spec, PrimaryKey key, boolean mustExist, Long expectedVersion, String what) {
        Expectation expectation = mustExist || expectedVersion != null
                ? Expectation.ifMatch(expectedVersion) : Expectation.NONE;
        WriteAction action = WriteAction.delete(what, key, WriteAction.live(spec, expectation, now()));
        return gateway.deleteItem(action.toDeleteRequest(settings.table()), e -> SdkErrors.translate(e, action))
                .map(r -> r.hasAttributes() && !r.attributes().isEmpty());
    }

    // --- queries --------------------------------------------------------------------------------------------

    /** One page: exactly one Query call. The cursor is verified against this query before use. */
    public Uni<Page<Map<String, AttributeValue>>> page(QuerySpec query, String cursor) {
        return page(query, cursor, query);
    }

    /**
     * One page whose next-page cursor belongs to {@code continuation}: a first page read together with its
     * parent (e.g. a workspace and its newest projects) continues as the plain child listing.
     */
    public Uni<Page<Map<String, AttributeValue>>> page(QuerySpec query, String cursor, QuerySpec continuation) {
        return deferred(() -> {
            // A first page has no cursor: the query's binding is made only to open one.
            Map<String, AttributeValue> start = cursor == null ? null : cursors.decode(query.binding(), cursor);
            return gateway.query(query.lookingAhead().toRequest(settings.table(), start)).map(r -> {
                QuerySpec.PageOf page = query.cut(r.items(), hasMore(r) ? r.lastEvaluatedKey() : null);
                return new Page<>(page.items(), page.next() == null ? null : cursors.encode(continuation.binding(), page.next()));
            });
        });
    }

    /** A cursor that continues {@code query} after {@code startKey} (a position a page was cut at by the caller). */
    public String cursor(QuerySpec query, Map<String, AttributeValue> startKey) {
        return cursors.encode(query.binding(), startKey);
    }

    public <T> Uni<Page<Stored<T>>> page(EntitySpec<T> spec, QuerySpec query, String cursor) {
        return page(query, cursor).map(p -> p.map(spec::fromItem));
    }

    // --- fan-out reads over write shards -------------------------------------------------------------------

    /**
     * One merged page of a sharded listing: the shards that are not exhausted are read in parallel (1 Query each)
     * and merged in sort order. {@code listing} builds the listing for a shard count: {@code shards} for a first
     * page, the count signed into the cursor for the next ones.
     */
    public Uni<Page<Map<String, AttributeValue>>> fanOutPage(IntFunction<FanOut> listing, int shards,
                                                             String cursor) {
        return deferred(() -> {
            FanOut fanOut;
            List<FanOut.Position> positions;
            if (cursor == null) {
                fanOut = listing.apply(shards);
                positions = fanOut.positions(null);
            } else {
                Map<String, AttributeValue> state = cursors.decode(listing.apply(1).binding(), cursor);
                try {
                    fanOut = listing.apply(FanOut.shardCount(state));
                    positions = fanOut.positions(state);
                } catch (IllegalArgumentException e) {
                    throw new CairnException(new CairnError.InvalidCursor(
                            "the cursor is malformed, was altered, or belongs to another query"));
                }
            }
            return readShards(fanOut, positions, Map.of()).map(pages -> mergedPage(fanOut, positions, pages));
        });
    }

    /**
     * Reads the shards of a fan-out that still have items, in parallel, each from its position; {@code replacing}
     * swaps a shard's query (a first page that also reads the parent item next to the shard's children).
     */
    public Uni<List<FanOut.ShardPage>> readShards(FanOut listing, List<FanOut.Position> positions,
                                                  Map<Integer, QuerySpec> replacing) {
        var reads = new ArrayList<Uni<FanOut.ShardPage>>();
        for (int i = 0; i < listing.shards().size(); i++) {
            FanOut.Position position = positions.get(i);
            if (position.done()) {
                continue;
            }
            int shard = i;
            QuerySpec query = replacing.getOrDefault(shard, listing.shards().get(shard));
            reads.add(gateway.query(query.lookingAhead().toRequest(settings.table(), position.startKey()))
                    .map(r -> new FanOut.ShardPage(shard, r.items(), hasMore(r) ? r.lastEvaluatedKey() : null)));
        }
        if (reads.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Uni.join().all(reads).andFailFast();
    }

    /** The merged page of shard answers, with its signed cursor. */
    public Page<Map<String, AttributeValue>> mergedPage(FanOut listing, List<FanOut.Position> positions,
                                                       List<FanOut.ShardPage> pages) {
        FanOut.Merged merged = listing.merge(positions, pages);
        return new Page<>(merged.items(), merged.next() == null ? null : cursors.encode(listing.binding(), merged.next()));
    }

    /**
     * Every item the query selects, as one list: one Query per page (more than one only past 1 MB or the limit),
     * chained only while DynamoDB says there is more, so the common one-page read is a single Uni.
     */
    public Uni<List<Map<String, AttributeValue>>> queryAll(QuerySpec query) {
        return queryAllPages(query).map(AllPages::items);
    }

    /** Every item the query selects, and how many pages (Queries) that took. */
    public record AllPages(List<Map<String, AttributeValue>> items, int pages) {
    }

    public Uni<AllPages> queryAllPages(QuerySpec query) {
        return queryAllPages(query, null);
    }

    /** Every item the query selects after {@code start} (an ExclusiveStartKey; null from the start). */
    public Uni<AllPages> queryAllPages(QuerySpec query, Map<String, AttributeValue> start) {
        return deferred(() -> nextPages(query, start, null, 1, false));
    }

    /**
     * Every item the query selects, those past their expiry too: only for undoing an interrupted write (see
     * {@link DynamoGateway#queryIncludingExpired}).
     */
    public Uni<List<Map<String, AttributeValue>>> queryAllIncludingExpired(QuerySpec query) {
        return deferred(() -> nextPages(query, null, null, 1, true)).map(AllPages::items);
    }

    private Uni<AllPages> nextPages(QuerySpec query, Map<String, AttributeValue> start,
                                    List<Map<String, AttributeValue>> sofar, int page, boolean expiredToo) {
        var request = query.toRequest(settings.table(), start);
        return (expiredToo ? gateway.queryIncludingExpired(request) : gateway.query(request)).chain(r -> {
            if (sofar == null && !hasMore(r)) {
                return Uni.createFrom().item(new AllPages(r.items(), 1));
            }
            List<Map<String, AttributeValue>> items = sofar == null ? new ArrayList<>() : sofar;
            items.addAll(r.items());
            return hasMore(r) ? nextPages(query, r.lastEvaluatedKey(), items, page + 1, expiredToo)
                    : Uni.createFrom().item(new AllPages(items, page));
        });
    }

    /** One page of a query from a raw position (a job's checkpoint): the items and where the next page starts, or null. */
    public record RawPage(List<Map<String, AttributeValue>> items, Map<String, AttributeValue> lastKey) {
    }

    public Uni<RawPage> rawPage(QuerySpec query, Map<String, AttributeValue> start) {
        return deferred(() -> gateway.query(query.toRequest(settings.table(), start))
                .map(r -> new RawPage(r.items(), hasMore(r) ? r.lastEvaluatedKey() : null)));
    }

    /** One partition's items decoded by discriminator (e.g. a workspace and its projects). */
    public Uni<ItemCollection> collection(QuerySpec query, List<EntitySpec<?>> specs) {
        return queryAll(query).map(items -> ItemCollection.decode(items, specs));
    }

    private static boolean hasMore(QueryResponse response) {
        return response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty();
    }

    /**
     * One page of a Scan for the items of one type at one sort key (any, when null), read consistently, from a raw position: for a
     * one-off backfill of items that no index finds yet (a job checkpoints the position). No request path scans.
     */
    public Uni<RawPage> scanPage(String entityType, String sortKey, int limit, Map<String, AttributeValue> start) {
        // a null sort key: every item of the type, whatever its sort key (a child's carries its id)
        return deferred(() -> gateway.scan(ScanRequest.builder()
                        .tableName(settings.table()).limit(limit).consistentRead(true)
                        .filterExpression(sortKey == null ? "#type = :type" : "#type = :type AND #sk = :sk")
                        .expressionAttributeNames(sortKey == null ? Map.of("#type", TableSpec.TYPE)
                                : Map.of("#type", TableSpec.TYPE, "#sk", TableSpec.SK))
                        .expressionAttributeValues(sortKey == null ? Map.of(":type", AttributeValue.fromS(entityType))
                                : Map.of(":type", AttributeValue.fromS(entityType), ":sk", AttributeValue.fromS(sortKey)))
                        .exclusiveStartKey(start).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build())
                .map(r -> new RawPage(r.items(), r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty() ? r.lastEvaluatedKey() : null)));
    }

    /** One page of a read the console's expression builder composed: its items, where the next page starts, its cost. */
    public record ReadPage(List<Map<String, AttributeValue>> items, String next, int scanned, Double capacity) {
    }

    /**
     * One page of a composed read: exactly ONE Query, Scan or GetItem, with the request's own limit. The cursor is
     * sealed with the read's binding, so it opens the next page of this read only. A write is never sent from here.
     */
    public Uni<ReadPage> read(BuiltRequest read, String cursor) {
        return deferred(() -> {
            Map<String, AttributeValue> start = cursor == null ? null : cursors.decode(read.binding(), cursor);
            return switch (read.operation()) {
                case QUERY -> gateway.query(read.toQuery(start)).map(r -> new ReadPage(r.items(),
                        hasMore(r) ? cursors.encode(read.binding(), r.lastEvaluatedKey()) : null, r.scannedCount(),
                        r.consumedCapacity() == null ? null : r.consumedCapacity().capacityUnits()));
                case SCAN -> gateway.scan(read.toScan(start)).map(r -> new ReadPage(r.items(),
                        r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty()
                                ? cursors.encode(read.binding(), r.lastEvaluatedKey()) : null, r.scannedCount(),
                        r.consumedCapacity() == null ? null : r.consumedCapacity().capacityUnits()));
                case GET_ITEM -> gateway.getItem(read.toGetItem()).map(r -> {
                    List<Map<String, AttributeValue>> items = r.hasItem() && !r.item().isEmpty() ? List.of(r.item()) : List.of();
                    return new ReadPage(items, null, items.size(),
                            r.consumedCapacity() == null ? null : r.consumedCapacity().capacityUnits());
                });
                case UPDATE_ITEM -> throw new IllegalArgumentException("a composed write is shown, never sent");
            };
        });
    }

    /** The table as DynamoDB describes it: keys, indexes and its (approximate, refreshed about every 6 h) counts. */
    public Uni<TableDescription> describeTable() {
        return deferred(() -> gateway.describeTable(DescribeTableRequest.builder().tableName(settings.table()).build()))
                .map(DescribeTableResponse::table);
    }

    /** Items by entity type among the first {@code max} items of the table, and how many were read. */
    public record TypeCounts(Map<String, Long> counts, long scanned, boolean complete) {
    }

    /**
     * Counts items by {@code _type}, reading only that attribute, page by page up to {@code max} items: a Scan, for
     * an admin's overview of a development-size table, never for a request path.
     */
    public Uni<TypeCounts> countTypes(int max) {
        return countTypes(max, null, new TreeMap<>(), 0);
    }

    private Uni<TypeCounts> countTypes(int max, Map<String, AttributeValue> start, Map<String, Long> counts, long scanned) {
        return deferred(() -> gateway.scan(ScanRequest.builder().tableName(settings.table())
                        .limit((int) Math.min(1000, max - scanned)).projectionExpression("#type")
                        .expressionAttributeNames(Map.of("#type", TableSpec.TYPE)).exclusiveStartKey(start)
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build()))
                .chain(page -> {
                    page.items().forEach(item -> counts.merge(item.containsKey(TableSpec.TYPE)
                            ? item.get(TableSpec.TYPE).s() : "(untyped)", 1L, Long::sum));
                    long read = scanned + page.items().size();
                    boolean more = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty();
                    if (!more || read >= max) {
                        return Uni.createFrom().item(new TypeCounts(counts, read, !more));
                    }
                    return countTypes(max, page.lastEvaluatedKey(), counts, read);
                });
    }

    /** Whether the table holds no item at all (one Scan of at most one item; for startup checks, not requests). */
    public Uni<Boolean> isEmpty() {
        return gateway.scan(ScanRequest.builder()
                        .tableName(settings.table()).limit(1).build())
                .map(r -> !r.hasItems() || r.items().isEmpty());
    }

    // --- batches --------------------------------------------------------------------------------------------

    /**
     * Reads many items: chunks of 100 in parallel (bounded), unprocessed keys retried with backoff and jitter.
     * The result lists the item of each requested key in request order, null where absent.
     */
    public Uni<List<Map<String, AttributeValue>>> batchGet(List<PrimaryKey> keys, boolean consistent) {
        if (keys.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        List<PrimaryKey> distinct = new ArrayList<>(new LinkedHashSet<>(keys));
        List<List<PrimaryKey>> chunks = chunk(distinct, BATCH_GET_CHUNK);
        return Multi.createFrom().iterable(chunks)
                .onItem().transformToUni(chunk -> fetchChunk(chunk.stream().map(PrimaryKey::toAttributes).toList(),
                        consistent, 1))
                .merge(settings.batchConcurrency())
                .collect().in(HashMap<PrimaryKey, Map<String, AttributeValue>>::new,
                        (found, items) -> items.forEach(item -> found.put(PrimaryKey.from(item), item)))
                .map(found -> keys.stream().map(found::get).toList());
    }

    private Uni<List<Map<String, AttributeValue>>> fetchChunk(List<Map<String, AttributeValue>> keys,
                                                              boolean consistent, int attempt) {
        var request = BatchGetItemRequest.builder()
                .requestItems(Map.of(settings.table(), KeysAndAttributes.builder().keys(keys).consistentRead(consistent).build()))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build();
        return gateway.batchGetItem(request).chain(response -> {
            List<Map<String, AttributeValue>> items = response.responses().getOrDefault(settings.table(), List.of());
            KeysAndAttributes left = response.hasUnprocessedKeys() ? response.unprocessedKeys().get(settings.table()) : null;
            if (left == null || left.keys().isEmpty()) {
                return Uni.createFrom().item(items);
            }
            return retryLater(attempt, left.keys().size(), "read")
                    .chain(() -> fetchChunk(left.keys(), consistent, attempt + 1))
                    .map(more -> concat(items, more));
        });
    }

    /** Puts many items without conditions (bulk loads): chunks of 25, unprocessed items retried with backoff. */
    public Uni<Void> batchPut(List<Map<String, AttributeValue>> items) {
        return batchWrite(items.stream().map(i -> WriteRequest.builder().putRequest(PutRequest.builder().item(i).build()).build()).toList());
    }

    public Uni<Void> batchDelete(List<PrimaryKey> keys) {
        return batchWrite(keys.stream().map(k -> WriteRequest.builder()
                .deleteRequest(DeleteRequest.builder().key(k.toAttributes()).build()).build()).toList());
    }

    private Uni<Void> batchWrite(List<WriteRequest> writes) {
        return Multi.createFrom().iterable(chunk(writes, BATCH_WRITE_CHUNK))
                .onItem().transformToUni(chunk -> writeChunk(chunk, 1))
                .merge(settings.batchConcurrency())
                .collect().last().replaceWithVoid();
    }

    private Uni<Void> writeChunk(List<WriteRequest> writes, int attempt) {
        var request = BatchWriteItemRequest.builder().requestItems(Map.of(settings.table(), writes))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build();
        return gateway.batchWriteItem(request).chain(response -> {
            List<WriteRequest> left = response.hasUnprocessedItems()
                    ? response.unprocessedItems().getOrDefault(settings.table(), List.of()) : List.of();
            if (left.isEmpty()) {
                return Uni.createFrom().voidItem();
            }
            return retryLater(attempt, left.size(), "written").chain(() -> writeChunk(left, attempt + 1));
        });
    }

    private Uni<Void> retryLater(int attempt, int left, String what) {
        if (attempt >= settings.batchMaxAttempts()) {
            return Uni.createFrom().failure(SdkErrors.unavailable(left + " item(s) could not be " + what
                    + " after " + attempt + " attempts (DynamoDB left them unprocessed); retry shortly", null));
        }
        long base = settings.batchBaseDelay().toMillis() << Math.min(attempt - 1, 10);
        long jittered = ThreadLocalRandom.current().nextLong(base / 2, base + 1);
        return gateway.pause(Duration.ofMillis(jittered));
    }

    // --- transactions ---------------------------------------------------------------------------------------

    /** Sends the plan as ONE TransactWriteItems; a cancellation names the action that failed. */
    public Uni<Void> transact(TransactionPlan plan) {
        return gateway.transactWriteItems(plan.toRequest(settings.table()), e -> SdkErrors.translate(e, plan.actions()))
                .replaceWithVoid();
    }

    /** As {@link #transact}, but a cancellation keeps every action's reason (TransactionCanceled). */
    public Uni<Void> transactDetailed(TransactionPlan plan) {
        return gateway.transactWriteItems(plan.toRequest(settings.table()), e -> SdkErrors.translateDetailed(e, plan.actions()))
                .replaceWithVoid();
    }

    /** One conditional UpdateItem sent alone, answering the item as written (ALL_NEW). */
    public Uni<Map<String, AttributeValue>> updated(WriteAction action) {
        return deferred(() -> gateway.updateItem(action.toUpdateRequest(settings.table()), e -> SdkErrors.translate(e, action))
                .map(r -> r.attributes()));
    }

    /** One conditional write sent alone (UpdateItem / PutItem / DeleteItem by the action's kind). */
    public Uni<Void> write(WriteAction action) {
        return deferred(() -> switch (action.kind()) {
            case PUT -> gateway.putItem(action.toPutRequest(settings.table()), e -> SdkErrors.translate(e, action)).replaceWithVoid();
            case UPDATE -> gateway.updateItem(action.toUpdateRequest(settings.table()), e -> SdkErrors.translate(e, action)).replaceWithVoid();
            case DELETE -> gateway.deleteItem(action.toDeleteRequest(settings.table()), e -> SdkErrors.translate(e, action)).replaceWithVoid();
            case CHECK -> throw new IllegalArgumentException("a condition check is only possible inside a transaction");
        });
    }

    // --- helpers --------------------------------------------------------------------------------------------

    static <E> List<List<E>> chunk(List<E> all, int size) {
        var chunks = new ArrayList<List<E>>();
        for (int i = 0; i < all.size(); i += size) {
            chunks.add(all.subList(i, Math.min(all.size(), i + size)));
        }
        return chunks;
    }

    private static <E> List<E> concat(List<E> a, List<E> b) {
        var all = new ArrayList<E>(a.size() + b.size());
        all.addAll(a);
        all.addAll(b);
        return all;
    }
}
