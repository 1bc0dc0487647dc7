package dev.cairn.core.model;

import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.model.OperationModel.Op;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A declared entity: its key layout, fields, relationships and the operations served for it.
 * <ul>
 *   <li>a stand-alone entity has one id field ({@code STU#{id}} / {@code PROFILE});</li>
 *   <li>a child ({@code parent}) lives in its parent's partition, its id generated time-ordered or given;</li>
 *   <li>an edge ({@code from}, {@code to}) is keyed by both ends' ids, in {@code from}'s partition, and usually has
 *       an inverted index so the other end lists it too.</li>
 * </ul>
 * {@code identity} lists the fields the item path's parameters fill, in order. Who may write it: anyone with the
 * writer role, or — {@code self} — only the user it is (its id is the token's subject), or — {@code owner} — only
 * the user its owner ref names. {@code timestamps} are the store's creation and change instants it answers with.
 * {@code keyedIndexes} are its keys in the table's overloaded indexes (rendered from templates, one per index, each
 * named); {@code indexes} are the named indexes keyed on its own fields (DynamoDB's multi-attribute keys).
 * {@code parentShards} names the parent's field that holds how many write shards its children spread over (null: the
 * children live in the parent's one partition).
 * {@code copies} says where whole copies of it are found (null when nothing embeds it whole). {@code unique} are its
 * declared unique values, each kept by a sentinel item written in the item's own transaction.
 * {@code ttl} names its expiry field (an instant, stored as the table's TTL attribute in epoch seconds): past it, the
 * item is gone from every read and a write meets it as missing (null: it never expires).
 * {@code softDelete}: a delete moves the item to a tombstone (listed, restored, purged) instead of removing it.
 * {@code history} keeps its previous versions as snapshot items (null: none kept; see {@link HistoryModel}).
 */
public record EntityModel(String name, KeyTemplate pk, KeyTemplate sk, String path, List<FieldModel> fields,
                          List<String> identity, boolean generatedId, RefModel parent, List<RefModel> refs, boolean edge,
                          List<IndexModel> keyedIndexes, Map<Op, OperationModel> operations, ListModel list, String describe,
                          String inputSchema, String inputDescription, boolean self, Owner owner,
                          List<String> timestamps, List<NaturalIndexModel> indexes, Access access, String parentShards,
                          int line, CopiesModel copies, List<UniqueModel> unique, String ttl, boolean softDelete,
                          HistoryModel history) {

    /** An entity that is deleted for good (no {@code softDelete}) and keeps no history. */
    public EntityModel(String name, KeyTemplate pk, KeyTemplate sk, String path, List<FieldModel> fields,
                       List<String> identity, boolean generatedId, RefModel parent, List<RefModel> refs, boolean edge,
                       List<IndexModel> keyedIndexes, Map<Op, OperationModel> operations, ListModel list, String describe,
                       String inputSchema, String inputDescription, boolean self, Owner owner,
                       List<String> timestamps, List<NaturalIndexModel> indexes, Access access, String parentShards,
                       int line, CopiesModel copies, List<UniqueModel> unique, String ttl) {
        this(name, pk, sk, path, fields, identity, generatedId, parent, refs, edge, keyedIndexes, operations, list, describe,
                inputSchema, inputDescription, self, owner, timestamps, indexes, access, parentShards, line, copies, unique,
                ttl, false, null);
    }

    /** An entity with no unique values declared and no expiry field. */
    public EntityModel(String name, KeyTemplate pk, KeyTemplate sk, String path, List<FieldModel> fields,
                       List<String> identity, boolean generatedId, RefModel parent, List<RefModel> refs, boolean edge,
                       List<IndexModel> keyedIndexes, Map<Op, OperationModel> operations, ListModel list, String describe,
                       String inputSchema, String inputDescription, boolean self, Owner owner,
                       List<String> timestamps, List<NaturalIndexModel> indexes, Access access, String parentShards,
                       int line, CopiesModel copies) {
        this(name, pk, sk, path, fields, identity, generatedId, parent, refs, edge, keyedIndexes, operations, list, describe,
                inputSchema, inputDescription, self, owner, timestamps, indexes, access, parentShards, line, copies, List.of(), null);
    }

    /** An entity whose whole copies nothing embeds (no {@code copies:}). */
    public EntityModel(String name, KeyTemplate pk, KeyTemplate sk, String path, List<FieldModel> fields,
                       List<String> identity, boolean generatedId, RefModel parent, List<RefModel> refs, boolean edge,
                       List<IndexModel> keyedIndexes, Map<Op, OperationModel> operations, ListModel list, String describe,
                       String inputSchema, String inputDescription, boolean self, Owner owner,
                       List<String> timestamps, List<NaturalIndexModel> indexes, Access access, String parentShards,
                       int line) {
        this(name, pk, sk, path, fields, identity, generatedId, parent, refs, edge, keyedIndexes, operations, list, describe,
                inputSchema, inputDescription, self, owner, timestamps, indexes, access, parentShards, line, null);
    }

    /**
     * Who may do what: {@code roles} maps an operation ({@code create}, {@code get}, {@code put}, {@code patch},
     * {@code delete}) or {@code list} (its listings) to the role it needs ({@code reader}, {@code writer},
     * {@code admin}) where it differs from the default (reads: reader; writes: writer; the delete of an entity others
     * copy: admin); {@code tenant} names the field that holds the tenant (workspace) the item belongs to — a caller
     * outside it meets the item as missing — or is null for data every tenant shares; {@code author} names a text
     * field that records who created the item: the caller, unless an admin names someone else (null: none).
     */
    public record Access(Map<String, String> roles, String tenant, String author, String privateTo) {
        public static final Access SHARED = new Access(Map.of(), null, null, null);

        public Access {
            roles = Map.copyOf(roles);
        }

        public Access(Map<String, String> roles, String tenant) {
            this(roles, tenant, null, null);
        }

        public Access withAuthor(String field) {
            return new Access(roles, tenant, field, privateTo);
        }

        public Access withPrivateTo(String field) {
            return new Access(roles, tenant, author, field);
        }
    }

    /** The timestamp fields an entity may answer with. */
    public static final String CREATED_AT = "createdAt";
    public static final String UPDATED_AT = "updatedAt";

    /**
     * The user an entity belongs to: its ref {@code ref} (an actor), and {@code path}, the item path under that user
     * ({@code /users/{uid}/posts/{postId}}) where the operations marked {@code at: owner} are served.
     */
    public record Owner(String ref, String path) {

        /** The owner's parameter: the path's first. */
        public String parameter() {
            return path.substring(path.indexOf('{') + 1, path.indexOf('}'));
        }
    }

    public EntityModel {
        fields = List.copyOf(fields);
        identity = List.copyOf(identity);
        refs = List.copyOf(refs);
        timestamps = List.copyOf(timestamps);
        indexes = List.copyOf(indexes);
        keyedIndexes = List.copyOf(keyedIndexes);
        unique = unique == null ? List.of() : List.copyOf(unique);
        access = access == null ? Access.SHARED : access;
        var ordered = new java.util.EnumMap<Op, OperationModel>(Op.class);
        ordered.putAll(operations);
        operations = java.util.Collections.unmodifiableMap(ordered);
    }

    /** Its first keyed index (the one an entity with a single {@code index} declares); null when it has none. */
    public IndexModel index() {
        return keyedIndexes.isEmpty() ? null : keyedIndexes.get(0);
    }

    /** The keyed index partitioned by {@code field} alone, if any (where a ref's copies are found by its id). */
    public Optional<IndexModel> indexBy(String field) {
        return keyedIndexes.stream().filter(i -> i.pk().fieldNames().equals(List.of(field))).findFirst();
    }

    /** The item path an operation is served at: under the owner, or the entity's own. */
    public String pathOf(OperationModel operation) {
        return operation.atOwner() ? owner.path() : path;
    }

    /** The route of an operation: a create is posted to its item path's collection. */
    public String routeOf(OperationModel operation) {
        String item = pathOf(operation);
        return operation.op() == Op.CREATE ? item.substring(0, item.lastIndexOf('/')) : item;
    }

    /**
     * Whether this child sorts right after its parent in their partition — the parent's sort key is a literal that
     * leads its own — so ONE ascending Query reads the parent and then its first children.
     */
    public boolean followsParent(EntityModel parentModel) {
        return parent != null && parent.entity().equals(parentModel.name()) && parentModel.sk().fieldCount() == 0
                && pk.fieldCount() > 0 && parentModel.pk().fieldCount() > 0 && sk.fieldCount() > 0
                && pk.prefix().equals(parentModel.pk().prefix())
                && sk.prefix().startsWith(parentModel.sk().pattern() + "#");
    }

    /**
     * Whether this child sorts right BEFORE its parent in their partition — the parent's sort key is a literal above
     * every child key ({@code WORKSPACE} above {@code PROJ#…}) — so that one descending Query from the parent's key
     * reads the parent and then its newest children.
     */
    public boolean precedesParent(EntityModel parentModel) {
        return parent != null && parent.entity().equals(parentModel.name()) && parentModel.sk().fieldCount() == 0
                && pk.fieldCount() > 0 && parentModel.pk().fieldCount() > 0 && sk.fieldCount() > 0
                && pk.prefix().equals(parentModel.pk().prefix()) && !sk.prefix().isEmpty()
                && parentModel.sk().pattern().compareTo(sk.prefix()) > 0
                && !parentModel.sk().pattern().startsWith(sk.prefix());
    }

    /**
     * Whether the first page of this child's listing is read with its parent, in the same Query (an unknown parent is
     * then a 404, not an empty page): children that follow it, listed oldest first; children listed newest first that
     * precede it where the parent's read includes them (the reader checked nothing sorts between); always the children
     * of a write-sharded parent.
     */
    public boolean readsWithParent(EntityModel parentModel) {
        if (list == null || parent == null || !parent.entity().equals(parentModel.name())) {
            return false;
        }
        if (parentShards != null) {
            return true;
        }
        if (!list.newestFirst()) {
            return followsParent(parentModel);
        }
        OperationModel get = parentModel.operation(Op.GET);
        return precedesParent(parentModel) && get != null
                && get.include().values().stream().anyMatch(include -> include.entity().equals(name));
    }

    /** The same entity with other keyed indexes (an index's shard count resolved from its setting). */
    public EntityModel withKeyedIndexes(List<IndexModel> replaced) {
        return new EntityModel(name, pk, sk, path, fields, identity, generatedId, parent, refs, edge, List.copyOf(replaced),
                operations, list, describe, inputSchema, inputDescription, self, owner, timestamps, indexes, access,
                parentShards, line, copies, unique, ttl, softDelete, history);
    }

    /**
     * A soft-deleted entity's routes, beside its collection: {@code GET <collection>/deleted} (the deleted listing),
     * {@code POST <item>/restore} and {@code DELETE <collection>/deleted/{id}} (the purge). The collection is the item
     * path without its id.
     */
    public String deletedPath() {
        return path.substring(0, path.lastIndexOf('/')) + "/deleted";
    }

    public String restorePath() {
        return path + "/restore";
    }

    public String purgePath() {
        return deletedPath() + path.substring(path.lastIndexOf('/'));
    }

    /** The soft delete's operation ids: {@code listDeletedBooks}, {@code restoreBook}, {@code purgeBook}. */
    public String deletedOperationId() {
        return "listDeleted" + name + "s";
    }

    public String restoreOperationId() {
        return "restore" + name;
    }

    public String purgeOperationId() {
        return "purge" + name;
    }

    /** The ref that names who acts: the owner's, or one declared {@code actor}. */
    public Optional<RefModel> actor() {
        return refs.stream().filter(RefModel::actor).findFirst();
    }

    /** The entity's own id: the last identity field. */
    public String idField() {
        return identity.get(identity.size() - 1);
    }

    public Optional<FieldModel> field(String fieldName) {
        // a loop, not a stream: asked on every request's path (a handful of fields)
        for (FieldModel field : fields) {
            if (field.name().equals(fieldName)) {
                return Optional.of(field);
            }
        }
        return Optional.empty();
    }

    public boolean serves(Op op) {
        return operations.containsKey(op);
    }

    public OperationModel operation(Op op) {
        return operations.get(op);
    }

    /** Fields a client may never change: identity, refs (but those embedding a whole copy), copies, server-set fields. */
    public List<String> immutable() {
        var out = new ArrayList<String>(identity);
        for (FieldModel f : fields) {
            if ((f.serverSet() || f.name().equals(access.author()) || refs.stream().anyMatch(r -> r.field().equals(f.name()) && r.embed() == null))
                    && !out.contains(f.name())) {
                out.add(f.name());
            }
        }
        return out;
    }

    /** "student a91", or the declared {@code describe} with its fields filled in. */
    public String describe(Map<String, ?> values) {
        String text = describe;
        for (String field : identity) {
            Object value = values.get(field);
            text = text.replace("{" + field + "}", String.valueOf(value));
        }
        return text;
    }
}
