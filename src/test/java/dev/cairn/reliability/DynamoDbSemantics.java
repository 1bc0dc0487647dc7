package dev.cairn.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;

/**
 * What DynamoDB does and DynamoDB Local does not, for tests: an HTTP proxy on 127.0.0.1 in front of DynamoDB Local
 * that adds, each switchable at run time,
 * <ul>
 *   <li>GSI propagation lag: an item written (PutItem, UpdateItem, DeleteItem, BatchWriteItem, TransactWriteItems)
 *       less than {@link #gsiLag} ago is left out of every Query or Scan of an index, whose {@code Count} and
 *       {@code ScannedCount} are lowered to match. An item in flight counts as written now. The item is absent,
 *       where DynamoDB may also show its previous image: absent is the harder case for a reader;</li>
 *   <li>throttling of a fraction of data-plane calls: HTTP 400 {@code ProvisionedThroughputExceededException} or
 *       {@code ThrottlingException};</li>
 *   <li>{@code TransactionCanceledException} with one {@code TransactionConflict} reason (the others {@code None})
 *       on a fraction of TransactWriteItems;</li>
 *   <li>HTTP 500 {@code InternalServerError} on a fraction of data-plane calls;</li>
 *   <li>latency: calls of chosen operations are held a while (a fixed time, or one drawn within a range) before
 *       they are forwarded, so what they write lands that much later — a slow network, a GC pause, a client
 *       backing off — while every other call passes at once.</li>
 * </ul>
 * A refused call is answered by the proxy and never reaches DynamoDB Local, as DynamoDB refuses before writing.
 * Control-plane calls (CreateTable, DescribeTable, …) always pass. Writes are tracked only while the lag is on.
 * Index reads that cannot name the items pass unchanged: {@code Select=COUNT}, and a projection that leaves out
 * the table's key attributes. Bodies are DynamoDB's (same {@code __type} and fields, so the SDK
 * builds its own exception types), and a changed body gets a recomputed {@code x-amz-crc32}, which the SDK checks.
 * <p>
 * An HTTP proxy rather than an SDK {@code ExecutionInterceptor}: an interceptor acts inside one JVM's client,
 * while the proxy serves every process that talks to the endpoint — the app under test, a second app process, the
 * packaged jar of an {@code *IT}, the tests' own SDK client — and it changes the wire, so the SDK's own
 * unmarshalling, retries and checksum checks run exactly as against DynamoDB.
 */
public final class DynamoDbSemantics implements AutoCloseable {

    /** The two throttling answers: provisioned capacity exceeded (data plane), or a request rate limit. */
    public enum Throttle {
        PROVISIONED_THROUGHPUT("com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
                "The level of configured provisioned throughput for the table was exceeded. "
                        + "Consider increasing your provisioning level with the UpdateTable API."),
        THROTTLING("com.amazonaws.dynamodb.v20120810#ThrottlingException",
                "Rate of requests exceeds the allowed throughput.");

        final String type;
        final String message;

        Throttle(String type, String message) {
            this.type = type;
            this.message = message;
        }
    }

    /**
     * What the layer has done since it started: calls forwarded, calls refused per fault, index items left out,
     * calls held back by the latency fault.
     */
    public record Counts(long forwarded, long throttled, long conflicts, long serverErrors, long hidden, long delayed) {
    }

    static final Set<String> DATA_PLANE = Set.of("GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "Scan",
            "BatchGetItem", "BatchWriteItem", "TransactGetItems", "TransactWriteItems", "ExecuteStatement",
            "BatchExecuteStatement", "ExecuteTransaction");
    private static final Set<String> NOT_FORWARDED = Set.of("host", "connection", "content-length", "expect",
            "upgrade", "transfer-encoding", "accept-encoding", "keep-alive");
    private static final String JSON_TYPE = "application/x-amz-json-1.0";
    private static final ObjectMapper JSON = new ObjectMapper();

    static {
        // The JDK server leaves Nagle on and writes headers and body apart: every answer would wait out the
        // client's delayed ACK (about 40 ms). Read once, when the first server of the JVM starts.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }

    private final HttpServer server;
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "dynamodb-semantics");
        t.setDaemon(true);
        return t;
    });
    private final HttpClient upstream = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String upstreamEndpoint;
    private final Map<String, List<String>> keySchemas = new ConcurrentHashMap<>();
    /** Per table and primary key, when it was last written (Long.MAX_VALUE while a write is in flight). */
    private final Map<String, Long> writtenAt = new ConcurrentHashMap<>();
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong forwarded = new AtomicLong();
    private final AtomicLong throttled = new AtomicLong();
    private final AtomicLong conflicted = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong hidden = new AtomicLong();
    private final AtomicLong delayed = new AtomicLong();

    private volatile long lagNanos;
    private volatile double throttleFraction;
    private volatile Throttle throttle = Throttle.PROVISIONED_THROUGHPUT;
    private volatile double conflictFraction;
    private volatile double serverErrorFraction;
    /** The operations the latency fault holds back, and for how long (nanoseconds, both ends included). */
    private volatile Set<String> slowed = Set.of();
    private volatile long latencyMinNanos;
    private volatile long latencyMaxNanos;

    private DynamoDbSemantics(String upstreamEndpoint) throws IOException {
        this.upstreamEndpoint = upstreamEndpoint;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.createContext("/", this::handle);
        server.setExecutor(pool);
        server.start();
    }

    /** Starts the layer on an ephemeral 127.0.0.1 port in front of {@code upstreamEndpoint} (DynamoDB Local). */
    public static DynamoDbSemantics start(String upstreamEndpoint) throws IOException {
        return new DynamoDbSemantics(upstreamEndpoint);
    }

    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Items written less than {@code lag} ago are absent from index Query and Scan results ({@code ZERO}: off). */
    public DynamoDbSemantics gsiLag(Duration lag) {
        this.lagNanos = lag.toNanos();
        return this;
    }

    /** Answers this fraction of data-plane calls with {@code ProvisionedThroughputExceededException}. */
    public DynamoDbSemantics throttle(double fraction) {
        return throttle(fraction, Throttle.PROVISIONED_THROUGHPUT);
    }

    public DynamoDbSemantics throttle(double fraction, Throttle kind) {
        this.throttle = kind;
        this.throttleFraction = fraction;
        return this;
    }

    /** Cancels this fraction of TransactWriteItems with a {@code TransactionConflict} reason. */
    public DynamoDbSemantics conflicts(double fraction) {
        this.conflictFraction = fraction;
        return this;
    }

    /** Answers this fraction of data-plane calls with HTTP 500 {@code InternalServerError}. */
    public DynamoDbSemantics serverErrors(double fraction) {
        this.serverErrorFraction = fraction;
        return this;
    }

    /** Holds every call of these operations for {@code delay} before forwarding it. */
    public DynamoDbSemantics latency(Duration delay, String... operations) {
        return latency(delay, delay, operations);
    }

    /**
     * Holds every call of these operations (their {@code X-Amz-Target} names: {@code PutItem}, {@code
     * TransactWriteItems}, …) for a time drawn uniformly within [{@code min}, {@code max}] before forwarding it;
     * no operations: off. A call the layer refuses is refused at once, as DynamoDB refuses before doing the work.
     */
    public DynamoDbSemantics latency(Duration min, Duration max, String... operations) {
        if (min.isNegative() || max.compareTo(min) < 0) {
            throw new IllegalArgumentException("latency needs 0 <= min <= max, not " + min + " and " + max);
        }
        latencyMinNanos = min.toNanos();
        latencyMaxNanos = max.toNanos();
        slowed = Set.of(operations);
        return this;
    }

    /** DynamoDB Local's own behaviour again: no lag, no refused calls, no latency. */
    public DynamoDbSemantics reset() {
        slowed = Set.of();
        lagNanos = 0;
        throttleFraction = 0;
        conflictFraction = 0;
        serverErrorFraction = 0;
        return this;
    }

    public Counts counts() {
        return new Counts(forwarded.get(), throttled.get(), conflicted.get(), failed.get(), hidden.get(), delayed.get());
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }

    // --- one call ---------------------------------------------------------------------------------------------

    record Answer(int status, Map<String, List<String>> headers, byte[] body) {

        static Answer error(int status, ObjectNode body) {
            return new Answer(status, Map.of(), body.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
            String operation = target == null ? "" : target.substring(target.indexOf('.') + 1);
            Answer refused = refusal(operation, body);
            if (refused != null) {
                send(exchange, refused, true);
                return;
            }
            // Before a write is marked in flight: it has not reached DynamoDB yet, so the index lag starts later too.
            holdBack(operation);
            boolean write = lagNanos > 0 && isWrite(operation);
            List<String> keys = write ? writtenKeys(operation, body, exchange) : List.of();
            keys.forEach(key -> writtenAt.put(key, Long.MAX_VALUE));
            Answer answer;
            try {
                answer = forward(exchange, body);
            } finally {
                long now = System.nanoTime();
                keys.forEach(key -> writtenAt.put(key, now));
                forgetOldWrites(keys.size());
            }
            forwarded.incrementAndGet();
            boolean changed = false;
            if (answer.status() == 200 && lagNanos > 0 && (operation.equals("Query") || operation.equals("Scan"))) {
                Answer lagging = withoutRecentWrites(body, answer, exchange);
                changed = lagging != answer;
                answer = lagging;
            }
            send(exchange, answer, changed);
        } catch (RuntimeException e) {
            // A fault of the layer itself: shown in the test output, and the client sees a dropped connection.
            e.printStackTrace();
            throw new IOException(e);
        }
    }

    private Answer refusal(String operation, byte[] body) throws IOException {
        if (!DATA_PLANE.contains(operation)) {
            return null;
        }
        var random = ThreadLocalRandom.current();
        if (random.nextDouble() < throttleFraction) {
            throttled.incrementAndGet();
            Throttle kind = throttle;
            return Answer.error(400, JSON.createObjectNode().put("__type", kind.type).put("message", kind.message));
        }
        if (operation.equals("TransactWriteItems") && random.nextDouble() < conflictFraction) {
            conflicted.incrementAndGet();
            return conflict(JSON.readTree(body).path("TransactItems").size());
        }
        if (random.nextDouble() < serverErrorFraction) {
            failed.incrementAndGet();
            return Answer.error(500, JSON.createObjectNode()
                    .put("__type", "com.amazonaws.dynamodb.v20120810#InternalServerError")
                    .put("message", "Internal server error"));
        }
        return null;
    }

    private void holdBack(String operation) throws IOException {
        if (!slowed.contains(operation)) {
            return;
        }
        long min = latencyMinNanos;
        long max = latencyMaxNanos;
        long nanos = max > min ? ThreadLocalRandom.current().nextLong(min, max + 1) : min;
        delayed.incrementAndGet();
        try {
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    /** DynamoDB's cancellation: one reason per action, in order; the colliding one TransactionConflict. */
    static Answer conflict(int actions) {
        int colliding = ThreadLocalRandom.current().nextInt(Math.max(1, actions));
        ObjectNode body = JSON.createObjectNode()
                .put("__type", "com.amazonaws.dynamodb.v20120810#TransactionCanceledException");
        ArrayNode reasons = body.putArray("CancellationReasons");
        var codes = new ArrayList<String>();
        for (int i = 0; i < Math.max(1, actions); i++) {
            if (i == colliding) {
                reasons.addObject().put("Code", "TransactionConflict").put("Message", "Transaction is ongoing for the item");
                codes.add("TransactionConflict");
            } else {
                reasons.addObject().put("Code", "None");
                codes.add("None");
            }
        }
        body.put("Message", "Transaction cancelled, please refer cancellation reasons for specific reasons " + codes);
        return Answer.error(400, body);
    }

    private Answer forward(HttpExchange exchange, byte[] body) throws IOException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(upstreamEndpoint + exchange.getRequestURI()))
                .timeout(Duration.ofSeconds(30))
                .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
        exchange.getRequestHeaders().forEach((name, values) -> {
            if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(value -> request.header(name, value));
            }
        });
        try {
            HttpResponse<byte[]> response = upstream.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Answer(response.statusCode(), response.headers().map(), response.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private static void send(HttpExchange exchange, Answer answer, boolean ownBody) throws IOException {
        var headers = exchange.getResponseHeaders();
        answer.headers().forEach((name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (!lower.equals("content-length") && !lower.equals("transfer-encoding") && !lower.equals("connection")
                    && !lower.equals("date") && !(ownBody && lower.equals("x-amz-crc32"))) {
                headers.put(name, values);
            }
        });
        if (ownBody) {
            var crc = new CRC32();
            crc.update(answer.body());
            headers.set("x-amz-crc32", Long.toString(crc.getValue()));
            headers.set("x-amzn-RequestId", UUID.randomUUID().toString());
            headers.set("Content-Type", JSON_TYPE);
        }
        exchange.sendResponseHeaders(answer.status(), answer.body().length == 0 ? -1 : answer.body().length);
        exchange.getResponseBody().write(answer.body());
    }

    // --- GSI propagation lag -----------------------------------------------------------------------------------

    private static boolean isWrite(String operation) {
        return switch (operation) {
            case "PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems" -> true;
            default -> false;
        };
    }

    /** The table-and-key of every item the write touches (a condition check writes nothing). */
    private List<String> writtenKeys(String operation, byte[] body, HttpExchange exchange) throws IOException {
        JsonNode request = JSON.readTree(body);
        var keys = new ArrayList<String>();
        switch (operation) {
            case "PutItem" -> keys.add(keyOfItem(request.path("TableName").asText(), request.path("Item"), exchange));
            case "UpdateItem", "DeleteItem" -> keys.add(key(request.path("TableName").asText(), request.path("Key")));
            case "BatchWriteItem" -> request.path("RequestItems").fields().forEachRemaining(table -> {
                for (JsonNode write : table.getValue()) {
                    if (write.has("PutRequest")) {
                        keys.add(keyOfItem(table.getKey(), write.path("PutRequest").path("Item"), exchange));
                    } else {
                        keys.add(key(table.getKey(), write.path("DeleteRequest").path("Key")));
                    }
                }
            });
            case "TransactWriteItems" -> {
                for (JsonNode action : request.path("TransactItems")) {
                    if (action.has("Put")) {
                        JsonNode put = action.path("Put");
                        keys.add(keyOfItem(put.path("TableName").asText(), put.path("Item"), exchange));
                    } else if (action.has("Update") || action.has("Delete")) {
                        JsonNode write = action.has("Update") ? action.path("Update") : action.path("Delete");
                        keys.add(key(write.path("TableName").asText(), write.path("Key")));
                    }
                }
            }
            default -> {
            }
        }
        return keys;
    }

    private Answer withoutRecentWrites(byte[] requestBody, Answer answer, HttpExchange exchange) throws IOException {
        JsonNode request = JSON.readTree(requestBody);
        if (!request.hasNonNull("IndexName")) {
            return answer;
        }
        JsonNode response = JSON.readTree(answer.body());
        if (!(response.path("Items") instanceof ArrayNode items) || items.isEmpty()) {
            return answer;
        }
        String table = request.path("TableName").asText();
        long now = System.nanoTime();
        int removed = 0;
        for (int i = items.size() - 1; i >= 0; i--) {
            Long written = writtenAt.get(keyOfItem(table, items.get(i), exchange));
            if (written != null && now - written < lagNanos) {
                items.remove(i);
                removed++;
            }
        }
        if (removed == 0) {
            return answer;
        }
        hidden.addAndGet(removed);
        ObjectNode coherent = (ObjectNode) response;
        coherent.put("Count", coherent.path("Count").asInt() - removed);
        if (coherent.has("ScannedCount")) {
            coherent.put("ScannedCount", coherent.path("ScannedCount").asInt() - removed);
        }
        return new Answer(answer.status(), answer.headers(), JSON.writeValueAsBytes(coherent));
    }

    /** Keys written longer ago than the lag are forgotten now and then, so the map stays small. */
    private void forgetOldWrites(int added) {
        if (added == 0 || writes.addAndGet(added) % 1_000 >= added) {
            return;
        }
        long now = System.nanoTime();
        long lag = lagNanos;
        writtenAt.values().removeIf(at -> at != Long.MAX_VALUE && now - at >= lag);
    }

    private String keyOfItem(String table, JsonNode item, HttpExchange exchange) {
        ObjectNode key = JSON.createObjectNode();
        for (String attribute : keySchema(table, exchange)) {
            key.set(attribute, item.path(attribute));
        }
        return key(table, key);
    }

    /** One string per table and primary key, whatever the order of the key's attributes. */
    private static String key(String table, JsonNode key) {
        var sorted = new TreeMap<String, String>();
        key.fields().forEachRemaining(field -> sorted.put(field.getKey(), field.getValue().toString()));
        return table + '\u0000' + sorted;
    }

    /** The table's key attributes, asked of DynamoDB Local once with the caller's own headers (none: no table). */
    private List<String> keySchema(String table, HttpExchange exchange) {
        List<String> schema = keySchemas.computeIfAbsent(table, name -> {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(upstreamEndpoint + "/"))
                    .timeout(Duration.ofSeconds(10))
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.createObjectNode().put("TableName", name).toString()));
            exchange.getRequestHeaders().forEach((header, values) -> {
                String lower = header.toLowerCase(Locale.ROOT);
                if (!NOT_FORWARDED.contains(lower) && !lower.equals("x-amz-target")) {
                    values.forEach(value -> request.header(header, value));
                }
            });
            request.header("X-Amz-Target", "DynamoDB_20120810.DescribeTable");
            try {
                HttpResponse<byte[]> response = upstream.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
                var attributes = new ArrayList<String>();
                JSON.readTree(response.body()).path("Table").path("KeySchema")
                        .forEach(element -> attributes.add(element.path("AttributeName").asText()));
                return attributes.isEmpty() ? null : List.copyOf(attributes);
            } catch (IOException e) {
                return null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        });
        return schema == null ? List.of() : schema;
    }
}
