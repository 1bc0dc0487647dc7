package dev.cairn.core.model;

import dev.cairn.core.NaturalIndex;
import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.key.ShardedIds;
import dev.cairn.core.model.FieldModel.Kind;
import dev.cairn.core.model.EntityModel.Owner;
import dev.cairn.core.model.OperationModel.Op;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.io.StringReader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads one model file (YAML) into a {@link DomainModel}, checking everything that can be checked without a table:
 * known keys only, key templates whose fields exist, paths whose parameters fill the entity's identity, refs to
 * declared entities and fields, valid constraints and demo items that satisfy them. The first problem stops the
 * read with a {@link ModelException} naming the file, the line and the field.
 */
public final class ModelReader extends YamlReader {

    /** The entities that are users of the API ({@code self: true}): their own data and their children's may be private. */
    private final Set<String> declaredSelf = new java.util.HashSet<>();

    /** The domain's {@code tenant}: the field that scopes every entity and aggregate of the file (null: none). */
    private String domainTenant;

    private static final Pattern PATH = Pattern.compile("(/([a-z][a-z0-9-]*|\\{[a-zA-Z][a-zA-Z0-9]*}))+");
    private static final Pattern NAME = Pattern.compile("[A-Z][A-Za-z0-9]*");
    private static final Pattern FIELD = Pattern.compile("[a-z][A-Za-z0-9]*");

    private ModelReader(String file) {
        super(file);
    }

    public static DomainModel read(String file, String yaml) {
        return new ModelReader(file).domain(yaml);
    }

    // --- the YAML tree, with positions ----------------------------------------------------------------------------

    private String text(Map<String, At> map, String key, At owner) {
        At at = map.get(key);
        if (at == null) {
            throw fail(owner, "'" + key + "' is required");
        }
        return text(at);
    }

    private Integer count(Map<String, At> map, String key) {
        BigDecimal value = number(map, key);
        if (value == null) {
            return null;
        }
        if (value.signum() < 0 || value.stripTrailingZeros().scale() > 0 || value.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
            throw fail(map.get(key), "must be a whole number from 0");
        }
        return value.intValueExact();
    }

    // --- the file -----------------------------------------------------------------------------------------------

    private DomainModel domain(String yaml) {
        Node root;
        try {
            root = new Yaml(new SafeConstructor(new LoaderOptions())).compose(new StringReader(yaml));
        } catch (MarkedYAMLException e) {
            int line = e.getProblemMark() == null ? 1 : e.getProblemMark().getLine() + 1;
            throw new ModelException(file, line, "", "not valid YAML: " + e.getProblem());
        }
        if (root == null) {
            throw new ModelException(file, 1, "", "the file is empty");
        }
        At top = new At(root, "");
        var keys = map(top, Set.of("domain", "description", "tenant", "entities", "edges", "views", "demo", "aggregates"));
        String name = text(keys, "domain", top);
        domainTenant = optional(keys, "tenant", null);
        if (domainTenant != null && !FIELD.matcher(domainTenant).matches()) {
            throw fail(keys.get("tenant"), "the domain's tenant is a field name, e.g. workspaceId");
        }
        var entities = new LinkedHashMap<String, EntityModel>();
        var pending = new LinkedHashMap<String, At>();
        if (keys.containsKey("entities")) {
            pending.putAll(map(keys.get("entities"), null));
        }
        var edges = keys.containsKey("edges") ? map(keys.get("edges"), null) : Map.<String, At>of();
        for (var entry : pending.entrySet()) {
            requireName(entry.getKey(), entry.getValue(), entities, edges);
        }
        for (var entry : edges.entrySet()) {
            requireName(entry.getKey(), entry.getValue(), Map.of(), pending);
        }
        // Stand-alone entities first, so children, refs and edges can see what they point at.
        var declared = new LinkedHashMap<String, Map<String, At>>();
        pending.forEach((entityName, at) -> declared.put(entityName, map(at, Set.of("key", "path", "fields", "generate",
                "parent", "refs", "index", "indexes", "operations", "list", "describe", "self", "owner", "timestamps", "input",
                "roles", "tenant", "author", "private", "copies", "unique", "ttl", "softDelete", "history"))));
        var fieldsByEntity = new LinkedHashMap<String, List<FieldModel>>();
        declared.forEach((entityName, map) -> fieldsByEntity.put(entityName, fields(map.get("fields"))));
        declared.forEach((entityName, map) -> {
            if (bool(map, "self")) {
                declaredSelf.add(entityName);
            }
        });
        declared.forEach((entityName, map) -> entities.put(entityName,
                entity(entityName, pending.get(entityName), map, fieldsByEntity)));
        edges.forEach((edgeName, at) -> entities.put(edgeName, edge(edgeName, at, fieldsByEntity)));
        if (entities.isEmpty()) {
            throw fail(top, "declares no entities");
        }
        EmbeddedRefs.check(file, entities);
        // Aggregates (AggregateReader): after the entities they copy, before the views and demo items.
        List<AggregateModel> aggregates = !keys.containsKey("aggregates") ? List.of()
                : AggregateReader.read(file, keys.get("aggregates").node(), "aggregates", entities, domainTenant);
        var views = new ArrayList<ViewModel>();
        if (keys.containsKey("views")) {
            map(keys.get("views"), null).forEach((viewName, at) -> views.add(view(viewName, at, entities)));
        }
        var demo = new ArrayList<DomainModel.DemoItem>();
        if (keys.containsKey("demo")) {
            map(keys.get("demo"), null).forEach((entityName, at) -> demo.addAll(demo(entityName, at, entities)));
        }
        var places = new LinkedHashMap<String, At>(pending);
        places.putAll(edges);
        checkIncludes(entities, places);
        checkRoutes(entities, views, top);
        return new DomainModel(file, name, optional(keys, "description", ""), entities, views, demo, aggregates);
    }

    private void requireName(String name, At at, Map<String, ?> taken, Map<String, ?> others) {
        if (!NAME.matcher(name).matches()) {
            throw fail(at, "an entity name starts with a capital letter and has only letters and digits");
        }
        if (others.containsKey(name)) {
            throw fail(at, "'" + name + "' is declared twice");
        }
    }

    // --- fields -------------------------------------------------------------------------------------------------

    private static final Set<String> FIELD_KEYS = Set.of("type", "required", "minLength", "maxLength", "min", "max",
            "pattern", "values", "fields", "items", "default", "description", "example", "schema");

    private List<FieldModel> fields(At at) {
        var out = new ArrayList<FieldModel>();
        if (at == null) {
            return out;
        }
        map(at, null).forEach((name, fieldAt) -> out.add(field(name, fieldAt)));
        return out;
    }

    private FieldModel field(String name, At at) {
        if (!FIELD.matcher(name).matches()) {
            throw fail(at, "a field name starts with a lower-case letter and has only letters and digits");
        }
        if (at.node() instanceof ScalarNode) {
            return kindOnly(name, at, text(at));
        }
        var map = map(at, FIELD_KEYS);
        String word = text(map, "type", at);
        Kind kind = Kind.of(word);
        if (kind == null) {
            throw fail(map.get("type"), "unknown type '" + word + "' (expected one of " + kinds() + ")");
        }
        Integer minLength = count(map, "minLength");
        Integer maxLength = count(map, "maxLength");
        BigDecimal min = number(map, "min");
        BigDecimal max = number(map, "max");
        String pattern = optional(map, "pattern", null);
        if (pattern != null) {
            try {
                Pattern.compile(pattern);
            } catch (PatternSyntaxException e) {
                throw fail(map.get("pattern"), "not a valid regular expression: " + e.getDescription());
            }
        }
        onlyFor(map, "minLength", kind, Kind.STRING, Kind.LIST);
        onlyFor(map, "maxLength", kind, Kind.STRING, Kind.LIST);
        onlyFor(map, "pattern", kind, Kind.STRING);
        onlyFor(map, "min", kind, Kind.INTEGER, Kind.NUMBER);
        onlyFor(map, "max", kind, Kind.INTEGER, Kind.NUMBER);
        onlyFor(map, "values", kind, Kind.ENUM);
        onlyFor(map, "fields", kind, Kind.OBJECT);
        onlyFor(map, "items", kind, Kind.LIST);
        onlyFor(map, "schema", kind, Kind.ENUM);
        String schema = optional(map, "schema", null);
        if (schema != null && !NAME.matcher(schema).matches()) {
            throw fail(map.get("schema"), "a schema name starts with a capital letter and has only letters and digits");
        }
        if (minLength != null && maxLength != null && minLength > maxLength) {
            throw fail(map.get("minLength"), "minLength is above maxLength");
        }
        if (min != null && max != null && min.compareTo(max) > 0) {
            throw fail(map.get("min"), "min is above max");
        }
        List<String> values = null;
        if (kind == Kind.ENUM) {
            At valuesAt = map.get("values");
            if (valuesAt == null || !(valuesAt.node() instanceof SequenceNode seq) || seq.getValue().isEmpty()) {
                throw fail(valuesAt == null ? at : valuesAt, "an enum lists its values: values: [a, b]");
            }
            values = seq.getValue().stream().map(n -> text(new At(n, valuesAt.where()))).toList();
        }
        List<FieldModel> nested = null;
        if (kind == Kind.OBJECT) {
            if (!map.containsKey("fields")) {
                throw fail(at, "an object declares its fields");
            }
            nested = fields(map.get("fields"));
        }
        FieldModel items = null;
        if (kind == Kind.LIST) {
            if (!map.containsKey("items")) {
                throw fail(at, "a list declares its items: items: string, or items: {type: object, fields: ...}");
            }
            items = field("items", map.get("items"));
        }
        String defaultValue = optional(map, "default", null);
        if (defaultValue != null && !(kind == Kind.DATE && defaultValue.equals("today") || kind == Kind.INSTANT && defaultValue.equals("now")
                || kind.equals(Kind.STRING) || kind == Kind.ENUM && values.contains(defaultValue)
                || kind == Kind.BOOLEAN || kind == Kind.INTEGER || kind == Kind.NUMBER)) {
            throw fail(map.get("default"), "not a default a " + kind.word() + " can have");
        }
        boolean required = bool(map, "required") || kind == Kind.ID;
        return new FieldModel(name, kind, required, minLength, maxLength, min, max, pattern, values, nested, items,
                defaultValue, optional(map, "description", null), optional(map, "example", null), false, at.line(),
                schema);
    }

    /** A field declared as an entity's field is, for the aggregates' nodes (AggregateReader). */
    static FieldModel fieldAt(String file, String name, Node node, String where) {
        return new ModelReader(file).field(name, new At(node, where));
    }

    private FieldModel kindOnly(String name, At at, String word) {
        Kind kind = Kind.of(word);
        if (kind == null || kind == Kind.ENUM || kind == Kind.OBJECT || kind == Kind.LIST) {
            throw fail(at, "unknown type '" + word + "' (a field is one of " + kinds()
                    + "; enum, object and list take a mapping: {type: enum, values: [...]})");
        }
        return new FieldModel(name, kind, kind == Kind.ID, null, null, null, null, null, null, null, null, null, null,
                null, false, at.line());
    }

    private void onlyFor(Map<String, At> map, String key, Kind kind, Kind... kinds) {
        if (map.containsKey(key) && !List.of(kinds).contains(kind)) {
            throw fail(map.get(key), "'" + key + "' does not apply to a " + kind.word());
        }
    }

    private static String kinds() {
        var words = new ArrayList<String>();
        for (Kind kind : Kind.values()) {
            words.add(kind.word());
        }
        return String.join(", ", words);
    }

    // --- entities -----------------------------------------------------------------------------------------------

    private EntityModel entity(String name, At at, Map<String, At> map, Map<String, List<FieldModel>> declaredFields) {
        var key = map(required(map, "key", at), Set.of("pk", "sk"));
        KeyTemplate pk = template(required(key, "pk", map.get("key")));
        KeyTemplate sk = template(required(key, "sk", map.get("key")));
        String path = path(required(map, "path", at));
        var fields = new ArrayList<>(declaredFields.get(name));
        var identity = new ArrayList<String>();
        RefModel parent = null;
        String parentShards = null;
        // An id no entity owns names the partition the items share (a squad's selections): 'parent: { id }' alone.
        String partitionId = null;
        if (map.containsKey("parent") && !map(map.get("parent"), Set.of("entity", "id", "shards")).containsKey("entity")) {
            var parentMap = map(map.get("parent"), Set.of("id"));
            partitionId = text(parentMap, "id", map.get("parent"));
            identity.add(partitionId);
            addServerField(fields, partitionId, map.get("parent"));
        } else if (map.containsKey("parent")) {
            var parentMap = map(map.get("parent"), Set.of("entity", "id", "shards"));
            String parentEntity = text(parentMap, "entity", map.get("parent"));
            String parentId = text(parentMap, "id", map.get("parent"));
            if (!declaredFields.containsKey(parentEntity) || parentEntity.equals(name)) {
                throw fail(parentMap.get("entity"), "no entity '" + parentEntity + "' to be the parent");
            }
            parent = new RefModel(parentId, parentEntity, Map.of(), map.get("parent").line());
            if (parentMap.containsKey("shards")) {
                parentShards = text(parentMap.get("shards"));
                String shardsField = parentShards;
                var counted = declaredFields.get(parentEntity).stream().filter(f -> f.name().equals(shardsField)).findFirst();
                if (counted.isEmpty() || counted.get().kind() != Kind.INTEGER) {
                    throw fail(parentMap.get("shards"), "the parent's write shard count is one of its integer fields, "
                            + "not '" + shardsField + "'");
                }
                if (counted.get().max() == null || counted.get().max().intValue() > ShardedIds.MAX_SHARDS
                        || counted.get().min() == null || counted.get().min().intValue() < 1) {
                    throw fail(parentMap.get("shards"), "'" + shardsField + "' counts write shards: give it min 1 and max "
                            + "at most " + ShardedIds.MAX_SHARDS);
                }
            }
            identity.add(parentId);
            addServerField(fields, parentId, map.get("parent"));
        }
        // The entity's own id: the key's last field that is not the parent's.
        var keyFields = new ArrayList<String>(pk.fieldNames());
        keyFields.addAll(sk.fieldNames());
        String own = null;
        for (String field : keyFields) {
            if (!identity.contains(field)) {
                if (own != null) {
                    throw fail(map.get("key"), "the key has two id fields, '" + own + "' and '" + field + "': a child names its parent");
                }
                own = field;
            }
        }
        if (own == null) {
            throw fail(map.get("key"), "the key has no field of its own (e.g. pk: \"" + name.toUpperCase(Locale.ROOT) + "#{id}\")");
        }
        identity.add(own);
        boolean generated = false;
        if (map.containsKey("generate")) {
            String how = text(map.get("generate"));
            if (!how.equals("time-ordered")) {
                throw fail(map.get("generate"), "only 'time-ordered' ids are generated");
            }
            generated = true;
            addServerField(fields, own, map.get("generate"));
        } else if (fields.stream().noneMatch(f -> f.name().equals(identity.get(identity.size() - 1)))) {
            fields.add(0, new FieldModel(own, Kind.ID, true, null, null, null, null, null, null, null, null, null, null, null, false, at.line()));
        }
        identityFirst(fields, identity);
        if (parent != null && !pk.fieldNames().equals(List.of(parent.field()))) {
            throw fail(map.get("key"), "a child lives in its parent's partition: pk has exactly the field '" + parent.field() + "'");
        }
        if (partitionId != null && !pk.fieldNames().equals(List.of(partitionId))) {
            throw fail(map.get("key"), "the items share the partition their parent id names: pk has exactly the field '"
                    + partitionId + "'");
        }
        var refs = new ArrayList<RefModel>();
        if (map.containsKey("refs")) {
            map(map.get("refs"), null).forEach((field, refAt) -> {
                var refMap = map(refAt, Set.of("entity", "copy", "actor", "embed"));
                String target = text(refMap, "entity", refAt);
                if (!declaredFields.containsKey(target)) {
                    throw fail(refMap.get("entity"), "no entity '" + target + "' to refer to");
                }
                // A whole copy (EmbeddedRefs): the entity's fields under 'embed', answered, never taken from a body.
                String embed = !refMap.containsKey("embed") ? null
                        : EmbeddedRefs.embed(file, refMap.get("embed").node(), refMap.get("embed").where(), field, target,
                        refMap.containsKey("copy") || refMap.containsKey("actor"), declaredFields.get(target), fields);
                var copies = copies(refMap.get("copy"), target, declaredFields, fields);
                if (fields.stream().noneMatch(f -> f.name().equals(field))) {
                    fields.add(new FieldModel(field, Kind.ID, true, null, null, null, null, null, null, null, null, null, null, null, false, refAt.line()));
                }
                boolean actor = bool(refMap, "actor");
                if (actor) {
                    if (refs.stream().anyMatch(RefModel::actor)) {
                        throw fail(refMap.get("actor"), "an entity has one actor");
                    }
                    // The caller when the body names none: optional in a body, always stored.
                    replaceField(fields, field, f -> f.optional().described(f.description() != null ? f.description()
                            : "The author; the caller when absent (only cairn-admin may name someone else)"));
                }
                refs.add(new RefModel(field, target, copies, actor, refAt.line(), embed));
            });
        }
        Owner owner = map.containsKey("owner") ? owner(map.get("owner"), parent, refs, fields) : null;
        boolean self = bool(map, "self");
        if (self && parent != null) {
            throw fail(map.get("self"), "a child is written under its parent: only a stand-alone entity is 'self'");
        }
        List<String> timestamps = timestamps(map.get("timestamps"), fields);
        pk = checked(pk, fields, map.get("key"));
        sk = checked(sk, fields, map.get("key"));
        checkPathFits(path, identity, map.get("path"));
        if (owner != null && !owner.path().substring(owner.path().lastIndexOf('/')).equals(path.substring(path.lastIndexOf('/')))) {
            throw fail(map.get("owner"), "the owner path ends with the item path's id parameter, as " + path + " does");
        }
        var keyed = new ArrayList<IndexModel>();
        if (map.containsKey("index")) {
            IndexModel single = index(map.get("index"), fields, name, null);
            keyed.add(single);
        }
        ListModel list = !map.containsKey("list") ? null : list(map.get("list"), 1,
                "list" + (parent == null ? "" : parent.entity()) + name + "s",
                (parent == null ? "" : "A " + words(parent.entity()) + "'s ") + words(name) + "s");
        if (list != null && parent == null && partitionId == null) {
            throw fail(map.get("list"), "only a child is listed under its parent (declare 'parent')");
        }
        if (list != null && list.query() != null) {
            throw fail(map.get("list"), "a child's listing names its parent in its path, not in 'query'");
        }
        var operations = operations(map.get("operations"), name, List.of(Op.CREATE, Op.GET, Op.PUT, Op.PATCH, Op.DELETE));
        for (var entry : operations.entrySet()) {
            if (entry.getValue().atOwner() && owner == null) {
                throw fail(map.get("operations"), entry.getKey().word() + " is 'at: owner' but the entity declares no 'owner'");
            }
        }
        String describe = optional(map, "describe", name.toLowerCase(Locale.ROOT) + " {" + own + "}");
        String[] input = input(map.get("input"));
        var indexes = naturalIndexes(map.get("indexes"), fields, timestamps, name, keyed);
        boolean softDelete = bool(map, "softDelete");
        var access = access(at, map, identity, softDelete);
        if (map.containsKey("author")) {
            String author = text(map.get("author"));
            var field = fields.stream().filter(f -> f.name().equals(author)).findFirst();
            if (field.isEmpty() || field.get().kind() != Kind.STRING || identity.contains(author)) {
                throw fail(map.get("author"), "the author is one of the entity's string fields (not its identity), not '"
                        + author + "'");
            }
            // taken from the caller when the body names none: optional in a body, fixed once written
            replaceField(fields, author, FieldModel::optional);
            access = access.withAuthor(author);
        }
        if (bool(map, "private")) {
            // a user's own data: the user it is (self), or the user its parent is
            String user = self ? own : parent != null && declaredSelf.contains(parent.entity()) ? parent.field() : null;
            if (user == null) {
                throw fail(map.get("private"), "only a user's own data is private: a 'self' entity, or a child of one");
            }
            access = access.withPrivateTo(user);
        }
        if (parentShards != null && !generated) {
            throw fail(map.get("parent"), "the children of a write-sharded parent have server-made ids that name their "
                    + "shard: declare 'generate: time-ordered'");
        }
        // Where whole copies of it are (AggregateReader): read with the aggregates that embed them.
        CopiesModel copies = !map.containsKey("copies") ? null
                : AggregateReader.copies(file, map.get("copies").node(), map.get("copies").where(), name, pk, path);
        if (map.containsKey("unique") && refs.stream().anyMatch(r -> r.embed() != null)) {
            throw fail(map.get("unique"), "an entity that embeds whole copies cannot declare unique values yet");
        }
        List<UniqueModel> unique = uniques(map.get("unique"), fields, timestamps);
        String ttl = map.containsKey("ttl") ? ttl(map.get("ttl"), fields, pk, sk, keyed, indexes, access) : null;
        if (ttl != null && !unique.isEmpty()) {
            // DynamoDB's TTL deletes the item without a transaction: its sentinels would outlive it and hold its values
            throw fail(map.get("ttl"), "an entity with unique values cannot expire yet: DynamoDB's TTL would delete the "
                    + "item and leave its sentinels holding its values");
        }
        HistoryModel history = map.containsKey("history") ? history(map.get("history")) : null;
        if (history != null && ttl != null) {
            // DynamoDB's TTL deletes the item outside any transaction: its last version would never be snapshotted
            throw fail(map.get("history"), "an entity that expires (ttl) keeps no history: DynamoDB's TTL deletes the "
                    + "item without a write that could snapshot its last version");
        }
        if (history != null && refs.stream().anyMatch(r -> r.embed() != null)) {
            throw fail(map.get("history"), "an entity that embeds whole copies (embed) keeps no history yet: its writes "
                    + "take another path than the one that snapshots versions");
        }
        if (softDelete) {
            softDeletable(map, operations.keySet(), ttl, refs, parentShards, path);
        }
        return new EntityModel(name, pk, sk, path, fields, identity, generated, parent, refs, false, keyed, operations,
                list, describe, input[0], input[1], self, owner, timestamps, indexes, access, parentShards, at.line(),
                copies, unique, ttl, softDelete, history);
    }



    private static FieldModel field(List<FieldModel> fields, String name) {
        return fields.stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow();
    }


    private EntityModel edge(String name, At at, Map<String, List<FieldModel>> declaredFields) {
        var map = map(at, Set.of("from", "to", "key", "inverse", "indexes", "path", "fields", "describe", "input", "operations",
                "lists", "roles", "tenant", "unique"));
        var fields = new ArrayList<FieldModel>();
        var refs = new ArrayList<RefModel>();
        var identity = new ArrayList<String>();
        for (String end : List.of("from", "to")) {
            At endAt = required(map, end, at);
            var endMap = map(endAt, Set.of("entity", "id", "copy"));
            String target = text(endMap, "entity", endAt);
            if (!declaredFields.containsKey(target)) {
                throw fail(endMap.get("entity"), "no entity '" + target + "' at this end");
            }
            String id = text(endMap, "id", endAt);
            identity.add(id);
            addServerField(fields, id, endAt);
            refs.add(new RefModel(id, target, Map.of(), endAt.line()));
        }
        fields.addAll(fields(map.get("fields")));
        identityFirst(fields, identity);
        // Copies after the edge's own fields, as the edge's item shows them.
        for (int i = 0; i < 2; i++) {
            At endAt = map.get(i == 0 ? "from" : "to");
            var endMap = map(endAt, Set.of("entity", "id", "copy"));
            var copies = copies(endMap.get("copy"), refs.get(i).entity(), declaredFields, fields);
            refs.set(i, new RefModel(refs.get(i).field(), refs.get(i).entity(), copies, endAt.line()));
        }
        var key = map(required(map, "key", at), Set.of("pk", "sk"));
        KeyTemplate pk = template(required(key, "pk", map.get("key")));
        KeyTemplate sk = template(required(key, "sk", map.get("key")));
        pk = checked(pk, fields, map.get("key"));
        sk = checked(sk, fields, map.get("key"));
        if (!pk.fieldNames().equals(List.of(identity.get(0)))) {
            throw fail(map.get("key"), "an edge lives in its 'from' end's partition: pk has exactly the field '" + identity.get(0) + "'");
        }
        String path = path(required(map, "path", at));
        checkPathFits(path, identity, map.get("path"));
        IndexModel index = null;
        if (map.containsKey("inverse")) {
            index = index(map.get("inverse"), fields, name, "inverse");
        }
        ListModel fromList = null;
        if (map.containsKey("lists")) {
            var lists = map(map.get("lists"), Set.of("from", "to"));
            if (lists.containsKey("from")) {
                fromList = list(lists.get("from"), 1, "list" + refs.get(0).entity() + refs.get(1).entity() + "s",
                        "A " + words(refs.get(0).entity()) + "'s " + words(refs.get(1).entity()) + "s");
            }
            if (lists.containsKey("to")) {
                if (index == null) {
                    throw fail(lists.get("to"), "the 'to' end lists its edges through the inverse index: declare 'inverse'");
                }
                index = index.listed(list(lists.get("to"), 1,
                        "list" + refs.get(1).entity() + refs.get(0).entity() + "s",
                        "A " + words(refs.get(1).entity()) + "'s " + words(refs.get(0).entity()) + "s (inverted index)"));
            }
        }
        String[] input = input(map.get("input"));
        var operations = operations(map.get("operations"), name, List.of(Op.PUT, Op.GET, Op.PATCH, Op.DELETE));
        if (operations.containsKey(Op.CREATE)) {
            throw fail(map.get("operations"), "an edge is created by a PUT of its path (both ids are in it): use 'put'");
        }
        if (operations.values().stream().anyMatch(OperationModel::atOwner)) {
            throw fail(map.get("operations"), "an edge has no owner: it is addressed by both its ends");
        }
        String describe = optional(map, "describe", name.toLowerCase(Locale.ROOT) + " of {" + identity.get(0)
                + "} and {" + identity.get(1) + "}");
        var keyed = new ArrayList<IndexModel>();
        if (index != null) {
            keyed.add(index);
        }
        var indexes = naturalIndexes(map.get("indexes"), fields, List.of(), name, keyed);
        // unique values of an edge (one product per slot of a category): taken by its create, given up by its delete
        List<UniqueModel> unique = uniques(map.get("unique"), fields, List.of());
        for (UniqueModel constraint : unique) {
            if (constraint.softDelete() != UniqueModel.SoftDelete.KEEP) {
                throw fail(map.get("unique"), "'" + constraint.name() + "': an edge is not soft-deleted, so its unique "
                        + "values declare no softDelete");
            }
        }
        return new EntityModel(name, pk, sk, path, fields, identity, false, null, refs, true, keyed, operations,
                fromList, describe, input[0], input[1], false, null, List.of(), indexes, access(at, map, identity), null,
                at.line(), null, unique, null);
    }


    /**
     * {@code roles} (an operation or {@code list} to the role it needs) and {@code tenant} (the field naming the
     * tenant, a workspace: one of the item's identity fields, so every route under it names it in its path).
     */
    private EntityModel.Access access(At at, Map<String, At> map, List<String> identity) {
        return access(at, map, identity, false);
    }

    /**
     * {@code softDelete: true}: a delete keeps the item as a tombstone (see DeclaredSoftDeletes). Refused where the
     * tombstone could not be kept or brought back as it was: an item that expires (DynamoDB's TTL removes it without a
     * transaction, and a restored item past its expiry would be gone at once), one that embeds whole copies (its
     * copies are kept by the aggregates' writes, which a restore does not run), a child of a write-sharded parent (its
     * deleted listing would have to fan out too: not yet), and an entity that serves no delete.
     */
    private void softDeletable(Map<String, At> map, Set<Op> operations, String ttl, List<RefModel> refs,
                               String parentShards, String path) {
        At at = map.get("softDelete");
        if (!operations.contains(Op.DELETE)) {
            throw fail(at, "soft delete changes what the delete does, and this entity serves no delete");
        }
        if (ttl != null) {
            throw fail(at, "an entity that expires cannot be soft-deleted: DynamoDB's TTL removes the item without a "
                    + "transaction, and a restored item past its expiry would be gone at once");
        }
        if (refs.stream().anyMatch(r -> r.embed() != null)) {
            throw fail(at, "an entity that embeds whole copies cannot be soft-deleted yet: a restore could not keep "
                    + "its copies current");
        }
        if (parentShards != null) {
            throw fail(at, "a child of a write-sharded parent cannot be soft-deleted yet: its deleted listing would "
                    + "have to read every write shard");
        }
        String last = path.substring(path.lastIndexOf('/') + 1);
        if (!last.startsWith("{")) {
            throw fail(at, "a soft-deleted entity's path ends with its id parameter, as " + path + " does not");
        }
    }

    private EntityModel.Access access(At at, Map<String, At> map, List<String> identity, boolean softDelete) {
        String tenant = null;
        if (map.containsKey("tenant")) {
            tenant = text(map.get("tenant"));
            if (!identity.contains(tenant)) {
                throw fail(map.get("tenant"), "the tenant is one of the item's identity fields " + identity
                        + " (every route under it names it in its path), not '" + tenant + "'");
            }
        } else if (domainTenant != null) {
            // the domain's tenant field scopes every entity of the file that does not name its own
            if (!identity.contains(domainTenant)) {
                throw fail(at, "the domain is scoped by '" + domainTenant + "' (its tenant), which is not one of this "
                        + "item's identity fields " + identity + ": name the entity's own tenant field, or declare a "
                        + "shared entity in a file of its own");
            }
            tenant = domainTenant;
        }
        var keys = new java.util.HashSet<>(ROLE_KEYS);
        keys.addAll(SOFT_DELETE_ROLE_KEYS);
        var roles = roles(map, keys);
        for (String word : SOFT_DELETE_ROLE_KEYS) {
            if (roles.containsKey(word) && !softDelete) {
                throw fail(map.get("roles"), "'" + word + "' is a role of a soft-deleted entity's route: declare "
                        + "'softDelete: true' first");
            }
        }
        return new EntityModel.Access(roles, tenant);
    }

    /** The request body's schema name and description, when declared ({@code input: {schema, description}}). */
    private String[] input(At at) {
        if (at == null) {
            return new String[2];
        }
        var input = map(at, Set.of("schema", "description"));
        String schema = text(input, "schema", at);
        if (!NAME.matcher(schema).matches()) {
            throw fail(input.get("schema"), "a schema name starts with a capital letter and has only letters and digits");
        }
        return new String[]{schema, optional(input, "description", null)};
    }

    /**
     * {@code owner: {ref, path}}: the entity is also addressed under the user one of its refs names; that ref is the
     * actor, taken from the path's first parameter (so never from a body).
     */
    private Owner owner(At at, RefModel parent, List<RefModel> refs, List<FieldModel> fields) {
        var map = map(at, Set.of("ref", "path"));
        if (parent != null) {
            throw fail(at, "a child is addressed under its parent: an owner is for a stand-alone entity");
        }
        String ref = text(map, "ref", at);
        int i = 0;
        while (i < refs.size() && !refs.get(i).field().equals(ref)) {
            i++;
        }
        if (i == refs.size()) {
            throw fail(map.get("ref"), "the owner is one of the entity's refs: '" + ref + "' is not");
        }
        if (refs.stream().anyMatch(r -> r.actor() && !r.field().equals(ref))) {
            throw fail(map.get("ref"), "an entity has one actor: its owner");
        }
        String path = path(required(map, "path", at));
        if (parameterCount(path) != 2 || !path.endsWith("}")) {
            throw fail(map.get("path"), "an owner path has 2 parameters: the owner's id, then the entity's id");
        }
        RefModel owned = refs.get(i);
        refs.set(i, new RefModel(owned.field(), owned.entity(), owned.copies(), true, owned.line()));
        replaceField(fields, ref, f -> new FieldModel(f.name(), Kind.ID, true, null, null, null, null, null, null,
                null, null, null, f.description(), null, true, f.line()));
        return new Owner(ref, path);
    }

    /**
     * {@code ttl: <field>}: the entity's expiry, one of its own top-level {@code instant} fields. It is stored as the
     * table's TTL attribute (epoch seconds), not under its name, so no key or index may be made of it.
     */
    /** What an expiry field means, in the contract. */
    static final String EXPIRY = "The item's expiry (whole seconds): from this instant on it is gone from every read "
            + "and listing, as if deleted, and a write meets it as missing; DynamoDB's TTL deletes it later. A create "
            + "needs it later than now; an update may set a past one, which expires the item at once";

    private String ttl(At at, List<FieldModel> fields, KeyTemplate pk, KeyTemplate sk, List<IndexModel> keyed,
                       List<NaturalIndexModel> indexes, EntityModel.Access access) {
        String name = text(at);
        var field = fields.stream().filter(f -> f.name().equals(name)).findFirst();
        if (field.isEmpty() || field.get().kind() != Kind.INSTANT) {
            throw fail(at, "ttl names one of the entity's instant fields (its expiry), not '" + name + "'");
        }
        boolean keyedOn = pk.fieldNames().contains(name) || sk.fieldNames().contains(name)
                || keyed.stream().anyMatch(i -> i.pk().fieldNames().contains(name) || i.sk().fieldNames().contains(name))
                || indexes.stream().anyMatch(i -> java.util.stream.Stream.concat(i.partition().stream(), i.sort().stream())
                        .anyMatch(f -> f.name().equals(name)));
        if (keyedOn || name.equals(access.tenant()) || name.equals(access.author())) {
            throw fail(at, "the ttl field '" + name + "' is stored as the table's TTL attribute: no key, index, tenant or "
                    + "author may be made of it");
        }
        String said = field.get().description();
        replaceField(fields, name, f -> f.described((said == null ? "" : said + ". ") + EXPIRY));
        return name;
    }

    /** {@code timestamps: true} (both) or a list of {@code createdAt}, {@code updatedAt}: answered, never written. */
    private List<String> timestamps(At at, List<FieldModel> fields) {
        if (at == null) {
            return List.of();
        }
        var names = new ArrayList<String>();
        if (at.node() instanceof SequenceNode seq) {
            for (Node node : seq.getValue()) {
                String name = text(new At(node, at.where()));
                if (!name.equals(EntityModel.CREATED_AT) && !name.equals(EntityModel.UPDATED_AT) || names.contains(name)) {
                    throw fail(at, "timestamps are createdAt and updatedAt, each once");
                }
                names.add(name);
            }
        } else if (text(at).equals("true")) {
            names.addAll(List.of(EntityModel.CREATED_AT, EntityModel.UPDATED_AT));
        } else if (!text(at).equals("false")) {
            throw fail(at, "timestamps: true, or a list of createdAt and updatedAt");
        }
        for (String name : names) {
            if (fields.stream().anyMatch(f -> f.name().equals(name))) {
                throw fail(at, "'" + name + "' is a timestamp and cannot also be a field");
            }
            fields.add(new FieldModel(name, Kind.INSTANT, false, null, null, null, null, null, null, null, null, null,
                    null, null, true, at.line()));
        }
        return names;
    }

    private static void replaceField(List<FieldModel> fields, String name, java.util.function.UnaryOperator<FieldModel> change) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(name)) {
                fields.set(i, change.apply(fields.get(i)));
            }
        }
    }

    /** Identity fields lead, in identity order: the item reads as its path does. */
    private static void identityFirst(List<FieldModel> fields, List<String> identity) {
        var lead = new ArrayList<FieldModel>();
        for (String id : identity) {
            fields.stream().filter(f -> f.name().equals(id)).findFirst().ifPresent(lead::add);
        }
        fields.removeAll(lead);
        fields.addAll(0, lead);
    }

    private void addServerField(List<FieldModel> fields, String name, At at) {
        fields.removeIf(f -> f.name().equals(name));
        fields.add(0, new FieldModel(name, Kind.ID, true, null, null, null, null, null, null, null, null, null, null, null, true, at.line()));
    }

    private Map<String, String> copies(At at, String target, Map<String, List<FieldModel>> declaredFields,
                                       List<FieldModel> fields) {
        var copies = new LinkedHashMap<String, String>();
        if (at == null) {
            return copies;
        }
        map(at, null).forEach((field, sourceAt) -> {
            String source = text(sourceAt);
            FieldModel sourceField = declaredFields.get(target).stream().filter(f -> f.name().equals(source)).findFirst()
                    .orElseThrow(() -> fail(sourceAt, "'" + target + "' has no field '" + source + "' to copy"));
            if (!FIELD.matcher(field).matches() || fields.stream().anyMatch(f -> f.name().equals(field))) {
                throw fail(sourceAt, "'" + field + "' is not a free field name for a copy");
            }
            fields.add(new FieldModel(field, sourceField.kind() == Kind.ID ? Kind.STRING : sourceField.kind(), false,
                    null, null, null, null, null, sourceField.values(), sourceField.fields(), sourceField.items(), null,
                    null, null, true, sourceAt.line(), sourceField.schema()));
            copies.put(field, source);
        });
        return copies;
    }

    /**
     * A key on one of the table's overloaded indexes: {@code index} (gsi1 to gsi4), {@code pk} and {@code sk} templates,
     * an optional {@code list}. Named {@code name}, or by its partition field ({@code byBookId}).
     */
    private IndexModel index(At at, List<FieldModel> fields, String entity, String name) {
        var map = map(at, Set.of("index", "pk", "sk", "list", "shards"));
        String gsi = text(map, "index", at);
        Index index = Index.globalIndexes().stream().filter(i -> i.indexName().equals(gsi)).findFirst()
                .orElseThrow(() -> fail(map.get("index"), "no index '" + gsi + "' in the table (gsi1 to gsi4)"));
        KeyTemplate pk = checked(template(required(map, "pk", at)), fields, at);
        KeyTemplate sk = checked(template(required(map, "sk", at)), fields, at);
        if (pk.fieldCount() != 1) {
            throw fail(map.get("pk"), "an index partition key names exactly one field");
        }
        String field = pk.fieldNames().get(0);
        String named = name != null ? name : "by" + Character.toUpperCase(field.charAt(0)) + field.substring(1);
        int shards = 1;
        String setting = null;
        if (map.containsKey("shards")) {
            // a number, or { setting: <configuration key>, default: <number> }
            At shardsAt = map.get("shards");
            if (shardsAt.node() instanceof MappingNode) {
                var shardMap = map(shardsAt, Set.of("setting", "default"));
                setting = text(shardMap, "setting", shardsAt);
                shards = shardMap.containsKey("default") ? count(shardMap, "default") : 1;
            } else {
                shards = count(map, "shards");
            }
            if (shards < 1 || shards > ShardedIds.MAX_SHARDS) {
                throw fail(shardsAt, "an index has 1 to " + ShardedIds.MAX_SHARDS + " shards");
            }
        }
        ListModel list = !map.containsKey("list") ? null : list(map.get("list"), 1,
                "list" + entity + "sBy" + Character.toUpperCase(field.charAt(0)) + field.substring(1),
                words(entity) + "s by " + field + " (index)");
        if (list != null && list.query() != null && !list.query().equals(field)) {
            throw fail(map.get("list"), "a listing's query parameter is the index's partition field, '" + field + "'");
        }
        return new IndexModel(named, index, pk, sk, list, shards, setting);
    }

    /** Kinds a key attribute can have: stored as S (text) or N (numbers); booleans, objects and lists cannot. */
    private static final Set<Kind> KEY_KINDS = Set.of(Kind.ID, Kind.STRING, Kind.ENUM, Kind.DATE, Kind.INSTANT,
            Kind.INTEGER, Kind.NUMBER);

    /**
     * {@code indexes: { name: { pk: [a, b], sk: [c], list: {...} } }}: named indexes keyed on the entity's own
     * fields (DynamoDB's multi-attribute keys, 1-4 partition and 0-4 sort fields). A listing's path parameters are
     * exactly the partition fields.
     */
    /**
     * The named indexes of {@code indexes}: an entry with {@code index} (gsi1 to gsi4) is a key on one of the table's
     * overloaded indexes, rendered from templates, added to {@code keyed} (one per overloaded index: an item has one
     * key each); any other is a natural index on the entity's own fields, returned.
     */
    private List<NaturalIndexModel> naturalIndexes(At at, List<FieldModel> fields, List<String> timestamps, String entity,
                                                   List<IndexModel> keyed) {
        var out = new ArrayList<NaturalIndexModel>();
        if (at == null) {
            return out;
        }
        map(at, null).forEach((indexName, indexAt) -> {
            if (map(indexAt, null).containsKey("index")) {
                IndexModel index = index(indexAt, fields, entity, indexName);
                for (IndexModel other : keyed) {
                    if (other.index() == index.index()) {
                        throw fail(indexAt, "'" + other.name() + "' keys " + entity + " on " + index.index().indexName()
                                + " already: an item has one key per index");
                    }
                    if (other.name().equals(indexName)) {
                        throw fail(indexAt, "another index is called '" + indexName + "'");
                    }
                }
                keyed.add(index);
                return;
            }
            var map = map(indexAt, Set.of("pk", "sk", "list"));
            List<FieldModel> pk = keyFields(required(map, "pk", indexAt), fields, timestamps);
            List<FieldModel> sk = map.containsKey("sk") ? keyFields(map.get("sk"), fields, timestamps) : List.of();
            NaturalIndex index;
            try {
                index = new NaturalIndex(indexName, attributes(pk), attributes(sk));
            } catch (IllegalArgumentException e) {
                throw fail(indexAt, e.getMessage());
            }
            ListModel list = null;
            if (map.containsKey("list")) {
                List<String> names = pk.stream().map(FieldModel::name).toList();
                String by = String.join("And", names.stream().map(n -> Character.toUpperCase(n.charAt(0)) + n.substring(1)).toList());
                list = list(map.get("list"), pk.size(), "list" + entity + "sBy" + by,
                        words(entity) + "s by " + String.join(" and ", names) + " (index " + indexName + ")");
                var parameters = new ArrayList<String>();
                Matcher m = Pattern.compile("\\{([a-zA-Z0-9]+)}").matcher(list.path());
                while (m.find()) {
                    parameters.add(m.group(1));
                }
                if (!new java.util.HashSet<>(parameters).equals(new java.util.HashSet<>(names))) {
                    throw fail(map.get("list"), "the listing's path parameters are the index's partition fields " + names);
                }
                var sortParameters = new ArrayList<String>(List.of("limit", "cursor"));
                for (FieldModel f : sk) {
                    for (String parameter : NaturalIndexModel.sortParametersOf(f)) {
                        if (sortParameters.contains(parameter)) {
                            throw fail(map.get("sk"), "the listing's query parameter '" + parameter + "' would be taken twice");
                        }
                        sortParameters.add(parameter);
                    }
                }
            }
            out.add(new NaturalIndexModel(index, pk, sk, list, indexAt.line()));
        });
        return out;
    }

    /** A key's fields, {@code [a, b]}: declared fields of a kind a key attribute can have. */
    private List<FieldModel> keyFields(At at, List<FieldModel> fields, List<String> timestamps) {
        if (!(at.node() instanceof SequenceNode seq) || seq.getValue().isEmpty()) {
            throw fail(at, "a list of the entity's field names, e.g. [memberId, status]");
        }
        var out = new ArrayList<FieldModel>();
        for (Node node : seq.getValue()) {
            String name = text(new At(node, at.where()));
            if (timestamps.contains(name)) {
                throw fail(at, "'" + name + "' cannot key an index: a timestamp is the store's, not a field of the item");
            }
            FieldModel field = fields.stream().filter(f -> f.name().equals(name)).findFirst()
                    .orElseThrow(() -> fail(at, "no field '" + name + "' to key the index on"));
            if (!KEY_KINDS.contains(field.kind())) {
                throw fail(at, "'" + name + "' cannot key an index: a key attribute is text or a number, not "
                        + field.kind().word());
            }
            if (field.kind() == Kind.STRING && !field.required() && (field.minLength() == null || field.minLength() < 1)) {
                // DynamoDB refuses an empty string in a key attribute: the write would fail, not the read.
                throw fail(at, "'" + name + "' cannot key an index as it may be empty: make it required or give it minLength: 1");
            }
            out.add(field);
        }
        return out;
    }

    private static List<NaturalIndex.Attribute> attributes(List<FieldModel> fields) {
        return fields.stream().map(f -> new NaturalIndex.Attribute(f.name(), f.kind() == Kind.INTEGER
                || f.kind() == Kind.NUMBER)).toList();
    }

    /** "RecipeIngredient" → "recipe ingredient". */
    public static String words(String name) {
        return name.replaceAll("([a-z0-9])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
    }

    private ListModel list(At at, int parameters, String defaultId, String defaultSummary) {
        var map = map(at, Set.of("path", "id", "summary", "label", "order", "query", "page"));
        String path = path(required(map, "path", at));
        String query = map.containsKey("query") ? text(map.get("query")) : null;
        if (query != null && (parameters != 1 || parameterCount(path) != 0)) {
            throw fail(map.get("query"), "a listing takes its partition's id from a query parameter only when its path has none");
        }
        if (query == null && parameterCount(path) != parameters) {
            throw fail(map.get("path"), "a listing path has exactly " + parameters + " parameter (the partition's id)");
        }
        String order = optional(map, "order", "oldest-first");
        if (!order.equals("oldest-first") && !order.equals("newest-first")) {
            throw fail(map.get("order"), "order is oldest-first or newest-first");
        }
        String summary = optional(map, "summary", defaultSummary);
        return new ListModel(path, optional(map, "id", defaultId), summary,
                optional(map, "label", summary), order.equals("newest-first"), query,
                map.containsKey("page") ? text(map.get("page")) : null, at.line());
    }

    private Map<Op, OperationModel> operations(At at, String entity, List<Op> all) {
        var out = new EnumMap<Op, OperationModel>(Op.class);
        if (at == null) {
            all.forEach(op -> out.put(op, operation(op, entity, Map.of())));
            return out;
        }
        map(at, null).forEach((word, opAt) -> {
            Op op = Op.of(word);
            if (op == null) {
                throw fail(opAt, "unknown operation '" + word + "' (create, get, put, patch, delete)");
            }
            if (opAt.node() instanceof ScalarNode) {
                out.put(op, operation(op, entity, Map.of("summary", text(opAt))));
            } else {
                var opMap = map(opAt, Set.of("id", "summary", "answer", "label", "at", "include"));
                var values = new LinkedHashMap<String, String>();
                opMap.forEach((k, v) -> {
                    if (!k.equals("include")) {
                        values.put(k, text(v));
                    }
                });
                if (values.containsKey("at") && !values.get("at").equals("owner")) {
                    throw fail(opMap.get("at"), "an operation is served at its item path, or 'at: owner'");
                }
                var include = new LinkedHashMap<String, OperationModel.Include>();
                if (opMap.containsKey("include")) {
                    if (op != Op.GET) {
                        throw fail(opMap.get("include"), "only a read includes children");
                    }
                    map(opMap.get("include"), null).forEach((member, memberAt) -> {
                        if (!FIELD.matcher(member).matches()) {
                            throw fail(memberAt, "an include's name starts with a lower-case letter and has only letters and digits");
                        }
                        if (memberAt.node() instanceof ScalarNode) {
                            include.put(member, new OperationModel.Include(text(memberAt), null));
                        } else {
                            var memberMap = map(memberAt, Set.of("entity", "label"));
                            include.put(member, new OperationModel.Include(text(memberMap, "entity", memberAt),
                                    optional(memberMap, "label", null)));
                        }
                    });
                }
                OperationModel base = operation(op, entity, values);
                out.put(op, new OperationModel(op, base.operationId(), base.summary(), base.answer(), base.label(),
                        "owner".equals(values.get("at")), include));
            }
        });
        return out;
    }

    private static OperationModel operation(Op op, String entity, Map<String, String> values) {
        String article = "AEIOU".indexOf(entity.charAt(0)) >= 0 ? "an " : "a ";
        String lower = words(entity);
        String id = switch (op) {
            case CREATE -> "create" + entity;
            case GET -> "get" + entity;
            case PUT -> "put" + entity;
            case PATCH -> "patch" + entity;
            case DELETE -> "delete" + entity;
        };
        String summary = switch (op) {
            case CREATE -> "Create " + article + lower;
            case GET -> "Read " + article + lower;
            case PUT -> "Replace " + article + lower;
            case PATCH -> "Change " + article + lower;
            case DELETE -> "Delete " + article + lower;
        };
        return new OperationModel(op, values.getOrDefault("id", id), values.getOrDefault("summary", summary),
                values.get("answer"), values.getOrDefault("label", op == Op.GET ? entity + " by id" : null), false, Map.of());
    }

    private String path(At at) {
        String path = text(at);
        if (!PATH.matcher(path).matches()) {
            throw fail(at, "a path is /segments of lower-case words or {parameters}, e.g. /students/{sid}");
        }
        return path;
    }

    private static int parameterCount(String path) {
        return (int) path.chars().filter(c -> c == '{').count();
    }

    private void checkPathFits(String path, List<String> identity, At at) {
        if (parameterCount(path) != identity.size()) {
            throw fail(at, "the path has " + parameterCount(path) + " parameter(s) but the entity is identified by "
                    + identity.size() + " (" + String.join(", ", identity) + ")");
        }
        if (!path.endsWith("}")) {
            throw fail(at, "an item path ends with the entity's id parameter");
        }
    }

    /**
     * The template, its fields checked (each a required or server-set field) and typed: an integer or number field is
     * encoded as a number ({@code {field:n}}), so keys sort by value — 2 before 10 — as the seeds' numbered items must.
     */
    private KeyTemplate checked(KeyTemplate template, List<FieldModel> fields, At at) {
        checkTemplateFields(template, fields, at);
        var numeric = fields.stream().filter(f -> f.kind() == Kind.INTEGER || f.kind() == Kind.NUMBER)
                .map(FieldModel::name).toList();
        return template.numeric(numeric);
    }

    private void checkTemplateFields(KeyTemplate template, List<FieldModel> fields, At at) {
        for (String field : template.fieldNames()) {
            var declared = fields.stream().filter(f -> f.name().equals(field)).findFirst();
            if (declared.isEmpty()) {
                throw fail(at, "the key template " + template.pattern() + " names '" + field + "', which is not a field");
            }
            if (!declared.get().required() && !declared.get().serverSet()) {
                throw fail(at, "the key template " + template.pattern() + " names '" + field + "', which must be required");
            }
        }
    }

    // --- views, demo items, routes ------------------------------------------------------------------------------

    private ViewModel view(String name, At at, Map<String, EntityModel> entities) {
        var map = map(at, Set.of("root", "path", "include", "id", "summary", "label"));
        if (name.endsWith("Page")) {
            throw fail(at, "a view's name must not end with 'Page': that names the listings' page schemas");
        }
        String root = text(map, "root", at);
        EntityModel rootEntity = entities.get(root);
        if (rootEntity == null || rootEntity.edge() || rootEntity.parent() != null) {
            throw fail(map.get("root"), "the root is a stand-alone entity of this file");
        }
        String path = path(required(map, "path", at));
        if (parameterCount(path) != 1) {
            throw fail(map.get("path"), "a view's path has exactly 1 parameter (the root's id)");
        }
        var include = new LinkedHashMap<String, String>();
        map(required(map, "include", at), null).forEach((member, memberAt) -> {
            String entity = text(memberAt);
            EntityModel found = entities.get(entity);
            if (found == null || !sharesKey(found, rootEntity)) {
                throw fail(memberAt, "'" + entity + "' is neither in " + root + "'s partition nor indexed under its key");
            }
            include.put(member, entity);
        });
        return new ViewModel(name, path, root, include, optional(map, "id", "get" + name),
                optional(map, "summary", "Read " + name), optional(map, "label", name), at.line());
    }

    /** In the root's partition (a child or an edge from it), or indexed under the root's partition key. */
    public static boolean sharesKey(EntityModel member, EntityModel root) {
        boolean samePartition = member.pk().fieldCount() == 1 && root.pk().fieldCount() == 1
                && member.pk().prefix().equals(root.pk().prefix()) && !member.name().equals(root.name());
        boolean indexed = member.keyedIndexes().stream().anyMatch(i -> i.pk().prefix().equals(root.pk().prefix()));
        return samePartition || indexed;
    }

    private List<DomainModel.DemoItem> demo(String entity, At at, Map<String, EntityModel> entities) {
        EntityModel model = entities.get(entity);
        if (model == null) {
            throw fail(at, "no entity '" + entity + "' to give demo items");
        }
        if (!(at.node() instanceof SequenceNode seq)) {
            throw fail(at, "demo items are a list: - {field: value, ...}");
        }
        var out = new ArrayList<DomainModel.DemoItem>();
        for (Node node : seq.getValue()) {
            At item = new At(node, at.where());
            var values = new LinkedHashMap<String, Object>();
            map(item, null).forEach((field, valueAt) -> values.put(field, plain(valueAt)));
            var problems = FieldRules.check(model.fields(), values, true);
            if (!problems.isEmpty()) {
                throw fail(item, "demo item: " + problems.get(0).field() + " " + problems.get(0).message());
            }
            out.add(new DomainModel.DemoItem(entity, values, item.line()));
        }
        return out;
    }

    /**
     * Each included member is a child one Query reads with the entity: listed oldest first, it sorts right after the
     * entity; listed newest first, right before it (nothing else of the partition in between).
     */
    private void checkIncludes(Map<String, EntityModel> entities, Map<String, At> declared) {
        for (EntityModel entity : entities.values()) {
            OperationModel get = entity.operation(Op.GET);
            if (get == null) {
                continue;
            }
            get.include().forEach((member, include) -> {
                At at = declared.get(entity.name());
                EntityModel child = entities.get(include.entity());
                boolean newestFirst = child != null && child.list() != null && child.list().newestFirst();
                if (child != null && newestFirst && child.precedesParent(entity)) {
                    sortsBetween(entities, child, entity).ifPresent(other -> {
                                throw fail(at, "operations.get.include." + member + ": '" + other.name() + "' sorts between "
                                        + include.entity() + " and " + entity.name() + " in their partition, so one Query "
                                        + "cannot read " + entity.name() + " with its newest " + include.entity() + " items");
                            });
                    return;
                }
                if (child != null && newestFirst) {
                    throw fail(at, "operations.get.include." + member + ": '" + include.entity() + "' is listed newest "
                            + "first, so its sort key must sort right below " + entity.name() + "'s (" + entity.sk().pattern()
                            + ") in their partition for one Query to read both");
                }
                if (child == null || !child.followsParent(entity)) {
                    throw fail(at, "operations.get.include." + member + ": '" + include.entity() + "' is not a child of "
                            + entity.name() + " that sorts right after it (its sort key must start with "
                            + entity.sk().pattern() + "#), so they cannot be read in one Query");
                }
            });
        }
        // A parent whose children are write-sharded is never deleted: every replica caches its shard count.
        var shardedChild = new HashMap<String, EntityModel>();
        for (EntityModel entity : entities.values()) {
            if (entity.parentShards() != null) {
                EntityModel parent = entities.get(entity.parent().entity());
                EntityModel first = shardedChild.putIfAbsent(parent.name(), entity);
                if (first != null) {
                    // its count field and its one descending Query with the newest children are that one child's
                    throw fail(declared.get(entity.name()), "the children of " + parent.name() + " are write-sharded already ("
                            + first.name() + "): one kind of child of a parent may be");
                }
                if (parent.operation(Op.DELETE) != null) {
                    throw fail(declared.get(parent.name()), "the children of " + parent.name() + " are write-sharded ("
                            + entity.name() + "), so it is never deleted: leave 'delete' out of its operations");
                }
                if (parent.sk().fieldCount() != 0 || !entity.precedesParent(parent) || entity.list() == null
                        || !entity.list().newestFirst() || sortsBetween(entities, entity, parent).isPresent()) {
                    // newest first only: a cursor taken before the count grew stays complete, as every child of a new
                    // shard is newer than the whole listing
                    throw fail(declared.get(entity.name()), "a write-sharded child is listed newest first (list with "
                            + "order: newest-first) and sorts right before its parent's literal sort key, nothing between "
                            + "(as PROJ#... before WORKSPACE), so one descending Query reads the parent with its newest children");
                }
            }
        }
    }

    /** An entity of the parent's partition whose items sort between a child that precedes its parent and the parent. */
    private static Optional<EntityModel> sortsBetween(Map<String, EntityModel> entities, EntityModel child, EntityModel parent) {
        String low = child.sk().prefix();
        String high = parent.sk().pattern();
        return entities.values().stream().filter(other -> other != child && other != parent && !other.edge()
                        && other.pk().prefix().equals(parent.pk().prefix()))
                .filter(other -> other.sk().prefix().compareTo(low) > 0 && other.sk().prefix().compareTo(high) < 0
                        && !other.sk().prefix().startsWith(low))
                .findFirst();
    }

    /** Two routes with the same method and shape would be ambiguous: refused with both places named. */
    private void checkRoutes(Map<String, EntityModel> entities, List<ViewModel> views, At top) {
        var seen = new LinkedHashMap<String, String>();
        BiFunction<String, String, String> shape = (method, path) -> method + " " + path.replaceAll("\\{[^}]+}", "{}");
        var routes = new ArrayList<String[]>();
        for (EntityModel e : entities.values()) {
            for (Op op : e.operations().keySet()) {
                String method = switch (op) {
                    case CREATE -> "POST";
                    case GET -> "GET";
                    case PUT -> "PUT";
                    case PATCH -> "PATCH";
                    case DELETE -> "DELETE";
                };
                routes.add(new String[]{shape.apply(method, e.routeOf(e.operation(op))), e.name()});
            }
            if (e.list() != null) {
                routes.add(new String[]{shape.apply("GET", e.list().path()), e.name()});
            }
            e.keyedIndexes().stream().filter(i -> i.list() != null)
                    .forEach(i -> routes.add(new String[]{shape.apply("GET", i.list().path()), e.name()}));
            e.indexes().stream().filter(i -> i.list() != null)
                    .forEach(i -> routes.add(new String[]{shape.apply("GET", i.list().path()), e.name()}));
            if (e.softDelete()) {
                routes.add(new String[]{shape.apply("GET", e.deletedPath()), e.name()});
                routes.add(new String[]{shape.apply("POST", e.restorePath()), e.name()});
                routes.add(new String[]{shape.apply("DELETE", e.purgePath()), e.name()});
            }
            if (e.history() != null && e.serves(Op.GET)) {
                // its versions' routes, under its item path
                String item = e.routeOf(e.operation(Op.GET));
                routes.add(new String[]{shape.apply("GET", item + "/versions"), e.name() + " versions"});
                routes.add(new String[]{shape.apply("GET", item + "/versions/{version}"), e.name() + " versions"});
            }
        }
        views.forEach(v -> routes.add(new String[]{shape.apply("GET", v.path()), v.name()}));
        var names = new LinkedHashSet<String>();
        for (String[] route : routes) {
            String before = seen.putIfAbsent(route[0], route[1]);
            if (before != null) {
                throw fail(top, "two routes " + route[0] + " (" + before + " and " + route[1] + ")");
            }
            names.add(route[0]);
        }
        var ids = new LinkedHashMap<String, String>();
        var templates = new LinkedHashMap<String, String>();
        for (EntityModel e : entities.values()) {
            var paths = new ArrayList<String[]>();
            e.operations().forEach((op, model) -> paths.add(new String[]{model.operationId(), e.routeOf(model)}));
            if (e.list() != null) {
                paths.add(new String[]{e.list().operationId(), e.list().path()});
            }
            e.keyedIndexes().stream().filter(i -> i.list() != null)
                    .forEach(i -> paths.add(new String[]{i.list().operationId(), i.list().path()}));
            e.indexes().stream().filter(i -> i.list() != null)
                    .forEach(i -> paths.add(new String[]{i.list().operationId(), i.list().path()}));
            if (e.softDelete()) {
                paths.add(new String[]{e.deletedOperationId(), e.deletedPath()});
                paths.add(new String[]{e.restoreOperationId(), e.restorePath()});
                paths.add(new String[]{e.purgeOperationId(), e.purgePath()});
            }
            if (e.history() != null && e.serves(Op.GET)) {
                String item = e.routeOf(e.operation(Op.GET));
                paths.add(new String[]{"list" + e.name() + "Versions", item + "/versions"});
                paths.add(new String[]{"get" + e.name() + "Version", item + "/versions/{version}"});
            }
            for (String[] idAndPath : paths) {
                String before = ids.putIfAbsent(idAndPath[0], e.name());
                if (before != null) {
                    throw fail(top, "two operations are called " + idAndPath[0] + " (" + before + " and " + e.name()
                            + "): give one an 'id'");
                }
                String template = idAndPath[1].replaceAll("\\{[^}]+}", "{}");
                String other = templates.putIfAbsent(template, idAndPath[1]);
                if (other != null && !other.equals(idAndPath[1])) {
                    throw fail(top, "the paths " + other + " and " + idAndPath[1] + " differ only in their parameters'"
                            + " names: name them alike");
                }
            }
        }
    }
}
