package dev.cairn.bench.baseline;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientAsyncConfiguration;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.client.config.SdkAdvancedAsyncClientOption;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.http.nio.netty.SdkEventLoopGroup;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The floor of this stack: what a competent engineer writes by hand for the routes the benchmark reads — Vert.x'
 * HTTP server, the same async SDK client configuration as the app (Netty, the same timeouts), the route's ONE Query
 * exactly as the app lists it at /access-patterns, and the items written straight to JSON with Jackson's streaming
 * generator. No validation, no ETag, no signed cursors, no metrics, no aggregate assembly.
 *
 * <p>Args: port, DynamoDB endpoint, a JSON file of [{route, exampleId, request}] (the app's access patterns),
 * and whether SDK futures complete on the I/O thread (as the app is configured).
 */
public final class HandWritten {

    static final JsonFactory JSON = new JsonFactory();

    /** A route template such as {@code GET /matches/{id}} and the Query it answers with, for any id. */
    record Route(String[] segments, JsonNode request, String exampleId) {

        /** The path's id when the path matches this route, else null. */
        String match(String path) {
            String[] parts = path.split("/");
            if (parts.length != segments.length) {
                return null;
            }
            String id = null;
            for (int i = 0; i < parts.length; i++) {
                if (segments[i].startsWith("{")) {
                    id = parts[i];
                } else if (!segments[i].equals(parts[i])) {
                    return null;
                }
            }
            return id;
        }

        QueryRequest query(String id, Map<String, AttributeValue> start) {
            var names = new HashMap<String, String>();
            request.path("ExpressionAttributeNames").fields().forEachRemaining(e -> names.put(e.getKey(), e.getValue().asText()));
            var values = new HashMap<String, AttributeValue>();
            request.path("ExpressionAttributeValues").fields().forEachRemaining(e -> values.put(e.getKey(), e.getValue().has("N")
                    ? AttributeValue.fromN(e.getValue().get("N").asText())
                    : AttributeValue.fromS(e.getValue().get("S").asText().replace(exampleId, id))));
            return QueryRequest.builder().tableName(request.get("TableName").asText())
                    .indexName(request.hasNonNull("IndexName") ? request.get("IndexName").asText() : null)
                    .keyConditionExpression(request.get("KeyConditionExpression").asText())
                    .projectionExpression(request.hasNonNull("ProjectionExpression") ? request.get("ProjectionExpression").asText() : null)
                    .expressionAttributeNames(names).expressionAttributeValues(values)
                    .scanIndexForward(request.path("ScanIndexForward").asBoolean(true))
                    .consistentRead(request.path("ConsistentRead").asBoolean(false))
                    .limit(request.hasNonNull("Limit") ? request.get("Limit").asInt() : null)
                    .exclusiveStartKey(start).build();
        }

        boolean paged() {
            return request.hasNonNull("Limit");
        }

        int pageSize() {
            return request.get("Limit").asInt() - 1;
        }
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        boolean directCompletion = args.length > 3 && Boolean.parseBoolean(args[3]);
        Vertx vertx = Vertx.vertx();
        var async = ClientAsyncConfiguration.builder();
        if (directCompletion) {
            async.advancedOption(SdkAdvancedAsyncClientOption.FUTURE_COMPLETION_EXECUTOR, Runnable::run);
        }
        // As the app's Quarkus extension builds it: the SDK's Netty on Vert.x' event loops, the app's timeouts
        // (application.properties: 1 s connect, 2 s acquisition, 3 s per call, 1.5 s per attempt), the same
        // future completion (a thread pool unless the app completes on the I/O thread).
        DynamoDbAsyncClient dynamo = DynamoDbAsyncClient.builder().endpointOverride(URI.create(args[1]))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .httpClientBuilder(NettyNioAsyncHttpClient.builder().connectionTimeout(Duration.ofSeconds(1))
                        .connectionAcquisitionTimeout(Duration.ofSeconds(2))
                        .eventLoopGroup(SdkEventLoopGroup.create(vertx.nettyEventLoopGroup())))
                .asyncConfiguration(async.build())
                .overrideConfiguration(ClientOverrideConfiguration.builder().apiCallTimeout(Duration.ofSeconds(3))
                        .apiCallAttemptTimeout(Duration.ofMillis(1500)).build())
                .build();
        var routes = new ArrayList<Route>();
        for (JsonNode pattern : new ObjectMapper().readTree(Files.readString(Path.of(args[2])))) {
            String template = pattern.get("route").asText().substring("GET ".length());
            routes.add(new Route(template.split("/"), pattern.get("request"), pattern.get("exampleId").asText()));
        }
        vertx.createHttpServer().requestHandler(request -> handle(request, routes, dynamo))
                .listen(port).toCompletionStage().toCompletableFuture().join();
        System.out.println("hand-written baseline listening on " + port);
    }

    static void handle(HttpServerRequest request, List<Route> routes, DynamoDbAsyncClient dynamo) {
        if (request.path().equals("/ready")) {
            request.response().end("ready");
            return;
        }
        for (Route route : routes) {
            String id = route.match(request.path());
            if (id != null) {
                var items = new ArrayList<Map<String, AttributeValue>>();
                int[] calls = {0};
                read(dynamo, route, id, null, items, calls).whenComplete((last, failure) -> {
                    if (failure != null) {
                        request.response().setStatusCode(500).end(String.valueOf(failure));
                    } else {
                        // The app asks for one item more than a page (20 + 1) to know whether a next page exists.
                        var page = route.paged() && items.size() >= route.pageSize() ? items.subList(0, route.pageSize()) : items;
                        request.response().putHeader("Content-Type", "application/json")
                                .putHeader("X-DynamoDB-Calls", String.valueOf(calls[0])).end(render(page, last));
                    }
                });
                return;
            }
        }
        request.response().setStatusCode(404).end();
    }

    /** Reads the route's Query: one page for a paged route, every page for a whole partition; the last key. */
    static CompletableFuture<Map<String, AttributeValue>> read(DynamoDbAsyncClient dynamo, Route route, String id,
                                                               Map<String, AttributeValue> start, List<Map<String, AttributeValue>> into,
                                                               int[] calls) {
        calls[0]++;
        return dynamo.query(route.query(id, start)).thenCompose((QueryResponse page) -> {
            into.addAll(page.items());
            Map<String, AttributeValue> last = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
                    ? page.lastEvaluatedKey() : null;
            return route.paged() || last == null ? CompletableFuture.completedFuture(last) : read(dynamo, route, id, last, into, calls);
        });
    }

    static Buffer render(List<Map<String, AttributeValue>> items, Map<String, AttributeValue> last) {
        var out = new ByteArrayOutputStream(4096);
        try (JsonGenerator json = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            json.writeStartObject();
            json.writeArrayFieldStart("items");
            for (var item : items) {
                write(json, AttributeValue.fromM(item));
            }
            json.writeEndArray();
            if (last == null) {
                json.writeNullField("next");
            } else {
                var key = new ByteArrayOutputStream();
                try (JsonGenerator cursor = JSON.createGenerator(key, JsonEncoding.UTF8)) {
                    write(cursor, AttributeValue.fromM(last));
                }
                json.writeStringField("next", Base64.getUrlEncoder().withoutPadding().encodeToString(key.toByteArray()));
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return Buffer.buffer(out.toByteArray());
    }

    static void write(JsonGenerator json, AttributeValue value) throws IOException {
        switch (value.type()) {
            case S -> json.writeString(value.s());
            case N -> json.writeNumber(value.n());
            case BOOL -> json.writeBoolean(value.bool());
            case NUL -> json.writeNull();
            case M -> {
                json.writeStartObject();
                for (var entry : value.m().entrySet()) {
                    json.writeFieldName(entry.getKey());
                    write(json, entry.getValue());
                }
                json.writeEndObject();
            }
            case L -> {
                json.writeStartArray();
                for (AttributeValue element : value.l()) {
                    write(json, element);
                }
                json.writeEndArray();
            }
            case SS -> {
                json.writeStartArray();
                for (String s : value.ss()) {
                    json.writeString(s);
                }
                json.writeEndArray();
            }
            case NS -> {
                json.writeStartArray();
                for (String n : value.ns()) {
                    json.writeNumber(n);
                }
                json.writeEndArray();
            }
            default -> json.writeNull();
        }
    }
}
