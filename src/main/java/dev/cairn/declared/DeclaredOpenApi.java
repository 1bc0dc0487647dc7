package dev.cairn.declared;

import dev.cairn.core.model.DomainModel;
import dev.cairn.core.model.DomainPlan;
import dev.cairn.core.model.EntityModel;
import dev.cairn.core.model.FieldModel;
import dev.cairn.core.model.ListModel;
import dev.cairn.core.model.ModelReader;
import dev.cairn.core.model.NaturalIndexModel;
import dev.cairn.core.model.OperationModel;
import dev.cairn.core.model.OperationModel.Op;
import dev.cairn.core.model.ViewModel;
import dev.cairn.platform.Http;
import dev.cairn.platform.MergePatcher;
import dev.cairn.platform.ValidId;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.tags.Tag;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The declared operations in the OpenAPI document, as the resource scanner would describe hand-written ones: the
 * operationId and summary, path, query and header parameters, the request body's schema and the success answer's.
 * {@link dev.cairn.platform.OpenApiDocs} then adds what follows from each operation's shape (statuses, problems,
 * headers, merge-patch schemas), by the same rules as for every other operation. Field constraints become schema
 * constraints as Bean Validation's annotations would: required strings non-blank ({@code pattern: \S}), ids
 * as {@link ValidId#PATTERN} (1 to 128 characters, no control characters, not . or ..), lengths, ranges, patterns and
 * enum values.
 */
public final class DeclaredOpenApi {

    private static final String REF = "#/components/schemas/";
    private static final String CASCADE_REPORT = "CascadeReport";
    private static final String IMMUTABLE = "x-immutable";
    private static final String LOCAL_DATE = "LocalDate";
    private static final String INSTANT = "Instant";
    private static final BigDecimal INT_MIN = BigDecimal.valueOf(Integer.MIN_VALUE);
    private static final BigDecimal INT_MAX = BigDecimal.valueOf(Integer.MAX_VALUE);

    private DeclaredOpenApi() {
    }

    /** Adds every declared domain's operations, schemas and tag. */
    public static void addTo(OpenAPI openAPI, DomainPlan plan) {
        if (openAPI.getComponents() == null) {
            openAPI.setComponents(OASFactory.createComponents());
        }
        if (openAPI.getPaths() == null) {
            openAPI.setPaths(OASFactory.createPaths());
        }
        // The scanner's schemas of java.time types, which declared dates and instants refer to.
        var schemas = openAPI.getComponents();
        if (schemas.getSchemas() == null || !schemas.getSchemas().containsKey(LOCAL_DATE)) {
            schemas.addSchema(LOCAL_DATE, string().format("date").examples(List.of("2022-03-10")));
        }
        if (!schemas.getSchemas().containsKey(INSTANT)) {
            schemas.addSchema(INSTANT, string().format("date-time").examples(List.of("2022-03-10T16:15:50Z")));
        }
        namedEnums(openAPI, plan);
        for (DomainModel domain : plan.domains()) {
            addTag(openAPI, domain);
            for (EntityModel entity : domain.entities().values()) {
                addEntity(openAPI, domain, entity, plan.cascade(entity.name()) != null);
            }
            for (EntityModel entity : domain.entities().values()) {
                addIncludes(openAPI, domain, entity);
            }
            for (ViewModel view : domain.views()) {
                addView(openAPI, domain, view);
            }
            AggregateOpenApi.addTo(openAPI, domain, plan);
        }
    }

    /** Every named enum of the declared fields (entities' and aggregates'), as a schema of its own. */
    private static void namedEnums(OpenAPI openAPI, DomainPlan plan) {
        var fields = new ArrayList<FieldModel>();
        plan.entities().forEach(entity -> fields.addAll(entity.model().fields()));
        plan.aggregates().forEach(aggregate -> fields.addAll(aggregate.inputFields()));
        while (!fields.isEmpty()) {
            FieldModel field = fields.remove(fields.size() - 1);
            if (field.schema() != null && field.kind() == FieldModel.Kind.ENUM) {
                openAPI.getComponents().addSchema(field.schema(), string().enumeration(new ArrayList<>(field.values())));
            }
            if (field.fields() != null) {
                fields.addAll(field.fields());
            }
            if (field.items() != null) {
                fields.add(field.items());
            }
        }
    }

    private static void addTag(OpenAPI openAPI, DomainModel domain) {
        if (openAPI.getTags() != null && openAPI.getTags().stream().anyMatch(t -> t.getName().equals(domain.name()))) {
            return;
        }
        openAPI.addTag(OASFactory.createTag().name(domain.name()).description(domain.description()));
        var tags = new ArrayList<>(openAPI.getTags());
        tags.sort(Comparator.comparing(Tag::getName));
        openAPI.setTags(tags);
    }

    /**
     * The 409 of a write that may take a unique value: the usual conflict (showing the item where it found it), or
     * the value taken — the constraint and its fields named, the other item never.
     */
    static org.eclipse.microprofile.openapi.models.responses.APIResponse uniqueConflict(
            List<dev.cairn.core.model.UniqueModel> unique) {
        String rules = String.join("; ", unique.stream().map(dev.cairn.core.model.UniqueModel::describe).toList());
        return OASFactory.createAPIResponse().description("Conflict: it exists already or changed meanwhile (where the "
                        + "write found the item, `current` shows it as it is now and `ETag` names its version); or a unique "
                        + "value is taken (code UniqueViolation: `constraint` and `fields` name it, never the item that holds "
                        + "it; or, for an item written before the constraint was declared, the value it gives up is "
                        + "another's). " + rules)
                .addHeader("ETag", OASFactory.createHeader().description("The version of the item `current` shows, for "
                        + "the next If-Match; absent when `current` is absent").required(false)
                        .schema(OASFactory.createSchema().addType(Schema.SchemaType.STRING)));
    }

    /** The unique values a schema's items hold: in its description and as {@code x-cairn-unique}. */
    static void uniqueRules(Schema schema, List<dev.cairn.core.model.UniqueModel> constraints) {
        if (constraints.isEmpty()) {
            return;
        }
        var rules = new ArrayList<Object>();
        for (var unique : constraints) {
            var rule = new java.util.LinkedHashMap<String, Object>();
            rule.put("name", unique.name());
            rule.put("fields", unique.fields());
            if (!unique.scope().isEmpty()) {
                rule.put("scope", unique.scope());
            }
            rule.put("case", unique.caseInsensitive() ? "insensitive" : "exact");
            rules.add(rule);
        }
        schema.addExtension("x-cairn-unique", rules);
        String said = "Unique: " + String.join("; ", constraints.stream()
                .map(dev.cairn.core.model.UniqueModel::describe).toList()) + ".";
        String described = schema.getDescription();
        schema.description(described == null ? said
                : described + (described.endsWith(".") ? " " : ". ") + said);
    }

    private static void addEntity(OpenAPI openAPI, DomainModel domain, EntityModel entity, boolean cascades) {
        var schemas = openAPI.getComponents();
        Schema answerSchema = objectSchema(entity.fields(), false);
        uniqueRules(answerSchema, entity.unique());
        // Timestamps are answered, never written: readOnly keeps them out of the merge patch.
        entity.timestamps().forEach(name -> answerSchema.addProperty(name, answerOnly(ref(INSTANT))));
        schemas.addSchema(entity.name(), answerSchema);
        boolean separateInput = entity.fields().stream().anyMatch(FieldModel::serverSet);
        String input = entity.name();
        if (separateInput) {
            input = entity.inputSchema() != null ? entity.inputSchema() : entity.name() + "Input";
            Schema inputSchema = objectSchema(entity.fields(), true);
            inputSchema.description(entity.inputDescription() != null ? entity.inputDescription()
                    : "The body that creates " + article(entity.name()) + " " + entity.name().toLowerCase(java.util.Locale.ROOT));
            uniqueRules(inputSchema, entity.unique());
            schemas.addSchema(input, inputSchema);
        }
        String answer = entity.name();
        String changed = cascades ? CASCADE_REPORT : answer;
        for (var entry : entity.operations().entrySet()) {
            OperationModel op = entry.getValue();
            Operation operation = operation(domain, op);
            String path = entity.routeOf(op);
            switch (entry.getKey()) {
                case CREATE -> {
                    pathParameters(operation, path);
                    operation.requestBody(OASFactory.createRequestBody().required(true).content(json(input)));
                    operation.responses(OASFactory.createAPIResponses().addAPIResponse("200", ok("OK", answer)));
                    pathItem(openAPI, path).setPOST(operation);
                }
                case GET -> {
                    pathParameters(operation, path);
                    if (!op.include().isEmpty()) {
                        operation.addParameter(OASFactory.createParameter().name("include").in(Parameter.In.QUERY)
                                .schema(OASFactory.createSchema().enumeration(new ArrayList<>(op.include().keySet()))));
                        operation.addParameter(query("limit"));
                    }
                    operation.responses(OASFactory.createAPIResponses().addAPIResponse("200", ok("OK", answer)));
                    pathItem(openAPI, path).setGET(operation);
                }
                case PUT -> {
                    pathParameters(operation, path);
                    if (entity.edge()) {
                        operation.requestBody(OASFactory.createRequestBody().required(false).content(json(input)));
                        operation.responses(OASFactory.createAPIResponses().addAPIResponse("201",
                                ok(op.answer() != null ? op.answer() : "Created", answer)));
                    } else {
                        changeParameters(operation, cascades);
                        operation.requestBody(OASFactory.createRequestBody().required(true).content(json(input)));
                        operation.responses(OASFactory.createAPIResponses().addAPIResponse("200", ok("OK", changed)));
                    }
                    pathItem(openAPI, path).setPUT(operation);
                }
                case PATCH -> {
                    pathParameters(operation, path);
                    changeParameters(operation, cascades);
                    Content body = OASFactory.createContent();
                    for (String type : List.of("application/json", Http.MERGE_PATCH_JSON, MergePatcher.JSON_PATCH)) {
                        body.addMediaType(type, OASFactory.createMediaType().schema(ref(answer)));
                    }
                    operation.requestBody(OASFactory.createRequestBody().required(true).content(body));
                    operation.addExtension(IMMUTABLE, String.join(",", entity.immutable()));
                    operation.responses(OASFactory.createAPIResponses().addAPIResponse("200", ok("OK", changed)));
                    pathItem(openAPI, path).setPATCH(operation);
                }
                case DELETE -> {
                    pathParameters(operation, path);
                    operation.addParameter(ifMatch());
                    operation.responses(OASFactory.createAPIResponses().addAPIResponse("204",
                            OASFactory.createAPIResponse().description("No Content")));
                    pathItem(openAPI, path).setDELETE(operation);
                }
            }
            if (entry.getKey() != Op.GET) {
                // a write refused by a conflict shows the item as it is now (DeclaredResource.withCurrent)
                operation.addExtension(dev.cairn.platform.OpenApiDocs.SHOWS_CURRENT, "409,412");
            }
            if (!entity.unique().isEmpty() && entry.getKey() != Op.GET && entry.getKey() != Op.DELETE) {
                operation.getResponses().addAPIResponse("409", uniqueConflict(entity.unique()));
            }
            numberIdentity(operation, entity, path);
            sortParameters(operation);
        }
        if (entity.history() != null && entity.serves(Op.GET)) {
            addVersions(openAPI, domain, entity);
        }
        if (entity.list() != null) {
            EntityModel parent = entity.parent() == null ? null : domain.entity(entity.parent().entity());
            // Read with its parent on the first page (see DeclaredService.listPartition): an unknown parent is a 404.
            addList(openAPI, domain, entity, entity.list(), parent != null && (entity.readsWithParent(parent)
                    || scopedBy(entity, entity.parent().field()))
                    ? "No such " + dev.cairn.core.model.ModelReader.words(parent.name())
                    // a partition no entity owns (grouped by 'parent: { id }', or an edge's), named by the tenant
                    : parent == null && scopedBy(entity, entity.identity().get(0))
                    ? "Not in the caller's scope, as if absent" : null);
        }
        entity.keyedIndexes().stream().filter(index -> index.list() != null).forEach(index -> {
            addList(openAPI, domain, entity, index.list(), scopedBy(entity, index.partitionField())
                    ? "Not in the caller's scope, as if absent" : null);
            if (index.list().query() != null) {
                // the partition named by a query parameter, read by its field's rules (a 400 when missing or broken)
                Operation operation = pathItem(openAPI, index.list().path()).getGET();
                FieldModel field = entity.field(index.list().query()).orElseThrow();
                operation.addParameter(query(field.name()).required(Boolean.TRUE).schema(keySchema(field)));
                sortParameters(operation);
            }
        });
        entity.indexes().stream().filter(index -> index.list() != null)
                .forEach(index -> addNaturalList(openAPI, domain, entity, index));
        if (entity.softDelete()) {
            addSoftDelete(openAPI, domain, entity);
        }
    }

    /**
     * A soft-deleted entity: its delete keeps a tombstone, {@code GET <collection>/deleted} lists them, {@code POST
     * <item>/restore} brings one back and {@code DELETE <collection>/deleted/{id}} purges it.
     */
    private static void addSoftDelete(OpenAPI openAPI, DomainModel domain, EntityModel entity) {
        String what = dev.cairn.core.model.ModelReader.words(entity.name());
        PathItem item = pathItem(openAPI, entity.routeOf(entity.operation(Op.DELETE)));
        item.getDELETE().description("Soft delete: the " + what + " leaves every read, listing and index at once and is "
                + "kept, with who deleted it and when, under " + entity.deletedPath() + " until it is restored or "
                + "purged. Refused (409) while an earlier deleted " + what + " of the same id waits there.");
        String deleted = "Deleted" + entity.name();
        var schemas = openAPI.getComponents();
        schemas.addSchema(deleted, OASFactory.createSchema().addType(SchemaType.OBJECT)
                .description("A deleted " + what + ": the item as it was, who deleted it and when, and the version deleted")
                .addProperty("item", ref(entity.name()))
                .addProperty("deletedAt", ref(INSTANT))
                .addProperty("deletedBy", string().description("The subject of the caller who deleted it"))
                .addProperty("version", OASFactory.createSchema().addType(SchemaType.INTEGER).format("int64")
                        .minimum(BigDecimal.ONE).description("The version deleted: name it in If-Match (`\"<version>\"`) "
                                + "to restore or purge exactly what this shows"))
                .required(List.of("item", "deletedAt", "deletedBy", "version")));
        addPage(openAPI, deleted);

        Operation list = OASFactory.createOperation().operationId(entity.deletedOperationId())
                .summary("The deleted " + what + "s" + (entity.parent() == null ? "" : " of one " + ModelReader.words(
                        entity.parent().entity() == null ? entity.parent().field() : entity.parent().entity()))
                        + ", newest deleted first")
                .tags(List.of(domain.name()));
        pathParameters(list, entity.deletedPath());
        list.addParameter(query("cursor")).addParameter(query("limit"));
        list.responses(OASFactory.createAPIResponses().addAPIResponse("200", ok("OK", deleted + "Page")));
        if (entity.parent() != null && scopedBy(entity, entity.parent().field())) {
            list.getResponses().addAPIResponse("404", OASFactory.createAPIResponse()
                    .description("Not in the caller's scope, as if absent"));
        }
        sortParameters(list);
        pathItem(openAPI, entity.deletedPath()).setGET(list);

        Operation restore = OASFactory.createOperation().operationId(entity.restoreOperationId())
                .summary("Restore a deleted " + what).tags(List.of(domain.name()))
                .description("Brings the " + what + " back as it was (same id, its index keys back, a new version), its "
                        + "copies taken fresh from their sources, in one transaction; on any refusal nothing changes.");
        pathParameters(restore, entity.restorePath());
        // If-Match names the version deleted (the item's last ETag): a restore of exactly what the caller saw
        restore.addParameter(ifMatch());
        restore.addExtension(dev.cairn.platform.OpenApiDocs.SHOWS_CURRENT, "412");
        restore.addExtension(dev.cairn.platform.OpenApiDocs.ACTION, Boolean.TRUE);
        restore.responses(OASFactory.createAPIResponses().addAPIResponse("200", ok("The " + what + ", restored", entity.name()))
                .addAPIResponse("404", OASFactory.createAPIResponse().description("No deleted " + what + " of this id "
                        + "(or not the caller's to see)"))
                .addAPIResponse("409", OASFactory.createAPIResponse().description("Conflict: the id was taken meanwhile "
                        + "by a new " + what + " (`current` shows it to a caller who may read it, `ETag` its version)"
                        + (entity.unique().isEmpty() ? "" : "; or a unique value it held was taken meanwhile (code "
                        + "UniqueViolation: `constraint` and `fields` name it, never the item that holds it)"))
                        .addHeader("ETag", OASFactory.createHeader().description("The version of the item `current` "
                                + "shows; absent when `current` is absent").required(false)
                                .schema(OASFactory.createSchema().addType(Schema.SchemaType.STRING))))
                .addAPIResponse("422", OASFactory.createAPIResponse().description("A reference it holds names nothing "
                        + "now (code RefNotFound, naming the field)")));
        numberIdentity(restore, entity, entity.restorePath());
        sortParameters(restore);
        pathItem(openAPI, entity.restorePath()).setPOST(restore);

        Operation purge = OASFactory.createOperation().operationId(entity.purgeOperationId())
                .summary("Purge a deleted " + what + " for good").tags(List.of(domain.name()))
                .description("Removes the deleted " + what + " and the unique values it kept; irreversible. Refused "
                        + "while anything still refers to it, as a delete of a live one is.");
        pathParameters(purge, entity.purgePath());
        purge.addParameter(ifMatch());
        purge.addExtension(dev.cairn.platform.OpenApiDocs.SHOWS_CURRENT, "412");
        purge.responses(OASFactory.createAPIResponses().addAPIResponse("204",
                        OASFactory.createAPIResponse().description("No Content"))
                .addAPIResponse("404", OASFactory.createAPIResponse().description("No deleted " + what + " of this id"))
                .addAPIResponse("409", OASFactory.createAPIResponse().description("Still referenced (code "
                        + "StillReferenced), or restored or deleted again meanwhile")));
        numberIdentity(purge, entity, entity.purgePath());
        sortParameters(purge);
        pathItem(openAPI, entity.purgePath()).setDELETE(purge);
    }

    /** The schema of one retained version (an entity's or an aggregate's), showing {@code item} of {@code itemSchema}. */
    static void versionSchema(OpenAPI openAPI, String name, String description, String itemSchema, String what) {
        Schema nullableText = OASFactory.createSchema().anyOf(List.of(string(), OASFactory.createSchema().addType(SchemaType.NULL)));
        openAPI.getComponents().addSchema(name, OASFactory.createSchema().addType(SchemaType.OBJECT)
                .description(description)
                .addProperty("version", OASFactory.createSchema().addType(SchemaType.INTEGER).format("int64")
                        .minimum(BigDecimal.ONE).description("The version's number (its ETag while it was current)"))
                .addProperty("current", OASFactory.createSchema().addType(SchemaType.BOOLEAN)
                        .description("Whether this is the live " + what + "'s version (the first of the list)"))
                .addProperty("writtenBy", nullableText.description("The subject of the caller who wrote it (`anonymous` "
                        + "with auth off; `cascade:<Entity>/<id>` for a cascade's rewrite of a copy; null for a version "
                        + "written before " + (what.equals("item") ? "the entity" : "the " + what) + " kept history)"))
                .addProperty("writtenAt", ref(INSTANT))
                .addProperty("deletedBy", string().description("On the last version of a deleted " + what + ": who deleted it"))
                .addProperty("deletedAt", ref(INSTANT))
                .addProperty("item", ref(itemSchema))
                .required(List.of("version", "current", "writtenBy", "writtenAt", "item")));
    }

    /**
     * An entity with history: its retained versions under its item path ({@code …/versions}, newest first, the current
     * one first) and one of them ({@code …/versions/{version}}), each read by whoever may read the item.
     */
    private static void addVersions(OpenAPI openAPI, DomainModel domain, EntityModel entity) {
        String name = entity.name() + "Version";
        String words = dev.cairn.core.model.ModelReader.words(entity.name());
        versionSchema(openAPI, name, "One retained version of " + article(entity.name()) + " " + words + " (it keeps "
                + entity.history().describe() + "): the item as it was, who wrote it and when", entity.name(), "item");
        addPage(openAPI, name);
        OperationModel get = entity.operation(Op.GET);
        String path = entity.routeOf(get) + "/" + dev.cairn.declared.DeclaredRoutes.VERSIONS_SEGMENT;
        Operation list = OASFactory.createOperation().operationId("list" + entity.name() + "Versions")
                .summary("The " + words + "'s retained versions, newest first, the current one first (kept: "
                        + entity.history().describe() + "); a deleted " + words + "'s versions while retained")
                .tags(List.of(domain.name()));
        pathParameters(list, path);
        list.addParameter(query("cursor")).addParameter(query("limit"));
        list.responses(OASFactory.createAPIResponses().addAPIResponse("200", ok("OK", name + "Page"))
                .addAPIResponse("404", OASFactory.createAPIResponse().description("No such " + words
                        + " and no version of it retained")));
        numberIdentity(list, entity, entity.routeOf(get));
        sortParameters(list);
        pathItem(openAPI, path).setGET(list);
        String onePath = path + "/{" + dev.cairn.declared.DeclaredRoutes.VERSION_PARAMETER + "}";
        Operation one = OASFactory.createOperation().operationId("get" + entity.name() + "Version")
                .summary("One retained version of the " + words).tags(List.of(domain.name()));
        pathParameters(one, onePath);
        one.getParameters().stream().filter(p -> p.getName().equals(dev.cairn.declared.DeclaredRoutes.VERSION_PARAMETER))
                .forEach(p -> p.schema(OASFactory.createSchema().addType(SchemaType.INTEGER).minimum(BigDecimal.ONE)
                        .maximum(INT_MAX)).description("The version's number"));
        one.responses(OASFactory.createAPIResponses().addAPIResponse("200", ok("OK", name))
                .addAPIResponse("404", OASFactory.createAPIResponse().description("No such " + words
                        + ", or that version is not retained")));
        numberIdentity(one, entity, entity.routeOf(get));
        sortParameters(one);
        pathItem(openAPI, onePath).setGET(one);
    }

    /**
     * A natural index's listing: its partition fields in the path and its sort fields' conditions as query parameters,
     * each with its field's schema; a condition out of order is a 400 like any other bad parameter.
     */
    private static void addNaturalList(OpenAPI openAPI, DomainModel domain, EntityModel entity, NaturalIndexModel index) {
        addList(openAPI, domain, entity, index.list(), index.partition().stream().anyMatch(f -> scopedBy(entity, f.name()))
                ? "Not in the caller's scope, as if absent" : null);
        Operation operation = pathItem(openAPI, index.list().path()).getGET();
        var parameters = new ArrayList<Parameter>();
        for (Parameter parameter : operation.getParameters()) {
            FieldModel field = index.partition().stream().filter(f -> f.name().equals(parameter.getName())).findFirst()
                    .orElse(null);
            parameters.add(field == null ? parameter : parameter.schema(keySchema(field)));
        }
        for (FieldModel field : index.sort()) {
            String name = ModelReader.words(field.name());
            parameters.add(query(NaturalIndexModel.equalParameter(field)).schema(keySchema(field))
                    .description("Only items whose " + name + " is this (the sort fields before it given equal too)"));
            parameters.add(query(NaturalIndexModel.fromParameter(field)).schema(keySchema(field))
                    .description("Only items whose " + name + " is at least this (the last condition)"));
            parameters.add(query(NaturalIndexModel.toParameter(field)).schema(keySchema(field))
                    .description("Only items whose " + name + " is at most this (the last condition)"));
        }
        operation.setParameters(parameters);
        sortParameters(operation);
        // The rule no parameter schema can state; clients and the contract tests read it here.
        operation.addExtension(KEY_CONDITION, "every partition field equal; the sort fields ("
                + String.join(", ", index.sort().stream().map(FieldModel::name).toList())
                + ") conditioned left to right, each equal but the last conditioned, which may take a range");
    }

    /**
     * Whether a listing partitioned by {@code field} is scoped by it — the entity's tenant, or the user whose private
     * data it is — so a caller outside that scope is answered 404, as if it did not exist.
     */
    private static boolean scopedBy(EntityModel entity, String field) {
        return field != null && (field.equals(entity.access().tenant()) || field.equals(entity.access().privateTo()));
    }

    /** The extension that states a natural listing's key condition rules. */
    public static final String KEY_CONDITION = "x-key-condition";

    /** A key field's schema as a parameter: its field's, without the description and example of the body member. */
    static Schema keySchema(FieldModel field) {
        return fieldSchema(new FieldModel(field.name(), field.kind(), field.required(), field.minLength(), field.maxLength(),
                field.min(), field.max(), field.pattern(), field.values(), field.fields(), field.items(), null, null, null,
                false, field.line()));
    }

    /** A read that includes children answers them as pages under their names. */
    private static void addIncludes(OpenAPI openAPI, DomainModel domain, EntityModel entity) {
        OperationModel get = entity.operation(Op.GET);
        if (get == null || get.include().isEmpty()) {
            return;
        }
        Schema answer = openAPI.getComponents().getSchemas().get(entity.name());
        get.include().forEach((member, include) -> {
            addPage(openAPI, include.entity());
            // Answered, never written: readOnly keeps it out of the merge patch.
            answer.addProperty(member, answerOnly(ref(include.entity() + "Page")));
        });
    }

    /**
     * A member only ever answered, null when absent: readOnly on the outer schema (a readOnly beside a $ref would
     * become a nested allOf in the 3.0 rendition, which client generators cannot model).
     */
    private static Schema answerOnly(Schema ref) {
        return OASFactory.createSchema().anyOf(List.of(ref, OASFactory.createSchema().addType(SchemaType.NULL)))
                .readOnly(Boolean.TRUE);
    }

    static void addPage(OpenAPI openAPI, String entity) {
        String page = entity + "Page";
        if (!openAPI.getComponents().getSchemas().containsKey(page)) {
            openAPI.getComponents().addSchema(page, OASFactory.createSchema().addType(SchemaType.OBJECT)
                    .addProperty("items", OASFactory.createSchema().addType(SchemaType.ARRAY).items(ref(entity)))
                    .addProperty("next", OASFactory.createSchema().addType(SchemaType.STRING)));
        }
    }

    private static void addList(OpenAPI openAPI, DomainModel domain, EntityModel entity, ListModel list, String notFound) {
        String page = entity.name() + "Page";
        addPage(openAPI, entity.name());
        Operation operation = OASFactory.createOperation()
                .operationId(list.operationId())
                .summary(list.summary())
                .tags(List.of(domain.name()));
        pathParameters(operation, list.path());
        operation.addParameter(query("cursor")).addParameter(query("limit"));
        operation.responses(OASFactory.createAPIResponses().addAPIResponse("200", ok("OK", page)));
        if (notFound != null) {
            operation.getResponses().addAPIResponse("404", OASFactory.createAPIResponse().description(notFound));
        }
        sortParameters(operation);
        pathItem(openAPI, list.path()).setGET(operation);
    }

    private static void addView(OpenAPI openAPI, DomainModel domain, ViewModel view) {
        Schema schema = OASFactory.createSchema().addType(SchemaType.OBJECT)
                .description(view.root() + " with the first page of each of its members");
        Schema root = openAPI.getComponents().getSchemas().get(view.root());
        root.getProperties().forEach(schema::addProperty);
        var required = new ArrayList<String>(root.getRequired() == null ? List.of() : root.getRequired());
        view.include().forEach((member, entity) -> {
            schema.addProperty(member, ref(entity + "Page"));
            required.add(member);
        });
        schema.required(required);
        openAPI.getComponents().addSchema(view.name(), schema);
        view.include().values().forEach(entity -> addPage(openAPI, entity));
        Operation operation = OASFactory.createOperation().operationId(view.operationId()).summary(view.summary())
                .tags(List.of(domain.name()));
        pathParameters(operation, view.path());
        operation.addParameter(query("limit"));
        operation.responses(OASFactory.createAPIResponses().addAPIResponse("200", ok("OK", view.name())));
        sortParameters(operation);
        pathItem(openAPI, view.path()).setGET(operation);
    }

    // --- schemas ------------------------------------------------------------------------------------------------

    static Schema objectSchema(List<FieldModel> fields, boolean inputOnly) {
        Schema schema = OASFactory.createSchema().addType(SchemaType.OBJECT);
        var required = new ArrayList<String>();
        for (FieldModel field : fields) {
            if (inputOnly && field.serverSet()) {
                continue;
            }
            Schema property = fieldSchema(field);
            Object given = inputOnly ? literalDefault(field) : null;
            if (given != null) {
                // what a create stores when the body leaves the field out
                property.defaultValue(given);
            }
            schema.addProperty(field.name(), property);
            if (field.required() && !field.serverSet()) {
                required.add(field.name());
            }
        }
        if (!required.isEmpty()) {
            schema.required(required);
        }
        return schema;
    }

    /** A declared default as its JSON value; null for none and for {@code today} / {@code now} (not a literal). */
    private static Object literalDefault(FieldModel field) {
        String text = field.defaultValue();
        if (text == null) {
            return null;
        }
        return switch (field.kind()) {
            case BOOLEAN -> Boolean.valueOf(text);
            case INTEGER, NUMBER -> new java.math.BigDecimal(text);
            case STRING, ENUM, ID -> text;
            default -> null;
        };
    }

    /**
     * An object written in place: closed, and — as answers write null for an absent field, and a body may send one —
     * each optional field may be null (the filter does this for the top level of a component schema only).
     */
    private static Schema nestedObject(List<FieldModel> fields) {
        Schema schema = objectSchema(fields, false).additionalPropertiesBoolean(Boolean.FALSE);
        var properties = new java.util.LinkedHashMap<String, Schema>();
        schema.getProperties().forEach((name, property) -> {
            boolean required = schema.getRequired() != null && schema.getRequired().contains(name);
            properties.put(name, required ? property : property.getRef() != null
                    ? OASFactory.createSchema().anyOf(List.of(property, OASFactory.createSchema().addType(SchemaType.NULL)))
                    : property.addType(SchemaType.NULL));
        });
        schema.setProperties(properties);
        return schema;
    }

    static Schema fieldSchema(FieldModel field) {
        Schema schema = switch (field.kind()) {
            case ID -> field.serverSet() ? string()
                    : string().minLength(1).maxLength(Http.MAX_ID_LENGTH).pattern(ValidId.PATTERN);
            case STRING -> {
                Schema s = string();
                if (field.pattern() != null) {
                    s.pattern(field.pattern());
                } else if (field.required() && !field.serverSet()) {
                    s.pattern(ValidId.NOT_BLANK);
                }
                yield s.minLength(field.minLength()).maxLength(field.maxLength());
            }
            case INTEGER -> {
                boolean int32 = field.min() != null && field.max() != null
                        && field.min().compareTo(INT_MIN) >= 0 && field.max().compareTo(INT_MAX) <= 0;
                yield OASFactory.createSchema().addType(SchemaType.INTEGER).format(int32 ? "int32" : "int64")
                        .minimum(field.min()).maximum(field.max());
            }
            case NUMBER -> OASFactory.createSchema().addType(SchemaType.NUMBER).minimum(field.min()).maximum(field.max());
            case BOOLEAN -> OASFactory.createSchema().addType(SchemaType.BOOLEAN);
            case DATE -> ref(LOCAL_DATE);
            case INSTANT -> ref(INSTANT);
            // A named enum (schema: Role) is one schema of its own, which clients make one type of.
            case ENUM -> field.schema() != null ? ref(field.schema()) : string().enumeration(new ArrayList<>(field.values()));
            // a whole copy of an entity (a ref's embed) is that entity's answer
            case OBJECT -> field.schema() != null ? ref(field.schema()) : nestedObject(field.fields());
            case LIST -> OASFactory.createSchema().addType(SchemaType.ARRAY).items(fieldSchema(field.items()))
                    .minItems(field.minLength()).maxItems(field.maxLength());
        };
        if (field.description() != null) {
            schema.description(field.description());
        }
        if (field.example() != null) {
            schema.examples(List.of(field.example()));
        }
        return schema;
    }

    static Schema string() {
        return OASFactory.createSchema().addType(SchemaType.STRING);
    }

    static Schema ref(String name) {
        return OASFactory.createSchema().ref(REF + name);
    }

    // --- operations ---------------------------------------------------------------------------------------------

    private static Operation operation(DomainModel domain, OperationModel op) {
        return OASFactory.createOperation().operationId(op.operationId()).summary(op.summary()).tags(List.of(domain.name()));
    }

    static PathItem pathItem(OpenAPI openAPI, String path) {
        PathItem item = openAPI.getPaths().getPathItem(path);
        if (item == null) {
            item = OASFactory.createPathItem();
            openAPI.getPaths().addPathItem(path, item);
        }
        return item;
    }

    /** A path parameter that fills a number identity field (by position) is documented as that field's key. */
    private static void numberIdentity(Operation operation, EntityModel entity, String path) {
        if (!entity.path().startsWith(path)) {
            return;   // an owner path: its first parameter is the owner's
        }
        var names = new ArrayList<String>();
        for (String segment : path.substring(1).split("/")) {
            if (segment.startsWith("{")) {
                names.add(segment.substring(1, segment.length() - 1));
            }
        }
        for (int i = 0; i < names.size() && i < entity.identity().size(); i++) {
            FieldModel field = entity.field(entity.identity().get(i)).orElse(null);
            String name = names.get(i);
            if (field != null && (field.kind() == FieldModel.Kind.INTEGER || field.kind() == FieldModel.Kind.NUMBER)
                    && operation.getParameters() != null) {
                Schema schema = keySchema(field);
                schema.setFormat(null);
                operation.getParameters().stream().filter(p -> p.getName().equals(name) && p.getIn() == Parameter.In.PATH)
                        .forEach(p -> p.schema(schema));
            }
        }
    }

    static void pathParameters(Operation operation, String path) {
        for (String segment : path.substring(1).split("/")) {
            if (segment.startsWith("{")) {
                operation.addParameter(OASFactory.createParameter().name(segment.substring(1, segment.length() - 1))
                        .in(Parameter.In.PATH).required(true).schema(string()));
            }
        }
    }

    private static void changeParameters(Operation operation, boolean cascades) {
        if (cascades) {
            operation.addParameter(query("cascade"));
        }
        operation.addParameter(ifMatch());
    }

    static Parameter ifMatch() {
        return OASFactory.createParameter().name("If-Match").in(Parameter.In.HEADER).schema(string());
    }

    static Parameter query(String name) {
        return OASFactory.createParameter().name(name).in(Parameter.In.QUERY).schema(string());
    }

    /** As the resource scanner orders them: path, query, header; by name within each. */
    static void sortParameters(Operation operation) {
        if (operation.getParameters() == null) {
            return;
        }
        var order = Map.of(Parameter.In.PATH, 0, Parameter.In.QUERY, 1, Parameter.In.HEADER, 2, Parameter.In.COOKIE, 3);
        var sorted = new ArrayList<>(operation.getParameters());
        sorted.sort(Comparator.<Parameter>comparingInt(p -> order.get(p.getIn())).thenComparing(Parameter::getName));
        operation.setParameters(sorted);
    }

    static APIResponse ok(String description, String schema) {
        return OASFactory.createAPIResponse().description(description).content(json(schema));
    }

    static Content json(String schema) {
        return OASFactory.createContent().addMediaType("application/json", OASFactory.createMediaType().schema(ref(schema)));
    }

    static String article(String name) {
        return "AEIOU".indexOf(name.charAt(0)) >= 0 ? "an" : "a";
    }
}
