package dev.cairn.core.aggregate;

import dev.cairn.core.TableSpec;
import dev.cairn.core.aggregate.AggregateNode.Edge;
import dev.cairn.core.key.KeyCodec;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.query.QuerySpec;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * A generic aggregate: a root node and its graph, stored as many items in ONE partition. This class is its shape
 * (definition, keys, queries, transaction groups) and the entry to the engine's pure steps, each in its own
 * class over the one traversal of the graph ({@link Walk}, {@link Place}): {@link Hydration} lists the refs an
 * input needs, hydrates it into the full view and turns a view back into its input; {@link Decomposer} makes a
 * view's items grouped by transaction group (the root group, then one group per bound sub-aggregate);
 * {@link Assembler} builds the view back from items; {@link AggregateDiff} compares two decompositions;
 * {@link Summaries} keeps the root findable through lists. Values are JSON-like (maps, lists, strings, numbers,
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
    private final List<Listing> listings;
    private final Summaries summaries;
    private final Hydration hydration;
    private final Decomposer decomposer;
    private final Assembler assembler;
    private final List<InputRule> rules;
    /** The root field that is the aggregate's expiry (null: it never expires). */
    private final String expiry;

    private Aggregate(String name, KeyTemplate partition, String idField, AggregateNode root, List<String> context,
                      Map<String, String> summary, List<Listing> listings, List<InputRule> rules, String expiry) {
        this.name = name;
        this.expiry = expiry;
        this.rules = List.copyOf(rules);
        this.partition = partition;
        this.idField = idField;
        this.root = root;
        this.context = List.copyOf(context);
        this.listings = List.copyOf(listings);
        var values = new Values(name);
        this.summaries = new Summaries(name, root, idField, Collections.unmodifiableMap(new LinkedHashMap<>(summary)),
                this.listings);
        this.hydration = new Hydration(root, idField, values);
        this.decomposer = new Decomposer(this, root, this.context, values);
        this.assembler = new Assembler(name, root, idField);
        for (Edge edge : root.edges) {
            if (PartitionRanges.compare(root.label, edge.node().label) >= 0) {
                // A read's first page must hold the root: it is the proof that the rest was read from the same state.
                throw new IllegalArgumentException(name + ": the root label " + root.label
                        + " must sort before every member label (" + edge.node().label + ")");
            }
        }
        var attributes = new LinkedHashSet<>(List.of(TableSpec.SK, TableSpec.TYPE, POS, REF, idField,
                TableSpec.VERSION, TableSpec.CREATED_AT, TableSpec.UPDATED_AT, TableSpec.EXPIRES_AT));
        // who wrote the root's version, where the aggregate keeps history (its versions' listing shows it)
        attributes.add(dev.cairn.core.write.VersionSnapshots.WRITER);
        attributes.addAll(AggregateTxn.rootAttributes());
        attributes.add(PartitionRanges.FENCES);
        root.forEachNode(node -> {
            attributes.addAll(node.fields);
            attributes.addAll(node.refs.keySet());
        });
        this.viewAttributes = List.copyOf(attributes);
    }

    /**
     * @param partition the partition key template, with the aggregate id as its only field
     * @param idField   the root field holding the aggregate id
     * @param context   root fields copied onto every member item (a change rewrites every group)
     */
    public static Aggregate of(String name, KeyTemplate partition, String idField, AggregateNode root, List<String> context) {
        return new Aggregate(name, partition, idField, root, context, Map.of(), List.of(), List.of(), null);
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
        return new Aggregate(name, partition, idField, root, context, summaryPaths, lists, rules, expiry);
    }

    /** The same aggregate, its inputs held to these structural rules (checked by {@link #checkRules}). */
    public Aggregate ruled(List<InputRule> inputRules) {
        return new Aggregate(name, partition, idField, root, context, summaries.summary(), listings, inputRules, expiry);
    }

    /**
     * The same aggregate, expiring at the instant its root's {@code field} holds (RFC 3339 in the view): every item,
     * root and member, carries it as the table's TTL attribute ({@link TableSpec#EXPIRES_AT}, epoch seconds), so every
     * read hides the whole aggregate at once and DynamoDB's TTL deletes every item of it. A change of the expiry
     * therefore rewrites every item (the diff sees each one change), as a change of a context field does.
     */
    public Aggregate expiring(String field) {
        if (!root.fields.contains(field)) {
            throw new IllegalArgumentException(name + ": the expiry " + field + " is no field of the root");
        }
        return new Aggregate(name, partition, idField, root, context, summaries.summary(), listings, rules, field);
    }

    /** The root field that is the aggregate's expiry; null when it never expires. */
    public String expiry() {
        return expiry;
    }

    /** Whether the aggregate expires: its writes then meet an expired root as missing (and a create takes its id). */
    public boolean expires() {
        return expiry != null;
    }

    /** Refuses an input that breaks one of the aggregate's rules (AggregateDecompositionError naming the member). */
    public void checkRules(Map<String, Object> input) {
        for (InputRule rule : rules) {
            rule.check(name, input);
        }
    }

    public List<InputRule> rules() {
        return rules;
    }

    public AggregateNode root() {
        return root;
    }

    public List<String> context() {
        return context;
    }

    /** The summary a list shows of each root: field → view path. */
    public Map<String, String> summary() {
        return summaries.summary();
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

    /** The id whose partition this is (one of {@link #holdsPartition}'s). */
    public String idOf(String pk) {
        return String.valueOf(partition.decode(pk).get(0));
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
        // the expiry is read too: an expired item (left by an expired aggregate) is no occupant
        return QuerySpec.table(partitionOf(id)).consistent().limit(3).project(TableSpec.SK, TableSpec.EXPIRES_AT).build();
    }

    /** The whole partition, every attribute: the read before a write, which diffs and may undo whole items. */
    public QuerySpec itemsQuery(String id) {
        return QuerySpec.table(partitionOf(id)).consistent().limit(PartitionRanges.FIRST_PAGE_ITEMS).build();
    }

    public String rootType() {
        return root.entityType;
    }

    // --- refs and hydration: Hydration -------------------------------------------------------------------

    /** One use of a ref in an input: where ({@code team1.players[3].player}), which entity, which id. */
    public record RefUse(String path, RefSpec<?> ref, String id) {
    }

    /** A hydrated copy: the referenced entity's domain fields and the version they were read at. */
    public record RefCopy(Map<String, Object> fields, long version) {
    }

    /** The lookup key of a resolved ref. */
    public static String refKey(RefSpec<?> ref, String id) {
        return ref.entity() + "#" + id;
    }

    /** Every ref of an input, in input order (ids of refs are the input's {@code <field>Id} values). */
    public List<RefUse> refs(Map<String, Object> input) {
        return hydration.refs(input);
    }

    /** Turns an input (ids) into the full view (embedded copies), given every ref resolved by key. */
    public Map<String, Object> hydrate(Map<String, Object> input, Map<String, RefCopy> resolved) {
        Map<String, Object> view = hydration.hydrate(input, resolved);
        if (expiry == null || !(view.get(expiry) instanceof String at)) {
            return view;
        }
        // TTL counts whole seconds: the view (and so every answer, the create's too) shows the second stored
        var whole = new LinkedHashMap<>(view);
        whole.put(expiry, Instant.parse(at).truncatedTo(ChronoUnit.SECONDS).toString());
        return whole;
    }

    /** The embedded copies of an assembled view, by {@link #refKey}, so an update re-reads only new refs. */
    public Map<String, RefCopy> copies(Map<String, Object> view, Map<String, Long> refVersions) {
        return hydration.copies(view, refVersions);
    }

    /** The input shape of a view: every embedded copy replaced by its id ({@code <field>Id}). */
    public Map<String, Object> toInput(Map<String, Object> view) {
        return hydration.toInput(view);
    }

    // --- decomposition: Decomposer ------------------------------------------------------------------------------

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
        return decomposer.decompose(view, refVersions, version, createdAt, updatedAt);
    }

    // --- lists and summaries: Summaries ---------------------------------------------------------------------

    /** A summary field copied from an embedded copy: which field of the referenced entity it shows. */
    public record SummaryCopy(String field, String sourceField) {
        public String attribute() {
            return Summaries.PREFIX + field;
        }
    }

    Summaries summaries() {
        return summaries;
    }

    /** Of a root item, the attributes the lists manage: summary fields and index keys (for a backfill). */
    public Map<String, AttributeValue> listedAttributes(Map<String, AttributeValue> rootItem) {
        return summaries.listedAttributes(rootItem);
    }

    /**
     * The summary of a listed root item: id, the summary fields, timestamps and version; null for a root still
     * being created by a multi-transaction write (it is not there until that write commits).
     */
    public Map<String, Object> summaryOf(Map<String, AttributeValue> rootItem) {
        return summaries.summaryOf(rootItem);
    }

    /** The summary fields that show the copy held in {@code attribute} of the member at {@code sk}. */
    public List<SummaryCopy> summaryCopies(String sk, String attribute) {
        return summaries.copiesShown(sk, attribute);
    }

    // --- transaction groups -------------------------------------------------------------------------------

    /**
     * The transaction group a sort key of this aggregate's partition belongs to ({@link #ROOT_GROUP} or the path
     * of its sub-aggregate, as {@link #decompose} assigns them); null when the key is no member of this shape.
     */
    public String groupOf(String sk) {
        if (sk.equals(root.label)) {
            return ROOT_GROUP;
        }
        return groupIn(Place.root(root), List.of(sk.split(String.valueOf(KeyCodec.DELIMITER), -1)), 0);
    }

    /** Follows the sort key's segments down the graph, the way {@link Place} builds them. */
    private static String groupIn(Place place, List<String> segments, int at) {
        if (at == segments.size()) {
            return place.group();
        }
        for (Edge edge : place.node().edges) {
            if (!segments.get(at).equals(edge.node().label)) {
                continue;
            }
            switch (edge.kind()) {
                case ONE -> {
                    return groupIn(place.child(edge), segments, at + 1);
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
                        return groupIn(place.child(edge), segments, next);
                    }
                }
                case MANY -> {
                    if (at + 1 < segments.size()) {
                        return groupIn(place.element(edge, null, null), segments, at + 2);
                    }
                }
            }
        }
        return null;
    }

    // --- assembly: Assembler -------------------------------------------------------------------------------

    /** An assembled aggregate: the view, the root's bookkeeping, and the source versions of its copies. */
    public record Assembled(Map<String, Object> view, long version, Instant createdAt, Instant updatedAt,
                            Map<String, Long> refVersions, Map<String, AttributeValue> rootItem) {
    }

    /** Builds the view from a partition's items, or fails with AggregateAssemblyError naming what is wrong. */
    public Assembled assemble(List<Map<String, AttributeValue>> items) {
        Assembled assembled = assembler.assemble(items);
        if (expiry == null) {
            return assembled;
        }
        // The expiry is stored as the root's TTL attribute, not under its name: answered as RFC 3339
        AttributeValue at = assembled.rootItem().get(TableSpec.EXPIRES_AT);
        var view = new LinkedHashMap<>(assembled.view());
        view.put(expiry, at == null || at.n() == null ? null : Instant.ofEpochSecond(Long.parseLong(at.n())).toString());
        return new Assembled(view, assembled.version(), assembled.createdAt(), assembled.updatedAt(),
                assembled.refVersions(), assembled.rootItem());
    }

    // --- diff: AggregateDiff -------------------------------------------------------------------------------

    /** What an update must write: per changed group, the items to put and the keys to delete. */
    public record GroupChange(String group, List<Member> puts, List<Member> deletes) {
        public int size() {
            return puts.size() + deletes.size();
        }
    }

    /** Diffs two decompositions item by item (root bookkeeping ignored) and groups the changes. */
    public static List<GroupChange> diff(Items before, Items after) {
        return AggregateDiff.diff(before, after);
    }
}
