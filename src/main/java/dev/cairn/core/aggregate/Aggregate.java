package dev.cairn.core.aggregate;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.TableSpec;
import dev.cairn.core.aggregate.AggregateNode.Edge;
import dev.cairn.core.aggregate.AggregateNode.EdgeKind;
import dev.cairn.core.key.KeyCodec;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.query.QuerySpec;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A generic aggregate: a root node and its graph, stored as many items in ONE partition. It is pure: it lists
 * the refs an input needs, hydrates the input into the full view, decomposes a view into items grouped by
 * transaction group (the root group, then one group per bound sub-aggregate), assembles items back into the
 * view, and converts a view back into its input shape. Values are JSON-like (maps, lists, strings, numbers,
 * booleans), so the engine knows nothing of any domain.
 *
 * <p>Item layout: the root at sort key {@code <ROOT LABEL>}; members at their path, e.g. {@code VENUE},
 * {@code TEAM#1}, {@code TEAM#1#COACH}, {@code TEAM#1#PLAYER#<element key>} (values escaped). System attributes
 * start with {@code _}: {@code _type}, {@code _pos} (list order), {@code _disc} (discriminators),
 * {@code _ctx} (propagated context fields), {@code _ref} (a member that is a ref copy), {@code _refv} (entity and source
 * version of each embedded copy, see {@link CopyVersions}), so no domain field can clash with them.
 */
public final class Aggregate {

    public static final String ROOT_GROUP = "root";
    static final String POS = "_pos";
    static final String DISC = "_disc";
    static final String CTX = "_ctx";
    static final String REF = "_ref";

    private final String name;
    private final KeyTemplate partition;
    private final String idField;
    private final AggregateNode root;
    private final List<String> context;
    private final List<String> viewAttributes;
    private final Map<String, String> summary;
    private final List<Listing> listings;
    /** "sk|copy attribute" → the summary fields copied from that embedded copy. */
    private final Map<String, List<SummaryCopy>> summaryCopies;

    private Aggregate(String name, KeyTemplate partition, String idField, AggregateNode root, List<String> context,
                      Map<String, String> summary, List<Listing> listings) {
        this.name = name;
        this.partition = partition;
        this.idField = idField;
        this.root = root;
        this.context = List.copyOf(context);
        this.summary = Collections.unmodifiableMap(new LinkedHashMap<>(summary));
        this.listings = List.copyOf(listings);
        this.summaryCopies = summarySources(summary);
        for (Edge edge : root.edges) {
            if (PartitionRanges.compare(root.label, edge.node().label) >= 0) {
                // A read's first page must hold the root: it is the proof that the rest was read from the same state.
                throw new IllegalArgumentException(name + ": the root label " + root.label
                        + " must sort before every member label (" + edge.node().label + ")");
            }
        }
        var attributes = new LinkedHashSet<>(List.of(TableSpec.SK, TableSpec.TYPE, POS, REF, idField,
                TableSpec.VERSION, TableSpec.CREATED_AT, TableSpec.UPDATED_AT));
        attributes.addAll(AggregateTxn.rootAttributes());
        attributes.add(PartitionRanges.FENCES);
        collectViewAttributes(root, attributes);
        this.viewAttributes = List.copyOf(attributes);
    }

    private static void collectViewAttributes(AggregateNode node, Set<String> into) {
        into.addAll(node.fields);
        into.addAll(node.refs.keySet());
        node.edges.forEach(edge -> collectViewAttributes(edge.node(), into));
    }

    /**
     * @param partition the partition key template, with the aggregate id as its only field
     * @param idField   the root field holding the aggregate id
     * @param context   root fields copied onto every member item (a change rewrites every group)
     */
    public static Aggregate of(String name, KeyTemplate partition, String idField, AggregateNode root, List<String> context) {
        return new Aggregate(name, partition, idField, root, context, Map.of(), List.of());
    }

    /**
     * The same aggregate, findable through lists: its root carries a summary ({@code field → view path}, e.g.
     * {@code venueName → venue.name}; kept current by every write, and by cascades for paths into embedded copies)
     * and a key on each listing's index, so a list page is answered from root items alone.
     */
    public Aggregate listed(Map<String, String> summaryPaths, List<Listing> lists) {
        var used = new LinkedHashSet<TableSpec.Index>(root.refs.values().stream().map(RefSpec::index).toList());
        if (root.self != null) {
            used.add(root.self.index());
        }
        for (Listing listing : lists) {
            for (Listing.Entry entry : listing.entries()) {
                if (!used.add(entry.index())) {
                    throw new IllegalArgumentException(name + ": the root already has a key on " + entry.index());
                }
            }
        }
        return new Aggregate(name, partition, idField, root, context, summaryPaths, lists);
    }

    public List<Listing> listings() {
        return listings;
    }

    public String name() {
        return name;
    }

    public String idField() {
        return idField;
    }

    public String partitionOf(String id) {
        return partition.render(id);
    }

    /** Whether a partition key is one of this aggregate's partitions (e.g. {@code MATCH#…}). */
    public boolean holdsPartition(String pk) {
        return pk.startsWith(partition.prefix());
    }

    /**
     * A member item found outside its partition (through an index): the id of its aggregate, the root context
     * and the discriminator it carries (as JSON-like maps), and the item for its own fields.
     */
    public record FoundMember(String aggregateId, Map<String, Object> context, Map<String, Object> discriminator,
                              Map<String, AttributeValue> item) {
    }

    public FoundMember foundMember(Map<String, AttributeValue> item) {
        return new FoundMember(String.valueOf(partition.decode(item.get(TableSpec.PK).s()).get(0)), jsonMap(item.get(CTX)),
                jsonMap(item.get(DISC)), item);
    }

    private static Map<String, Object> jsonMap(AttributeValue value) {
        return value == null || !value.hasM() ? Map.of() : JsonAttributes.fromMap(value.m());
    }

    public PrimaryKey rootKey(String id) {
        return PrimaryKey.of(partitionOf(id), root.label);
    }

    /**
     * The read behind a view: ONE strongly consistent Query of the partition, projected on what the view shows
     * and the marks of a write in flight (with its undo log), so index keys, context copies and copy versions are neither sent nor parsed (the capacity
     * consumed is the same). A view read this way has no copy versions: reads before a write take whole items.
     */
    public QuerySpec viewQuery(String id) {
        return QuerySpec.table(partitionOf(id)).consistent().limit(PartitionRanges.FIRST_PAGE_ITEMS)
                .project(viewAttributes.toArray(String[]::new)).build();
    }

    /** Whether anything is stored in an id's partition: at most a few sort keys, to name what is there. */
    public QuerySpec occupantsQuery(String id) {
        return QuerySpec.table(partitionOf(id)).consistent().limit(3).project(TableSpec.SK).build();
    }

    /** The whole partition, every attribute: the read before a write, which diffs and may undo whole items. */
    public QuerySpec itemsQuery(String id) {
        return QuerySpec.table(partitionOf(id)).consistent().limit(PartitionRanges.FIRST_PAGE_ITEMS).build();
    }

    public String rootType() {
        return root.entityType;
    }

    // --- refs and hydration -------------------------------------------------------------------------------

    /** One use of a ref in an input: where ({@code team1.players[3].player}), which entity, which id. */
    public record RefUse(String path, RefSpec<?> ref, String id) {
    }

    /** A hydrated copy: the referenced entity's domain fields and the version they were read at. */
    public record RefCopy(Map<String, Object> fields, long version) {
    }

    /** Every ref of an input, in input order (ids of refs are the input's {@code <field>Id} values). */
    public List<RefUse> refs(Map<String, Object> input) {
        var uses = new ArrayList<RefUse>();
        collectRefs(root, input, "", uses);
        return uses;
    }

    private void collectRefs(AggregateNode node, Map<String, Object> input, String path, List<RefUse> uses) {
        node.refs.forEach((field, ref) -> uses.add(new RefUse(join(path, field), ref, refId(input, field, path))));
        for (Edge edge : node.edges) {
            String edgePath = join(path, edge.field());
            if (edge.node().self != null) {
                uses.add(new RefUse(edgePath, edge.node().self, refId(input, edge.field(), path)));
                continue;
            }
            if (edge.kind() == EdgeKind.MANY) {
                List<Map<String, Object>> elements = list(input.get(edge.field()), edgePath);
                for (int i = 0; i < elements.size(); i++) {
                    collectRefs(edge.node(), elements.get(i), edgePath + "[" + i + "]", uses);
                }
            } else {
                collectRefs(edge.node(), map(input.get(edge.field()), edgePath), edgePath, uses);
            }
        }
    }

    /** Turns an input (ids) into the full view (embedded copies), given every ref resolved by key. */
    public Map<String, Object> hydrate(Map<String, Object> input, Map<String, RefCopy> resolved) {
        return hydrateNode(root, input, "", resolved, true);
    }

    /** The lookup key of a resolved ref. */
    public static String refKey(RefSpec<?> ref, String id) {
        return ref.entity() + "#" + id;
    }

    private Map<String, Object> hydrateNode(AggregateNode node, Map<String, Object> input, String path,
                                            Map<String, RefCopy> resolved, boolean isRoot) {
        var view = new LinkedHashMap<String, Object>();
        if (isRoot) {
            view.put(idField, input.get(idField));
        }
        for (String field : node.fields) {
            view.put(field, JsonAttributes.normalize(input.get(field)));
        }
        node.refs.forEach((field, ref) -> view.put(field, copy(ref, refId(input, field, path), resolved)));
        for (Edge edge : node.edges) {
            String edgePath = join(path, edge.field());
            if (edge.node().self != null) {
                view.put(edge.field(), copy(edge.node().self, refId(input, edge.field(), path), resolved));
            } else if (edge.kind() == EdgeKind.MANY) {
                List<Map<String, Object>> elements = list(input.get(edge.field()), edgePath);
                var out = new ArrayList<Object>(elements.size());
                for (int i = 0; i < elements.size(); i++) {
                    out.add(hydrateNode(edge.node(), elements.get(i), edgePath + "[" + i + "]", resolved, false));
                }
                view.put(edge.field(), out);
            } else {
                view.put(edge.field(), hydrateNode(edge.node(), map(input.get(edge.field()), edgePath), edgePath, resolved, false));
            }
        }
        return view;
    }

    private static Map<String, Object> copy(RefSpec<?> ref, String id, Map<String, RefCopy> resolved) {
        RefCopy copy = resolved.get(refKey(ref, id));
        if (copy == null) {
            throw new IllegalStateException("ref " + refKey(ref, id) + " was not resolved");
        }
        return copy.fields();
    }

    /** The embedded copies of an assembled view, by {@link #refKey}, so an update re-reads only new refs. */
    public Map<String, RefCopy> copies(Map<String, Object> view, Map<String, Long> refVersions) {
        var copies = new HashMap<String, RefCopy>();
        collectCopies(root, view, refVersions, copies);
        return copies;
    }

    private void collectCopies(AggregateNode node, Map<String, Object> view, Map<String, Long> refVersions,
                               Map<String, RefCopy> copies) {
        node.refs.forEach((field, ref) -> remember(ref, asMap(view.get(field)), refVersions, copies));
        for (Edge edge : node.edges) {
            Object value = view.get(edge.field());
            if (edge.node().self != null) {
                remember(edge.node().self, asMap(value), refVersions, copies);
            } else if (edge.kind() == EdgeKind.MANY) {
                ((List<?>) value).forEach(e -> collectCopies(edge.node(), asMap(e), refVersions, copies));
            } else {
                collectCopies(edge.node(), asMap(value), refVersions, copies);
            }
        }
    }

    private static void remember(RefSpec<?> ref, Map<String, Object> copy, Map<String, Long> refVersions,
                                 Map<String, RefCopy> copies) {
        String key = refKey(ref, idOf(copy));
        copies.put(key, new RefCopy(copy, refVersions.getOrDefault(key, 0L)));
    }

    /** The input shape of a view: every embedded copy replaced by its id ({@code <field>Id}). */
    public Map<String, Object> toInput(Map<String, Object> view) {
        return toInputNode(root, view, true);
    }

    private Map<String, Object> toInputNode(AggregateNode node, Map<String, Object> view, boolean isRoot) {
        var input = new LinkedHashMap<String, Object>();
        if (isRoot) {
            input.put(idField, view.get(idField));
        }
        node.fields.forEach(field -> input.put(field, view.get(field)));
        node.refs.keySet().forEach(field -> input.put(field + "Id", idOf(view.get(field))));
        for (Edge edge : node.edges) {
            Object value = view.get(edge.field());
            if (edge.node().self != null) {
                input.put(edge.field() + "Id", idOf(value));
            } else if (edge.kind() == EdgeKind.MANY) {
                input.put(edge.field(), ((List<?>) value).stream()
                        .map(e -> toInputNode(edge.node(), asMap(e), false)).toList());
            } else {
                input.put(edge.field(), toInputNode(edge.node(), asMap(value), false));
            }
        }
        return input;
    }

    // --- decomposition ------------------------------------------------------------------------------------

    /** One item of an aggregate and the transaction group it belongs to. */
    public record Member(String group, String sk, Map<String, AttributeValue> item) {
    }

    /** The items of one aggregate value, by sort key, in a stable order. */
    public record Items(String pk, Map<String, Member> bySk) {
        public Member root() {
            return bySk.values().iterator().next();
        }

        /** Group names in order: the root group first, then sub-aggregates in declaration order. */
        public List<String> groups() {
            var groups = new LinkedHashSet<String>();
            bySk.values().forEach(m -> groups.add(m.group()));
            return List.copyOf(groups);
        }

        public List<Member> group(String group) {
            return bySk.values().stream().filter(m -> m.group().equals(group)).toList();
        }
    }

    /**
     * The items of a view at a root version. {@code refVersions} gives the source version of each embedded
     * copy (by {@link #refKey}); root timestamps are {@code createdAt}/{@code updatedAt}.
     */
    public Items decompose(Map<String, Object> view, Map<String, Long> refVersions, long version,
                           Instant createdAt, Instant updatedAt) {
        String id = string(view.get(idField), idField);
        String pk = partitionOf(id);
        var ctx = new LinkedHashMap<String, Object>();
        context.forEach(field -> ctx.put(field, view.get(field)));
        var items = new LinkedHashMap<String, Member>();
        var rootItem = new HashMap<String, AttributeValue>();
        rootItem.put(idField, AttributeValue.fromS(id));
        rootItem.put(TableSpec.VERSION, AttributeValue.fromN(Long.toString(version)));
        rootItem.put(TableSpec.CREATED_AT, AttributeValue.fromS(createdAt.toString()));
        rootItem.put(TableSpec.UPDATED_AT, AttributeValue.fromS(updatedAt.toString()));
        rootItem.putAll(listed(view, id, createdAt));
        decomposeNode(root, view, pk, root.label, List.of(), ROOT_GROUP, Map.of(), null, ctx, refVersions, rootItem, items, "");
        // Where a reader may cut the partition into ranges read in parallel (the root is rewritten by every write).
        List<String> fences = PartitionRanges.fencesOf(items.values().stream().map(Member::item).toList());
        if (!fences.isEmpty()) {
            items.get(root.label).item().put(PartitionRanges.FENCES,
                    AttributeValue.fromL(fences.stream().map(AttributeValue::fromS).toList()));
        }
        return new Items(pk, items);
    }

    private void decomposeNode(AggregateNode node, Map<String, Object> view, String pk, String sk, List<String> segments,
                               String group, Map<String, Object> disc, Integer position, Map<String, Object> ctx,
                               Map<String, Long> refVersions, Map<String, AttributeValue> seed,
                               Map<String, Member> out, String path) {
        var item = new HashMap<String, AttributeValue>(seed);
        item.put(TableSpec.PK, AttributeValue.fromS(pk));
        item.put(TableSpec.SK, AttributeValue.fromS(sk));
        item.put(TableSpec.TYPE, AttributeValue.fromS(node.entityType));
        boolean isRoot = seed.containsKey(TableSpec.VERSION);
        if (!isRoot) {
            if (!ctx.isEmpty()) {
                item.put(CTX, JsonAttributes.toAttribute(ctx));
            }
            if (!disc.isEmpty()) {
                item.put(DISC, JsonAttributes.toAttribute(disc));
            }
            if (position != null) {
                item.put(POS, AttributeValue.fromN(position.toString()));
            }
        } else {
            for (String field : node.fields) {
                putField(item, field, view.get(field));
            }
        }
        var versions = new TreeMap<String, AttributeValue>();
        if (node.self != null) {
            Map<String, Object> copy = map(view, path);
            item.put(REF, JsonAttributes.toAttribute(copy));
            indexCopy(item, node.self, idOf(copy), pk, sk);
            versions.put(REF, version(refVersions, node.self, idOf(copy)));
        } else {
            if (!isRoot) {
                for (String field : node.fields) {
                    putField(item, field, view.get(field));
                }
            }
            node.refs.forEach((field, ref) -> {
                Map<String, Object> copy = map(view.get(field), join(path, field));
                item.put(field, JsonAttributes.toAttribute(copy));
                indexCopy(item, ref, idOf(copy), pk, sk);
                versions.put(field, version(refVersions, ref, idOf(copy)));
            });
        }
        if (!versions.isEmpty()) {
            item.put(CopyVersions.ATTRIBUTE, AttributeValue.fromM(versions));
        }
        out.put(sk, new Member(group, sk, item));
        if (node.self != null) {
            return;
        }
        for (Edge edge : node.edges) {
            String edgePath = join(path, edge.field());
            Object value = view.get(edge.field());
            switch (edge.kind()) {
                case ONE -> {
                    var childSegments = append(segments, edge.node().label);
                    decomposeNode(edge.node(), map(value, edgePath), pk, skOf(childSegments), childSegments, group, disc, null, ctx, refVersions, Map.of(), out, edgePath);
                }
                case SUB -> {
                    var childSegments = append(segments, edge.node().label);
                    for (Object d : edge.discriminator().values()) {
                        childSegments = append(childSegments, String.valueOf(d));
                    }
                    var childDisc = new LinkedHashMap<>(disc);
                    childDisc.putAll(edge.discriminator());
                    decomposeNode(edge.node(), map(value, edgePath), pk, skOf(childSegments), childSegments,
                            group.equals(ROOT_GROUP) ? edgePath : group, childDisc, null, ctx, refVersions, Map.of(), out, edgePath);
                }
                case MANY -> {
                    List<Map<String, Object>> elements = list(value, edgePath);
                    var seen = new LinkedHashSet<String>();
                    for (int i = 0; i < elements.size(); i++) {
                        String key = elementKey(edge.node(), elements.get(i), edgePath + "[" + i + "]");
                        if (!seen.add(key)) {
                            throw new CairnException(new CairnError.AggregateDecompositionError(
                                    edgePath + " holds '" + key + "' twice", name, edgePath + "[" + i + "]"));
                        }
                        var childSegments = append(append(segments, edge.node().label), key);
                        decomposeNode(edge.node(), elements.get(i), pk, skOf(childSegments), childSegments, group, disc,
                                i, ctx, refVersions, Map.of(), out, edgePath + "[" + i + "]");
                    }
                }
            }
        }
    }

    private static void putField(Map<String, AttributeValue> item, String field, Object value) {
        if (value != null) {
            item.put(field, JsonAttributes.toAttribute(value));
        }
    }

    private static void indexCopy(Map<String, AttributeValue> item, RefSpec<?> ref, String id, String pk, String sk) {
        item.put(ref.index().pkName(), AttributeValue.fromS(ref.refPartition(id)));
        item.put(ref.index().skName(), AttributeValue.fromS(pk + KeyCodec.DELIMITER + sk));
    }

    private static AttributeValue version(Map<String, Long> refVersions, RefSpec<?> ref, String id) {
        Long v = refVersions.get(refKey(ref, id));
        return CopyVersions.of(ref.entity(), v == null ? 0 : v);
    }

    private String elementKey(AggregateNode node, Map<String, Object> element, String path) {
        Object key = element.get(node.keyField);
        if (node.refs.containsKey(node.keyField)) {
            key = idOf(key);
        }
        if (key == null) {
            throw new CairnException(new CairnError.AggregateDecompositionError(
                    path + " has no " + node.keyField, name, path));
        }
        return key.toString();
    }

    private static String skOf(List<String> segments) {
        var out = new StringBuilder();
        for (int i = 0; i < segments.size(); i++) {
            if (i > 0) {
                out.append(KeyCodec.DELIMITER);
            }
            // Labels are upper-case words and never need escaping; element keys and discriminators may.
            out.append(KeyCodec.escape(segments.get(i)));
        }
        return out.toString();
    }

    // --- lists and summaries -------------------------------------------------------------------------------

    /** The prefix of the root attributes holding the summary (top level, so a cascade can set one alone). */
    static final String SUMMARY_PREFIX = "_s_";

    /** A summary field copied from an embedded copy: which field of the referenced entity it shows. */
    public record SummaryCopy(String field, String sourceField) {
        public String attribute() {
            return SUMMARY_PREFIX + field;
        }
    }

    /** The root attributes that list it: summary fields and every listing's index keys. */
    private Map<String, AttributeValue> listed(Map<String, Object> view, String id, Instant createdAt) {
        var out = new HashMap<String, AttributeValue>();
        summary.forEach((field, path) -> {
            Object value = ViewPath.valueAt(view, path);
            if (value != null) {
                out.put(SUMMARY_PREFIX + field, JsonAttributes.toAttribute(value));
            }
        });
        listings.forEach(listing -> out.putAll(listing.keysOf(view, id, createdAt)));
        return out;
    }

    /** Of a root item, the attributes {@link #listed} manages (for a backfill to compare and set). */
    public Map<String, AttributeValue> listedAttributes(Map<String, AttributeValue> rootItem) {
        var out = new HashMap<String, AttributeValue>();
        rootItem.forEach((attribute, value) -> {
            if (isListedAttribute(attribute)) {
                out.put(attribute, value);
            }
        });
        return out;
    }

    /** Whether an attribute of the root is one {@link #listed} manages. */
    private boolean isListedAttribute(String attribute) {
        if (attribute.startsWith(SUMMARY_PREFIX)) {
            return true;
        }
        return listings.stream().flatMap(l -> l.entries().stream())
                .anyMatch(e -> attribute.equals(e.index().pkName()) || attribute.equals(e.index().skName()));
    }

    /**
     * The summary of a listed root item: id, the summary fields, timestamps and version; null for a root still
     * being created by a multi-transaction write (it is not there until that write commits).
     */
    public Map<String, Object> summaryOf(Map<String, AttributeValue> rootItem) {
        AttributeValue op = rootItem.get(AggregateTxn.OP);
        if (op != null && AggregateTxn.Op.CREATE.wire().equals(op.s())) {
            return null;
        }
        var out = new LinkedHashMap<String, Object>();
        out.put(idField, rootItem.get(idField) == null ? null : rootItem.get(idField).s());
        summary.keySet().forEach(field -> {
            AttributeValue value = rootItem.get(SUMMARY_PREFIX + field);
            out.put(field, value == null ? null : JsonAttributes.fromAttribute(value));
        });
        out.put("createdAt", text(rootItem.get(TableSpec.CREATED_AT)));
        out.put("updatedAt", text(rootItem.get(TableSpec.UPDATED_AT)));
        AttributeValue version = rootItem.get(TableSpec.VERSION);
        out.put("version", version == null ? null : Long.parseLong(version.n()));
        return out;
    }

    private static String text(AttributeValue value) {
        return value == null ? null : value.s();
    }

    /** The summary fields that show the copy held in {@code attribute} of the member at {@code sk}. */
    public List<SummaryCopy> summaryCopies(String sk, String attribute) {
        return summaryCopies.getOrDefault(sk + "|" + attribute, List.of());
    }

    /**
     * Where each summary path reads an embedded copy: walks the graph along the path (one/sub edges and refs;
     * never into a list) to the member's sort key and copy attribute. Paths to plain fields need no cascade.
     */
    private Map<String, List<SummaryCopy>> summarySources(Map<String, String> paths) {
        var out = new LinkedHashMap<String, List<SummaryCopy>>();
        paths.forEach((field, path) -> {
            String[] steps = path.split("\\.");
            AggregateNode node = root;
            var segments = new ArrayList<String>();
            for (int i = 0; i < steps.length; i++) {
                String step = steps[i];
                boolean last = i == steps.length - 1;
                if (last && (node.fields.contains(step) || (node == root && step.equals(idField)))) {
                    return;
                }
                String sk = segments.isEmpty() ? root.label : skOf(segments);
                if (node.refs.containsKey(step) && i == steps.length - 2) {
                    out.computeIfAbsent(sk + "|" + step, k -> new ArrayList<>()).add(new SummaryCopy(field, steps[i + 1]));
                    return;
                }
                Edge edge = node.edges.stream().filter(e -> e.field().equals(step)).findFirst().orElse(null);
                if (edge == null || edge.kind() == EdgeKind.MANY) {
                    throw new IllegalArgumentException(name + ": summary path " + path + " does not lead to one value");
                }
                segments.add(edge.node().label);
                if (edge.kind() == EdgeKind.SUB) {
                    edge.discriminator().values().forEach(d -> segments.add(String.valueOf(d)));
                }
                node = edge.node();
                if (node.self != null) {
                    if (i != steps.length - 2) {
                        throw new IllegalArgumentException(name + ": summary path " + path + " must name one field of the copy");
                    }
                    out.computeIfAbsent(skOf(segments) + "|" + REF, k -> new ArrayList<>()).add(new SummaryCopy(field, steps[i + 1]));
                    return;
                }
            }
            throw new IllegalArgumentException(name + ": summary path " + path + " does not lead to one value");
        });
        out.replaceAll((k, v) -> List.copyOf(v));
        return Map.copyOf(out);
    }

    // --- assembly -----------------------------------------------------------------------------------------

    /** An assembled aggregate: the view, the root's bookkeeping, and the source versions of its copies. */
    public record Assembled(Map<String, Object> view, long version, Instant createdAt, Instant updatedAt,
                            Map<String, Long> refVersions, Map<String, AttributeValue> rootItem) {
    }

    /**
     * The transaction group a sort key of this aggregate's partition belongs to ({@link #ROOT_GROUP} or the path
     * of its sub-aggregate, as {@link #decompose} assigns them); null when the key is no member of this shape.
     */
    public String groupOf(String sk) {
        if (sk.equals(root.label)) {
            return ROOT_GROUP;
        }
        return groupIn(root, List.of(sk.split(String.valueOf(KeyCodec.DELIMITER), -1)), 0, ROOT_GROUP, "");
    }

    private static String groupIn(AggregateNode node, List<String> segments, int at, String group, String path) {
        if (at == segments.size()) {
            return group;
        }
        for (Edge edge : node.edges) {
            if (!segments.get(at).equals(edge.node().label)) {
                continue;
            }
            String edgePath = join(path, edge.field());
            switch (edge.kind()) {
                case ONE -> {
                    return groupIn(edge.node(), segments, at + 1, group, edgePath);
                }
                case SUB -> {
                    int next = at + 1;
                    boolean matches = true;
                    for (Object d : edge.discriminator().values()) {
                        if (next >= segments.size() || !segments.get(next).equals(String.valueOf(d))) {
                            matches = false;
                            break;
                        }
                        next++;
                    }
                    if (matches) {
                        return groupIn(edge.node(), segments, next, group.equals(ROOT_GROUP) ? edgePath : group, edgePath);
                    }
                }
                case MANY -> {
                    if (at + 1 < segments.size()) {
                        return groupIn(edge.node(), segments, at + 2, group, edgePath);
                    }
                }
            }
        }
        return null;
    }

    /** Builds the view from a partition's items, or fails with AggregateAssemblyError naming what is wrong. */
    public Assembled assemble(List<Map<String, AttributeValue>> items) {
        var bySk = new LinkedHashMap<String, Map<String, AttributeValue>>();
        items.forEach(item -> bySk.put(item.get(TableSpec.SK).s(), item));
        Map<String, AttributeValue> rootItem = bySk.get(root.label);
        if (rootItem == null) {
            throw broken("the root item " + root.label + " is missing");
        }
        var refVersions = new HashMap<String, Long>();
        Map<String, Object> view = assembleNode(root, root.label, List.of(), bySk, refVersions, true);
        if (!bySk.isEmpty()) {
            throw broken("unexpected items " + bySk.keySet());
        }
        try {
            return new Assembled(view, Long.parseLong(rootItem.get(TableSpec.VERSION).n()),
                    Instant.parse(rootItem.get(TableSpec.CREATED_AT).s()), Instant.parse(rootItem.get(TableSpec.UPDATED_AT).s()),
                    refVersions, rootItem);
        } catch (RuntimeException e) {
            throw broken("the root item lacks its version or timestamps");
        }
    }

    private Map<String, Object> assembleNode(AggregateNode node, String sk, List<String> segments,
                                             Map<String, Map<String, AttributeValue>> bySk,
                                             Map<String, Long> refVersions, boolean isRoot) {
        Map<String, AttributeValue> item = bySk.remove(sk);
        if (item == null) {
            throw broken("the item " + sk + " (" + node.entityType + ") is missing");
        }
        AttributeValue type = item.get(TableSpec.TYPE);
        if (type == null || !node.entityType.equals(type.s())) {
            throw broken("the item " + sk + " is not a " + node.entityType);
        }
        Map<String, AttributeValue> versions = item.containsKey(CopyVersions.ATTRIBUTE)
                ? item.get(CopyVersions.ATTRIBUTE).m() : Map.of();
        if (node.self != null) {
            if (!item.containsKey(REF)) {
                throw broken("the item " + sk + " has no embedded copy");
            }
            Map<String, Object> copy = JsonAttributes.fromMap(item.get(REF).m());
            rememberVersion(refVersions, node.self, copy, CopyVersions.version(versions, REF));
            return copy;
        }
        var view = new LinkedHashMap<String, Object>();
        if (isRoot) {
            view.put(idField, item.get(idField) == null ? null : item.get(idField).s());
        }
        for (String field : node.fields) {
            AttributeValue value = item.get(field);
            view.put(field, value == null ? null : JsonAttributes.fromAttribute(value));
        }
        node.refs.forEach((field, ref) -> {
            AttributeValue value = item.get(field);
            if (value == null || value.m() == null) {
                throw broken("the item " + sk + " has no embedded " + field);
            }
            Map<String, Object> copy = JsonAttributes.fromMap(value.m());
            rememberVersion(refVersions, ref, copy, CopyVersions.version(versions, field));
            view.put(field, copy);
        });
        for (Edge edge : node.edges) {
            switch (edge.kind()) {
                case ONE -> {
                    var childSegments = append(segments, edge.node().label);
                    view.put(edge.field(), assembleNode(edge.node(), skOf(childSegments), childSegments, bySk, refVersions, false));
                }
                case SUB -> {
                    var childSegments = append(segments, edge.node().label);
                    for (Object d : edge.discriminator().values()) {
                        childSegments = append(childSegments, String.valueOf(d));
                    }
                    view.put(edge.field(), assembleNode(edge.node(), skOf(childSegments), childSegments, bySk, refVersions, false));
                }
                case MANY -> {
                    String prefix = skOf(append(segments, edge.node().label)) + KeyCodec.DELIMITER;
                    var elementSks = bySk.entrySet().stream()
                            .filter(e -> e.getKey().startsWith(prefix) && e.getKey().indexOf(KeyCodec.DELIMITER, prefix.length()) < 0)
                            .map(e -> Map.entry(e.getKey(), position(e.getValue()))) // parsed once, not per comparison
                            .sorted(Map.Entry.comparingByValue())
                            .map(Map.Entry::getKey)
                            .toList();
                    var elements = new ArrayList<Object>(elementSks.size());
                    for (String elementSk : elementSks) {
                        var childSegments = append(append(segments, edge.node().label),
                                KeyCodec.unescape(elementSk.substring(prefix.length())));
                        elements.add(assembleNode(edge.node(), elementSk, childSegments, bySk, refVersions, false));
                    }
                    view.put(edge.field(), elements);
                }
            }
        }
        return view;
    }

    private static long position(Map<String, AttributeValue> item) {
        AttributeValue pos = item.get(POS);
        return pos == null ? Long.MAX_VALUE : Long.parseLong(pos.n());
    }

    private static void rememberVersion(Map<String, Long> refVersions, RefSpec<?> ref, Map<String, Object> copy,
                                        Long version) {
        if (version != null) {
            refVersions.put(refKey(ref, idOf(copy)), version);
        }
    }

    private CairnException broken(String reason) {
        return new CairnException(new CairnError.AggregateAssemblyError(
                "the stored " + name + " cannot be assembled: " + reason + "; a DELETE removes what is stored", name, reason));
    }

    // --- diff ---------------------------------------------------------------------------------------------

    /** What an update must write: per changed group, the items to put and the keys to delete. */
    public record GroupChange(String group, List<Member> puts, List<Member> deletes) {
        public int size() {
            return puts.size() + deletes.size();
        }
    }

    /** Diffs two decompositions item by item (root bookkeeping ignored) and groups the changes. */
    public static List<GroupChange> diff(Items before, Items after) {
        var puts = new LinkedHashMap<String, List<Member>>();
        var deletes = new LinkedHashMap<String, List<Member>>();
        after.bySk().forEach((sk, member) -> {
            Member old = before.bySk().get(sk);
            if (old == null || !withoutBookkeeping(old.item()).equals(withoutBookkeeping(member.item()))) {
                puts.computeIfAbsent(member.group(), g -> new ArrayList<>()).add(member);
            }
        });
        before.bySk().forEach((sk, member) -> {
            if (!after.bySk().containsKey(sk)) {
                deletes.computeIfAbsent(member.group(), g -> new ArrayList<>()).add(member);
            }
        });
        var groups = new LinkedHashSet<String>();
        groups.addAll(after.groups());
        groups.addAll(before.groups());
        var changes = new ArrayList<GroupChange>();
        for (String group : groups) {
            List<Member> p = puts.getOrDefault(group, List.of());
            List<Member> d = deletes.getOrDefault(group, List.of());
            if (!p.isEmpty() || !d.isEmpty()) {
                changes.add(new GroupChange(group, p, d));
            }
        }
        return changes;
    }

    private static Map<String, AttributeValue> withoutBookkeeping(Map<String, AttributeValue> item) {
        var copy = new HashMap<>(item);
        copy.remove(TableSpec.VERSION);
        copy.remove(TableSpec.CREATED_AT);
        copy.remove(TableSpec.UPDATED_AT);
        AggregateTxn.rootAttributes().forEach(copy::remove);
        return copy;
    }

    // --- helpers ------------------------------------------------------------------------------------------

    private String refId(Map<String, Object> input, String field, String path) {
        Object id = input.get(field + "Id");
        if (!(id instanceof String s) || s.isBlank()) {
            throw new CairnException(new CairnError.AggregateDecompositionError(
                    join(path, field + "Id") + " is missing", name, join(path, field + "Id")));
        }
        return s;
    }

    private static String idOf(Object copy) {
        return copy instanceof Map<?, ?> m && m.get("id") != null ? m.get("id").toString() : null;
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> map(Object value, String path) {
        if (value instanceof Map<?, ?> m) {
            return (Map<String, Object>) m;
        }
        throw new CairnException(new CairnError.AggregateDecompositionError(path + " must be an object", name, path));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> list(Object value, String path) {
        if (value instanceof List<?> l && l.stream().allMatch(e -> e instanceof Map)) {
            return (List<Map<String, Object>>) l;
        }
        throw new CairnException(new CairnError.AggregateDecompositionError(path + " must be a list of objects", name, path));
    }

    private static String string(Object value, String field) {
        if (value instanceof String s) {
            return s;
        }
        throw new IllegalArgumentException(field + " must be a string");
    }

    private static String join(String path, String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    private static List<String> append(List<String> segments, String segment) {
        var out = new ArrayList<>(segments);
        out.add(segment);
        return out;
    }
}
