package dev.cairn.core.model;

import dev.cairn.core.key.KeyTemplate;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What both readers of a model file ({@link ModelReader}, {@link AggregateReader}) do with its YAML tree: walk it
 * keeping each node's position, take mappings with known keys only, scalars, flags, lists of names and plain values,
 * and fail with a {@link ModelException} naming the file, the line and the dotted path of keys.
 */
abstract class YamlReader {

    static final Set<String> ROLE_KEYS = Set.of("create", "get", "put", "patch", "delete", "list");
    /** An entity's roles also name its soft delete's routes: the deleted listing, restore and purge. */
    static final Set<String> SOFT_DELETE_ROLE_KEYS = Set.of("deleted", "restore", "purge");
    static final Set<String> ROLES = Set.of("reader", "writer", "admin");

    /** Entity keys kept for the entity features to come, so a file that uses one says so instead of "unknown". */
    static final Set<String> RESERVED = Set.of("unique", "softDelete", "history", "ttl", "migrations");

    protected final String file;

    YamlReader(String file) {
        this.file = file;
    }

    /** A node and where it is: the dotted path of keys that leads to it. */
    record At(Node node, String where) {
        int line() {
            return node.getStartMark().getLine() + 1;
        }
    }

    ModelException fail(At at, String message) {
        return new ModelException(file, at.line(), at.where(), message);
    }

    /** A mapping's entries in file order; a key not in {@code allowed} (null: any) or given twice is refused. */
    Map<String, At> map(At at, Set<String> allowed) {
        if (!(at.node() instanceof MappingNode mapping)) {
            throw fail(at, "must be a mapping (key: value lines)");
        }
        var out = new LinkedHashMap<String, At>();
        for (NodeTuple tuple : mapping.getValue()) {
            if (!(tuple.getKeyNode() instanceof ScalarNode key)) {
                throw fail(new At(tuple.getKeyNode(), at.where()), "keys must be plain words");
            }
            String name = key.getValue();
            At value = new At(tuple.getValueNode(), at.where().isEmpty() ? name : at.where() + "." + name);
            if (allowed != null && !allowed.contains(name)) {
                if (RESERVED.contains(name)) {
                    throw fail(value, "'" + name + "' is reserved for a coming entity feature and not supported yet");
                }
                // a set given in an order of its own (field types) is listed so; any other, sorted
                Set<String> listed = allowed instanceof LinkedHashSet<String> ? allowed : new TreeSet<>(allowed);
                throw fail(value, "unknown key '" + name + "' (expected one of " + String.join(", ", listed) + ")");
            }
            if (out.put(name, value) != null) {
                throw fail(value, "'" + name + "' appears twice");
            }
        }
        return out;
    }

    String text(At at) {
        if (!(at.node() instanceof ScalarNode scalar)) {
            throw fail(at, "must be a single value");
        }
        return scalar.getValue();
    }

    At required(Map<String, At> map, String key, At owner) {
        At at = map.get(key);
        if (at == null) {
            throw fail(owner, "'" + key + "' is required");
        }
        return at;
    }

    String optional(Map<String, At> map, String key, String otherwise) {
        At at = map.get(key);
        return at == null ? otherwise : text(at);
    }

    boolean bool(Map<String, At> map, String key) {
        At at = map.get(key);
        if (at == null) {
            return false;
        }
        String value = text(at);
        if (!value.equals("true") && !value.equals("false")) {
            throw fail(at, "must be true or false");
        }
        return value.equals("true");
    }

    List<String> names(At at) {
        if (!(at.node() instanceof SequenceNode seq) || seq.getValue().isEmpty()) {
            throw fail(at, "a list of names: [a, b]");
        }
        var out = new ArrayList<String>();
        seq.getValue().forEach(n -> out.add(text(new At(n, at.where()))));
        return out;
    }

    KeyTemplate template(At at) {
        try {
            return KeyTemplate.of(text(at));
        } catch (IllegalArgumentException e) {
            throw fail(at, e.getMessage());
        }
    }

    /** {@code roles}: an operation (or {@code list}) to the role it needs, reader, writer or admin. */
    Map<String, String> roles(Map<String, At> map) {
        return roles(map, ROLE_KEYS);
    }

    /** As above, with the words {@code keys} allows. */
    Map<String, String> roles(Map<String, At> map, Set<String> keys) {
        var roles = new LinkedHashMap<String, String>();
        if (map.containsKey("roles")) {
            map(map.get("roles"), keys).forEach((what, roleAt) -> {
                String role = text(roleAt);
                if (!ROLES.contains(role)) {
                    throw fail(roleAt, "a role is reader, writer or admin, not '" + role + "'");
                }
                roles.put(what, role);
            });
        }
        return roles;
    }

    /** A YAML value as JSON would give it: strings, numbers, booleans, lists and maps. */
    Object plain(At at) {
        if (at.node() instanceof ScalarNode scalar) {
            String tag = scalar.getTag().getValue();
            if (tag.endsWith(":int") || tag.endsWith(":float")) {
                return new BigDecimal(scalar.getValue().replace("_", ""));
            }
            if (tag.endsWith(":bool")) {
                return Boolean.valueOf(scalar.getValue());
            }
            if (tag.endsWith(":null")) {
                return null;
            }
            return scalar.getValue();
        }
        if (at.node() instanceof SequenceNode seq) {
            var out = new ArrayList<Object>();
            seq.getValue().forEach(n -> out.add(plain(new At(n, at.where()))));
            return out;
        }
        var out = new LinkedHashMap<String, Object>();
        map(at, null).forEach((k, v) -> out.put(k, plain(v)));
        return out;
    }

    // --- unique values (entities and aggregate roots alike) ---------------------------------------------------

    /** Kinds a unique value can be made of: one scalar each (an object or a list has no one value to compare). */
    private static final java.util.Set<FieldModel.Kind> UNIQUE_KINDS = java.util.Set.of(FieldModel.Kind.ID,
            FieldModel.Kind.STRING, FieldModel.Kind.ENUM, FieldModel.Kind.DATE, FieldModel.Kind.INSTANT, FieldModel.Kind.INTEGER,
            FieldModel.Kind.NUMBER, FieldModel.Kind.BOOLEAN);
    private static final java.util.regex.Pattern UNIQUE_NAME = java.util.regex.Pattern.compile("[a-z][A-Za-z0-9]*");

    java.math.BigDecimal number(Map<String, At> map, String key) {
        At at = map.get(key);
        if (at == null) {
            return null;
        }
        try {
            return new java.math.BigDecimal(text(at));
        } catch (NumberFormatException e) {
            throw fail(at, "must be a number");
        }
    }

    /**
     * {@code history: { keep: N }} (the last N previous versions, 1 to {@link HistoryModel#MAX_KEEP}) or
     * {@code history: { for: P90D }} (each previous version for an ISO-8601 duration of days, hours, minutes or
     * seconds, {@link HistoryModel#MIN_RETAIN} to {@link HistoryModel#MAX_RETAIN}).
     */
    HistoryModel history(At at) {
        var map = map(at, Set.of("keep", "for"));
        if (map.containsKey("keep") == map.containsKey("for")) {
            throw fail(at, "history takes either 'keep: <count>' (the last N previous versions) or 'for: <ISO-8601 "
                    + "duration>' (each previous version for that long, e.g. P90D), not " + (map.isEmpty() ? "neither" : "both"));
        }
        if (map.containsKey("keep")) {
            java.math.BigDecimal keep = number(map, "keep");
            if (keep.stripTrailingZeros().scale() > 0 || keep.compareTo(java.math.BigDecimal.ONE) < 0
                    || keep.compareTo(java.math.BigDecimal.valueOf(HistoryModel.MAX_KEEP)) > 0) {
                throw fail(map.get("keep"), "keep is a whole number of versions from 1 to " + HistoryModel.MAX_KEEP
                        + ", not " + text(map.get("keep")));
            }
            return new HistoryModel(keep.intValueExact(), null, at.line());
        }
        String text = text(map.get("for"));
        java.time.Duration retain;
        try {
            retain = java.time.Duration.parse(text);
        } catch (java.time.format.DateTimeParseException e) {
            throw fail(map.get("for"), "for is an ISO-8601 duration of days, hours, minutes or seconds (P90D, PT12H), not '"
                    + text + "' (months and years have no fixed length)");
        }
        if (retain.compareTo(HistoryModel.MIN_RETAIN) < 0 || retain.compareTo(HistoryModel.MAX_RETAIN) > 0) {
            throw fail(map.get("for"), "for is from " + HistoryModel.MIN_RETAIN + " to " + HistoryModel.MAX_RETAIN
                    + " (P3650D), not " + text);
        }
        return new HistoryModel(null, retain, at.line());
    }

    /**
     * {@code unique: { name: { fields: [a, b], scope: c | [c, d], case: exact | insensitive, softDelete: keep | release } }}:
     * the entity's unique values, each kept by a sentinel item (see {@link UniqueModel}).
     */
    List<UniqueModel> uniques(At at, List<FieldModel> fields, List<String> timestamps) {
        var out = new java.util.ArrayList<UniqueModel>();
        if (at == null) {
            return out;
        }
        map(at, null).forEach((name, constraintAt) -> {
            if (!UNIQUE_NAME.matcher(name).matches()) {
                throw fail(constraintAt, "a unique constraint's name is a word like a field's, e.g. email or titlePerWorkspace");
            }
            var map = map(constraintAt, java.util.Set.of("fields", "scope", "case", "softDelete"));
            List<String> constrained = uniqueFields(required(map, "fields", constraintAt), fields, timestamps, "fields");
            List<String> scope = !map.containsKey("scope") ? List.of()
                    : uniqueFields(map.get("scope"), fields, timestamps, "scope");
            for (String field : scope) {
                if (constrained.contains(field)) {
                    throw fail(map.get("scope"), "'" + field + "' is both constrained and the scope");
                }
            }
            String caseRule = optional(map, "case", "exact");
            if (!caseRule.equals("exact") && !caseRule.equals("insensitive")) {
                throw fail(map.get("case"), "the case rule is exact or insensitive, not '" + caseRule + "'");
            }
            boolean insensitive = caseRule.equals("insensitive");
            if (insensitive && constrained.stream().map(f -> fields.stream().filter(x -> x.name().equals(f)).findFirst().orElseThrow().kind()).noneMatch(k -> k == FieldModel.Kind.STRING)) {
                throw fail(map.get("case"), "case: insensitive needs a string field to fold; " + constrained
                        + " holds none");
            }
            String softDelete = optional(map, "softDelete", "keep");
            if (!softDelete.equals("keep") && !softDelete.equals("release")) {
                throw fail(map.get("softDelete"), "a soft-deleted item keeps or releases its unique value: keep or release, "
                        + "not '" + softDelete + "'");
            }
            for (UniqueModel other : out) {
                if (new java.util.HashSet<>(other.fields()).equals(new java.util.HashSet<>(constrained))
                        && new java.util.HashSet<>(other.scope()).equals(new java.util.HashSet<>(scope))) {
                    throw fail(constraintAt, "'" + other.name() + "' constrains the same fields in the same scope");
                }
            }
            out.add(new UniqueModel(name, constrained, scope, insensitive,
                    softDelete.equals("keep") ? UniqueModel.SoftDelete.KEEP : UniqueModel.SoftDelete.RELEASE,
                    constraintAt.line()));
        });
        if (out.isEmpty()) {
            throw fail(at, "declares no unique constraint: unique: { email: { fields: [email] } }");
        }
        return out;
    }

    /** A unique constraint's fields or scope: one field name or a list of them, each a scalar field of the entity. */
    private List<String> uniqueFields(At at, List<FieldModel> fields, List<String> timestamps, String what) {
        List<String> names = at.node() instanceof org.yaml.snakeyaml.nodes.ScalarNode ? List.of(text(at)) : names(at);
        if (new java.util.HashSet<>(names).size() != names.size()) {
            throw fail(at, "a field is named twice in " + what);
        }
        for (String name : names) {
            if (timestamps.contains(name)) {
                throw fail(at, "'" + name + "' is a timestamp, the store's: it cannot be unique or scope a unique value");
            }
            FieldModel field = fields.stream().filter(f -> f.name().equals(name)).findFirst()
                    .orElseThrow(() -> fail(at, "no field '" + name + "' in " + what + " (the entity's fields: "
                            + fields.stream().map(FieldModel::name).toList() + ")"));
            if (!UNIQUE_KINDS.contains(field.kind())) {
                throw fail(at, "'" + name + "' is " + field.kind().word() + ": a unique value is made of single values "
                        + "(text, numbers, dates, booleans), not an object or a list");
            }
        }
        return names;
    }
}
