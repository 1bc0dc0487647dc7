package dev.cairn.core.model;

import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.aggregate.InputRule;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.model.OperationModel.Op;

import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A declared aggregate: a whole domain object stored as many items in ONE partition ({@code partition}, whose only
 * field is the id), read back with ONE Query, written as transaction groups. Its graph is a tree of {@link Node}s —
 * the root, its members and their members — whose children are fields, inline refs (a copy inside the item), copy
 * members (an item that is a copy), one / many members, and parts (a reusable sub-aggregate bound with discriminator
 * values, its own transaction group). {@code context} root fields are copied onto every member item; {@code rules}
 * are the input's structural rules; {@code lists} find the roots through indexes, each root showing {@code summary};
 * {@code appearances} list one member type found through a referenced entity's copies. {@code access} holds the
 * declared {@code roles} (an operation or {@code list} to the role it needs) and {@code tenant} (the root field that
 * holds the tenant, a workspace id); {@code timestamps} whether its answers show the root's createdAt and updatedAt;
 * {@code ttl} the root's instant field that is the aggregate's expiry (null: it never expires), carried by every item
 * of the aggregate as the table's TTL attribute, so the members expire with their root; {@code unique} the root's
 * unique values (each kept by a sentinel item owned by the root, moved in the write's commit transaction);
 * {@code history} how many of its previous versions it keeps, each a snapshot of the whole aggregate (null: none);
 * {@code softDelete} whether a delete keeps the whole aggregate as a tombstone (listed, restored, purged).
 */
public record AggregateModel(String name, KeyTemplate partition, String idField, String path, String description,
                             Node root, List<String> context, List<InputRule> rules, String inputSchema,
                             String inputDescription, Map<Op, OperationModel> operations, List<Listing> lists,
                             Summary summary, List<Appearances> appearances, List<DomainModel.DemoItem> demo,
                             EntityModel.Access access, boolean timestamps, String ttl, List<UniqueModel> unique,
                             HistoryModel history, boolean softDelete, int line) {

    public AggregateModel {
        unique = List.copyOf(unique);
        context = List.copyOf(context);
        rules = List.copyOf(rules);
        lists = List.copyOf(lists);
        appearances = List.copyOf(appearances);
        demo = List.copyOf(demo);
        var ordered = new EnumMap<Op, OperationModel>(Op.class);
        ordered.putAll(operations);
        operations = Collections.unmodifiableMap(ordered);
    }

    /** What a child of a node is. */
    public enum Kind {
        /** A scalar field of the node's own item. */
        FIELD,
        /** An inline ref: the referenced entity copied into the node's item (input {@code <name>Id}). */
        REF,
        /** A member item that is a copy of a referenced entity (input {@code <name>Id}). */
        COPY,
        /** A member item with fields (and members) of its own. */
        ONE,
        /** One member item per element of a list, each identified by its node's key. */
        MANY,
        /** A reusable sub-aggregate bound with discriminator values: its own transaction group. */
        PART
    }

    /**
     * One child: {@code field} for a FIELD; {@code entity} for a REF or COPY; {@code node} for COPY (its type and
     * label), ONE, MANY and PART; {@code bind} the discriminator values of a PART; {@code optional} for a COPY or ONE
     * that may be absent; {@code maxItems} the most elements of a MANY.
     */
    public record Child(String name, Kind kind, FieldModel field, String entity, Node node, Map<String, Object> bind,
                        boolean optional, Integer maxItems, int line) {

        public Child {
            bind = bind == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(bind));
        }

        /** The input member that names it: {@code <name>Id} for a ref or a copy, else its name. */
        public String inputName() {
            return kind == Kind.REF || kind == Kind.COPY ? name + "Id" : name;
        }
    }

    /**
     * One item type of the graph: its {@code type} (the items' {@code _type}), the sort-key {@code label} of its items,
     * its children in declaration order, and — for the elements of a list — the child that identifies an element
     * ({@code key}). {@code schema} and {@code input} name its answer and input schemas in the API document;
     * {@code part} the sub-aggregate it is an instance of (null elsewhere); {@code unique} a member's unique values
     * (each kept by a sentinel owned by the member's item, moved in the write's commit with the root; none on the root
     * node, whose values are the aggregate's {@code unique}).
     */
    public record Node(String type, String label, String schema, String input, String description, List<Child> children,
                       String key, String part, List<UniqueModel> unique, int line) {

        public Node {
            children = List.copyOf(children);
            unique = unique == null ? List.of() : List.copyOf(unique);
        }
    }

    /** The members' unique values by item type (every member node that declares some, at any depth). */
    public Map<String, List<UniqueModel>> memberUnique() {
        var out = new java.util.TreeMap<String, List<UniqueModel>>();
        collectUnique(root, out, new java.util.HashSet<>());
        return out;
    }

    private static void collectUnique(Node node, Map<String, List<UniqueModel>> out, java.util.Set<Node> seen) {
        if (node == null || !seen.add(node)) {
            return;
        }
        for (Child child : node.children()) {
            if (child.node() != null && !child.node().unique().isEmpty()) {
                out.put(child.node().type(), child.node().unique());
            }
            collectUnique(child.node(), out, seen);
        }
    }

    /** The entities the aggregate holds copies of (its refs and copy members, at any depth). */
    public java.util.Set<String> referencedEntities() {
        var out = new java.util.TreeSet<String>();
        collectRefs(root, out, new java.util.HashSet<>());
        return out;
    }

    private static void collectRefs(Node node, java.util.Set<String> out, java.util.Set<Node> seen) {
        if (node == null || !seen.add(node)) {
            return;
        }
        for (Child child : node.children()) {
            if (child.entity() != null) {
                out.add(child.entity());
            }
            collectRefs(child.node(), out, seen);
        }
    }

    /** The root's own field a list is by (an order's status), whose rules read the path's value; null otherwise. */
    public FieldModel byField(Listing list) {
        return list.by().keySet().stream().filter(path -> !path.contains(".")).findFirst()
                .flatMap(path -> root.children().stream()
                        .filter(c -> c.kind() == Kind.FIELD && c.name().equals(path)).findFirst())
                .map(Child::field).orElse(null);
    }

    /**
     * A list of the aggregate's roots, newest first: every root ({@code all}: on {@code index}, spread over
     * {@code shards} partitions) or the roots that hold an id at a view path ({@code by}: path → index, one list per
     * id). {@code route} is its listing route; {@code answer} the success answer's description.
     */
    public record Listing(String name, KeyTemplate partition, boolean all, Index index, int shards, Map<String, Index> by,
                          ListModel route, String answer, int line) {

        public Listing {
            by = by == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(by));
        }
    }

    /** What a list shows of each root: summary field → view path, and its schema's name and description. */
    public record Summary(String schema, String description, Map<String, String> fields) {

        public Summary {
            fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        }
    }

    /**
     * The members of one {@code type} that hold a copy of {@code entity}, listed through that entity's ref index (ONE
     * Query of its copies' partition, only this aggregate's): each shown as {@code fields} — answer field → where its
     * value comes from ({@code id}: the aggregate's id; a context field; a discriminator; a field of the member).
     */
    public record Appearances(String name, String entity, String type, String schema, String description,
                              Map<String, String> fields, ListModel route, int line) {

        public Appearances {
            fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        }
    }

    /** The route of an operation: a create is posted to the item path's collection. */
    public String routeOf(Op op) {
        return op == Op.CREATE ? path.substring(0, path.lastIndexOf('/')) : path;
    }

    public boolean serves(Op op) {
        return operations.containsKey(op);
    }

    /** Whether its versions are served: it keeps history and is read by id. */
    public boolean servesVersions() {
        return history != null && serves(Op.GET);
    }

    /** Its deleted aggregates' listing ({@code softDelete}): the collection's path and {@code /deleted}. */
    public String deletedPath() {
        return path.substring(0, path.lastIndexOf('/')) + "/deleted";
    }

    /** A deleted aggregate's restore. */
    public String restorePath() {
        return path + "/restore";
    }

    /** A deleted aggregate's purge: its place in the deleted listing. */
    public String purgePath() {
        return deletedPath() + path.substring(path.lastIndexOf('/'));
    }

    /** Its retained versions' listing (one version is this path and {@code /{version}}). */
    public String versionsPath() {
        return path + "/versions";
    }
}
