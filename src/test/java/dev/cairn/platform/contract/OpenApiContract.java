package dev.cairn.platform.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;

/**
 * Checks one exchange (request and answer) against the served OpenAPI 3.1 document: the operation exists, its
 * parameters and body match their schemas, and the answer's status, media type, body and headers are the ones the
 * document gives for that status. Schemas are checked by networknt's JSON Schema 2020-12 validator (OpenAPI 3.1
 * schemas ARE JSON Schema 2020-12); this class only finds which schema applies.
 */
public final class OpenApiContract {

    /** Headers the API sets itself: each one an answer carries must be documented on that answer. */
    static final Set<String> API_HEADERS = Set.of("etag", "location", "retry-after", "www-authenticate",
            "x-dynamodb-calls", "x-dynamodb-capacity", "x-request-id", "server-timing");
    /** Documented headers an answer must carry whenever they are documented (not only when present). */
    static final Set<String> ALWAYS_SENT = Set.of("etag", "location");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonSchemaFactory SCHEMAS = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);

    private final JsonNode document;
    private final JsonNode definitions;
    private final List<Route> routes;
    private final Map<String, JsonSchema> compiled = new ConcurrentHashMap<>();

    private OpenApiContract(JsonNode document) {
        // "#/components/schemas/X" → "#/$defs/X": each checked schema is a root with the document's schemas as $defs.
        try {
            this.document = JSON.readTree(JSON.writeValueAsString(document).replace("\"#/components/schemas/", "\"#/$defs/"));
        } catch (Exception e) {
            throw new IllegalArgumentException("unreadable OpenAPI document", e);
        }
        this.definitions = this.document.path("components").path("schemas");
        this.routes = new ArrayList<>();
        this.document.path("paths").fields().forEachRemaining(path -> routes.add(Route.of(path.getKey(), path.getValue())));
        // Literal segments before parameters: /users/me would win over /users/{id}.
        routes.sort(Comparator.comparingInt(Route::parameterCount));
    }

    public static OpenApiContract of(JsonNode document) {
        return new OpenApiContract(document);
    }

    public JsonNode document() {
        return document;
    }

    /** One request as sent. */
    public record Request(String method, String path, Map<String, List<String>> query, Map<String, String> headers,
                          String contentType, String body) {
    }

    /** One answer as received. */
    public record Answer(int status, String contentType, Map<String, List<String>> headers, String body) {
    }

    /** What disagrees with the document; the request's problems and the answer's are told apart. */
    public record Verdict(List<String> request, List<String> answer) {
        public boolean agrees() {
            return request.isEmpty() && answer.isEmpty();
        }
    }

    public Verdict check(Request request, Answer answer) {
        var requestProblems = new ArrayList<String>();
        var answerProblems = new ArrayList<String>();
        var match = find(request.method(), request.path());
        if (match == null) {
            requestProblems.add("no operation " + request.method() + " " + request.path() + " in the document");
            // An undocumented route must be refused as a problem, like any bad request.
            if (answer.status() < 400 || answer.status() >= 500) {
                answerProblems.add("undocumented route answered " + answer.status());
            } else {
                checkBody(definitionRef("Problem"), answer.body(), "problem", answerProblems);
            }
            return new Verdict(requestProblems, answerProblems);
        }
        checkRequest(match, request, requestProblems);
        checkAnswer(match, answer, answerProblems);
        if (!requestProblems.isEmpty() && (answer.status() < 400 || answer.status() >= 500)) {
            answerProblems.add("a request the document refuses was answered " + answer.status() + " (expected a 4xx problem)");
        }
        return new Verdict(requestProblems, answerProblems);
    }

    // --- request ------------------------------------------------------------------------------------------------

    private void checkRequest(Match match, Request request, List<String> problems) {
        JsonNode operation = match.operation();
        for (JsonNode parameter : parameters(match)) {
            String name = parameter.path("name").asText();
            String in = parameter.path("in").asText();
            String value = switch (in) {
                case "path" -> match.pathValues().get(name);
                case "query" -> first(request.query().get(name));
                case "header" -> headerValue(request.headers(), name);
                default -> null;
            };
            if (value == null) {
                if (parameter.path("required").asBoolean(false)) {
                    problems.add(in + " parameter " + name + " is required");
                }
                continue;
            }
            JsonNode typed = typedValue(value, parameter.path("schema"));
            if (typed == null) {
                problems.add(in + " parameter " + name + "=" + value + " is not a " + parameter.path("schema").path("type").asText());
                continue;
            }
            validate(parameter.path("schema"), typed, in + " parameter " + name, problems);
        }
        JsonNode body = operation.path("requestBody");
        boolean sent = request.body() != null && !request.body().isEmpty();
        if (body.isMissingNode()) {
            if (sent) {
                problems.add("a body was sent, but the operation takes none");
            }
            return;
        }
        if (!sent) {
            if (body.path("required").asBoolean(false)) {
                problems.add("the operation requires a body");
            }
            return;
        }
        String type = baseType(request.contentType());
        JsonNode media = body.path("content").path(type == null ? "" : type);
        if (media.isMissingNode()) {
            problems.add("request Content-Type " + type + " is not one of " + names(body.path("content")));
            return;
        }
        checkBody(media.path("schema"), request.body(), "request body", problems);
    }

    private List<JsonNode> parameters(Match match) {
        var all = new ArrayList<JsonNode>();
        match.item().path("parameters").forEach(all::add);
        match.operation().path("parameters").forEach(all::add);
        return all;
    }

    // --- answer -------------------------------------------------------------------------------------------------

    private void checkAnswer(Match match, Answer answer, List<String> problems) {
        String status = Integer.toString(answer.status());
        JsonNode response = resolve(match.operation().path("responses").path(status));
        String where = match.method().toUpperCase(Locale.ROOT) + " " + match.template() + " → " + status;
        if (response.isMissingNode()) {
            problems.add(where + ": status not documented (documented: " + names(match.operation().path("responses")) + ")");
            return;
        }
        JsonNode content = response.path("content");
        boolean hasBody = answer.body() != null && !answer.body().isEmpty();
        if (content.isMissingNode() || content.isEmpty()) {
            if (hasBody) {
                problems.add(where + ": a body was sent where the document says none");
            }
        } else {
            String type = baseType(answer.contentType());
            JsonNode media = content.path(type == null ? "" : type);
            if (media.isMissingNode()) {
                problems.add(where + ": Content-Type " + type + " is not one of " + names(content));
            } else {
                checkBody(media.path("schema"), answer.body(), where + " body", problems);
            }
        }
        JsonNode documented = response.path("headers");
        var documentedNames = new java.util.HashSet<String>();
        var conditional = new java.util.HashSet<String>();
        documented.fields().forEachRemaining(header -> {
            documentedNames.add(header.getKey().toLowerCase(Locale.ROOT));
            // a header the document says is not always sent ("required": false) may be absent
            if (header.getValue().path("required").isBoolean() && !header.getValue().path("required").asBoolean()) {
                conditional.add(header.getKey().toLowerCase(Locale.ROOT));
            }
        });
        answer.headers().keySet().forEach(header -> {
            String name = header.toLowerCase(Locale.ROOT);
            if (API_HEADERS.contains(name) && !documentedNames.contains(name)) {
                problems.add(where + ": header " + header + " is sent but not documented");
            }
        });
        documentedNames.stream().filter(ALWAYS_SENT::contains).filter(name -> !conditional.contains(name))
                .filter(name -> answer.headers().keySet().stream().noneMatch(h -> h.equalsIgnoreCase(name)))
                .forEach(name -> problems.add(where + ": documented header " + name + " is not sent"));
    }

    // --- schemas ------------------------------------------------------------------------------------------------

    private void checkBody(JsonNode schema, String body, String what, List<String> problems) {
        JsonNode value;
        try {
            value = JSON.readTree(body == null || body.isEmpty() ? "null" : body);
        } catch (Exception e) {
            problems.add(what + " is not JSON");
            return;
        }
        validate(schema, value, what, problems);
    }

    private void validate(JsonNode schema, JsonNode value, String what, List<String> problems) {
        JsonSchema compiledSchema = compiled.computeIfAbsent(schema.toString(), key -> {
            ObjectNode root = schema.isObject() ? ((ObjectNode) schema).deepCopy() : JSON.createObjectNode();
            root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
            root.set("$defs", definitions);
            return SCHEMAS.getSchema(root);
        });
        Set<ValidationMessage> errors = compiledSchema.validate(value);
        errors.forEach(error -> problems.add(what + ": " + error.getMessage()));
    }

    /** A {@code $ref} to a shared response or header ({@code #/components/responses/NotFound}) is followed. */
    private JsonNode resolve(JsonNode node) {
        String ref = node.path("$ref").asText("");
        if (!ref.startsWith("#/")) {
            return node;
        }
        JsonNode target = document;
        for (String part : ref.substring(2).split("/")) {
            target = target.path(part);
        }
        return target;
    }

    private JsonNode definitionRef(String name) {
        return JSON.createObjectNode().put("$ref", "#/$defs/" + name);
    }

    private static JsonNode typedValue(String value, JsonNode schema) {
        var types = new ArrayList<String>();
        if (schema.path("type").isArray()) {
            schema.path("type").forEach(t -> types.add(t.asText()));
        } else if (schema.has("type")) {
            types.add(schema.path("type").asText());
        }
        if (types.contains("integer")) {
            try {
                return JSON.getNodeFactory().numberNode(Long.parseLong(value));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return JSON.getNodeFactory().textNode(value);
    }

    // --- routes -------------------------------------------------------------------------------------------------

    private record Match(String method, String template, JsonNode item, JsonNode operation, Map<String, String> pathValues) {
    }

    private record Route(String template, Pattern pattern, List<String> names, JsonNode item) {

        static Route of(String template, JsonNode item) {
            var names = new ArrayList<String>();
            var regex = new StringBuilder("^");
            var matcher = Pattern.compile("\\{([^}]+)}").matcher(template);
            int last = 0;
            while (matcher.find()) {
                regex.append(Pattern.quote(template.substring(last, matcher.start()))).append("([^/]+)");
                names.add(matcher.group(1));
                last = matcher.end();
            }
            regex.append(Pattern.quote(template.substring(last))).append("/?$");
            return new Route(template, Pattern.compile(regex.toString()), names, item);
        }

        int parameterCount() {
            return names.size();
        }
    }

    private Match find(String method, String path) {
        String lower = method.toLowerCase(Locale.ROOT);
        for (Route route : routes) {
            var matcher = route.pattern().matcher(path);
            if (matcher.matches() && route.item().has(lower)) {
                var values = new java.util.LinkedHashMap<String, String>();
                for (int i = 0; i < route.names().size(); i++) {
                    values.put(route.names().get(i), URLDecoder.decode(matcher.group(i + 1).replace("+", "%2B"), StandardCharsets.UTF_8));
                }
                return new Match(lower, route.template(), route.item(), route.item().path(lower), values);
            }
        }
        return null;
    }

    private static String first(List<String> values) {
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    private static String headerValue(Map<String, String> headers, String name) {
        return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name)).map(Map.Entry::getValue)
                .findFirst().orElse(null);
    }

    private static String baseType(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return null;
        }
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
    }

    private static List<String> names(JsonNode node) {
        Iterator<String> names = node.fieldNames();
        return StreamSupport.stream(((Iterable<String>) () -> names).spliterator(), false).toList();
    }
}
