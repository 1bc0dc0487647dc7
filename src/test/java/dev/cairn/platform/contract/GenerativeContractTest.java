package dev.cairn.platform.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests generated from the committed OpenAPI document, for every operation (a fixed seed, so a failure repeats):
 * <ul>
 *   <li>valid ones (parameters in range, bodies the request schema allows, readOnly fields left out) must not be
 *       refused with a 400: the document promises the service takes them;
 *   <li>a malformed path gets the bare 400 the document describes for it;
 *   <li>invalid ones (a limit out of range or of the wrong type, a body that is not JSON, of the
 *       wrong content type, missing a required field, with a field of the wrong type or too long) must get a
 *       problem+json 4xx with the request id and the diagnostics headers;
 *   <li>every answer agrees with the document ({@link OpenApiContract}).
 * </ul>
 * The other tests check what the service does; this one checks that the document and the service agree at all.
 */
@QuarkusTest
class GenerativeContractTest {

    private static final int PORT = Integer.getInteger("quarkus.http.test-port", 8081);
    private static final int VALID_PER_OPERATION = 4;
    private static final long SEED = Long.getLong("contract.seed", 20261125L);
    private static final Set<String> DIAGNOSTICS = Set.of("x-request-id", "x-dynamodb-calls", "x-dynamodb-capacity", "server-timing");
    private static final Set<String> NOT_FOUND_DIAGNOSTICS = Set.of("x-request-id", "x-dynamodb-calls", "server-timing");
    /**
     * Operations whose request schema allows more than the service takes: startReconcile's {@code entity} is free
     * text in the document (the service takes the names of the entity types with copies, in any case, so an
     * enumeration would refuse what it takes), and its {@code id} needs {@code entity}, which 3.1 could say
     * ({@code dependentRequired}) but its 3.0 rendition could not (the request's description says it). Only the valid-request check skips them; their invalid requests and
     * answers are checked. So are a natural index's listings ({@code x-key-condition}): their sort fields' conditions
     * go left to right, which no parameter schema states.
     */
    private static final Set<String> KNOWN_NARROWER = Set.of("startReconcile");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final Random random = new Random(SEED);
    private JsonNode document;
    private OpenApiContract contract;
    private final List<String> failures = new ArrayList<>();
    private int cases;

    @Test
    void everyOperationTakesWhatItsDocumentAllowsAndRefusesTheRestAsAProblem() throws Exception {
        document = JSON.readTree(Path.of("src/test/openapi/openapi.json").toFile());
        contract = OpenApiContract.of(document);
        long started = System.nanoTime();
        int operations = 0;
        var paths = document.path("paths").fields();
        while (paths.hasNext()) {
            var path = paths.next();
            var methods = path.getValue().fields();
            while (methods.hasNext()) {
                var entry = methods.next();
                if (!Set.of("get", "post", "put", "patch", "delete").contains(entry.getKey())) {
                    continue;
                }
                operations++;
                exercise(path.getKey(), entry.getKey().toUpperCase(Locale.ROOT), entry.getValue(), path.getValue());
            }
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        System.out.printf("Generative contract test: %d cases over %d operations in %d ms (seed %d)%n", cases, operations, millis, SEED);
        assertThat(operations).isGreaterThan(60);
        assertThat(cases).isGreaterThan(operations * VALID_PER_OPERATION);
        assertThat(failures).as("seed " + SEED).isEmpty();
    }

    // --- one operation ------------------------------------------------------------------------------------------

    private void exercise(String template, String method, JsonNode operation, JsonNode item) throws Exception {
        var parameters = new ArrayList<JsonNode>();
        item.path("parameters").forEach(parameters::add);
        operation.path("parameters").forEach(parameters::add);
        JsonNode body = operation.path("requestBody").path("content");
        String where = method + " " + template;

        for (int i = 0; i < VALID_PER_OPERATION; i++) {
            String path = path(template, parameters);
            Map<String, String> query = query(parameters, Map.of());
            String type = body.isMissingNode() ? null : pick(fieldNames(body));
            JsonNode generated = type == null ? null : valid(body.path(type).path("schema"), 0);
            if (generated instanceof ObjectNode object) {
                // The one rule a schema cannot state: a body field named like a path parameter repeats its value.
                pathValues.forEach((name, value) -> {
                    if (object.has(name)) {
                        object.put(name, value);
                    }
                });
            }
            String sent = type == null ? null : JSON.writeValueAsString(generated);
            Exchange exchange = send(method, path, query, type, sent);
            if (exchange.answer.status() == 400 && !KNOWN_NARROWER.contains(operation.path("operationId").asText())
                    && !operation.has(dev.cairn.declared.DeclaredOpenApi.KEY_CONDITION)) {
                failures.add(where + ": a request the document allows was refused with 400: " + exchange.describe());
            }
            agree(where, exchange, false);
        }

        // A malformed path: a bad percent-escape where an id goes (or appended to a path without one).
        String malformed = template.contains("{") ? path(template, parameters).replaceFirst("/[^/]*$", "/bad%zz")
                : template + "/%zz";
        // The HTTP layer refuses it before any handler: the documented bare 400 (info.description), nothing else.
        Exchange bare = raw(method, malformed);
        if (bare.answer.status() != 400 || !bare.answer.body().isEmpty()) {
            failures.add(where + " (malformed path): expected the documented bare 400: " + bare.describe());
        }

        for (JsonNode parameter : parameters) {
            JsonNode schema = parameter.path("schema");
            if (!parameter.path("in").asText().equals("query") || !types(schema).contains("integer")) {
                continue;
            }
            String name = parameter.path("name").asText();
            long max = schema.path("maximum").asLong(Long.MAX_VALUE);
            for (String bad : List.of("many", String.valueOf(schema.path("minimum").asLong(1) - 1), max == Long.MAX_VALUE ? "x" : String.valueOf(max + 1))) {
                Exchange exchange = send(method, path(template, parameters), query(parameters, Map.of(name, bad)),
                        body.isMissingNode() ? null : "application/json", body.isMissingNode() ? null : "{}");
                invalid(where + " (" + name + "=" + bad + ")", exchange, true);
            }
        }

        if (!body.isMissingNode()) {
            String type = fieldNames(body).get(0);
            JsonNode schema = resolve(body.path(type).path("schema"));
            String path = path(template, parameters);
            Map<String, String> query = query(parameters, Map.of());
            invalid(where + " (not JSON)", send(method, path, query, type, "{\"broken\": tru"), true);
            invalid(where + " (text/plain)", send(method, path, query, "text/plain", "hello"), true);
            if (schema.path("type").asText().equals("object")) {
                ObjectNode whole = (ObjectNode) valid(schema, 0);
                for (JsonNode required : schema.path("required")) {
                    ObjectNode without = whole.deepCopy();
                    without.remove(required.asText());
                    invalid(where + " (without " + required.asText() + ")", send(method, path, query, type, without.toString()), true);
                }
                var fields = schema.path("properties").fields();
                while (fields.hasNext()) {
                    var field = fields.next();
                    JsonNode property = resolve(field.getValue());
                    if (property.path("readOnly").asBoolean(false)) {
                        continue;
                    }
                    ObjectNode wrong = whole.deepCopy();
                    List<String> types = types(property);
                    if (types.contains("string") && !types.contains("integer")) {
                        wrong.set(field.getKey(), NODES.arrayNode().add(1));
                        invalid(where + " (" + field.getKey() + " of the wrong type)", send(method, path, query, type, wrong.toString()), true);
                        if (property.has("maxLength")) {
                            wrong.put(field.getKey(), "x".repeat(property.path("maxLength").asInt() + 1));
                            invalid(where + " (" + field.getKey() + " too long)", send(method, path, query, type, wrong.toString()), true);
                        }
                    } else if (types.contains("integer")) {
                        wrong.put(field.getKey(), "seven");
                        invalid(where + " (" + field.getKey() + " of the wrong type)", send(method, path, query, type, wrong.toString()), true);
                        if (property.has("maximum")) {
                            wrong.put(field.getKey(), property.path("maximum").asLong() + 1);
                            invalid(where + " (" + field.getKey() + " out of range)", send(method, path, query, type, wrong.toString()), true);
                        }
                    }
                }
            }
        }
    }

    /** A refused request: a problem+json 4xx with the standard headers, and an answer the document describes. */
    private void invalid(String where, Exchange exchange, boolean checkContract) {
        int status = exchange.answer.status();
        if (status < 400 || status >= 500) {
            failures.add(where + ": expected a 4xx problem: " + exchange.describe());
            return;
        }
        if (!"application/problem+json".equals(baseType(exchange.answer.contentType()))) {
            failures.add(where + ": not a problem+json: " + exchange.describe());
        }
        agree(where, exchange, checkContract);
    }

    private void agree(String where, Exchange exchange, boolean checkContract) {
        var names = new java.util.HashSet<String>();
        exchange.answer.headers().keySet().forEach(name -> names.add(name.toLowerCase(Locale.ROOT)));
        // a 404 reports no capacity (it would tell a missing item from one hidden from the caller)
        boolean notFound = exchange.answer.status() == 404;
        if (!names.containsAll(notFound ? NOT_FOUND_DIAGNOSTICS : DIAGNOSTICS)
                || notFound && names.contains("x-dynamodb-capacity")) {
            failures.add(where + ": lacks the standard headers: " + exchange.describe());
        }
        if (checkContract || exchange.request != null) {
            var verdict = contract.check(exchange.request, exchange.answer);
            if (!verdict.answer().isEmpty()) {
                failures.add(where + ": " + String.join("; ", verdict.answer()) + " — " + exchange.describe());
            }
        }
    }

    // --- generation ---------------------------------------------------------------------------------------------

    /** The path parameters' values of the last generated path: a body field of the same name repeats its value. */
    private final Map<String, String> pathValues = new LinkedHashMap<>();

    private String path(String template, List<JsonNode> parameters) {
        pathValues.clear();
        String path = template;
        for (JsonNode parameter : parameters) {
            if (!parameter.path("in").asText().equals("path")) {
                continue;
            }
            JsonNode schema = parameter.path("schema");
            // An enumerated parameter (an aggregate's list by status) takes one of its values, as the document says.
            String value = schema.has("enum") ? schema.path("enum").get(random.nextInt(schema.path("enum").size())).asText()
                    : types(schema).contains("integer") ? String.valueOf(integer(schema)) : "gen-" + word(8);
            pathValues.put(parameter.path("name").asText(), value);
            path = path.replace("{" + parameter.path("name").asText() + "}", URLEncoder.encode(value, StandardCharsets.UTF_8));
        }
        return path;
    }

    private Map<String, String> query(List<JsonNode> parameters, Map<String, String> overrides) {
        var query = new LinkedHashMap<String, String>();
        for (JsonNode parameter : parameters) {
            String name = parameter.path("name").asText();
            if (!parameter.path("in").asText().equals("query")) {
                continue;
            }
            if (overrides.containsKey(name)) {
                query.put(name, overrides.get(name));
            } else if (parameter.path("required").asBoolean(false) || random.nextBoolean()) {
                JsonNode schema = resolve(parameter.path("schema"));
                if (name.equals("cursor")) {
                    continue; // opaque: only a page's own next is valid
                }
                JsonNode value = valid(schema, 0);
                query.put(name, value.isTextual() ? value.asText() : value.toString());
            }
        }
        return query;
    }

    /** A value the schema allows, kept to ordinary sizes; never null where anything else is allowed. */
    private JsonNode valid(JsonNode schema, int depth) {
        schema = resolve(schema);
        if (schema.has("anyOf")) {
            for (JsonNode option : schema.path("anyOf")) {
                if (!types(resolve(option)).equals(List.of("null"))) {
                    return valid(option, depth + 1);
                }
            }
        }
        if (schema.has("enum")) {
            var values = new ArrayList<JsonNode>();
            schema.path("enum").forEach(v -> {
                if (!v.isNull()) {
                    values.add(v);
                }
            });
            return values.get(random.nextInt(values.size()));
        }
        List<String> types = types(schema);
        String type = types.stream().filter(t -> !t.equals("null")).findFirst().orElse("string");
        switch (type) {
            case "object" -> {
                ObjectNode object = NODES.objectNode();
                var required = new java.util.HashSet<String>();
                schema.path("required").forEach(r -> required.add(r.asText()));
                var fields = schema.path("properties").fields();
                while (fields.hasNext()) {
                    var field = fields.next();
                    if (resolve(field.getValue()).path("readOnly").asBoolean(false) && !required.contains(field.getKey())) {
                        continue;
                    }
                    if (required.contains(field.getKey()) || (depth < 4 && random.nextInt(3) > 0)) {
                        object.set(field.getKey(), valid(field.getValue(), depth + 1));
                    }
                }
                return object;
            }
            case "array" -> {
                ArrayNode array = NODES.arrayNode();
                int min = schema.path("minItems").asInt(0);
                int max = Math.min(schema.path("maxItems").asInt(3), Math.max(min, 3));
                int count = min + random.nextInt(max - min + 1);
                for (int i = 0; i < count; i++) {
                    array.add(valid(schema.path("items"), depth + 1));
                }
                return array;
            }
            case "integer" -> {
                return NODES.numberNode(integer(schema));
            }
            case "number" -> {
                return NODES.numberNode(integer(schema) + 0.5);
            }
            case "boolean" -> {
                return NODES.booleanNode(random.nextBoolean());
            }
            default -> {
                String format = schema.path("format").asText("");
                if (format.equals("date")) {
                    return NODES.textNode("2026-0" + (1 + random.nextInt(9)) + "-1" + random.nextInt(10));
                }
                if (format.equals("date-time")) {
                    // ahead of now: an expiry field's create needs a later instant (its description says so)
                    return NODES.textNode("2036-11-2" + random.nextInt(10) + "T10:15:30Z");
                }
                // A pattern beyond "not blank" or the id's is met with the document's own example.
                String pattern = schema.path("pattern").asText("");
                if (!pattern.isEmpty() && !pattern.equals("\\S") && !pattern.startsWith("^[^\\x00") && schema.has("examples")) {
                    return schema.path("examples").get(random.nextInt(schema.path("examples").size()));
                }
                int min = Math.max(1, schema.path("minLength").asInt(1));
                int max = Math.max(min, Math.min(schema.path("maxLength").asInt(16), 16));
                return NODES.textNode(word(min + random.nextInt(max - min + 1)));
            }
        }
    }

    private long integer(JsonNode schema) {
        long min = schema.path("minimum").asLong(1);
        long max = Math.min(schema.path("maximum").asLong(min + 1000), min + 1000);
        return min + (long) (random.nextDouble() * (max - min + 1));
    }

    private String word(int length) {
        String letters = "abcdefghijklmnopqrstuvwxyz0123456789";
        var out = new StringBuilder();
        for (int i = 0; i < length; i++) {
            out.append(letters.charAt(random.nextInt(letters.length())));
        }
        return out.toString();
    }

    private JsonNode resolve(JsonNode schema) {
        String ref = schema.path("$ref").asText("");
        return ref.isEmpty() ? schema : resolve(document.path("components").path("schemas").path(ref.substring(ref.lastIndexOf('/') + 1)));
    }

    private static List<String> types(JsonNode schema) {
        var types = new ArrayList<String>();
        if (schema.path("type").isArray()) {
            schema.path("type").forEach(t -> types.add(t.asText()));
        } else if (schema.has("type")) {
            types.add(schema.path("type").asText());
        }
        return types;
    }

    private String pick(List<String> values) {
        return values.get(random.nextInt(values.size()));
    }

    private static List<String> fieldNames(JsonNode node) {
        var names = new ArrayList<String>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    // --- sending ------------------------------------------------------------------------------------------------

    private record Exchange(OpenApiContract.Request request, OpenApiContract.Answer answer) {
        String describe() {
            String body = answer.body() == null ? "" : answer.body();
            return (request == null ? "" : request.method() + " " + request.path() + " " + request.query()
                    + (request.body() == null ? "" : " " + request.body())) + " → " + answer.status() + " "
                    + body.substring(0, Math.min(body.length(), 300));
        }
    }

    private Exchange send(String method, String path, Map<String, String> query, String contentType, String body)
            throws IOException, InterruptedException {
        cases++;
        var uri = new StringBuilder("http://localhost:" + PORT + path);
        var queryValues = new LinkedHashMap<String, List<String>>();
        String separator = "?";
        for (var entry : query.entrySet()) {
            uri.append(separator).append(URLEncoder.encode(entry.getKey(), StandardCharsets.UTF_8)).append('=')
                    .append(URLEncoder.encode(entry.getValue(), StandardCharsets.UTF_8));
            separator = "&";
            queryValues.put(entry.getKey(), List.of(entry.getValue()));
        }
        var builder = HttpRequest.newBuilder(URI.create(uri.toString())).timeout(Duration.ofSeconds(20));
        if (contentType != null) {
            builder.header("Content-Type", contentType);
        }
        builder.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> response = http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
        var headers = new LinkedHashMap<String, List<String>>();
        response.headers().map().forEach(headers::put);
        var request = new OpenApiContract.Request(method, path, queryValues, Map.of(), contentType, body);
        var answer = new OpenApiContract.Answer(response.statusCode(), response.headers().firstValue("Content-Type").orElse(null),
                headers, response.body());
        return new Exchange(request, answer);
    }

    /** A request no client library sends (a bad escape in the path), as bytes. */
    private Exchange raw(String method, String path) throws IOException {
        cases++;
        try (Socket socket = new Socket("localhost", PORT)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write((method + " " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n"
                    + "Connection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            var bytes = new ByteArrayOutputStream();
            try {
                socket.getInputStream().transferTo(bytes);
            } catch (IOException e) {
                // a reset after the answer
            }
            String text = bytes.toString(StandardCharsets.UTF_8);
            int end = text.indexOf("\r\n\r\n");
            if (end < 0) {
                return new Exchange(null, new OpenApiContract.Answer(0, null, Map.of(), text));
            }
            String[] lines = text.substring(0, end).split("\r\n");
            var headers = new LinkedHashMap<String, List<String>>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                headers.computeIfAbsent(lines[i].substring(0, colon).trim(), k -> new ArrayList<>()).add(lines[i].substring(colon + 1).trim());
            }
            String type = headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("Content-Type"))
                    .map(e -> e.getValue().get(0)).findFirst().orElse(null);
            // The path cannot be matched to an operation: only the answer's own shape is checked (a Problem).
            var request = new OpenApiContract.Request(method, "/unmatched" + path.replace("%", ""), Map.of(), Map.of(), null, null);
            return new Exchange(request, new OpenApiContract.Answer(Integer.parseInt(lines[0].split(" ")[1]), type, headers,
                    text.substring(end + 4)));
        }
    }

    private static String baseType(String contentType) {
        if (contentType == null) {
            return null;
        }
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
    }
}
