package dev.cairn.core.model;

import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.aggregate.InputRule;
import dev.cairn.core.aggregate.Listing;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.model.AggregateModel.Appearances;
import dev.cairn.core.model.AggregateModel.Child;
import dev.cairn.core.model.AggregateModel.Kind;
import dev.cairn.core.model.AggregateModel.Node;
import dev.cairn.core.model.AggregateModel.Summary;
import dev.cairn.core.model.OperationModel.Op;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a model file's {@code aggregates:} (and an entity's {@code copies:}) into {@link AggregateModel}s, checking
 * what can be checked without a table: known keys only, a partition template with the id as its only field, refs and
 * copies of declared entities, one kind per child, parts that exist, list keys that name one value, rules whose paths
 * are in the input, and demo inputs that satisfy the fields. The first problem stops the read with a
 * {@link ModelException} naming the file, the line and the field, as {@link ModelReader} does for entities.
 */
final class AggregateReader extends YamlReader {

    private static final Pattern NAME = Pattern.compile("[A-Z][A-Za-z0-9]*");
    private static final Pattern FIELD = Pattern.compile("[a-z][A-Za-z0-9]*");
    private static final Pattern LABEL = Pattern.compile("[A-Z][A-Z0-9_]*");
    private static final Pattern PATH = Pattern.compile("(/([a-z][a-z0-9-]*|\\{[a-zA-Z][a-zA-Z0-9]*}))+");
    private static final Pattern BIND_VALUE = Pattern.compile("[A-Za-z0-9_-]+");
    private static final Set<String> MEMBER_KEYS = Set.of("ref", "copy", "one", "many", "part");

    private final Map<String, EntityModel> entities;
    /** The domain's tenant field, which scopes an aggregate that names none of its own (null: none). */
    private final String domainTenant;
    /** The aggregate being read: its root's plain fields (a member's unique value may be scoped by one), and its keys. */
    private List<FieldModel> rootFields = List.of();
    private Map<String, At> reading = Map.of();

    private AggregateReader(String file, Map<String, EntityModel> entities, String domainTenant) {
        super(file);
        this.entities = entities;
        this.domainTenant = domainTenant;
    }

    // --- entry points -----------------------------------------------------------------------------------------

    static List<AggregateModel> read(String file, org.yaml.snakeyaml.nodes.Node node, String where,
                                     Map<String, EntityModel> entities, String domainTenant) {
        var reader = new AggregateReader(file, entities, domainTenant);
        var out = new ArrayList<AggregateModel>();
        reader.map(new At(node, where), null).forEach((name, at) -> out.add(reader.aggregate(name, at)));
        reader.checkRoutes(out);
        return out;
    }

    /**
     * An entity's {@code copies: { index, references, targets }}: the index whose key, the entity's partition key,
     * every whole copy of it carries.
     */
    static CopiesModel copies(String file, org.yaml.snakeyaml.nodes.Node node, String where, String entity, KeyTemplate pk,
                              String path) {
        var reader = new AggregateReader(file, Map.of(), null);
        At at = new At(node, where);
        var map = reader.map(at, Set.of("index", "references", "targets"));
        Index index = reader.index(reader.required(map, "index", at));
        if (pk.fieldCount() != 1) {
            throw reader.fail(at, "whole copies are found by the entity's id: its pk has exactly one field ("
                    + pk.pattern() + " has " + pk.fieldCount() + ")");
        }
        ListModel references = null;
        if (map.containsKey("references")) {
            String words = ModelReader.words(entity);
            references = reader.listing(map.get("references"), 1, "list" + entity + "References",
                    "Where copies of " + article(entity) + " " + words + " live");
            if (!references.path().startsWith(path.substring(0, path.lastIndexOf('/')))) {
                throw reader.fail(map.get("references"), "the references are listed under the entity's path, e.g. " + path
                        + "/references");
            }
        }
        List<String> targets = null;
        if (map.containsKey("targets")) {
            targets = reader.names(map.get("targets"));
        }
        return new CopiesModel(index, pk, references, targets, at.line());
    }

    // --- YAML helpers -----------------------------------------------------------------------------------------

    private Integer count(Map<String, At> map, String key, int min, int max) {
        At at = map.get(key);
        if (at == null) {
            return null;
        }
        try {
            int value = Integer.parseInt(text(at));
            if (value < min || value > max) {
                throw fail(at, "must be a whole number from " + min + " to " + max);
            }
            return value;
        } catch (NumberFormatException e) {
            throw fail(at, "must be a whole number from " + min + " to " + max);
        }
    }

    private Index index(At at) {
        String name = text(at);
        return Index.globalIndexes().stream().filter(i -> i.indexName().equals(name)).findFirst()
                .orElseThrow(() -> fail(at, "no index '" + name + "' in the table (gsi1 to gsi4)"));
    }

    private String path(At at) {
        String path = text(at);
        if (!PATH.matcher(path).matches()) {
            throw fail(at, "a path is /segments of lower-case words or {parameters}, e.g. /matches/{id}");
        }
        return path;
    }

    private static List<String> parameters(String path) {
        var out = new ArrayList<String>();
        Matcher m = Pattern.compile("\\{([a-zA-Z0-9]+)}").matcher(path);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private String schemaName(Map<String, At> map, String key, String otherwise) {
        String name = optional(map, key, otherwise);
        if (name != null && !NAME.matcher(name).matches()) {
            throw fail(map.get(key), "a schema name starts with a capital letter and has only letters and digits");
        }
        return name;
    }

    /** A listing route: {@code path} with {@code parameters} parameters, and its id, summary and label. */
    private ListModel listing(At at, int parameterCount, String defaultId, String defaultSummary) {
        var map = map(at, Set.of("path", "id", "summary", "label"));
        String path = path(required(map, "path", at));
        if (parameters(path).size() != parameterCount) {
            throw fail(map.get("path"), "this listing's path has exactly " + parameterCount + " parameter(s)");
        }
        String summary = optional(map, "summary", defaultSummary);
        return new ListModel(path, optional(map, "id", defaultId), summary, optional(map, "label", summary), true, null, null,
                at.line());
    }

    // --- an aggregate -----------------------------------------------------------------------------------------

    private static final Set<String> AGGREGATE_KEYS = Set.of("partition", "path", "type", "label", "description", "fields",
            "context", "parts", "rules", "input", "operations", "lists", "summary", "appearances", "demo", "roles", "tenant", "timestamps", "ttl", "unique", "history", "softDelete");

    private AggregateModel aggregate(String name, At at) {
        if (!NAME.matcher(name).matches()) {
            throw fail(at, "an aggregate name starts with a capital letter and has only letters and digits");
        }
        if (entities.containsKey(name)) {
            throw fail(at, "'" + name + "' is an entity of this file too: name the aggregate otherwise");
        }
        var map = map(at, AGGREGATE_KEYS);
        KeyTemplate partition = template(required(map, "partition", at));
        if (partition.fieldCount() != 1) {
            throw fail(map.get("partition"), "an aggregate is one partition per id: the template has exactly one field, its id");
        }
        String idField = partition.fieldNames().get(0);
        String path = path(required(map, "path", at));
        if (parameters(path).size() != 1 || !path.endsWith("}")) {
            throw fail(map.get("path"), "an aggregate's path ends with its one parameter, the id: e.g. /matches/{id}");
        }
        reading = map;
        rootFields = plainFields(map.get("fields"), idField, at);
        // Parts first: the root and other parts bind them.
        var partAts = map.containsKey("parts") ? map(map.get("parts"), null) : Map.<String, At>of();
        var parts = new LinkedHashMap<String, Node>();
        for (var entry : partAts.entrySet()) {
            if (!NAME.matcher(entry.getKey()).matches()) {
                throw fail(entry.getValue(), "a part name starts with a capital letter and has only letters and digits");
            }
        }
        var declaring = new LinkedHashSet<String>();
        for (String part : partAts.keySet()) {
            part(part, partAts, parts, declaring, name);
        }
        String type = optional(map, "type", name);
        String label = optional(map, "label", name.toUpperCase(Locale.ROOT));
        checkLabel(map.get("label") == null ? at : map.get("label"), label);
        var rootChildren = new ArrayList<Child>();
        rootChildren.add(new Child(idField, Kind.FIELD, new FieldModel(idField, FieldModel.Kind.ID, true, null, null, null,
                null, null, null, null, null, null, null, null, false, at.line()), null, null, null, false, null, at.line()));
        if (map.containsKey("fields")) {
            children(map.get("fields"), partAts, parts, declaring, name).forEach(child -> {
                if (child.name().equals(idField)) {
                    if (child.kind() != Kind.FIELD || child.field().kind() != FieldModel.Kind.ID) {
                        throw fail(map.get("fields"), "'" + idField + "' is the aggregate's id: an id field");
                    }
                    return;
                }
                rootChildren.add(child);
            });
        }
        String ttl = map.containsKey("ttl") ? ttl(map.get("ttl"), rootChildren) : null;
        String[] input = input(map.get("input"), name);
        Node root = new Node(type, label, name, input[0], optional(map, "description", null), rootChildren, null, null,
                null, at.line());
        checkInputNames(root, map.get("fields") == null ? at : map.get("fields"));
        for (Child child : rootChildren) {
            // A read's first page must hold the root (the proof the rest was read from the same state): labels are
            // upper-case ASCII words, so String order is the key order.
            if (child.node() != null && label.compareTo(child.node().label()) >= 0) {
                throw fail(map.get("label") == null ? at : map.get("label"), "the root's label " + label
                        + " must sort before every member's: " + child.name() + " is " + child.node().label()
                        + " (name the root e.g. HEAD, or give the member a later label)");
            }
        }
        var context = new ArrayList<String>();
        if (map.containsKey("context")) {
            for (String field : names(map.get("context"))) {
                Child child = child(root, field);
                if (child == null || child.kind() != Kind.FIELD || field.equals(idField)) {
                    throw fail(map.get("context"), "'" + field + "' is no field of the root (context fields are the root's own)");
                }
                context.add(field);
            }
        }
        var rules = map.containsKey("rules") ? rules(map.get("rules"), root, parts) : List.<InputRule>of();
        var operations = operations(map.get("operations"), name);
        var lists = map.containsKey("lists") ? lists(map.get("lists"), root, name) : List.<AggregateModel.Listing>of();
        Summary summary = summary(map.get("summary"), root, name, idField);
        if (!lists.isEmpty() && summary == null) {
            throw fail(map.get("lists"), "a list shows each root's summary: declare 'summary'");
        }
        var appearances = map.containsKey("appearances") ? appearances(map.get("appearances"), root, name, context)
                : List.<Appearances>of();
        EntityModel.Access access = access(at, map, root, idField);
        if (ttl != null) {
            // (the tenant and the id are id fields, which an expiry never is; the key holds the id alone)
            for (AggregateModel.Listing list : lists) {
                if (list.by().containsKey(ttl)) {
                    throw fail(map.get("ttl"), "the ttl field '" + ttl + "' is stored as the table's TTL attribute: no "
                            + "list, key or tenant may be made of it (list '" + list.name() + "' is by it)");
                }
            }
        }
        List<UniqueModel> unique = List.of();
        if (map.containsKey("unique")) {
            if (ttl != null) {
                throw fail(map.get("unique"), "an aggregate that expires (ttl) cannot declare unique values yet: a create "
                        + "may take the id of an expired one, whose values would stay held");
            }
            var rootFields = rootChildren.stream().filter(c -> c.kind() == Kind.FIELD).map(Child::field).toList();
            unique = uniques(map.get("unique"), rootFields, bool(map, "timestamps") ? List.of("createdAt", "updatedAt")
                    : List.of());
            for (UniqueModel constraint : unique) {
                if (constraint.softDelete() != UniqueModel.SoftDelete.KEEP && !bool(map, "softDelete")) {
                    throw fail(map.get("unique"), "'" + constraint.name() + "': this aggregate is not soft-deleted, so "
                            + "its unique values declare no softDelete");
                }
            }
        }
        HistoryModel history = map.containsKey("history") ? history(map.get("history")) : null;
        if (history != null && ttl != null) {
            throw fail(map.get("history"), "an aggregate that expires (ttl) keeps no history: DynamoDB's TTL deletes its "
                    + "items without a write that could keep the last version");
        }
        boolean softDelete = bool(map, "softDelete");
        if (softDelete) {
            if (!operations.containsKey(Op.DELETE)) {
                throw fail(map.get("softDelete"), "soft delete changes what the delete does, and this aggregate serves no "
                        + "delete");
            }
            if (ttl != null) {
                throw fail(map.get("softDelete"), "an aggregate that expires cannot be soft-deleted: DynamoDB's TTL "
                        + "removes its items without a transaction, and a restored aggregate past its expiry would be gone "
                        + "at once");
            }
        }
        var model = new AggregateModel(name, partition, idField, path, optional(map, "description", null), root, context,
                rules, input[0], input[1], operations, lists, summary, appearances, List.of(), access,
                bool(map, "timestamps"), ttl, unique, history, softDelete, at.line());
        var demo = map.containsKey("demo") ? demo(map.get("demo"), model) : List.<DomainModel.DemoItem>of();
        return new AggregateModel(name, partition, idField, path, model.description(), root, context, rules, input[0],
                input[1], operations, lists, summary, appearances, demo, access, model.timestamps(), ttl, unique, history,
                softDelete, at.line());
    }

    /** What an aggregate's expiry field means, in the contract. */
    static final String AGGREGATE_EXPIRY = "The aggregate's expiry (whole seconds): from this instant on the aggregate, "
            + "root and every member, is gone from every read and list, as if deleted, and a write meets it as missing; "
            + "DynamoDB's TTL deletes its items later. A create needs it later than now; an update may set a past one, "
            + "which expires the aggregate at once";

    /**
     * {@code ttl: <field>} on an aggregate: one of the root's own top-level {@code instant} fields. Every item of the
     * aggregate (root and members) carries it as the table's TTL attribute (epoch seconds), not under its name, so
     * the members expire with their root; no key, list or tenant may be made of it.
     */
    private String ttl(At at, List<Child> rootChildren) {
        String name = text(at);
        int i = 0;
        while (i < rootChildren.size() && !rootChildren.get(i).name().equals(name)) {
            i++;
        }
        Child child = i < rootChildren.size() ? rootChildren.get(i) : null;
        if (child == null || child.kind() != Kind.FIELD || child.field().kind() != FieldModel.Kind.INSTANT) {
            throw fail(at, "ttl names one of the root's own instant fields (the aggregate's expiry; a member expires "
                    + "with its root), not '" + name + "'");
        }
        String said = child.field().description();
        rootChildren.set(i, new Child(child.name(), child.kind(),
                child.field().described((said == null ? "" : said + ". ") + AGGREGATE_EXPIRY), child.entity(),
                child.node(), child.bind(), child.optional(), child.maxItems(), child.line()));
        return name;
    }

    /**
     * {@code roles} (an operation or {@code list} to the role it needs) and {@code tenant}: a required id field of the
     * root holding the tenant (a workspace id), by which reads, writes and lists are kept to the caller's tenants.
     */
    private EntityModel.Access access(At owner, Map<String, At> map, Node root, String idField) {
        String tenant = null;
        At at = map.get("tenant");
        if (at != null || domainTenant != null) {
            tenant = at != null ? text(at) : domainTenant;
            At where = at != null ? at : owner;
            String scope = at != null ? "the tenant" : "the domain's tenant '" + tenant + "'";
            Child child = child(root, tenant);
            if (tenant.equals(idField)) {
                throw fail(where, "an aggregate is no tenant itself: the tenant is a root field holding a workspace id");
            }
            if (child == null || child.kind() != Kind.FIELD || child.field().kind() != FieldModel.Kind.ID
                    || !child.field().required()) {
                throw fail(where, scope + " is a required id field of the root (it holds a workspace id)"
                        + (at != null ? ", not '" + tenant + "'" : ": declare it among the aggregate's fields"));
            }
        }
        var keys = new java.util.HashSet<>(ROLE_KEYS);
        keys.addAll(SOFT_DELETE_ROLE_KEYS);
        var roles = roles(map, keys);
        for (String word : SOFT_DELETE_ROLE_KEYS) {
            if (roles.containsKey(word) && !bool(map, "softDelete")) {
                throw fail(map.get("roles"), "'" + word + "' is a role of a soft-deleted aggregate's route: declare "
                        + "'softDelete: true' first");
            }
        }
        return new EntityModel.Access(roles, tenant);
    }

    private void checkLabel(At at, String label) {
        if (!LABEL.matcher(label).matches()) {
            throw fail(at, "a label is an upper-case word: " + label);
        }
    }

    /** {@code input: { schema, description }}: the create body's schema name (default {@code <Aggregate>Input}). */
    private String[] input(At at, String aggregate) {
        if (at == null) {
            return new String[]{aggregate + "Input", null};
        }
        var map = map(at, Set.of("schema", "description"));
        return new String[]{schemaName(map, "schema", aggregate + "Input"), optional(map, "description", null)};
    }

    private Node part(String name, Map<String, At> partAts, Map<String, Node> parts, Set<String> declaring, String aggregate) {
        Node done = parts.get(name);
        if (done != null) {
            return done;
        }
        if (!declaring.add(name)) {
            throw fail(partAts.get(name), "the part " + name + " holds itself");
        }
        Node node = node(partAts.get(name), partAts, parts, declaring, aggregate, aggregate + name, name);
        parts.put(name, node);
        declaring.remove(name);
        return node;
    }

    private static final Set<String> NODE_KEYS = Set.of("type", "label", "schema", "input", "description", "fields", "key",
            "unique");

    /** A node: its item type and label, its schemas, its children; {@code key} only for a list's elements. */
    private Node node(At at, Map<String, At> partAts, Map<String, Node> parts, Set<String> declaring, String aggregate,
                      String defaultSchema, String part) {
        refuseMemberTtl(at);
        var map = map(at, NODE_KEYS);
        String type = optional(map, "type", null);
        if (type == null || !NAME.matcher(type).matches()) {
            throw fail(map.get("type") == null ? at : map.get("type"), "a member's item type is a name such as MatchPlayer ('type' is required)");
        }
        String label = text(required(map, "label", at));
        checkLabel(map.get("label"), label);
        String schema = schemaName(map, "schema", defaultSchema);
        String input = schemaName(map, "input", schema + "Input");
        var children = map.containsKey("fields") ? children(map.get("fields"), partAts, parts, declaring, aggregate)
                : List.<Child>of();
        String key = optional(map, "key", null);
        List<UniqueModel> unique = map.containsKey("unique") ? memberUnique(map.get("unique"), children) : List.of();
        Node node = new Node(type, label, schema, input, optional(map, "description", null), children, key, part, unique,
                at.line());
        checkInputNames(node, at);
        return node;
    }

    /** A member expires with its root: {@code ttl} is declared on the aggregate, never on a member or a part. */
    private void refuseMemberTtl(At at) {
        if (at.node() instanceof MappingNode mapping) {
            for (var tuple : mapping.getValue()) {
                if (tuple.getKeyNode() instanceof ScalarNode key && key.getValue().equals("ttl")) {
                    throw fail(new At(tuple.getValueNode(), at.where().isEmpty() ? "ttl" : at.where() + ".ttl"),
                            "a member expires with its root: declare ttl on the aggregate (one of the root's instant "
                                    + "fields), not on a member or a part");
                }
            }
        }
    }

    /** Every input member once: a ref or copy {@code team} is input as {@code teamId}, which no other child may be. */
    private void checkInputNames(Node node, At at) {
        var seen = new LinkedHashSet<String>();
        for (Child child : node.children()) {
            if (!seen.add(child.inputName())) {
                throw fail(at, "'" + child.inputName() + "' is given twice (a ref or copy '" + child.name()
                        + "' is input as its id)");
            }
        }
    }

    private List<Child> children(At at, Map<String, At> partAts, Map<String, Node> parts, Set<String> declaring,
                                 String aggregate) {
        var out = new ArrayList<Child>();
        map(at, null).forEach((name, childAt) -> {
            if (!FIELD.matcher(name).matches()) {
                throw fail(childAt, "a field name starts with a lower-case letter and has only letters and digits");
            }
            out.add(child(name, childAt, partAts, parts, declaring, aggregate));
        });
        return out;
    }

    private Child child(String name, At at, Map<String, At> partAts, Map<String, Node> parts, Set<String> declaring,
                        String aggregate) {
        if (!(at.node() instanceof MappingNode mapping) || mapping.getValue().stream()
                .noneMatch(t -> t.getKeyNode() instanceof ScalarNode k && MEMBER_KEYS.contains(k.getValue()))) {
            FieldModel field = ModelReader.fieldAt(file, name, at.node(), at.where());
            return new Child(name, Kind.FIELD, field, null, null, null, false, null, at.line());
        }
        var keys = map(at, null).keySet().stream().filter(MEMBER_KEYS::contains).toList();
        if (keys.size() != 1) {
            throw fail(at, "a member is one of ref, copy, one, many, part: not " + String.join(" and ", keys));
        }
        return switch (keys.get(0)) {
            case "ref" -> {
                var map = map(at, Set.of("ref"));
                yield new Child(name, Kind.REF, null, entity(map.get("ref")), null, null, false, null, at.line());
            }
            case "copy" -> {
                refuseMemberTtl(at);
                var map = map(at, Set.of("copy", "type", "label", "optional", "schema"));
                String type = text(required(map, "type", at));
                if (!NAME.matcher(type).matches()) {
                    throw fail(map.get("type"), "a member's item type is a name such as MatchVenue");
                }
                String label = text(required(map, "label", at));
                checkLabel(map.get("label"), label);
                Node node = new Node(type, label, null, null, null, List.of(), null, null, null, at.line());
                yield new Child(name, Kind.COPY, null, entity(map.get("copy")), node, null, bool(map, "optional"), null,
                        at.line());
            }
            case "one" -> {
                var map = map(at, Set.of("one", "optional"));
                Node node = node(map.get("one"), partAts, parts, declaring, aggregate,
                        aggregate + Character.toUpperCase(name.charAt(0)) + name.substring(1), null);
                if (node.key() != null) {
                    throw fail(map.get("one"), "'key' identifies the elements of a list: a 'one' member has none");
                }
                yield new Child(name, Kind.ONE, null, null, node, null, bool(map, "optional"), null, at.line());
            }
            case "many" -> {
                var map = map(at, Set.of("many", "maxItems", "optional"));
                Node node = node(map.get("many"), partAts, parts, declaring, aggregate,
                        aggregate + Character.toUpperCase(name.charAt(0)) + name.substring(1), null);
                if (node.key() == null) {
                    throw fail(map.get("many"), "the elements of a list are identified by one of their fields or refs: 'key' is required");
                }
                Child keyChild = child(node, node.key());
                if (keyChild == null || (keyChild.kind() != Kind.FIELD && keyChild.kind() != Kind.REF)
                        || keyChild.kind() == Kind.FIELD && !keyChild.field().required()) {
                    throw fail(map.get("many"), "'key: " + node.key() + "' must name a required field or a ref of the element");
                }
                if (holdsPart(node)) {
                    throw fail(map.get("many"), "the elements of a list cannot hold a part (a transaction group per element "
                            + "would be named by its position, which moves on every reorder)");
                }
                // optional: an input may leave the list out, which is an empty list (the answer always shows it)
                yield new Child(name, Kind.MANY, null, null, node, null, bool(map, "optional"),
                        count(map, "maxItems", 0, 10_000), at.line());
            }
            default -> {
                var map = map(at, Set.of("part", "bind"));
                String partName = text(map.get("part"));
                if (!partAts.containsKey(partName)) {
                    throw fail(map.get("part"), "no part '" + partName + "' (declare it under 'parts')");
                }
                Node node = part(partName, partAts, parts, declaring, aggregate);
                At bindAt = required(map, "bind", at);
                var bind = new LinkedHashMap<String, Object>();
                map(bindAt, null).forEach((key, valueAt) -> {
                    if (!FIELD.matcher(key).matches()) {
                        throw fail(valueAt, "a discriminator is named like a field");
                    }
                    String value = text(valueAt);
                    if (!BIND_VALUE.matcher(value).matches()) {
                        throw fail(valueAt, "a discriminator value is a number or a word (letters, digits, _ and -): a role or a position");
                    }
                    bind.put(key, value.matches("[0-9]{1,9}") ? (Object) Integer.valueOf(value) : value);
                });
                if (bind.isEmpty()) {
                    throw fail(bindAt, "a bound part needs discriminator values, e.g. bind: { teamNumber: 1 }");
                }
                yield new Child(name, Kind.PART, null, null, node, bind, false, null, at.line());
            }
        };
    }

    /** The root's plain fields (its id first), read ahead of its members: a member's unique scope may name one. */
    private List<FieldModel> plainFields(At fields, String idField, At at) {
        var out = new ArrayList<FieldModel>();
        out.add(new FieldModel(idField, FieldModel.Kind.ID, true, null, null, null, null, null, null, null, null, null,
                null, null, false, at.line()));
        if (fields != null && fields.node() instanceof MappingNode mapping) {
            for (var tuple : mapping.getValue()) {
                if (tuple.getKeyNode() instanceof ScalarNode key && FIELD.matcher(key.getValue()).matches()
                        && !key.getValue().equals(idField) && !(tuple.getValueNode() instanceof MappingNode value
                        && value.getValue().stream().anyMatch(t -> t.getKeyNode() instanceof ScalarNode k
                        && MEMBER_KEYS.contains(k.getValue())))) {
                    out.add(ModelReader.fieldAt(file, key.getValue(), tuple.getValueNode(), fields.where() + "." + key.getValue()));
                }
            }
        }
        return out;
    }

    /**
     * A member's {@code unique}: values of its own fields, unique across every aggregate of the type (scoped, if
     * declared, by its own fields or the root's: an order's workspace). Each is a sentinel owned by the member's item,
     * taken, moved and given up in the write's commit with the root, so a whole write's values stay atomic with it.
     */
    private List<UniqueModel> memberUnique(At at, List<Child> children) {
        if (reading.containsKey("ttl")) {
            throw fail(at, "an aggregate that expires (ttl) cannot declare unique values yet: a create may take the id of "
                    + "an expired one, whose values would stay held");
        }
        var own = children.stream().filter(c -> c.kind() == Kind.FIELD).map(Child::field).toList();
        var names = own.stream().map(FieldModel::name).collect(java.util.stream.Collectors.toSet());
        var fields = new ArrayList<>(own);
        rootFields.stream().filter(f -> !names.contains(f.name())).forEach(fields::add);
        List<UniqueModel> unique = uniques(at, fields, List.of());
        for (UniqueModel constraint : unique) {
            for (String field : constraint.fields()) {
                if (!names.contains(field)) {
                    throw fail(at, "'" + constraint.name() + "': '" + field + "' is the root's: a member's unique value is "
                            + "made of its own fields (its scope may name the root's)");
                }
            }
            if (constraint.softDelete() != UniqueModel.SoftDelete.KEEP && !bool(reading, "softDelete")) {
                throw fail(at, "'" + constraint.name() + "': this aggregate is not soft-deleted, so its unique values "
                        + "declare no softDelete");
            }
        }
        return unique;
    }

    private static boolean holdsPart(Node node) {
        return node.children().stream().anyMatch(c -> c.kind() == Kind.PART || c.node() != null && holdsPart(c.node()));
    }

    private String entity(At at) {
        String name = text(at);
        if (!entities.containsKey(name)) {
            throw fail(at, "no entity '" + name + "' to refer to");
        }
        EntityModel entity = entities.get(name);
        if (entity.copies() == null) {
            throw fail(at, "whole copies of " + name + " must be findable for its cascade: give " + name
                    + " 'copies: { index: gsiN }'");
        }
        return name;
    }

    private static Child child(Node node, String name) {
        return node.children().stream().filter(c -> c.name().equals(name)).findFirst().orElse(null);
    }

    // --- rules ------------------------------------------------------------------------------------------------

    /**
     * {@code - distinct: [paths]} (the values there all differ), optionally {@code within: <Part>} (in each bound
     * instance of that part separately), with a {@code message}.
     */
    private List<InputRule> rules(At at, Node root, Map<String, Node> parts) {
        if (!(at.node() instanceof SequenceNode seq)) {
            throw fail(at, "rules are a list: - { distinct: [team1.teamId, team2.teamId] }");
        }
        var out = new ArrayList<InputRule>();
        for (var item : seq.getValue()) {
            At ruleAt = new At(item, at.where());
            var map = map(ruleAt, Set.of("distinct", "within", "message"));
            List<String> paths = names(required(map, "distinct", ruleAt));
            Node scope = root;
            var scopes = new ArrayList<String>();
            if (map.containsKey("within")) {
                String part = text(map.get("within"));
                scope = parts.get(part);
                if (scope == null) {
                    throw fail(map.get("within"), "no part '" + part + "'");
                }
                collectScopes(root, part, "", scopes);
                if (scopes.isEmpty()) {
                    throw fail(map.get("within"), "the part " + part + " is bound nowhere");
                }
            }
            for (String path : paths) {
                checkRulePath(scope, path, map.get("distinct"));
            }
            String message = optional(map, "message", "'{value}' is given twice");
            out.add(new InputRule(paths, scopes, message));
        }
        return out;
    }

    /** The input paths of every bound instance of a part ({@code team1}, {@code team2}). */
    private static void collectScopes(Node node, String part, String path, List<String> out) {
        for (Child child : node.children()) {
            if (child.node() == null || child.kind() == Kind.MANY) {
                continue;
            }
            String at = path.isEmpty() ? child.name() : path + "." + child.name();
            if (child.kind() == Kind.PART && part.equals(child.node().part())) {
                out.add(at);
            }
            collectScopes(child.node(), part, at, out);
        }
    }

    /** A rule's path walks input names: {@code players[]} steps into every element of a list. */
    private void checkRulePath(Node scope, String path, At at) {
        Node node = scope;
        String[] steps = path.split("\\.");
        for (int i = 0; i < steps.length; i++) {
            boolean each = steps[i].endsWith("[]");
            String name = each ? steps[i].substring(0, steps[i].length() - 2) : steps[i];
            Child child = node == null ? null
                    : node.children().stream().filter(c -> c.inputName().equals(name)).findFirst().orElse(null);
            if (child == null) {
                throw fail(at, "'" + path + "': no input member '" + name + "' there");
            }
            if (each != (child.kind() == Kind.MANY)) {
                throw fail(at, "'" + path + "': " + (each ? "'" + name + "' is no list" : "'" + name + "' is a list: step into its elements with " + name + "[]"));
            }
            boolean last = i == steps.length - 1;
            if (last && child.node() != null && child.kind() != Kind.COPY) {
                throw fail(at, "'" + path + "' ends at an object: name one of its values");
            }
            node = child.kind() == Kind.COPY ? null : child.node();
        }
    }

    // --- operations -------------------------------------------------------------------------------------------

    private Map<Op, OperationModel> operations(At at, String aggregate) {
        var out = new EnumMap<Op, OperationModel>(Op.class);
        if (at == null) {
            for (Op op : Op.values()) {
                out.put(op, operation(op, aggregate, Map.of()));
            }
            return out;
        }
        map(at, null).forEach((word, opAt) -> {
            Op op = Op.of(word);
            if (op == null) {
                throw fail(opAt, "unknown operation '" + word + "' (create, get, put, patch, delete)");
            }
            if (opAt.node() instanceof ScalarNode) {
                out.put(op, operation(op, aggregate, Map.of("summary", text(opAt))));
            } else {
                var values = new LinkedHashMap<String, String>();
                map(opAt, Set.of("id", "summary", "answer", "label")).forEach((k, v) -> values.put(k, text(v)));
                out.put(op, operation(op, aggregate, values));
            }
        });
        return out;
    }

    private static OperationModel operation(Op op, String aggregate, Map<String, String> values) {
        String words = ModelReader.words(aggregate);
        String article = article(aggregate);
        String id = switch (op) {
            case CREATE -> "create" + aggregate;
            case GET -> "get" + aggregate;
            case PUT -> "replace" + aggregate;
            case PATCH -> "patch" + aggregate;
            case DELETE -> "delete" + aggregate;
        };
        String summary = switch (op) {
            case CREATE -> "Create " + article + " " + words + ", written as one aggregate";
            case GET -> "Read " + article + " " + words + ": ONE strongly consistent Query of its partition";
            case PUT -> "Replace " + article + " " + words + " (If-Match honoured): only the items that changed are written";
            case PATCH -> "Change " + article + " " + words + " with a JSON Patch or a merge patch of its input shape (ids)";
            case DELETE -> "Delete " + article + " " + words + " and every item of its partition";
        };
        String answer = switch (op) {
            case GET -> "The " + words;
            case PUT -> "The " + words + " as replaced";
            case PATCH -> "The " + words + " as changed";
            default -> null;
        };
        return new OperationModel(op, values.getOrDefault("id", id), values.getOrDefault("summary", summary),
                values.getOrDefault("answer", answer), values.getOrDefault("label", op == Op.GET ? aggregate + " by id" : null),
                false, Map.of());
    }

    static String article(String name) {
        return "AEIOU".indexOf(name.charAt(0)) >= 0 ? "an" : "a";
    }

    // --- lists, summaries, appearances ------------------------------------------------------------------------

    private List<AggregateModel.Listing> lists(At at, Node root, String aggregate) {
        var out = new ArrayList<AggregateModel.Listing>();
        var indexes = new LinkedHashMap<Index, String>();
        map(at, null).forEach((name, listAt) -> {
            if (!FIELD.matcher(name).matches()) {
                throw fail(listAt, "a list's name starts with a lower-case letter");
            }
            var map = map(listAt, Set.of("path", "partition", "index", "shards", "by", "id", "summary", "label", "answer"));
            KeyTemplate partition = template(required(map, "partition", listAt));
            String plural = ModelReader.words(aggregate) + (aggregate.endsWith("s") ? "es" : "s");
            boolean all = map.containsKey("index");
            if (all == map.containsKey("by")) {
                throw fail(listAt, "a list is of every root ('index', with 'shards') or of the roots that hold an id ('by')");
            }
            Index index = null;
            int shards = 1;
            var by = new LinkedHashMap<String, Index>();
            ListModel route;
            if (all) {
                index = index(map.get("index"));
                if (!partition.fieldNames().equals(List.of("shard"))) {
                    throw fail(map.get("partition"), "the list of every root is spread over shards: its partition's only field is {shard}");
                }
                Integer declared = count(map, "shards", 1, Listing.MAX_SHARDS);
                shards = declared == null ? 1 : declared;
                claim(indexes, index, name, map.get("index"));
                route = route(map, listAt, 0, "list" + aggregate + (aggregate.endsWith("s") ? "es" : "s"),
                        "Every " + ModelReader.words(aggregate) + ", newest first, as summaries");
            } else {
                if (map.containsKey("shards")) {
                    throw fail(map.get("shards"), "only the list of every root is sharded");
                }
                if (!partition.fieldNames().equals(List.of("id"))) {
                    throw fail(map.get("partition"), "a list by an id has one partition per id: its partition's only field is {id}");
                }
                map(map.get("by"), null).forEach((viewPath, indexAt) -> {
                    checkViewPath(root, viewPath, indexAt, false);
                    Index entryIndex = index(indexAt);
                    claim(indexes, entryIndex, name, indexAt);
                    by.put(viewPath, entryIndex);
                });
                if (by.isEmpty()) {
                    throw fail(map.get("by"), "name the view path of the id: by: { venue.id: gsi2 }");
                }
                route = route(map, listAt, 1, "list" + aggregate + "sBy" + Character.toUpperCase(name.charAt(0)) + name.substring(1),
                        "The " + plural + " of one " + name + ", newest first, as summaries");
            }
            out.add(new AggregateModel.Listing(name, partition, all, index, shards, by, route, optional(map, "answer", "OK"),
                    listAt.line()));
        });
        for (Child child : root.children()) {
            if (child.kind() == Kind.REF) {
                Index refIndex = entities.get(child.entity()).copies().index();
                if (indexes.containsKey(refIndex)) {
                    throw fail(at, "the root already has a key on " + refIndex.indexName() + " (its ref " + child.name()
                            + "): list '" + indexes.get(refIndex) + "' needs another index");
                }
            }
        }
        return out;
    }

    private void claim(Map<Index, String> indexes, Index index, String list, At at) {
        String before = indexes.putIfAbsent(index, list);
        if (before != null) {
            throw fail(at, "the root has one key per index: " + index.indexName() + " is list '" + before + "''s already");
        }
    }

    private ListModel route(Map<String, At> map, At at, int parameters, String defaultId, String defaultSummary) {
        String path = path(required(map, "path", at));
        if (parameters(path).size() != parameters) {
            throw fail(map.get("path"), "this list's path has exactly " + parameters + " parameter(s)");
        }
        String summary = optional(map, "summary", defaultSummary);
        return new ListModel(path, optional(map, "id", defaultId), summary, optional(map, "label", summary), true, null, null,
                at.line());
    }

    /**
     * A view path leads to one value: through fields, refs, copies, ones and parts (never into a list) to a scalar —
     * for a ref or copy, one of its entity's fields. {@code viaOptional} allows optional members on the way.
     */
    private FieldModel checkViewPath(Node root, String path, At at, boolean summary) {
        Node node = root;
        String[] steps = path.split("\\.");
        for (int i = 0; i < steps.length; i++) {
            String step = steps[i];
            Child child = node.children().stream().filter(c -> c.name().equals(step)).findFirst().orElse(null);
            if (child == null) {
                throw fail(at, "'" + path + "': no member '" + step + "' there");
            }
            boolean last = i == steps.length - 1;
            switch (child.kind()) {
                case FIELD -> {
                    if (!last || child.field().kind() == FieldModel.Kind.OBJECT || child.field().kind() == FieldModel.Kind.LIST) {
                        throw fail(at, "'" + path + "' does not lead to one value");
                    }
                    return child.field();
                }
                case REF, COPY -> {
                    if (i != steps.length - 2) {
                        throw fail(at, "'" + path + "' must name one field of the " + child.entity() + " copy");
                    }
                    String field = steps[i + 1];
                    return entities.get(child.entity()).field(field)
                            .orElseThrow(() -> fail(at, "'" + path + "': " + child.entity() + " has no field '" + field + "'"));
                }
                case MANY -> throw fail(at, "'" + path + "' leads into a list: it does not name one value");
                default -> {
                    if (last) {
                        throw fail(at, "'" + path + "' ends at a member: name one of its values");
                    }
                    node = child.node();
                }
            }
        }
        throw fail(at, "'" + path + "' does not lead to one value");
    }

    private Summary summary(At at, Node root, String aggregate, String idField) {
        if (at == null) {
            return null;
        }
        var map = map(at, Set.of("schema", "description", "fields"));
        var fields = new LinkedHashMap<String, String>();
        map(required(map, "fields", at), null).forEach((field, pathAt) -> {
            if (!FIELD.matcher(field).matches() || Set.of(idField, "createdAt", "updatedAt", "version").contains(field)) {
                throw fail(pathAt, "'" + field + "' is not a free summary field (id, createdAt, updatedAt and version are always shown)");
            }
            String path = text(pathAt);
            checkViewPath(root, path, pathAt, true);
            fields.put(field, path);
        });
        return new Summary(schemaName(map, "schema", aggregate + "Summary"), optional(map, "description", null), fields);
    }

    private List<Appearances> appearances(At at, Node root, String aggregate, List<String> context) {
        var out = new ArrayList<Appearances>();
        map(at, null).forEach((name, appearanceAt) -> {
            var map = map(appearanceAt, Set.of("path", "entity", "type", "schema", "description", "fields", "id", "summary", "label"));
            String entity = entity(map.get("entity") == null ? required(map, "entity", appearanceAt) : map.get("entity"));
            String type = text(required(map, "type", appearanceAt));
            var found = new ArrayList<Node>();
            var binds = new LinkedHashSet<String>();
            findNodes(root, type, found, binds, new LinkedHashMap<>());
            if (found.isEmpty()) {
                throw fail(map.get("type"), "no member of type " + type + " in " + aggregate);
            }
            Node node = found.get(0);
            boolean holdsCopy = node.children().stream().anyMatch(c -> c.kind() == Kind.REF && c.entity().equals(entity));
            if (!holdsCopy) {
                throw fail(map.get("type"), type + " holds no copy of " + entity);
            }
            var fields = new LinkedHashMap<String, String>();
            map(required(map, "fields", appearanceAt), null).forEach((field, sourceAt) -> {
                String source = text(sourceAt);
                boolean known = source.equals("id") || context.contains(source) || binds.contains(source)
                        || node.children().stream().anyMatch(c -> c.kind() == Kind.FIELD && c.name().equals(source));
                if (!known) {
                    throw fail(sourceAt, "'" + source + "' is neither id, a context field, a discriminator nor a field of " + type);
                }
                fields.put(field, source);
            });
            ListModel route = route(map, appearanceAt, 1, "list" + entity + aggregate + "s",
                    "The " + ModelReader.words(aggregate) + "s " + article(entity) + " " + ModelReader.words(entity)
                            + " is in: ONE Query of its copies");
            out.add(new Appearances(name, entity, type, schemaName(map, "schema", aggregate + "Appearance"),
                    optional(map, "description", null), fields, route, appearanceAt.line()));
        });
        return out;
    }

    /** Every node of a type, and the discriminators bound above it. */
    private static void findNodes(Node node, String type, List<Node> out, Set<String> binds, Map<String, Object> bound) {
        if (node.type().equals(type)) {
            out.add(node);
            binds.addAll(bound.keySet());
        }
        for (Child child : node.children()) {
            if (child.node() != null) {
                var next = new LinkedHashMap<>(bound);
                next.putAll(child.bind());
                findNodes(child.node(), type, out, binds, next);
            }
        }
    }

    // --- demo inputs and routes -------------------------------------------------------------------------------

    private List<DomainModel.DemoItem> demo(At at, AggregateModel model) {
        if (!(at.node() instanceof SequenceNode seq)) {
            throw fail(at, "demo inputs are a list: - {field: value, ...}");
        }
        List<FieldModel> fields = AggregateInputs.fieldsOf(model.root(), entities);
        var out = new ArrayList<DomainModel.DemoItem>();
        for (var node : seq.getValue()) {
            At item = new At(node, at.where());
            @SuppressWarnings("unchecked")
            var values = (Map<String, Object>) plain(item);
            var problems = FieldRules.check(fields, values, false);
            if (!problems.isEmpty()) {
                throw fail(item, "demo input: " + problems.get(0).field() + " " + problems.get(0).message());
            }
            out.add(new DomainModel.DemoItem(model.name(), values, item.line()));
        }
        return out;
    }

    /** Two routes of one method and shape, here or among the file's entities, would be ambiguous. */
    private void checkRoutes(List<AggregateModel> aggregates) {
        var seen = new LinkedHashMap<String, String>();
        for (EntityModel e : entities.values()) {
            e.operations().forEach((op, model) -> seen.put(shape(method(op), e.routeOf(model)), e.name()));
            if (e.list() != null) {
                seen.put(shape("GET", e.list().path()), e.name());
            }
            e.keyedIndexes().stream().filter(i -> i.list() != null)
                    .forEach(i -> seen.put(shape("GET", i.list().path()), e.name()));
            e.indexes().stream().filter(i -> i.list() != null).forEach(i -> seen.put(shape("GET", i.list().path()), e.name()));
            if (e.copies() != null && e.copies().references() != null) {
                seen.put(shape("GET", e.copies().references().path()), e.name());
            }
        }
        for (AggregateModel a : aggregates) {
            var routes = new ArrayList<String[]>();
            a.operations().keySet().forEach(op -> routes.add(new String[]{method(op), a.routeOf(op), a.name()}));
            a.lists().forEach(l -> routes.add(new String[]{"GET", l.route().path(), a.name() + "." + l.name()}));
            a.appearances().forEach(l -> routes.add(new String[]{"GET", l.route().path(), a.name() + "." + l.name()}));
            if (a.softDelete()) {
                routes.add(new String[]{"GET", a.deletedPath(), a.name() + " deleted"});
                routes.add(new String[]{"POST", a.restorePath(), a.name() + " restore"});
                routes.add(new String[]{"DELETE", a.purgePath(), a.name() + " purge"});
            }
            if (a.servesVersions()) {
                routes.add(new String[]{"GET", a.versionsPath(), a.name() + " versions"});
                routes.add(new String[]{"GET", a.versionsPath() + "/{version}", a.name() + " versions"});
            }
            for (String[] route : routes) {
                String before = seen.putIfAbsent(shape(route[0], route[1]), route[2]);
                if (before != null) {
                    throw new ModelException(file, a.line(), "aggregates." + a.name(), "two routes " + route[0] + " "
                            + route[1] + " (" + before + " and " + route[2] + ")");
                }
            }
        }
    }

    private static String shape(String method, String path) {
        return method + " " + path.replaceAll("\\{[^}]+}", "{}");
    }

    private static String method(Op op) {
        return switch (op) {
            case CREATE -> "POST";
            case GET -> "GET";
            case PUT -> "PUT";
            case PATCH -> "PATCH";
            case DELETE -> "DELETE";
        };
    }
}
