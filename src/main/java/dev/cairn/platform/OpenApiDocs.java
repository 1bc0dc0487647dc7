package dev.cairn.platform;

import dev.cairn.core.CairnError;
import dev.cairn.core.model.ModelException;
import dev.cairn.declared.DeclaredOpenApi;
import dev.cairn.declared.ModelFiles;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.headers.Header;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.MediaType;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;
import org.eclipse.microprofile.openapi.models.security.SecurityScheme;

import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Makes the generated OpenAPI document say exactly what every operation answers. A BUILD-stage filter: it runs
 * once, while the app is built (in the build's class loader, which sees the app's classes and classpath resources),
 * and the finished document is stored in the app, so a start only reads it back (a runtime filter, such as one
 * registered as {@code mp.openapi.filter}, would make Quarkus 3.31 build the document at every start, ~0.7 s:
 * quarkusio/quarkus#54826). It must therefore depend on nothing known only at run time (configuration read at start,
 * CDI beans). Resources declare what only they know — operationId, summary, the request
 * body's entity, and the statuses their use case adds ({@code @APIResponse} without content); this filter adds
 * what follows from an operation's shape, by ONE set of rules:
 * <ul>
 *   <li>success: a POST answers 201 with {@code Location}; a DELETE 204 without body; a PATCH with a
 *       {@code cascade} parameter 200 or 202 with {@code Location}; an entity representation carries {@code ETag};
 *   <li>problems ({@code application/problem+json}, the {@code Problem} schema): 400 when the operation takes any
 *       input, 404 for a GET of one resource and for every write under a path parameter, 409 for every write,
 *       412 with {@code If-Match}, 413/415/422 with a body, 429 (with {@code Retry-After}) for every write,
 *       401/403/406/500 everywhere, 503 (with {@code Retry-After}) wherever the table is read;
 *   <li>request bodies: a merge patch is the entity's schema with every field optional (null removes it, objects
 *       merge recursively, arrays are replaced); a JSON Patch is an array of RFC 6902 operations;
 *   <li>schemas: {@code Page<X>} is named {@code XPage}; a property that is not required may be null; path ids
 *       and the shared query parameters ({@code limit}, {@code cursor}, ...) get their exact, portable constraints.
 * </ul>
 */
@OpenApiFilter(OpenApiFilter.RunStage.BUILD)
public class OpenApiDocs implements OASFilter {

    private static final String PROBLEM = "Problem";
    private static final String JSON_PATCH = "JsonPatch";
    private static final String BEARER = "bearer";
    private static final String MERGE_PATCH_SUFFIX = "MergePatch";
    private static final String PAGE_SUFFIX = "Page";
    private static final String REF_PREFIX = "#/components/schemas/";
    /** Operations that never read the table (no 503). */
    private static final Set<String> TABLE_FREE = Set.of("listAccessPatterns");
    /** Answers that are not one versioned entity carry no ETag. */
    private static final Set<String> UNVERSIONED = Set.of("CascadeJob", "ListBackfillJob", "UniqueBackfillJob", "ReconcileJob", "AccessPattern");

    /** An id in a path or body: 1 to 128 characters, not only white space, not . or .., no control characters (ECMA-262). */
    public static final String ID_PATTERN = ValidId.PATTERN;

    /** Bean Validation's {@code @NotBlank} in the document: what it refuses, not ECMA-262's wider {@code \S}. */
    @Override
    public Schema filterSchema(Schema schema) {
        if ("\\S".equals(schema.getPattern())) {
            schema.setPattern(ValidId.NOT_BLANK);
        }
        return schema;
    }

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getComponents() == null) {
            openAPI.setComponents(OASFactory.createComponents());
        }
        // Declared domains first: their operations then follow the same rules as the hand-written ones.
        try {
            DeclaredOpenApi.addTo(openAPI, ModelFiles.plan(Thread.currentThread().getContextClassLoader()));
        } catch (ModelException e) {
            // Left out here: the start reports the broken file itself, in one line (DeclaredModels).
        }
        var components = openAPI.getComponents();
        components.addSchema(PROBLEM, problemSchema());
        components.addSchema(JSON_PATCH, jsonPatchSchema());
        components.addSecurityScheme(BEARER, OASFactory.createSecurityScheme()
                .type(SecurityScheme.Type.HTTP).scheme("bearer").bearerFormat("JWT")
                .description("RS256 JWT; roles from the groups claim, workspace scope from the workspaces claim"));
        openAPI.setSecurity(List.of(OASFactory.createSecurityRequirement().addScheme(BEARER)));
        if (openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            return;
        }
        sharedComponents(openAPI);
        renamePages(openAPI);
        components.getSchemas().values().forEach(OpenApiDocs::optionalMayBeNull);
        components.getSchemas().values().forEach(OpenApiDocs::closed);
        openAPI.getPaths().getPathItems().forEach((path, item) -> {
            if (path.startsWith("/q/")) {
                return;
            }
            item.getOperations().forEach((method, operation) -> {
                parameters(operation);
                requestBody(openAPI, method, path, operation);
                immutableFields(openAPI, operation);
                successes(method, operation);
                problems(method, path, operation);
            });
        });
        pruneUnusedSchemas(openAPI);
    }

    /** A schema only a derived one was made from (an entity whose merge patch is documented) is not shown. */
    private static void pruneUnusedSchemas(OpenAPI openAPI) {
        var schemas = openAPI.getComponents().getSchemas();
        var used = new HashSet<String>();
        var pending = new ArrayDeque<Schema>();
        UnaryOperator<Schema> collect = schema -> {
            if (schema.getRef() != null && used.add(name(schema.getRef())) && schemas.containsKey(name(schema.getRef()))) {
                pending.add(schemas.get(name(schema.getRef())));
            }
            return schema;
        };
        openAPI.getPaths().getPathItems().values().forEach(item -> item.getOperations().values().forEach(operation -> {
            if (operation.getParameters() != null) {
                operation.getParameters().forEach(parameter -> eachSchema(parameter.getSchema(), collect));
            }
            if (operation.getRequestBody() != null) {
                eachMedia(operation.getRequestBody().getContent(), media -> eachSchema(media.getSchema(), collect));
            }
            if (operation.getResponses() != null) {
                operation.getResponses().getAPIResponses().values().forEach(response -> eachMedia(response.getContent(), media -> eachSchema(media.getSchema(), collect)));
            }
        }));
        openAPI.getComponents().getResponses().values().forEach(response -> eachMedia(response.getContent(), media -> eachSchema(media.getSchema(), collect)));
        while (!pending.isEmpty()) {
            eachSchema(pending.poll(), collect);
        }
        new ArrayList<>(schemas.keySet()).stream().filter(name -> !used.contains(name))
                .forEach(name -> openAPI.getComponents().removeSchema(name));
    }

    // --- parameters --------------------------------------------------------------------------------------------

    private static void parameters(Operation operation) {
        if (operation.getParameters() == null) {
            return;
        }
        for (Parameter parameter : operation.getParameters()) {
            Schema schema = switch (parameter.getIn()) {
                case PATH -> declaresType(parameter.getSchema()) ? parameter.getSchema()
                        : string().minLength(1).maxLength(Http.MAX_ID_LENGTH).pattern(ID_PATTERN);
                case QUERY -> queryParameter(parameter.getName(), parameter.getSchema());
                case HEADER -> "If-Match".equalsIgnoreCase(parameter.getName())
                        ? string().pattern("^(\\*|(W/)?\"[0-9]{1,18}\")$") : parameter.getSchema();
                default -> parameter.getSchema();
            };
            parameter.setSchema(schema);
            if (parameter.getIn() == Parameter.In.HEADER && "If-Match".equalsIgnoreCase(parameter.getName())) {
                parameter.description("The ETag of the version this write expects; a stale one answers 412");
            }
        }
    }

    /**
     * A path parameter that is not an id says so with {@code @Parameter(schema = ...)}: a type other than string, or
     * values of its own (an enum, a referenced schema such as a date: a natural index's key fields).
     */
    private static boolean declaresType(Schema schema) {
        return schema != null && (schema.getType() != null && !schema.getType().contains(SchemaType.STRING)
                || schema.getEnumeration() != null || schema.getRef() != null);
    }

    /** The shared query parameters; one that declares its own values (an enum) keeps them. */
    private static Schema queryParameter(String name, Schema declared) {
        if (declared != null && (declared.getEnumeration() != null || declared.getRef() != null)) {
            return declared;
        }
        return switch (name) {
            case "limit" -> OASFactory.createSchema().addType(SchemaType.INTEGER).minimum(BigDecimal.ONE)
                    .maximum(BigDecimal.valueOf(Http.MAX_LIMIT)).defaultValue(Http.DEFAULT_LIMIT);
            case "cursor" -> string().description("The opaque `next` of the previous page");
            case "cascade" -> string().enumeration(List.of("eventual", "transactional")).defaultValue("eventual");
            default -> string();
        };
    }

    // --- request bodies ----------------------------------------------------------------------------------------

    private static void requestBody(OpenAPI openAPI, PathItem.HttpMethod method, String path, Operation operation) {
        if (operation.getRequestBody() == null || operation.getRequestBody().getContent() == null) {
            return;
        }
        var content = operation.getRequestBody().getContent();
        // At build time the annotation scanner gives the media types of one body (application/json and
        // application/merge-patch+json) ONE shared object: each gets its own before it is rewritten.
        new ArrayList<>(content.getMediaTypes().entrySet()).forEach(entry -> content.addMediaType(entry.getKey(),
                OASFactory.createMediaType().schema(entry.getValue().getSchema()).example(entry.getValue().getExample())
                        .examples(entry.getValue().getExamples()).encoding(entry.getValue().getEncoding())
                        .extensions(entry.getValue().getExtensions())));
        content.getMediaTypes().forEach((type, media) -> {
            if (type.startsWith(MergePatcher.JSON_PATCH)) {
                media.setSchema(ref(JSON_PATCH));
            } else if (method == PathItem.HttpMethod.PATCH && media.getSchema() != null
                    && media.getSchema().getRef() != null) {
                media.setSchema(ref(mergePatchOf(openAPI, name(media.getSchema().getRef()))));
            } else if (method == PathItem.HttpMethod.PUT && media.getSchema() != null && media.getSchema().getRef() != null) {
                media.setSchema(ref(replacementOf(openAPI, name(media.getSchema().getRef()), lastParameter(path))));
            }
        });
    }

    /** A PUT takes the id from its path: in its body that field may be left out (but must not contradict it). */
    private static String replacementOf(OpenAPI openAPI, String input, String pathField) {
        var schemas = openAPI.getComponents().getSchemas();
        Schema source = schemas.get(input);
        if (pathField == null || source == null || source.getRequired() == null || !source.getRequired().contains(pathField)) {
            return input;
        }
        String name = input.replace("Input", "") + "Replacement";
        if (!schemas.containsKey(name)) {
            Schema replacement = OASFactory.createSchema().addType(SchemaType.OBJECT).additionalPropertiesBoolean(Boolean.FALSE)
                    .description(input + " for a PUT: `" + pathField + "` comes from the path and may be left out")
                    .properties(new LinkedHashMap<>(source.getProperties()))
                    .required(source.getRequired().stream().filter(field -> !field.equals(pathField)).toList());
            openAPI.getComponents().addSchema(name, replacement);
        }
        return name;
    }

    private static String lastParameter(String path) {
        int open = path.lastIndexOf('{');
        return open < 0 || !path.endsWith("}") ? null : path.substring(open + 1, path.length() - 1);
    }

    /** The RFC 7396 view of an entity schema: every field optional and nullable; nested objects merge the same way. */
    private static String mergePatchOf(OpenAPI openAPI, String entity) {
        String name = entity + MERGE_PATCH_SUFFIX;
        var schemas = openAPI.getComponents().getSchemas();
        Schema source = schemas.get(entity);
        if (source == null || source.getProperties() == null) {
            return entity; // an enum or a scalar is replaced whole
        }
        if (schemas.containsKey(name)) {
            return name;
        }
        // Left open: removing a field the entity does not have ({"x": null}) is a no-op the service accepts, and
        // `additionalProperties: {type: null}` would say so exactly but breaks openapi-generator's Java models.
        Schema patch = OASFactory.createSchema().addType(SchemaType.OBJECT)
                .description("RFC 7396 merge patch of " + entity + ": fields to change; null removes an optional field."
                        + " Any other member must be null (a no-op); a non-null unknown member is refused (400)");
        openAPI.getComponents().addSchema(name, patch);
        source.getProperties().forEach((field, property) -> {
            if (readOnly(property)) {
                return; // only ever answered (a timestamp, an included page): a patch has nothing to say about it
            }
            patch.addProperty(field, nullable(mergePatchProperty(openAPI, property)));
        });
        return name;
    }

    /**
     * A property as a merge patch sends it, always a copy (the entity's own property stays as it is: a required field
     * is not nullable there): an object written inline merges like the entity, its fields optional and nullable at every
     * depth; a referenced schema is its own merge patch; anything else (an array, a scalar) is replaced whole.
     */
    private static Schema mergePatchProperty(OpenAPI openAPI, Schema property) {
        if (property.getRef() != null) {
            return ref(mergePatchOf(openAPI, name(property.getRef())));
        }
        Schema target = copy(property);
        if (property.getProperties() != null) {
            List<String> required = property.getRequired() == null ? List.of() : property.getRequired();
            String merge = "Merged into the stored object: fields to change; null removes an optional field. Any other"
                    + " member must be null (a no-op); a non-null unknown member is refused (400)"
                    + (required.isEmpty() ? "" : ". Where the object is absent the merge makes it, and it must then hold "
                    + String.join(", ", required) + " (else 400)");
            target.setDescription(property.getDescription() == null ? merge : property.getDescription() + ". " + merge);
            target.setRequired(null);
            // open, as the entity's own merge patch: a null for a member the object does not have is a no-op
            target.setAdditionalPropertiesBoolean(null);
            var fields = new LinkedHashMap<String, Schema>();
            property.getProperties().forEach((field, nested) -> {
                if (!readOnly(nested)) {
                    fields.put(field, nullable(mergePatchProperty(openAPI, nested)));
                }
            });
            target.setProperties(fields);
        }
        return target;
    }

    private static boolean readOnly(Schema property) {
        return Boolean.TRUE.equals(property.getReadOnly())
                || property.getAnyOf() != null && property.getAnyOf().stream().anyMatch(s -> Boolean.TRUE.equals(s.getReadOnly()));
    }

    /**
     * The fields a PATCH refuses to change ({@code x-immutable} on the operation, comma separated) are readOnly in its
     * merge patch: they may be sent only with their current value. The extension itself is not published.
     */
    private static void immutableFields(OpenAPI openAPI, Operation operation) {
        Object declared = operation.getExtensions() == null ? null : operation.getExtensions().get(IMMUTABLE);
        if (declared == null) {
            return;
        }
        operation.removeExtension(IMMUTABLE);
        if (operation.getRequestBody() == null) {
            return;
        }
        eachMedia(operation.getRequestBody().getContent(), media -> {
            Schema patch = media.getSchema() == null || media.getSchema().getRef() == null ? null
                    : openAPI.getComponents().getSchemas().get(name(media.getSchema().getRef()));
            if (patch == null || patch.getProperties() == null || !name(media.getSchema().getRef()).endsWith(MERGE_PATCH_SUFFIX)) {
                return;
            }
            for (String field : declared.toString().split(",")) {
                Schema property = patch.getProperties().get(field.trim());
                if (property != null) {
                    property.readOnly(Boolean.TRUE).description("Cannot be changed: may be sent only with its current value");
                }
            }
        });
    }

    /** A shallow copy whose lists (types, enum values, required) can change without touching the original. */
    private static Schema copy(Schema schema) {
        Schema copy = OASFactory.createSchema();
        copy.setAll(new LinkedHashMap<>(schema.getAll()));
        if (schema.getType() != null) {
            copy.setType(new ArrayList<>(schema.getType()));
        }
        if (schema.getEnumeration() != null) {
            copy.setEnumeration(new ArrayList<>(schema.getEnumeration()));
        }
        return copy;
    }

    // --- answers -----------------------------------------------------------------------------------------------

    /** The extension that marks a POST as an action answering 200 (e.g. one page of a backfill), not a create. */
    public static final String ACTION = "x-action";
    /** The extension that lists the fields a PATCH refuses to change (comma separated); see immutableFields. */
    public static final String IMMUTABLE = "x-immutable";

    /**
     * The conflict statuses whose answer shows the item as it is now ({@code current} and its ETag), e.g. "409,412"
     * on a declared entity's write: read here to pick those answers' components, then removed.
     */
    public static final String SHOWS_CURRENT = "x-shows-current";

    private static boolean isAction(Operation operation) {
        return operation.getExtensions() != null && operation.getExtensions().containsKey(ACTION);
    }

    private static void successes(PathItem.HttpMethod method, Operation operation) {
        APIResponses responses = operation.getResponses() == null ? OASFactory.createAPIResponses() : operation.getResponses();
        operation.setResponses(responses);
        responses.removeAPIResponse("default");
        boolean cascades = hasParameter(operation, "cascade");
        APIResponse ok = responses.getAPIResponse("200");
        // A POST creates (201 + Location) unless it is marked as an action that creates nothing.
        if (method == PathItem.HttpMethod.POST && ok != null && !isAction(operation)) {
            responses.removeAPIResponse("200");
            responses.addAPIResponse("201", ok.description("Created").addHeader("Location", header("The new resource", SchemaType.STRING)));
        }
        APIResponse created = responses.getAPIResponse("201");
        if (created != null && ok != null && created.getContent() == null) {
            created.setContent(ok.getContent());
            responses.removeAPIResponse("200");
        }
        if (created != null && (created.getHeaders() == null || !created.getHeaders().containsKey("Location"))) {
            created.addHeader("Location", header("The new resource", SchemaType.STRING));
        }
        if (cascades && responses.getAPIResponse("200") != null) {
            var done = responses.getAPIResponse("200");
            done.description("The entity is updated and its cascade has ended: the cascade's report and the entity");
            responses.addAPIResponse("202", OASFactory.createAPIResponse()
                    .description("The entity is updated; its cascade job goes on (eventual mode): the report so far")
                    .content(done.getContent())
                    .addHeader("Location", header("The cascade job: GET /cascades/{id}", SchemaType.STRING)));
        }
        responses.getAPIResponses().forEach((status, response) -> {
            if (!status.startsWith("2")) {
                return;
            }
            if (status.equals("204")) {
                response.setContent(null);
            }
            if (response.getContent() != null) {
                response.getContent().getMediaTypes().forEach((type, media) -> {
                    if (versioned(media.getSchema())) {
                        response.addHeader("ETag", OASFactory.createHeader().ref("#/components/headers/ETag"));
                    }
                });
            }
            diagnostics(response);
        });
    }

    /** The problem answers every operation shares, as components: statuses → (name, description). */
    private static final Map<String, String[]> PROBLEMS = new TreeMap<>(Map.ofEntries(
            Map.entry("400", new String[]{"BadRequest", "Invalid input: a malformed id, parameter, cursor or body (`errors` names the fields)"}),
            Map.entry("401", new String[]{"Unauthorized", "No bearer token, or a refused one"}),
            Map.entry("403", new String[]{"Forbidden", "The token lacks the role or the workspace scope this operation needs"}),
            Map.entry("404", new String[]{"NotFound", "No such resource"}),
            Map.entry("406", new String[]{"NotAcceptable", "The Accept header excludes application/json"}),
            Map.entry("409", new String[]{"Conflict", "Conflict: it exists already, is still referenced, or changed meanwhile"}),
            Map.entry("412", new String[]{"PreconditionFailed", "If-Match names another version than the current one"}),
            Map.entry("409+current", new String[]{"ConflictShowingCurrent", "Conflict: it exists already, is still referenced, or changed meanwhile; where the write found the item, `current` shows it as it is now and `ETag` names its version"}),
            Map.entry("412+current", new String[]{"PreconditionFailedShowingCurrent", "If-Match names another version than the current one: `current` shows the item as it is now and `ETag` names its version (to a caller who may read it)"}),
            Map.entry("413", new String[]{"PayloadTooLarge", "The body is larger than 1 MiB, or a patch has too many operations, would make the document too large or would do too much work (`limit`, `limitBytes`, `limitWork`)"}),
            Map.entry("415", new String[]{"UnsupportedMediaType", "The Content-Type is not one this operation reads"}),
            Map.entry("422", new String[]{"Unprocessable", "Well-formed but not storable: a reference names nothing, or an item or transaction is too large"}),
            Map.entry("429", new String[]{"TooManyRequests", "A per-caller limit is spent (`rateLimit`: its writes, the cascade copies its writes cause, or the DynamoDB read capacity its reads consume); nothing was done; retry after Retry-After"}),
            Map.entry("500", new String[]{"InternalError", "The service's own fault: DynamoDB refused its credentials or permissions, or a failure nobody foresaw; the problem says nothing internal"}),
            Map.entry("503", new String[]{"Unavailable", "DynamoDB is unavailable or busy, or the aggregate is being written; retry after Retry-After"})));

    private static void sharedComponents(OpenAPI openAPI) {
        var components = openAPI.getComponents();
        components.addHeader(DiagnosticsFilter.REQUEST_ID, header("The request's id: the caller's X-Request-Id when sane, else a new one; in every log line", SchemaType.STRING));
        components.addHeader(DiagnosticsFilter.CALLS, header("DynamoDB API requests made to answer (retries included)", SchemaType.INTEGER));
        components.addHeader(DiagnosticsFilter.CAPACITY, header("Consumed capacity units; absent on a 404, where it would tell a missing item from one the caller may not see", SchemaType.NUMBER));
        components.addHeader("Server-Timing", header("dynamodb;dur=<ms>;desc=\"<calls>, <capacity>\" (a 404's without the capacity)", SchemaType.STRING));
        components.addHeader("ETag", header("The version of what the body shows, for If-Match", SchemaType.STRING));
        components.addHeader("Cache-Control", header("no-store: answers are one caller's data, not for caches", SchemaType.STRING));
        components.addHeader("X-Content-Type-Options", header("nosniff", SchemaType.STRING));
        PROBLEMS.forEach((status, named) -> {
            var response = OASFactory.createAPIResponse().description(named[1]);
            problemContent(status.replace("+current", ""), response);
            if (status.endsWith("+current")) {
                response.addHeader("ETag", header("The version of the item `current` shows, for the next If-Match; "
                        + "absent when `current` is absent", SchemaType.STRING).required(false));
            }
            components.addResponse(named[0], response);
        });
    }

    private static void problems(PathItem.HttpMethod method, String path, Operation operation) {
        APIResponses responses = operation.getResponses();
        boolean write = method != PathItem.HttpMethod.GET;
        boolean underParameter = path.contains("{");
        boolean body = operation.getRequestBody() != null;
        boolean page = responses.getAPIResponse("200") != null && isPage(responses.getAPIResponse("200"));
        var statuses = new TreeSet<String>(List.of("401", "403", "406", "500"));
        // A DELETE answers 204 without a body: no Accept header can make that unacceptable.
        if (method == PathItem.HttpMethod.DELETE) {
            statuses.remove("406");
        }
        if (operation.getParameters() != null && !operation.getParameters().isEmpty() || body) {
            statuses.add("400");
        }
        if (underParameter && (write || !page)) {
            statuses.add("404");
        }
        if (write && !isAction(operation)) {
            statuses.add("409");
        }
        if (hasParameter(operation, "If-Match")) {
            statuses.add("412");
        }
        if (body) {
            statuses.addAll(List.of("415", "422"));
        }
        // The body limit (quarkus.http.limits.max-body-size) is checked before any route: an operation that takes no
        // body answers 413 to one over it all the same.
        statuses.add("413");
        // Every request passes the per-caller limits (platform.limits.LimitFilter): writes their rate, reads their
        // read capacity.
        statuses.add("429");
        if (operation.getOperationId() == null || !TABLE_FREE.contains(operation.getOperationId())) {
            statuses.add("503");
        }
        // An operation's own description of a status (an @APIResponse without content) keeps its words.
        responses.getAPIResponses().forEach((status, response) -> {
            if (!status.startsWith("2") && response.getRef() == null) {
                problemContent(status, response);
            }
        });
        Object showing = operation.getExtensions() == null ? null : operation.getExtensions().get(SHOWS_CURRENT);
        var showsCurrent = showing == null ? java.util.Set.<String>of() : java.util.Set.of(showing.toString().split(","));
        operation.removeExtension(SHOWS_CURRENT);
        statuses.forEach(status -> {
            if (responses.getAPIResponse(status) == null) {
                String named = showsCurrent.contains(status) ? status + "+current" : status;
                responses.addAPIResponse(status, OASFactory.createAPIResponse().ref("#/components/responses/" + PROBLEMS.get(named)[0]));
            }
        });
        responses.setAPIResponses(new TreeMap<>(responses.getAPIResponses()));
    }

    private static void problemContent(String status, APIResponse response) {
        response.setContent(OASFactory.createContent().addMediaType(ProblemMapper.PROBLEM_JSON,
                OASFactory.createMediaType().schema(ref(PROBLEM))));
        if (status.equals("401")) {
            response.addHeader("WWW-Authenticate", header("Bearer, with error=\"invalid_token\" when a token was refused", SchemaType.STRING));
        }
        if (status.equals("503") || status.equals("429")) {
            response.addHeader("Retry-After", header("Seconds to wait before retrying", SchemaType.INTEGER));
        }
        diagnostics(response);
    }

    /** What every answer of the API carries. */
    private static void diagnostics(APIResponse response) {
        for (String name : List.of(DiagnosticsFilter.REQUEST_ID, DiagnosticsFilter.CALLS, DiagnosticsFilter.CAPACITY,
                "Server-Timing", "Cache-Control", "X-Content-Type-Options")) {
            response.addHeader(name, OASFactory.createHeader().ref("#/components/headers/" + name));
        }
    }

    // --- schemas -----------------------------------------------------------------------------------------------

    /** {@code PageProjectView} → {@code ProjectViewPage} (the item schema's name first), everywhere it is used. */
    private static void renamePages(OpenAPI openAPI) {
        var schemas = openAPI.getComponents().getSchemas();
        var renamed = new LinkedHashMap<String, String>();
        new ArrayList<>(schemas.keySet()).forEach(name -> {
            Schema schema = schemas.get(name);
            if (schema.getProperties() == null || !schema.getProperties().keySet().equals(Set.of("items", "next"))) {
                return;
            }
            String to = name;
            if (name.startsWith(PAGE_SUFFIX)) {
                Schema items = schema.getProperties().get("items").getItems();
                to = (items != null && items.getRef() != null ? name(items.getRef()) : name.substring(PAGE_SUFFIX.length())) + PAGE_SUFFIX;
                renamed.put(REF_PREFIX + name, REF_PREFIX + to);
                openAPI.getComponents().removeSchema(name);
                openAPI.getComponents().addSchema(to, schema);
            }
            schema.description("One page, and the cursor of the next page (null on the last page)");
            schema.required(List.of("items", "next"));
            schema.addProperty("next", nullable(schema.getProperties().get("next")));
        });
        UnaryOperator<Schema> rename = schema -> {
            if (schema != null && schema.getRef() != null && renamed.containsKey(schema.getRef())) {
                schema.setRef(renamed.get(schema.getRef()));
            }
            return schema;
        };
        schemas.values().forEach(schema -> eachSchema(schema, rename));
        openAPI.getPaths().getPathItems().values().forEach(item -> item.getOperations().values().forEach(operation -> {
            if (operation.getResponses() != null) {
                operation.getResponses().getAPIResponses().values().forEach(response -> eachMedia(response.getContent(), media -> eachSchema(media.getSchema(), rename)));
            }
        }));
    }

    /** Visits a schema and every schema nested in it. */
    private static void eachSchema(Schema schema, UnaryOperator<Schema> visit) {
        if (schema == null) {
            return;
        }
        visit.apply(schema);
        if (schema.getProperties() != null) {
            schema.getProperties().values().forEach(property -> eachSchema(property, visit));
        }
        eachSchema(schema.getItems(), visit);
        for (List<Schema> list : Arrays.asList(schema.getAnyOf(), schema.getAllOf(), schema.getOneOf())) {
            if (list != null) {
                list.forEach(nested -> eachSchema(nested, visit));
            }
        }
        eachSchema(schema.getAdditionalPropertiesSchema(), visit);
    }

    private static boolean isPage(APIResponse response) {
        var schema = firstSchema(response.getContent());
        return schema != null && schema.getRef() != null && schema.getRef().endsWith(PAGE_SUFFIX);
    }

    private static boolean versioned(Schema schema) {
        if (schema == null || schema.getRef() == null) {
            return false;
        }
        String name = name(schema.getRef());
        return !name.endsWith(PAGE_SUFFIX) && !UNVERSIONED.contains(name);
    }

    /**
     * An object with declared fields has no others: answers send exactly these, and requests with an unknown field
     * are refused (Jackson fails on unknown properties). Maps declare their values instead.
     */
    private static void closed(Schema schema) {
        if (schema.getProperties() != null && !schema.getProperties().isEmpty()
                && schema.getAdditionalPropertiesSchema() == null && schema.getAdditionalPropertiesBoolean() == null) {
            schema.setAdditionalPropertiesBoolean(Boolean.FALSE);
        }
    }

    /** JSON answers write null for absent fields: a property that is not required may be null. */
    private static void optionalMayBeNull(Schema schema) {
        if (schema.getProperties() == null) {
            return;
        }
        List<String> required = schema.getRequired() == null ? List.of() : schema.getRequired();
        var properties = new LinkedHashMap<String, Schema>();
        schema.getProperties().forEach((field, property) -> properties.put(field, required.contains(field) ? property : nullable(property)));
        schema.setProperties(properties);
    }

    private static Schema nullable(Schema property) {
        if (property.getRef() != null || property.getType() == null) {
            return property.getType() == null && property.getRef() == null && property.getAnyOf() != null
                    ? property : OASFactory.createSchema().anyOf(List.of(property, OASFactory.createSchema().addType(SchemaType.NULL)));
        }
        if (!property.getType().contains(SchemaType.NULL)) {
            property.addType(SchemaType.NULL);
        }
        if (property.getEnumeration() != null && !property.getEnumeration().contains(null)) {
            var values = new ArrayList<Object>(property.getEnumeration());
            values.add(null);
            property.setEnumeration(values);
        }
        return property;
    }

    static List<String> codes() {
        return Arrays.stream(CairnError.class.getPermittedSubclasses()).map(Class::getSimpleName)
                .filter(name -> !name.equals("FieldError") && !name.equals("ActionFailure")).sorted().toList();
    }

    /** The problem's members; those after {@code code} are the extensions some codes add (CairnError.extensions). */
    private static Schema problemSchema() {
        Schema integer = OASFactory.createSchema().addType(SchemaType.INTEGER);
        Schema stringMap = OASFactory.createSchema().addType(SchemaType.OBJECT).additionalPropertiesSchema(string());
        return OASFactory.createSchema().addType(SchemaType.OBJECT)
                .description("RFC 9457 problem details with Cairn's stable code, and the members some codes add")
                .addProperty("type", string())
                .addProperty("title", string())
                .addProperty("status", OASFactory.createSchema().addType(SchemaType.INTEGER).minimum(BigDecimal.valueOf(400)).maximum(BigDecimal.valueOf(599)))
                .addProperty("detail", string())
                .addProperty("instance", string())
                .addProperty("code", string().enumeration(List.copyOf(codes())))
                .addProperty("errors", OASFactory.createSchema().addType(SchemaType.ARRAY).description("ValidationFailed: each field and what is wrong with it")
                        .items(OASFactory.createSchema().addType(SchemaType.OBJECT)
                                .addProperty("field", string()).addProperty("message", string())
                                .required(List.of("field", "message"))))
                .addProperty("requiredRole", string().description("Forbidden: the role the operation needs"))
                .addProperty("expectedVersion", integer.description("VersionConflict: the version If-Match or the write expected"))
                .addProperty("actualVersion", OASFactory.createSchema().addType(SchemaType.INTEGER).description("VersionConflict: the current version"))
                .addProperty("current", OASFactory.createSchema().addType(SchemaType.OBJECT).description("A write of a "
                        + "declared entity refused because the item changed (412, or 409 after a concurrent write) or "
                        + "exists already (409 on a create), and an aggregate's 412: the item as it is now, exactly as "
                        + "its GET answers it, with its version in the ETag header — to a caller who may read it, and "
                        + "only where the failed write found it (no extra call); absent otherwise"))
                .addProperty("field", string().description("RefNotFound: the input field holding the reference"))
                .addProperty("refId", string().description("RefNotFound: the id that names nothing; RefChanged: the id of the entity that changed"))
                .addProperty("refEntity", string().description("RefNotFound: the entity type it should name; RefChanged: its entity type"))
                .addProperty("missing", OASFactory.createSchema().addType(SchemaType.ARRAY).items(stringMap)
                        .description("RefNotFound: every missing reference (field, refId, refEntity)"))
                .addProperty("constraint", string().description("UniqueViolation: the declared unique constraint a value of "
                        + "the write is taken under (the other item is never named)"))
                .addProperty("fields", OASFactory.createSchema().addType(SchemaType.ARRAY).items(string())
                        .description("UniqueViolation: the constraint's fields, then its scope's"))
                .addProperty("aggregate", string().description("Aggregate errors: the aggregate type"))
                .addProperty("group", string().description("AggregateTransactionOverflow: the write group that is too large"))
                .addProperty("itemCount", OASFactory.createSchema().addType(SchemaType.INTEGER))
                .addProperty("limit", OASFactory.createSchema().addType(SchemaType.INTEGER))
                .addProperty("member", string().description("AggregateDecompositionError: the member that cannot be stored"))
                .addProperty("reason", string().description("AggregateAssemblyError: why the stored aggregate cannot be read"))
                .addProperty("actions", OASFactory.createSchema().addType(SchemaType.INTEGER))
                .addProperty("count", OASFactory.createSchema().addType(SchemaType.INTEGER).description("StillReferenced: the items that embed the entity"))
                .addProperty("sizeBytes", OASFactory.createSchema().addType(SchemaType.INTEGER))
                .addProperty("limitBytes", OASFactory.createSchema().addType(SchemaType.INTEGER))
                .addProperty("limitWork", OASFactory.createSchema().addType(SchemaType.INTEGER)
                        .description("PayloadTooLarge: the work units one JSON Patch may spend (cairn.patch.max-work)"))
                .addProperty("rateLimit", string().enumeration(List.of("writes", "cascade-copies", "read-capacity"))
                        .description("RateLimited: the per-caller limit that is spent"))
                .addProperty("runningJobs", OASFactory.createSchema().addType(SchemaType.ARRAY).items(string())
                        .description("MaintenanceBusy: the maintenance jobs holding every scan slot"))
                .addProperty("failures", OASFactory.createSchema().addType(SchemaType.ARRAY)
                        .description("TransactionCanceled: the actions that failed, by index, the item (entity and id) and reason")
                        .items(OASFactory.createSchema().addType(SchemaType.OBJECT)
                                .addProperty("index", OASFactory.createSchema().addType(SchemaType.INTEGER))
                                .addProperty("item", string()).addProperty("reason", string())))
                .required(List.of("type", "title", "status", "code"));
    }

    private static Schema jsonPatchSchema() {
        var operation = OASFactory.createSchema().addType(SchemaType.OBJECT)
                .addProperty("op", string().enumeration(List.of("add", "remove", "replace", "move", "copy", "test")))
                .addProperty("path", string().description("JSON Pointer (RFC 6901) into the input shape"))
                .addProperty("from", string())
                .addProperty("value", OASFactory.createSchema().description("Any JSON value"))
                .required(List.of("op", "path"));
        return OASFactory.createSchema().addType(SchemaType.ARRAY).items(operation)
                .description("RFC 6902 JSON Patch: operations applied in order to the input shape, all or nothing");
    }

    // --- small helpers -----------------------------------------------------------------------------------------

    private static boolean hasParameter(Operation operation, String name) {
        return operation.getParameters() != null
                && operation.getParameters().stream().anyMatch(p -> name.equalsIgnoreCase(p.getName()));
    }

    private static void eachMedia(Content content, Consumer<MediaType> action) {
        if (content != null && content.getMediaTypes() != null) {
            content.getMediaTypes().values().forEach(action);
        }
    }

    private static Schema firstSchema(Content content) {
        if (content == null || content.getMediaTypes() == null || content.getMediaTypes().isEmpty()) {
            return null;
        }
        return content.getMediaTypes().values().iterator().next().getSchema();
    }

    private static String name(String ref) {
        return ref.substring(ref.lastIndexOf('/') + 1);
    }

    private static Schema ref(String name) {
        return OASFactory.createSchema().ref(REF_PREFIX + name);
    }

    private static Schema string() {
        return OASFactory.createSchema().addType(SchemaType.STRING);
    }

    private static Header header(String description, SchemaType type) {
        return OASFactory.createHeader().description(description).schema(OASFactory.createSchema().addType(type));
    }
}
