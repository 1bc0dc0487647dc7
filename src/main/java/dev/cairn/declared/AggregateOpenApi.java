package dev.cairn.declared;

import dev.cairn.core.model.AggregateModel;
import dev.cairn.core.model.AggregateModel.Appearances;
import dev.cairn.core.model.AggregateModel.Child;
import dev.cairn.core.model.AggregateModel.Node;
import dev.cairn.core.model.CopiesModel;
import dev.cairn.core.model.DomainModel;
import dev.cairn.core.model.DomainPlan;
import dev.cairn.core.model.EntityModel;
import dev.cairn.core.model.FieldModel;
import dev.cairn.core.model.ListModel;
import dev.cairn.core.model.OperationModel;
import dev.cairn.platform.Http;
import dev.cairn.platform.MergePatcher;
import dev.cairn.platform.OpenApiDocs;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import static dev.cairn.declared.DeclaredOpenApi.fieldSchema;
import static dev.cairn.declared.DeclaredOpenApi.ok;
import static dev.cairn.declared.DeclaredOpenApi.ref;
import static dev.cairn.declared.DeclaredOpenApi.string;

/**
 * The declared aggregates in the OpenAPI document, as the resource scanner would describe hand-written ones (then
 * {@link OpenApiDocs} adds statuses, problems, headers and the merge-patch and replacement schemas by its rules):
 * <ul>
 *   <li>the answer: one schema per node (the root named after the aggregate, each part and member by its
 *       {@code schema}), members and copies as references to their schemas, plain types (an answer states what it
 *       holds; the input states the constraints);</li>
 *   <li>the input: one schema per node ({@code input}), refs and copies as ids ({@code <name>Id}), each field with its
 *       constraints, as an entity's body;</li>
 *   <li>the create, read, replacement, patch (merge patch or JSON Patch of the input) and delete; the lists with their
 *       summary pages; the appearances; and where the copies of an entity live ({@code references}).</li>
 * </ul>
 */
final class AggregateOpenApi {

    private static final BigDecimal INT_MIN = BigDecimal.valueOf(Integer.MIN_VALUE);
    private static final BigDecimal INT_MAX = BigDecimal.valueOf(Integer.MAX_VALUE);
    private static final String REFERENCE = "Reference";

    private AggregateOpenApi() {
    }

    static void addTo(OpenAPI openAPI, DomainModel domain, DomainPlan plan) {
        for (EntityModel entity : domain.entities().values()) {
            CopiesModel copies = entity.copies();
            if (copies != null && copies.references() != null) {
                addReferences(openAPI, domain, copies.references());
            }
        }
        for (AggregateModel aggregate : domain.aggregates()) {
            addAggregate(openAPI, domain, aggregate, plan);
        }
    }

    // --- schemas ------------------------------------------------------------------------------------------------

    /** The answer schema of a node and, below it, of every node it holds (a part's once). */
    private static void answer(OpenAPI openAPI, Node node, String description, DomainPlan plan) {
        var schemas = openAPI.getComponents().getSchemas();
        if (schemas != null && schemas.containsKey(node.schema())) {
            return;
        }
        Schema schema = OASFactory.createSchema().addType(SchemaType.OBJECT);
        if (description != null) {
            schema.description(description);
        }
        openAPI.getComponents().addSchema(node.schema(), schema);
        var required = new ArrayList<String>();
        for (Child child : node.children()) {
            Schema property = switch (child.kind()) {
                case FIELD -> plain(child.field());
                case REF, COPY -> ref(child.entity());
                case ONE, PART -> {
                    answer(openAPI, child.node(), child.node().description(), plan);
                    yield ref(child.node().schema());
                }
                case MANY -> {
                    answer(openAPI, child.node(), child.node().description(), plan);
                    yield OASFactory.createSchema().addType(SchemaType.ARRAY).items(ref(child.node().schema()));
                }
            };
            schema.addProperty(child.name(), property);
            // an optional list left out of an input is answered as an empty one: the answer always holds it
            boolean optional = child.kind() == AggregateModel.Kind.FIELD ? !child.field().required()
                    : child.kind() != AggregateModel.Kind.MANY && child.optional();
            if (!optional) {
                required.add(child.name());
            }
        }
        schema.required(required);
        // a member's unique values, stated as an entity's are (the root's are the aggregate's)
        DeclaredOpenApi.uniqueRules(schema, node.unique());
    }

    /** The input schema of a node and of every node it holds: refs and copies by id, fields with their constraints. */
    private static void input(OpenAPI openAPI, Node node, String description) {
        var schemas = openAPI.getComponents().getSchemas();
        if (schemas != null && schemas.containsKey(node.input())) {
            return;
        }
        Schema schema = OASFactory.createSchema().addType(SchemaType.OBJECT);
        if (description != null) {
            schema.description(description);
        }
        openAPI.getComponents().addSchema(node.input(), schema);
        var required = new ArrayList<String>();
        for (Child child : node.children()) {
            Schema property = switch (child.kind()) {
                case FIELD -> fieldSchema(child.field());
                case REF, COPY -> fieldSchema(new FieldModel(child.inputName(), FieldModel.Kind.ID, true, null, null, null,
                        null, null, null, null, null, null, null, null, false, child.line()));
                case ONE, PART -> {
                    input(openAPI, child.node(), null);
                    yield ref(child.node().input());
                }
                case MANY -> {
                    input(openAPI, child.node(), null);
                    yield OASFactory.createSchema().addType(SchemaType.ARRAY).items(ref(child.node().input()))
                            .maxItems(child.maxItems());
                }
            };
            schema.addProperty(child.inputName(), property);
            boolean optional = child.kind() == AggregateModel.Kind.FIELD ? !child.field().required() : child.optional();
            if (!optional) {
                required.add(child.inputName());
            }
        }
        schema.required(required);
        DeclaredOpenApi.uniqueRules(schema, node.unique());
    }

    /** A field's type alone, as an answer states it (the constraints are the input's). */
    private static Schema plain(FieldModel field) {
        Schema schema = switch (field.kind()) {
            case ID, STRING -> string();
            case ENUM -> field.schema() != null ? ref(field.schema()) : string().enumeration(new ArrayList<>(field.values()));
            case INTEGER -> OASFactory.createSchema().addType(SchemaType.INTEGER).format(int32(field) ? "int32" : "int64");
            case NUMBER -> OASFactory.createSchema().addType(SchemaType.NUMBER);
            case BOOLEAN -> OASFactory.createSchema().addType(SchemaType.BOOLEAN);
            case DATE, INSTANT, OBJECT, LIST -> fieldSchema(field);
        };
        if (field.description() != null && schema.getRef() == null) {
            schema.description(field.description());
        }
        return schema;
    }

    private static boolean int32(FieldModel field) {
        return field.min() != null && field.max() != null && field.min().compareTo(INT_MIN) >= 0
                && field.max().compareTo(INT_MAX) <= 0;
    }

    /** A page of items: the filter names it, describes it and makes {@code next} nullable. */
    private static void page(OpenAPI openAPI, String page, String item) {
        openAPI.getComponents().addSchema(page, OASFactory.createSchema().addType(SchemaType.OBJECT)
                .addProperty("items", OASFactory.createSchema().addType(SchemaType.ARRAY).items(ref(item)))
                .addProperty("next", string()));
    }

    // --- operations ---------------------------------------------------------------------------------------------

    private static void addAggregate(OpenAPI openAPI, DomainModel domain, AggregateModel aggregate, DomainPlan plan) {
        Node root = aggregate.root();
        answer(openAPI, root, aggregate.description(), plan);
        DeclaredOpenApi.uniqueRules(openAPI.getComponents().getSchemas().get(root.schema()), aggregate.unique());
        if (aggregate.timestamps()) {
            // the root's own: when the aggregate was created, and when any write (a cascade's too) last changed it
            Schema schema = openAPI.getComponents().getSchemas().get(root.schema());
            schema.addProperty("createdAt", string().format("date-time").readOnly(Boolean.TRUE)
                    .description("When the " + dev.cairn.core.model.ModelReader.words(aggregate.name()) + " was created"));
            schema.addProperty("updatedAt", string().format("date-time").readOnly(Boolean.TRUE)
                    .description("When a write last changed it (a cascade into its copies too)"));
            var required = new ArrayList<>(schema.getRequired() == null ? List.<String>of() : schema.getRequired());
            required.addAll(List.of("createdAt", "updatedAt"));
            schema.setRequired(required);
        }
        input(openAPI, root, aggregate.inputDescription());
        String words = dev.cairn.core.model.ModelReader.words(aggregate.name());
        for (var entry : aggregate.operations().entrySet()) {
            OperationModel op = entry.getValue();
            Operation operation = OASFactory.createOperation().operationId(op.operationId()).summary(op.summary())
                    .tags(List.of(domain.name()));
            String path = aggregate.routeOf(entry.getKey());
            DeclaredOpenApi.pathParameters(operation, path);
            var responses = OASFactory.createAPIResponses();
            operation.responses(responses);
            var item = DeclaredOpenApi.pathItem(openAPI, path);
            switch (entry.getKey()) {
                case CREATE -> {
                    operation.requestBody(OASFactory.createRequestBody().required(true).content(DeclaredOpenApi.json(root.input())));
                    responses.addAPIResponse("200", ok(answerWords(op, "Created"), root.schema()));
                    item.setPOST(operation);
                }
                case GET -> {
                    responses.addAPIResponse("200", ok(answerWords(op, "OK"), root.schema()));
                    responses.addAPIResponse("409", OASFactory.createAPIResponse().description("The stored " + words
                            + " cannot be assembled: members without their root, or a broken item"));
                    item.setGET(operation);
                }
                case PUT -> {
                    operation.addParameter(DeclaredOpenApi.ifMatch());
                    operation.requestBody(OASFactory.createRequestBody().required(true).content(DeclaredOpenApi.json(root.input())));
                    responses.addAPIResponse("200", ok(answerWords(op, "OK"), root.schema()));
                    item.setPUT(operation);
                }
                case PATCH -> {
                    operation.addParameter(DeclaredOpenApi.ifMatch());
                    Content body = OASFactory.createContent();
                    for (String type : List.of(MergePatcher.JSON_PATCH, Http.MERGE_PATCH_JSON)) {
                        body.addMediaType(type, OASFactory.createMediaType().schema(ref(root.input())));
                    }
                    operation.requestBody(OASFactory.createRequestBody().required(true).content(body));
                    operation.addExtension(OpenApiDocs.IMMUTABLE, aggregate.idField());
                    responses.addAPIResponse("200", ok(answerWords(op, "OK"), root.schema()));
                    item.setPATCH(operation);
                }
                case DELETE -> {
                    operation.addParameter(DeclaredOpenApi.ifMatch());
                    responses.addAPIResponse("204", OASFactory.createAPIResponse().description("No Content"));
                    item.setDELETE(operation);
                }
            }
            boolean create = entry.getKey() == OperationModel.Op.CREATE;
            if (create) {
                // a create of an id taken shows the aggregate as it is now to a caller who may read it
                operation.addExtension(OpenApiDocs.SHOWS_CURRENT, "409");
            }
            var memberUnique = aggregate.memberUnique();
            if ((!aggregate.unique().isEmpty() || !memberUnique.isEmpty()) && (create
                    || entry.getKey() == OperationModel.Op.PUT || entry.getKey() == OperationModel.Op.PATCH)) {
                var said = new ArrayList<String>();
                aggregate.unique().forEach(unique -> said.add(unique.describe()));
                memberUnique.forEach((type, constraints) -> constraints.forEach(unique -> said.add("each " + type
                        + "'s " + unique.describe() + ", across every " + words + " (two members of one " + words
                        + " holding one value too)")));
                String rules = String.join("; ", said);
                var conflict = OASFactory.createAPIResponse().description("Conflict: " + (create ? "the " + words
                        + " exists already (`current` shows it as it is now and `ETag` names its version, to a caller "
                        + "who may read it)" : "the " + words + " changed meanwhile") + "; or a unique value of its root "
                        + "or of a member is taken (code UniqueViolation: `constraint` and `fields` name it, never the " + words
                        + " that holds it). " + rules);
                if (create) {
                    conflict.addHeader("ETag", OASFactory.createHeader().description("The version of the " + words
                            + " `current` shows; absent when `current` is absent").required(false)
                            .schema(OASFactory.createSchema().addType(Schema.SchemaType.STRING)));
                }
                responses.addAPIResponse("409", conflict);
            }
            if (entry.getKey() == OperationModel.Op.PUT || entry.getKey() == OperationModel.Op.PATCH
                    || entry.getKey() == OperationModel.Op.DELETE) {
                // a stale If-Match shows the aggregate as read (DeclaredAggregates.readForWrite); its 409s show nothing
                operation.addExtension(OpenApiDocs.SHOWS_CURRENT, "412");
            }
            DeclaredOpenApi.sortParameters(operation);
        }
        if (aggregate.summary() != null) {
            addSummary(openAPI, aggregate, plan);
        }
        for (AggregateModel.Listing list : aggregate.lists()) {
            listing(openAPI, domain, list.route(), list.answer(), aggregate.summary().schema() + "Page", aggregate.byField(list));
            if (aggregate.access().tenant() != null && list.by().containsKey(aggregate.access().tenant())) {
                // a list by the tenant itself: another tenant's answers as a missing workspace
                DeclaredOpenApi.pathItem(openAPI, list.route().path()).getGET().getResponses().addAPIResponse("404",
                        OASFactory.createAPIResponse().description("No such workspace (or one outside the token's scope)"));
            }
        }
        for (Appearances found : aggregate.appearances()) {
            addAppearance(openAPI, aggregate, found, plan);
            listing(openAPI, domain, found.route(), "OK", found.schema() + "Page", null);
        }
        if (aggregate.servesVersions()) {
            addVersions(openAPI, domain, aggregate);
        }
        if (aggregate.softDelete()) {
            addSoftDelete(openAPI, domain, aggregate);
        }
    }

    /**
     * A soft-deleted aggregate ({@code softDelete: true}): its delete keeps the whole aggregate as a tombstone, listed
     * under {@code <collection>/deleted}, restored at {@code <path>/restore}, purged at {@code <collection>/deleted/{id}}.
     */
    private static void addSoftDelete(OpenAPI openAPI, DomainModel domain, AggregateModel aggregate) {
        String what = dev.cairn.core.model.ModelReader.words(aggregate.name());
        var item = DeclaredOpenApi.pathItem(openAPI, aggregate.path());
        if (item.getDELETE() != null) {
            item.getDELETE().description("Soft delete: the whole " + what + " (every member) leaves every read, list and "
                    + "index at once and is kept, with who deleted it and when, under " + aggregate.deletedPath()
                    + " until it is restored or purged. Refused (409) while an earlier deleted " + what + " of the same "
                    + "id waits there.");
        }
        String deleted = "Deleted" + aggregate.name();
        openAPI.getComponents().addSchema(deleted, OASFactory.createSchema().addType(SchemaType.OBJECT)
                .description("A deleted " + what + ": the whole " + what + " as it was, who deleted it and when, and the "
                        + "version deleted")
                .addProperty("item", ref(aggregate.root().schema()))
                .addProperty("deletedAt", ref("Instant"))
                .addProperty("deletedBy", string().description("The subject of the caller who deleted it"))
                .addProperty("version", OASFactory.createSchema().addType(SchemaType.INTEGER).format("int64")
                        .minimum(BigDecimal.ONE).description("The version deleted: name it in If-Match (`\"<version>\"`) "
                                + "to restore or purge exactly what this shows"))
                .required(List.of("item", "deletedAt", "deletedBy", "version")));
        DeclaredOpenApi.addPage(openAPI, deleted);

        Operation list = OASFactory.createOperation().operationId("listDeleted" + aggregate.name() + "s")
                .summary("The deleted " + what + "s, newest deleted first").tags(List.of(domain.name()));
        DeclaredOpenApi.pathParameters(list, aggregate.deletedPath());
        list.addParameter(DeclaredOpenApi.query("cursor")).addParameter(DeclaredOpenApi.query("limit"));
        list.responses(OASFactory.createAPIResponses().addAPIResponse("200", ok("OK", deleted + "Page")));
        DeclaredOpenApi.sortParameters(list);
        DeclaredOpenApi.pathItem(openAPI, aggregate.deletedPath()).setGET(list);

        Operation restore = OASFactory.createOperation().operationId("restore" + aggregate.name())
                .summary("Restore a deleted " + what).tags(List.of(domain.name()))
                .description("Brings the whole " + what + " back as it was deleted (same id, every member, its lists "
                        + "and indexes, a new version), its copies taken fresh from their sources, in one commit; on any "
                        + "refusal nothing changes.");
        DeclaredOpenApi.pathParameters(restore, aggregate.restorePath());
        // If-Match names the version deleted (its last ETag): a restore of exactly what the caller saw
        restore.addParameter(DeclaredOpenApi.ifMatch());
        restore.addExtension(OpenApiDocs.ACTION, Boolean.TRUE);
        // an id live again (a twin's restore, or a new aggregate of it) shows it as it is now to a caller who may read it
        restore.addExtension(OpenApiDocs.SHOWS_CURRENT, "409");
        restore.responses(OASFactory.createAPIResponses()
                .addAPIResponse("200", ok("The " + what + ", restored", aggregate.root().schema()))
                .addAPIResponse("404", OASFactory.createAPIResponse().description("No deleted " + what + " of this id "
                        + "(or not the caller's to see)"))
                .addAPIResponse("409", OASFactory.createAPIResponse().description("Conflict: the id is live again — "
                        + "restored by a twin request or taken by a new " + what + " (`current` shows it as it is now and "
                        + "`ETag` names its version, to a caller who may read it)" + (aggregate.unique().isEmpty() ? ""
                        : "; or a unique value it held was taken meanwhile (code UniqueViolation: `constraint` and "
                        + "`fields` name it, never the " + what + " that holds it)"))
                        .addHeader("ETag", OASFactory.createHeader().description("The version of the " + what
                                + " `current` shows; absent when `current` is absent").required(false)
                                .schema(OASFactory.createSchema().addType(Schema.SchemaType.STRING))))
                .addAPIResponse("422", OASFactory.createAPIResponse().description("A reference it holds names nothing "
                        + "now (code RefNotFound, naming the field)")));
        DeclaredOpenApi.sortParameters(restore);
        DeclaredOpenApi.pathItem(openAPI, aggregate.restorePath()).setPOST(restore);

        Operation purge = OASFactory.createOperation().operationId("purge" + aggregate.name())
                .summary("Purge a deleted " + what + " for good").tags(List.of(domain.name()))
                .description("Removes the deleted " + what + " and the unique values it kept; irreversible.");
        DeclaredOpenApi.pathParameters(purge, aggregate.purgePath());
        purge.addParameter(DeclaredOpenApi.ifMatch());
        purge.responses(OASFactory.createAPIResponses().addAPIResponse("204",
                        OASFactory.createAPIResponse().description("No Content"))
                .addAPIResponse("404", OASFactory.createAPIResponse().description("No deleted " + what + " of this id "
                        + "(or not the caller's to see)")));
        DeclaredOpenApi.sortParameters(purge);
        DeclaredOpenApi.pathItem(openAPI, aggregate.purgePath()).setDELETE(purge);
    }

    /**
     * An aggregate with history: its retained versions under its path ({@code …/versions}, newest first, the current
     * one first), each the whole aggregate as its GET answered it, and one of them ({@code …/versions/{version}}).
     */
    private static void addVersions(OpenAPI openAPI, DomainModel domain, AggregateModel aggregate) {
        String name = aggregate.name() + "Version";
        String words = dev.cairn.core.model.ModelReader.words(aggregate.name());
        DeclaredOpenApi.versionSchema(openAPI, name, "One retained version of " + DeclaredOpenApi.article(aggregate.name())
                + " " + words + " (it keeps " + aggregate.history().describe() + "): the whole " + words + ", its "
                + "members included, as its GET answered it, who wrote it and when", aggregate.root().schema(), words);
        DeclaredOpenApi.addPage(openAPI, name);
        String path = aggregate.versionsPath();
        Operation list = OASFactory.createOperation().operationId("list" + aggregate.name() + "Versions")
                .summary("The " + words + "'s retained versions, newest first, the current one first (kept: "
                        + aggregate.history().describe() + "); a deleted " + words + "'s versions while retained")
                .tags(List.of(domain.name()));
        DeclaredOpenApi.pathParameters(list, path);
        list.addParameter(DeclaredOpenApi.query("cursor")).addParameter(DeclaredOpenApi.query("limit"));
        list.responses(OASFactory.createAPIResponses().addAPIResponse("200", ok("OK", name + "Page"))
                .addAPIResponse("404", OASFactory.createAPIResponse().description("No such " + words
                        + " and no version of it retained")));
        DeclaredOpenApi.sortParameters(list);
        DeclaredOpenApi.pathItem(openAPI, path).setGET(list);
        String onePath = path + "/{" + DeclaredRoutes.VERSION_PARAMETER + "}";
        Operation one = OASFactory.createOperation().operationId("get" + aggregate.name() + "Version")
                .summary("One retained version of the " + words).tags(List.of(domain.name()));
        DeclaredOpenApi.pathParameters(one, onePath);
        one.getParameters().stream().filter(p -> p.getName().equals(DeclaredRoutes.VERSION_PARAMETER))
                .forEach(p -> p.schema(OASFactory.createSchema().addType(SchemaType.INTEGER).minimum(BigDecimal.ONE)
                        .maximum(INT_MAX)).description("The version's number"));
        one.responses(OASFactory.createAPIResponses().addAPIResponse("200", ok("OK", name))
                .addAPIResponse("404", OASFactory.createAPIResponse().description("No such " + words
                        + ", or that version is not retained")));
        DeclaredOpenApi.sortParameters(one);
        DeclaredOpenApi.pathItem(openAPI, onePath).setGET(one);
    }

    private static String answerWords(OperationModel op, String otherwise) {
        return op.answer() != null ? op.answer() : otherwise;
    }

    private static void listing(OpenAPI openAPI, DomainModel domain, ListModel route, String answer, String page,
                                FieldModel byField) {
        Operation operation = OASFactory.createOperation().operationId(route.operationId()).summary(route.summary())
                .tags(List.of(domain.name()));
        DeclaredOpenApi.pathParameters(operation, route.path());
        if (byField != null) {
            // Its one parameter is read by the field's rules (an enum's values): documented as that field.
            operation.getParameters().get(0).schema(DeclaredOpenApi.keySchema(byField));
        }
        operation.addParameter(DeclaredOpenApi.query("cursor")).addParameter(DeclaredOpenApi.query("limit"));
        operation.responses(OASFactory.createAPIResponses().addAPIResponse("200", ok(answer, page)));
        DeclaredOpenApi.sortParameters(operation);
        DeclaredOpenApi.pathItem(openAPI, route.path()).setGET(operation);
    }

    /** The summary a list shows: the id, the declared fields (typed as what they show), the times and the version. */
    private static void addSummary(OpenAPI openAPI, AggregateModel aggregate, DomainPlan plan) {
        var summary = aggregate.summary();
        Schema schema = OASFactory.createSchema().addType(SchemaType.OBJECT);
        if (summary.description() != null) {
            schema.description(summary.description());
        }
        var required = new ArrayList<String>();
        schema.addProperty(aggregate.idField(), string());
        required.add(aggregate.idField());
        summary.fields().forEach((field, path) -> {
            Shown shown = shown(aggregate.root(), path, plan);
            schema.addProperty(field, plain(shown.field()));
            if (shown.always()) {
                required.add(field);
            }
        });
        schema.addProperty("createdAt", string().format("date-time"));
        schema.addProperty("updatedAt", string().format("date-time"));
        schema.addProperty("version", OASFactory.createSchema().addType(SchemaType.INTEGER).format("int64")
                .description("The " + dev.cairn.core.model.ModelReader.words(aggregate.name()) + "'s version (its ETag on GET "
                        + aggregate.path() + ")"));
        required.addAll(List.of("createdAt", "updatedAt", "version"));
        schema.required(required);
        openAPI.getComponents().addSchema(summary.schema(), schema);
        page(openAPI, summary.schema() + "Page", summary.schema());
    }

    /** The field a view path shows, and whether every aggregate has it (no optional member or field on the way). */
    private record Shown(FieldModel field, boolean always) {
    }

    private static Shown shown(Node root, String path, DomainPlan plan) {
        Node node = root;
        boolean always = true;
        String[] steps = path.split("\\.");
        for (int i = 0; i < steps.length; i++) {
            String step = steps[i];
            Child child = node.children().stream().filter(c -> c.name().equals(step)).findFirst().orElseThrow();
            always &= child.kind() == AggregateModel.Kind.FIELD ? child.field().required() : !child.optional();
            switch (child.kind()) {
                case FIELD -> {
                    return new Shown(child.field(), always);
                }
                case REF, COPY -> {
                    FieldModel field = plan.entity(child.entity()).model().field(steps[i + 1]).orElseThrow();
                    return new Shown(field, always && field.required());
                }
                default -> node = child.node();
            }
        }
        throw new IllegalStateException(path);
    }

    /** An appearance: the aggregate's id, context fields, discriminators and the member's own fields. */
    private static void addAppearance(OpenAPI openAPI, AggregateModel aggregate, Appearances found, DomainPlan plan) {
        Schema schema = OASFactory.createSchema().addType(SchemaType.OBJECT);
        if (found.description() != null) {
            schema.description(found.description());
        }
        var required = new ArrayList<String>();
        found.fields().forEach((field, source) -> {
            Schema property;
            boolean always = true;
            if (source.equals("id")) {
                property = string();
            } else if (aggregate.context().contains(source)) {
                Child child = aggregate.root().children().stream().filter(c -> c.name().equals(source)).findFirst().orElseThrow();
                property = plain(child.field());
                always = child.field().required();
            } else {
                Object bound = boundValue(aggregate.root(), source);
                if (bound != null) {
                    property = bound instanceof Integer ? OASFactory.createSchema().addType(SchemaType.INTEGER).format("int32")
                            : string();
                } else {
                    FieldModel member = memberField(aggregate.root(), found.type(), source);
                    property = plain(member);
                    always = member.required();
                }
            }
            schema.addProperty(field, property);
            if (always) {
                required.add(field);
            }
        });
        schema.required(required);
        openAPI.getComponents().addSchema(found.schema(), schema);
        page(openAPI, found.schema() + "Page", found.schema());
    }

    private static Object boundValue(Node node, String key) {
        for (Child child : node.children()) {
            if (child.bind().containsKey(key)) {
                return child.bind().get(key);
            }
            if (child.node() != null) {
                Object below = boundValue(child.node(), key);
                if (below != null) {
                    return below;
                }
            }
        }
        return null;
    }

    private static FieldModel memberField(Node node, String type, String field) {
        if (node.type().equals(type)) {
            return node.children().stream().filter(c -> c.kind() == AggregateModel.Kind.FIELD && c.name().equals(field))
                    .findFirst().orElseThrow().field();
        }
        for (Child child : node.children()) {
            if (child.node() != null && child.kind() != AggregateModel.Kind.COPY) {
                try {
                    return memberField(child.node(), type, field);
                } catch (java.util.NoSuchElementException e) {
                    // not below this child
                }
            }
        }
        throw new java.util.NoSuchElementException(type);
    }

    /** Where whole copies of an entity live, a page of items with the version of each copy they hold. */
    private static void addReferences(OpenAPI openAPI, DomainModel domain, ListModel route) {
        var schemas = openAPI.getComponents().getSchemas();
        if (schemas == null || !schemas.containsKey(REFERENCE)) {
            openAPI.getComponents().addSchema(REFERENCE, OASFactory.createSchema().addType(SchemaType.OBJECT)
                    .description("An item that embeds copies of the entity, and the source version of each copy")
                    .addProperty("entityType", string()).addProperty("pk", string()).addProperty("sk", string())
                    .addProperty("copies", OASFactory.createSchema().addType(SchemaType.OBJECT)
                            .description("Copy attribute → the entity's version it copies")
                            .additionalPropertiesSchema(OASFactory.createSchema().addType(SchemaType.INTEGER).format("int64")))
                    .required(List.of("entityType", "pk", "sk", "copies")));
            page(openAPI, REFERENCE + "Page", REFERENCE);
        }
        listing(openAPI, domain, route, "OK", REFERENCE + "Page", null);
    }
}
