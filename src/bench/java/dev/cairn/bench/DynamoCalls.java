package dev.cairn.bench;

import dev.cairn.platform.EmbeddedDynamoDb;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchExecuteStatementRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.CreateTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeLimitsRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeLimitsResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeTimeToLiveRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTimeToLiveResponse;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementRequest;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.ExecuteTransactionRequest;
import software.amazon.awssdk.services.dynamodb.model.ExecuteTransactionResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorResponse;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsRequest;
import software.amazon.awssdk.services.dynamodb.model.ListStreamsResponse;
import software.amazon.awssdk.services.dynamodb.model.ListTablesRequest;
import software.amazon.awssdk.services.dynamodb.model.ListTablesResponse;
import software.amazon.awssdk.services.dynamodb.model.ListTagsOfResourceRequest;
import software.amazon.awssdk.services.dynamodb.model.ListTagsOfResourceResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TagResourceRequest;
import software.amazon.awssdk.services.dynamodb.model.TagResourceResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.UntagResourceRequest;
import software.amazon.awssdk.services.dynamodb.model.UntagResourceResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveResponse;
import software.amazon.dynamodb.services.local.server.AbstractLocalDynamoDBServerHandler;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;
import software.amazon.dynamodb.services.local.server.DynamoDBRequestHandler;

import java.lang.reflect.Field;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Every request DynamoDB Local (in this JVM) serves, as it reaches its engine: which operation, how many actions a
 * transaction holds, and the size of every item each write action touches, read before and after the write. It stands
 * between DynamoDB Local's HTTP handler and its engine (one delegating {@link DynamoDBRequestHandler}), so what it
 * records is what the app really sent, not what the app says it sent.
 *
 * <p>It records only while {@link #record} is on: then each write action's item is read (consistently, straight from
 * the engine) before and after the write, which slows DynamoDB Local down, so latencies are never measured while it
 * records. Off, a request costs one more virtual call and a volatile read.
 *
 * <p>Write units are billed by DynamoDB's published rules, not by DynamoDB Local's {@code ConsumedCapacity} (whose
 * transaction figures are not DynamoDB's): a write action costs one unit per KB (rounded up, at least one) of the
 * larger of the item's size before and after it, twice that inside a TransactWriteItems (ConditionChecks included);
 * an item's size is the sum of its attribute names' and values' sizes as DynamoDB defines them ({@link #size}).
 */
final class DynamoCalls extends DynamoDBRequestHandler {

    /** One write action: what it was, on which key, and its item's size before and after (0: no item). */
    record Action(String kind, String pk, String sk, long bytesBefore, long bytesAfter) {

        long bytes() {
            return Math.max(bytesBefore, bytesAfter);
        }

        /** DynamoDB's write units for this action: per KB (rounded up, at least 1), doubled in a transaction. */
        int writeUnits(boolean transactional) {
            int units = (int) Math.max(1, (bytes() + 1023) / 1024);
            return transactional ? 2 * units : units;
        }
    }

    /**
     * One request served.
     *
     * @param actions        the write actions (empty for a read)
     * @param localCapacity  the capacity DynamoDB Local answered (NaN when it answered none)
     * @param mentions       every string of its keys, items and expression values (to tell whose call it was)
     */
    record Call(String operation, List<Action> actions, double localCapacity, boolean failed, List<String> mentions) {

        boolean transactional() {
            return operation.equals("TransactWriteItems");
        }

        int writeUnits() {
            return actions.stream().mapToInt(a -> a.writeUnits(transactional())).sum();
        }

        boolean mentions(Predicate<String> test) {
            return mentions.stream().anyMatch(test);
        }
    }

    private final DynamoDBRequestHandler engine;
    private final List<Call> calls = new ArrayList<>();
    private volatile boolean record;

    private DynamoCalls(DynamoDBRequestHandler engine) {
        super(authority(engine));
        this.engine = engine;
    }

    /** Puts a recorder between the running DynamoDB Local's HTTP handler and its engine; off until {@link #record}. */
    static DynamoCalls install(EmbeddedDynamoDb dynamo) throws ReflectiveOperationException {
        DynamoDBProxyServer proxy = (DynamoDBProxyServer) field(EmbeddedDynamoDb.class, "proxy").get(dynamo);
        var handler = (AbstractLocalDynamoDBServerHandler) field(DynamoDBProxyServer.class, "serverHandler").get(proxy);
        // The HTTP handler reads this field on every request, so the swap takes effect on the next one.
        Field primary = field(AbstractLocalDynamoDBServerHandler.class, "primaryHandler");
        var engine = (DynamoDBRequestHandler) primary.get(handler);
        if (engine instanceof DynamoCalls installed) {
            return installed;
        }
        var calls = new DynamoCalls(engine);
        primary.set(handler, calls);
        return calls;
    }

    private static Field field(Class<?> type, String name) throws NoSuchFieldException {
        Field field = type.getDeclaredField(name);
        field.setAccessible(true);
        return field;
    }

    private static int authority(DynamoDBRequestHandler engine) {
        try {
            return (int) field(DynamoDBRequestHandler.class, "authorityLevel").get(engine);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("DynamoDB Local's request handler changed: " + e.getMessage(), e);
        }
    }

    /** Starts recording from empty. */
    synchronized void start() {
        calls.clear();
        record = true;
    }

    /** Stops recording and answers what was recorded since {@link #start}. */
    synchronized List<Call> stop() {
        record = false;
        return List.copyOf(calls);
    }

    private synchronized void add(Call call) {
        if (record) {
            calls.add(call);
        }
    }

    // --- the item sizes DynamoDB bills by --------------------------------------------------------------------------

    /**
     * An item's size as DynamoDB counts it for capacity: each attribute's name (UTF-8 bytes) plus its value — a string
     * its UTF-8 bytes, a number 1 byte per two significant digits plus 1, binary its bytes, a boolean or null 1 byte, a
     * set the sum of its members, a list or map 3 bytes plus 1 byte per element plus the elements (a map's names too).
     */
    static long size(Map<String, AttributeValue> item) {
        long bytes = 0;
        for (var attribute : item.entrySet()) {
            bytes += utf8(attribute.getKey()) + size(attribute.getValue());
        }
        return bytes;
    }

    static long size(AttributeValue value) {
        return switch (value.type()) {
            case S -> utf8(value.s());
            case N -> number(value.n());
            case B -> value.b().asByteArray().length;
            case BOOL, NUL -> 1;
            case SS -> value.ss().stream().mapToLong(DynamoCalls::utf8).sum();
            case NS -> value.ns().stream().mapToLong(DynamoCalls::number).sum();
            case BS -> value.bs().stream().mapToLong(b -> b.asByteArray().length).sum();
            case L -> 3 + value.l().stream().mapToLong(v -> 1 + size(v)).sum();
            case M -> 3 + value.m().entrySet().stream().mapToLong(e -> utf8(e.getKey()) + 1 + size(e.getValue())).sum();
            case UNKNOWN_TO_SDK_VERSION -> throw new IllegalArgumentException("an attribute value of no known type");
        };
    }

    private static long utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    static long number(String n) {
        String digits = new BigDecimal(n).unscaledValue().abs().toString().replaceAll("0+$", "");
        return (Math.max(1, digits.length()) + 1) / 2 + 1;
    }

    // --- what is recorded around each request ----------------------------------------------------------------------

    private long sizeAt(String accessKey, String region, String table, Map<String, AttributeValue> key) {
        GetItemResponse read = engine.getItem(accessKey, region, GetItemRequest.builder().tableName(table).key(key)
                .consistentRead(true).build());
        return read.hasItem() && !read.item().isEmpty() ? size(read.item()) : 0;
    }

    /** A write of {@code keys} (table, key, kind) answered by {@code write}, recorded with its items' sizes around it. */
    private <R> R write(String operation, String accessKey, String region, List<Target> targets, List<String> mentions,
                        Supplier<R> write, java.util.function.Function<R, Double> capacity) {
        if (!record) {
            return write.get();
        }
        var before = targets.stream().map(t -> sizeAt(accessKey, region, t.table(), t.key())).toList();
        R response;
        try {
            response = write.get();
        } catch (RuntimeException e) {
            add(new Call(operation, List.of(), Double.NaN, true, mentions));
            throw e;
        }
        var actions = new ArrayList<Action>();
        for (int i = 0; i < targets.size(); i++) {
            Target t = targets.get(i);
            actions.add(new Action(t.kind(), text(t.key().get("pk")), text(t.key().get("sk")), before.get(i),
                    sizeAt(accessKey, region, t.table(), t.key())));
        }
        Double units = capacity.apply(response);
        add(new Call(operation, actions, units == null ? Double.NaN : units, false, mentions));
        return response;
    }

    private <R> R read(String operation, List<String> mentions, Supplier<R> read, java.util.function.Function<R, Double> capacity) {
        if (!record) {
            return read.get();
        }
        try {
            R response = read.get();
            Double units = capacity.apply(response);
            add(new Call(operation, List.of(), units == null ? Double.NaN : units, false, mentions));
            return response;
        } catch (RuntimeException e) {
            add(new Call(operation, List.of(), Double.NaN, true, mentions));
            throw e;
        }
    }

    private record Target(String kind, String table, Map<String, AttributeValue> key) {
    }

    private static String text(AttributeValue value) {
        return value == null ? "" : value.s() != null ? value.s() : String.valueOf(value.n());
    }

    /** The table's key of an item (this table's key is pk and sk). */
    private static Map<String, AttributeValue> keyOf(Map<String, AttributeValue> item) {
        return Map.of("pk", item.get("pk"), "sk", item.get("sk"));
    }

    private static List<String> strings(Collection<Map<String, AttributeValue>> maps) {
        var out = new ArrayList<String>();
        for (Map<String, AttributeValue> map : maps) {
            if (map != null) {
                map.values().forEach(v -> collect(v, out));
            }
        }
        return out;
    }

    private static void collect(AttributeValue value, List<String> out) {
        if (value.s() != null) {
            out.add(value.s());
        } else if (value.hasM()) {
            value.m().values().forEach(v -> collect(v, out));
        } else if (value.hasL()) {
            value.l().forEach(v -> collect(v, out));
        }
    }

    private static Double units(ConsumedCapacity capacity) {
        return capacity == null ? null : capacity.capacityUnits();
    }

    private static Double units(List<ConsumedCapacity> capacities) {
        return capacities == null || capacities.isEmpty() ? null
                : capacities.stream().mapToDouble(c -> c.capacityUnits() == null ? 0 : c.capacityUnits()).sum();
    }

    // --- the engine's operations: the ones Cairn's writes and reads use are recorded, the rest pass through ---------

    @Override
    public TransactWriteItemsResponse transactWriteItems(String accessKey, String region, TransactWriteItemsRequest request) {
        if (!record) {
            return engine.transactWriteItems(accessKey, region, request);
        }
        var targets = new ArrayList<Target>();
        var maps = new ArrayList<Map<String, AttributeValue>>();
        for (TransactWriteItem item : request.transactItems()) {
            if (item.put() != null) {
                targets.add(new Target("Put", item.put().tableName(), keyOf(item.put().item())));
                maps.add(item.put().item());
                maps.add(item.put().expressionAttributeValues());
            } else if (item.update() != null) {
                targets.add(new Target("Update", item.update().tableName(), item.update().key()));
                maps.add(item.update().key());
                maps.add(item.update().expressionAttributeValues());
            } else if (item.delete() != null) {
                targets.add(new Target("Delete", item.delete().tableName(), item.delete().key()));
                maps.add(item.delete().key());
                maps.add(item.delete().expressionAttributeValues());
            } else if (item.conditionCheck() != null) {
                targets.add(new Target("ConditionCheck", item.conditionCheck().tableName(), item.conditionCheck().key()));
                maps.add(item.conditionCheck().key());
                maps.add(item.conditionCheck().expressionAttributeValues());
            }
        }
        return write("TransactWriteItems", accessKey, region, targets, strings(maps),
                () -> engine.transactWriteItems(accessKey, region, request), r -> units(r.consumedCapacity()));
    }

    @Override
    public PutItemResponse putItem(String accessKey, String region, PutItemRequest request) {
        if (!record) {
            return engine.putItem(accessKey, region, request);
        }
        return write("PutItem", accessKey, region, List.of(new Target("Put", request.tableName(), keyOf(request.item()))),
                strings(List.of(request.item(), request.expressionAttributeValues())),
                () -> engine.putItem(accessKey, region, request), r -> units(r.consumedCapacity()));
    }

    @Override
    public UpdateItemResponse updateItem(String accessKey, String region, UpdateItemRequest request) {
        if (!record) {
            return engine.updateItem(accessKey, region, request);
        }
        return write("UpdateItem", accessKey, region, List.of(new Target("Update", request.tableName(), request.key())),
                strings(List.of(request.key(), request.expressionAttributeValues())),
                () -> engine.updateItem(accessKey, region, request), r -> units(r.consumedCapacity()));
    }

    @Override
    public DeleteItemResponse deleteItem(String accessKey, String region, DeleteItemRequest request) {
        if (!record) {
            return engine.deleteItem(accessKey, region, request);
        }
        return write("DeleteItem", accessKey, region, List.of(new Target("Delete", request.tableName(), request.key())),
                strings(List.of(request.key(), request.expressionAttributeValues())),
                () -> engine.deleteItem(accessKey, region, request), r -> units(r.consumedCapacity()));
    }

    @Override
    public BatchWriteItemResponse batchWriteItem(String accessKey, String region, BatchWriteItemRequest request) {
        if (!record) {
            return engine.batchWriteItem(accessKey, region, request);
        }
        var targets = new ArrayList<Target>();
        var maps = new ArrayList<Map<String, AttributeValue>>();
        request.requestItems().forEach((table, writes) -> writes.forEach(w -> {
            if (w.putRequest() != null) {
                targets.add(new Target("Put", table, keyOf(w.putRequest().item())));
                maps.add(w.putRequest().item());
            } else if (w.deleteRequest() != null) {
                targets.add(new Target("Delete", table, w.deleteRequest().key()));
                maps.add(w.deleteRequest().key());
            }
        }));
        return write("BatchWriteItem", accessKey, region, targets, strings(maps),
                () -> engine.batchWriteItem(accessKey, region, request), r -> units(r.consumedCapacity()));
    }

    @Override
    public GetItemResponse getItem(String accessKey, String region, GetItemRequest request) {
        return read("GetItem", strings(List.of(request.key())), () -> engine.getItem(accessKey, region, request),
                r -> units(r.consumedCapacity()));
    }

    @Override
    public QueryResponse query(String accessKey, String region, QueryRequest request) {
        return read("Query", strings(List.of(request.expressionAttributeValues() == null ? Map.of() : request.expressionAttributeValues())),
                () -> engine.query(accessKey, region, request), r -> units(r.consumedCapacity()));
    }

    @Override
    public BatchGetItemResponse batchGetItem(String accessKey, String region, BatchGetItemRequest request) {
        var keys = new ArrayList<Map<String, AttributeValue>>();
        request.requestItems().values().forEach(k -> keys.addAll(k.keys()));
        return read("BatchGetItem", strings(keys), () -> engine.batchGetItem(accessKey, region, request), r -> units(r.consumedCapacity()));
    }

    @Override
    public ScanResponse scan(String accessKey, String region, ScanRequest request) {
        return read("Scan", List.of(), () -> engine.scan(accessKey, region, request), r -> units(r.consumedCapacity()));
    }

    @Override
    public TransactGetItemsResponse transactGetItems(String accessKey, String region, TransactGetItemsRequest request) {
        return read("TransactGetItems", List.of(), () -> engine.transactGetItems(accessKey, region, request),
                r -> units(r.consumedCapacity()));
    }

    @Override
    public void shutdown() {
        engine.shutdown();
    }

    @Override
    public CreateTableResponse createTable(String accessKey, String region, CreateTableRequest request) {
        return engine.createTable(accessKey, region, request);
    }

    @Override
    public DeleteTableResponse deleteTable(String accessKey, String region, DeleteTableRequest request) {
        return engine.deleteTable(accessKey, region, request);
    }

    @Override
    public DescribeTableResponse describeTable(String accessKey, String region, DescribeTableRequest request) {
        return engine.describeTable(accessKey, region, request);
    }

    @Override
    public DescribeLimitsResponse describeLimits(String accessKey, String region, DescribeLimitsRequest request) {
        return engine.describeLimits(accessKey, region, request);
    }

    @Override
    public ListTablesResponse listTables(String accessKey, String region, ListTablesRequest request) {
        return engine.listTables(accessKey, region, request);
    }

    @Override
    public UpdateTableResponse updateTable(String accessKey, String region, UpdateTableRequest request) {
        return engine.updateTable(accessKey, region, request);
    }

    @Override
    public DescribeTimeToLiveResponse describeTimeToLive(String accessKey, String region, DescribeTimeToLiveRequest request) {
        return engine.describeTimeToLive(accessKey, region, request);
    }

    @Override
    public UpdateTimeToLiveResponse updateTimeToLive(String accessKey, String region, UpdateTimeToLiveRequest request) {
        return engine.updateTimeToLive(accessKey, region, request);
    }

    @Override
    public ExecuteStatementResponse executeStatement(String accessKey, String region, ExecuteStatementRequest request) {
        return engine.executeStatement(accessKey, region, request);
    }

    @Override
    public BatchExecuteStatementResponse batchExecuteStatement(String accessKey, String region, BatchExecuteStatementRequest request) {
        return engine.batchExecuteStatement(accessKey, region, request);
    }

    @Override
    public ExecuteTransactionResponse executeTransaction(String accessKey, String region, ExecuteTransactionRequest request) {
        return engine.executeTransaction(accessKey, region, request);
    }

    @Override
    public DescribeStreamResponse describeStream(String accessKey, String region, DescribeStreamRequest request) {
        return engine.describeStream(accessKey, region, request);
    }

    @Override
    public ListStreamsResponse listStreams(String accessKey, String region, ListStreamsRequest request) {
        return engine.listStreams(accessKey, region, request);
    }

    @Override
    public GetShardIteratorResponse getShardIterator(String accessKey, String region, GetShardIteratorRequest request) {
        return engine.getShardIterator(accessKey, region, request);
    }

    @Override
    public GetRecordsResponse getRecords(String accessKey, String region, GetRecordsRequest request) {
        return engine.getRecords(accessKey, region, request);
    }

    @Override
    public ListTagsOfResourceResponse listTagsOfResource(String accessKey, String region, ListTagsOfResourceRequest request) {
        return engine.listTagsOfResource(accessKey, region, request);
    }

    @Override
    public TagResourceResponse tagResource(String accessKey, String region, TagResourceRequest request) {
        return engine.tagResource(accessKey, region, request);
    }

    @Override
    public UntagResourceResponse untagResource(String accessKey, String region, UntagResourceRequest request) {
        return engine.untagResource(accessKey, region, request);
    }
}
