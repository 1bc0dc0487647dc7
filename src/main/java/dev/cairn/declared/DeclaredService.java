package dev.cairn.declared;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.TimeOrderedIds;
import dev.cairn.core.cascade.CascadeSpec;
import dev.cairn.core.entity.DeleteMark;
import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.model.HistoryModel;
import dev.cairn.core.write.VersionSnapshots;
import dev.cairn.core.entity.Stored;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.model.DeclaredEntity;
import dev.cairn.core.model.Doc;
import dev.cairn.core.model.NamedValues;
import dev.cairn.core.model.DomainPlan;
import dev.cairn.core.model.EntityModel;
import dev.cairn.core.item.Timestamps;
import dev.cairn.core.model.FieldModel;
import dev.cairn.core.model.IndexModel;
import dev.cairn.core.model.NaturalIndexModel;
import dev.cairn.core.model.RefModel;
import dev.cairn.core.model.ViewModel;
import dev.cairn.core.query.FanOut;
import dev.cairn.core.query.Page;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.core.write.TransactionPlan;
import dev.cairn.core.write.WriteAction;
import dev.cairn.core.write.WriteAction.Expectation;
import dev.cairn.core.expr.Condition;
import dev.cairn.core.expr.SortCondition;
import dev.cairn.platform.MergePatcher;
import dev.cairn.platform.Offload;
import dev.cairn.platform.auth.Caller;
import dev.cairn.service.CascadeService;
import dev.cairn.service.CascadeService.Mode;
import dev.cairn.service.CascadeService.Patched;
import dev.cairn.service.EntityService;
import dev.cairn.store.EntityStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The use cases of every declared entity, on the same stores and services the hand-written domains use:
 * <ul>
 *   <li>create: refs checked in the write's own transaction — existence for a parent or a plain ref (1 call); for a
 *       ref whose fields are copied, ONE consistent BatchGetItem of the referenced entities, then the put with one
 *       source guard per copied entity (2 calls), run again if a source changed meanwhile;</li>
 *   <li>read, merge patch, JSON Patch and replacement through the one read-change-write cycle (If-Match, retries);
 *       an entity others copy from changes through its cascade (eventual or transactional);</li>
 *   <li>delete: plain, or — when edges, children or copies depend on the entity — marked, checked and deleted
 *       only while nothing depends on it;</li>
 *   <li>listings: one Query of a partition or of an index, a page at a time.</li>
 * </ul>
 */
@ApplicationScoped
public class DeclaredService {

    @Inject EntityStore store;
    @Inject EntityService entities;
    @Inject CascadeService cascades;
    @Inject MergePatcher patcher;
    @Inject TimeOrderedIds ids;
    @Inject DeclaredModels models;
    @Inject DeclaredShards shards;
    @Inject DeclaredEmbeds embeds;
    @Inject DeclaredSoftDeletes softDeletes;

    /** A changed entity: the stored document, and the cascade's answer when it has copies. */
    public record Changed(DeclaredEntity entity, Stored<Doc> stored, Patched<Doc> cascaded) {
    }

    /** A view's answer: its body, and the root as stored (its version is the ETag). */
    public record View(Stored<Doc> root, Map<String, Object> body) {
    }

    /**
     * Which item a request names: the path's ids of its identity (for a create, those of its parent), and under the
     * entity's owner the owner's id (null elsewhere).
     */
    public record Address(List<String> identity, String owner) {

        static Address of(DeclaredRoutes.Route route, List<String> ids) {
            return route.atOwner() ? new Address(ids.subList(1, ids.size()), ids.get(0)) : new Address(ids, null);
        }

        String id() {
            return identity.get(identity.size() - 1);
        }
    }

    // --- create ---------------------------------------------------------------------------------------------------

    /**
     * Creates from a request: a POST to the collection (the body names the id, or it is generated, a child's parent
     * id comes from the path) or a PUT of an edge's path (both ids from the path; the body is optional).
     */
    public Uni<Stored<Doc>> create(DeclaredEntity entity, Address address, String body) {
        EntityModel model = entity.model();
        var values = new LinkedHashMap<>(DocJson.valid(model.fields(), DocJson.object(body, model.edge()), false));
        List<String> pathIds = address.identity();
        List<String> fromPath = model.edge() ? model.identity() : model.identity().subList(0, pathIds.size());
        for (int i = 0; i < fromPath.size(); i++) {
            values.put(fromPath.get(i), pathIds.get(i));
        }
        if (model.generatedId() && model.parentShards() == null) {
            values.put(model.idField(), ids.next());
        }
        if (model.softDelete() && DeclaredSoftDeletes.DELETED.equals(values.get(model.idField()))) {
            // GET <collection>/deleted is the deleted listing: an item of that id could never be read at its path
            throw dev.cairn.platform.Http.invalid(model.idField(), "cannot be '" + DeclaredSoftDeletes.DELETED
                    + "': " + model.deletedPath() + " lists the deleted items");
        }
        if (model.idField().equals(model.access().tenant())) {
            // A new tenant outside the caller's scope: refused whether or not it exists, so nothing leaks.
            Caller.current().requireCreatable(String.valueOf(values.get(model.idField())));
        }
        actAs(model, address, values);
        String author = model.access().author();
        if (author != null) {
            values.put(author, Caller.current().author(author, (String) values.get(author)));
        }
        defaults(model.fields(), values);
        requireLiving(model.ttl(), values, store.now());
        var named = new HashSet<>(fromPath);
        if (address.owner() != null) {
            model.actor().ifPresent(actor -> named.add(actor.field()));
        }
        String writer = writer();
        if (model.parentShards() != null) {
            return shardedInsert(entity, values, named, writer);
        }
        return insert(entity, new Doc(ordered(model, values)), named, true, writer)
                .invoke(stored -> rememberShards(entity, stored));
    }

    /**
     * A create's expiry ({@code ttl}) must be later than now: an item created past it would answer 201 and then be gone
     * from every read at once, and DynamoDB's TTL never removes one more than five years past, so it would stay stored
     * for good. An update may set a past expiry: that expires the item now.
     */
    static void requireLiving(String ttl, Map<String, Object> values, Instant now) {
        Object expiry = ttl == null ? null : values.get(ttl);
        // compared as stored: in whole seconds (an expiry later in the current second is stored as already past)
        if (expiry != null && Instant.parse(String.valueOf(expiry)).getEpochSecond() <= now.getEpochSecond()) {
            throw dev.cairn.platform.Http.invalid(ttl, "must be later than now (" + now + "): a new item past its expiry "
                    + "would be gone at once");
        }
    }

    /**
     * A child of a write-sharded parent: the parent's shard count (cached, or read with the parent: 404 if missing)
     * gives the new id its shard, and the item is ONE conditional PutItem into it — no existence check on the parent's
     * partition, which would bring every write back to it (such a parent is never deleted).
     */
    private Uni<Stored<Doc>> shardedInsert(DeclaredEntity entity, Map<String, Object> values, java.util.Set<String> named,
                                           String writer) {
        EntityModel model = entity.model();
        DeclaredEntity parent = models.plan().entity(model.parent().entity());
        String parentId = String.valueOf(values.get(model.parent().field()));
        return shards.count(parent, parentId).chain(count -> {
            var placed = new LinkedHashMap<>(values);
            placed.put(model.idField(), dev.cairn.core.key.ShardedIds.idFor(ids.next(), count));
            return insert(entity, new Doc(ordered(model, placed)), named, false, writer);
        });
    }

    /** A sharded parent read or written: its shard count is remembered (it only grows). */
    private void rememberShards(DeclaredEntity entity, Stored<Doc> stored) {
        if (shards.countField(entity) != null) {
            shards.remember(entity, stored.value().text(entity.model().idField()), stored.value());
        }
    }

    /**
     * Who a new item is written by: a {@code self} entity only by the user it is; an actor ref is the owner in the
     * path, or the user the body names, or the caller — and only an admin acts for someone else (403).
     */
    private static void actAs(EntityModel model, Address address, Map<String, Object> values) {
        if (!model.self() && model.actor().isEmpty()) {
            return;
        }
        Caller caller = Caller.current();
        if (model.self()) {
            caller.requireSelf(model.idField(), String.valueOf(values.get(model.idField())));
        }
        model.actor().ifPresent(actor -> {
            if (address.owner() != null) {
                caller.requireSelf(model.owner().parameter(), address.owner());
                values.put(actor.field(), address.owner());
            } else {
                values.put(actor.field(), caller.author(actor.field(), (String) values.get(actor.field())));
            }
        });
    }

    /** A change of an existing item: by the user it is ({@code self}), or under its owner by that owner only. */
    static void actOn(DeclaredEntity entity, Address address, String parameter) {
        EntityModel model = entity.model();
        if (model.self()) {
            Caller.current().requireSelf(parameter, address.id());
        }
        if (address.owner() != null) {
            Caller.current().requireSelf(model.owner().parameter(), address.owner());
        }
    }

    /** "post p1", or under an owner "post p1 of user alice": what a 404 names. */
    String what(DeclaredEntity entity, Address address) {
        String what = entity.describe(address.identity());
        if (address.owner() == null) {
            return what;
        }
        String ownerEntity = entity.model().actor().orElseThrow().entity();
        return what + " of " + models.plan().entity(ownerEntity).describe(List.of(address.owner()));
    }

    /** Under an owner, only the owner's items are seen: any other is as absent as a missing one. */
    static java.util.function.Predicate<Doc> visibleAt(DeclaredEntity entity, Address address) {
        if (address.owner() == null) {
            return doc -> true;
        }
        String ref = entity.model().owner().ref();
        return doc -> address.owner().equals(doc.text(ref));
    }

    /** Writes a new document with its refs checked (and their fields copied) in the same transaction. */
    public Uni<Stored<Doc>> insert(DeclaredEntity entity, Doc doc) {
        return insert(entity, doc, java.util.Set.of(), true, writer());
    }

    /**
     * As above; {@code fromPath} names the fields whose values the request's path gave (a missing entity they name is
     * a 404), the others came in the body (a missing one is a 422 RefNotFound naming the field).
     */
    private Uni<Stored<Doc>> insert(DeclaredEntity entity, Doc doc, java.util.Set<String> fromPath, boolean checkParent,
                                    String writer) {
        EntityModel model = entity.model();
        if (DeclaredEmbeds.embeds(model)) {
            return embeds.insert(entity, doc);   // whole copies: DeclaredEmbeds
        }
        var refs = new ArrayList<RefModel>();
        if (model.parent() != null && checkParent) {
            refs.add(model.parent());
        }
        refs.addAll(model.refs());
        if (refs.isEmpty()) {
            if (model.unique().isEmpty() && model.history() == null) {
                return store.create(entity.spec(), doc);
            }
            // its unique values' sentinels in the same transaction; a collision with another writer is run again
            return entities.againOnCollision(firstVersion(entity, doc).chain(first -> {
                Instant now = store.now();
                var actions = new ArrayList<WriteAction>();
                actions.add(created(entity, doc, now, Map.of(), writer, first));
                actions.addAll(sentinels(entity, null, doc, now));
                return (actions.size() == 1 ? store.write(actions.get(0)) : store.transact(TransactionPlan.of(actions)))
                        .replaceWith(stored(entity, doc, now, first));
            }));
        }
        boolean copies = refs.stream().anyMatch(r -> !r.copies().isEmpty());
        if (!copies) {
            // A refused existence check names what is missing: a body's ref is the request's fault (422, naming the
            // field), the parent named by the path a 404.
            return firstVersion(entity, doc).chain(first -> {
                        Instant now = store.now();
                        var actions = new ArrayList<WriteAction>();
                        refs.forEach(ref -> actions.add(existenceCheck(ref, doc, now)));
                        actions.add(created(entity, doc, now, Map.of(), writer, first));
                        actions.addAll(sentinels(entity, null, doc, now));
                        return store.transact(TransactionPlan.of(actions)).replaceWith(stored(entity, doc, now, first));
                    })
                    .onFailure(e -> !model.edge() && CairnException.is(e, CairnError.NotFound.class)).transform(e -> {
                        for (RefModel ref : model.refs()) {
                            if (fromPath.contains(ref.field())) {
                                continue;
                            }
                            String id = doc.text(ref.field());
                            if (((CairnException) e).error().detail().equals(target(ref).describe(List.of(id)) + " does not exist")) {
                                return refNotFound(ref, id);
                            }
                        }
                        return e;
                    });
        }
        List<PrimaryKey> keys = refs.stream().map(ref -> target(ref).key(List.of(doc.text(ref.field())))).toList();
        return entities.againOnCollision(firstVersion(entity, doc).chain(first -> store.batchGet(keys, true).chain(found -> {
            Instant read = store.now();
            var values = new LinkedHashMap<>(doc.values());
            var versions = new LinkedHashMap<String, Long>();
            var actions = new ArrayList<WriteAction>();
            for (int i = 0; i < refs.size(); i++) {
                RefModel ref = refs.get(i);
                DeclaredEntity target = target(ref);
                String id = doc.text(ref.field());
                Map<String, AttributeValue> item = found.get(i);
                if (item == null || DeleteMark.live(item, read)) {
                    // an edge's ends and a child's parent are named by the path: absent, they are a 404
                    throw ref == model.parent() || model.edge() || fromPath.contains(ref.field())
                            ? EntityService.notFound(target.describe(List.of(id))) : refNotFound(ref, id);
                }
                Stored<Doc> source = target.spec().fromItem(item);
                if (ref.copies().isEmpty()) {
                    actions.add(existenceCheck(ref, doc, read));
                    continue;
                }
                ref.copies().forEach((copy, field) -> values.put(copy, source.value().get(field)));
                versions.put(ref.field(), source.version());
                actions.add(WriteAction.copiedSource(target.name(), id, keys.get(i), source.version(), read));
            }
            Doc complete = new Doc(ordered(model, values));
            Instant now = store.now();
            actions.add(created(entity, complete, now, entity.copyVersions(versions), writer, first));
            actions.addAll(sentinels(entity, null, complete, now));
            return store.transact(TransactionPlan.of(actions)).replaceWith(stored(entity, complete, now, first));
        })));
    }

    /**
     * The sentinel writes that keep the entity's unique values as the item goes from {@code before} (null: created)
     * to {@code after} (null: deleted): none when it declares none or the write changes none of them.
     */
    private static List<WriteAction> sentinels(DeclaredEntity entity, Doc before, Doc after, Instant now) {
        EntityModel model = entity.model();
        if (model.unique().isEmpty()) {
            return List.of();
        }
        PrimaryKey owner = entity.keyOf(after != null ? after : before);
        return dev.cairn.core.write.UniqueSentinels.actions(model.name(), model.unique(), owner,
                before == null ? null : before.values(), after == null ? null : after.values(), now);
    }

    /**
     * The write of a change at the version read: ONE UpdateItem, or — when it moves a unique value, or the entity keeps
     * history — ONE TransactWriteItems with the sentinels it gives up and takes and the snapshot of the version read
     * (and the delete of the snapshot that falls out of a {@code keep} window).
     */
    private Uni<Stored<Doc>> rewrite(DeclaredEntity entity, Map<String, AttributeValue> item, Stored<Doc> current,
                                     Doc patched, String writer) {
        HistoryModel history = entity.model().history();
        if (entity.model().unique().isEmpty() && history == null) {
            return store.put(entity.spec(), patched, current.version());
        }
        return Uni.createFrom().deferred(() -> {
            Instant now = store.now();
            var moves = sentinels(entity, current.value(), patched, now);
            if (moves.isEmpty() && history == null) {
                return store.put(entity.spec(), patched, current.version());
            }
            var actions = new ArrayList<WriteAction>();
            actions.add(WriteAction.put(entity.spec(), patched, Expectation.present(current.version()), now,
                    history == null ? Map.of() : VersionSnapshots.writer(writer)));
            actions.addAll(moves);
            if (history != null) {
                // the version read, kept in the same transaction: if the item moved on meanwhile, nothing is stored
                actions.addAll(VersionSnapshots.snapshot(history, entity.name(), item, now, null));
            }
            return store.transact(TransactionPlan.of(actions)).replaceWith(
                    new Stored<>(patched, current.key(), current.version() + 1, current.createdAt(), now));
        });
    }

    /** A ref in a body names nothing (or something being deleted): 422, naming the field, the id and the entity. */
    CairnException refNotFound(RefModel ref, String id) {
        return new CairnException(new CairnError.RefNotFound(target(ref).describe(List.of(id)) + " referenced by "
                + ref.field() + " does not exist", ref.field(), id, ref.entity(),
                List.of(Map.of("field", ref.field(), "refEntity", ref.entity(), "refId", id))));
    }

    /**
     * The referenced entity exists (and has not expired) and is not being deleted, checked in the write's own
     * transaction.
     */
    WriteAction existenceCheck(RefModel ref, Doc doc, Instant now) {
        DeclaredEntity target = target(ref);
        String id = doc.text(ref.field());
        return WriteAction.check(target.describe(List.of(id)), target.key(List.of(id)),
                        WriteAction.live(target.spec(), Expectation.present(null), now))
                .and(DeleteMark.absentOrExpired(now));
    }

    DeclaredEntity target(RefModel ref) {
        return models.plan().entity(ref.entity());
    }

    private static Stored<Doc> stored(DeclaredEntity entity, Doc doc, Instant now, long version) {
        return new Stored<>(entity.spec().asStored(doc), entity.keyOf(doc), version, now, now);
    }

    // --- version history ------------------------------------------------------------------------------------------

    /**
     * Who writes now: the caller's subject ({@code anonymous} with auth off, where every caller is the unrestricted
     * one), or {@code cairn} where no request is bound (the demo data loaded at startup). Taken when the request
     * arrives, before any call.
     */
    static String writer() {
        return Caller.bound().map(Caller::subject).orElse("cairn");
    }

    /**
     * The put of a new item: for an entity with history, with its writer, and at {@code first} — a version after
     * every one its id's earlier item left retained (a deleted item's versions stay, so the new one's continue them).
     */
    private static WriteAction created(DeclaredEntity entity, Doc doc, Instant now, Map<String, AttributeValue> extra,
                                       String writer, long first) {
        var all = new LinkedHashMap<>(extra);
        if (entity.model().history() != null) {
            all.putAll(VersionSnapshots.writer(writer));
        }
        WriteAction create = WriteAction.create(entity.spec(), doc, now, all);
        if (first == 1) {
            return create;
        }
        var item = new LinkedHashMap<>(create.item());
        item.put(dev.cairn.core.TableSpec.VERSION, AttributeValue.fromN(Long.toString(first)));
        return new WriteAction(create.kind(), create.key(), item, null, create.expectation(), create.extraCondition(),
                create.label());
    }

    /**
     * The version a new item starts at: 1, or — for an entity with history whose ids are given (a deleted item's id
     * may come back) — one after the newest version retained for that id: 1 Query of at most one snapshot. A
     * generated id is new, so it costs nothing.
     */
    private Uni<Long> firstVersion(DeclaredEntity entity, Doc doc) {
        if (entity.model().history() == null || entity.model().generatedId()) {
            return Uni.createFrom().item(1L);
        }
        PrimaryKey key = entity.keyOf(doc);
        return store.page(versionsQuery(key, 1), null)
                .map(page -> page.items().isEmpty() ? 1L : EntitySpec.versionOf(page.items().get(0)) + 1);
    }

    /**
     * One page of the item's retained versions, newest first. The first page starts with the current version (the live
     * item) when there is one: 1 GetItem and 1 Query of the snapshots, side by side; every later page is 1 Query. A
     * deleted item's versions stay while they are retained (its last one marked with who deleted it and when), read by
     * the same rules as the item was; with no item and no version it is a 404.
     */
    public Uni<Page<Map<String, Object>>> versions(DeclaredEntity entity, Address address, int limit, String cursor) {
        String what = what(entity, address);
        var visible = visibleAt(entity, address);
        PrimaryKey key = entity.key(address.identity());
        QuerySpec query = versionsQuery(key, limit);
        if (cursor != null) {
            return store.page(query, cursor).map(page -> page.map(item -> versionView(entity, item, visible, what)));
        }
        return Uni.combine().all().unis(store.getItem(key, true), store.page(query, null)).asTuple().map(both -> {
            Map<String, AttributeValue> live = both.getItem1();
            Page<Map<String, AttributeValue>> snapshots = both.getItem2();
            if (live == null) {
                if (snapshots.items().isEmpty()) {
                    throw EntityService.notFound(what);
                }
                return snapshots.map(item -> versionView(entity, item, visible, what));
            }
            int room = limit - 1;
            var items = new ArrayList<Map<String, AttributeValue>>();
            items.add(live);
            items.addAll(snapshots.items().subList(0, Math.min(room, snapshots.items().size())));
            String next = null;
            if (snapshots.items().size() > room || snapshots.next() != null) {
                // the next page starts below the last version shown (the live one's own place, when only it fits)
                PrimaryKey after = room == 0 ? VersionSnapshots.key(key, EntitySpec.versionOf(live))
                        : PrimaryKey.from(snapshots.items().get(room - 1));
                next = store.cursor(query, after.toAttributes());
            }
            return new Page<>(items.stream().map(item -> versionView(entity, item, visible, what)).toList(), next);
        });
    }

    /**
     * One retained version: the live item when it is that version, else its snapshot (2 GetItems side by side). Not
     * retained (or never written) is a 404 naming the version. Its number is the answer's ETag (the version it shows).
     */
    public Uni<View> version(DeclaredEntity entity, Address address, long number) {
        String what = what(entity, address);
        var visible = visibleAt(entity, address);
        PrimaryKey key = entity.key(address.identity());
        return Uni.combine().all().unis(store.getItem(key, true), store.getItem(VersionSnapshots.key(key, number), true))
                .asTuple().map(both -> {
                    Map<String, AttributeValue> live = both.getItem1();
                    // an item the caller may not see answers exactly as a missing one: its version "not retained"
                    var notRetained = new CairnException(new CairnError.NotFound("version " + number + " of " + what
                            + " is not retained"));
                    if (live != null && !visible.test(entity.spec().fromItem(live).value())) {
                        throw notRetained;
                    }
                    Map<String, AttributeValue> found = live != null && EntitySpec.versionOf(live) == number ? live
                            : both.getItem2();
                    if (found == null) {
                        throw notRetained;
                    }
                    Map<String, AttributeValue> item = VersionSnapshots.isSnapshot(found) ? VersionSnapshots.itemOf(found) : found;
                    if (!visible.test(entity.spec().fromItem(item).value())) {
                        throw notRetained;
                    }
                    return new View(entity.spec().fromItem(item), versionView(entity, found, visible, what));
                });
    }

    /**
     * A version as the API shows it: its number, whether it is the current one, who wrote it and when (null for a
     * version written before the entity kept history), who deleted the item and when (its last version, once
     * deleted), and the item as its GET answered it then. A version the caller may not see is as absent as the item.
     */
    private Map<String, Object> versionView(DeclaredEntity entity, Map<String, AttributeValue> raw,
                                            java.util.function.Predicate<Doc> visible, String what) {
        boolean snapshot = VersionSnapshots.isSnapshot(raw);
        Map<String, AttributeValue> item = snapshot ? VersionSnapshots.itemOf(raw) : raw;
        Stored<Doc> stored = entity.spec().fromItem(item);
        if (!visible.test(stored.value())) {
            throw EntityService.notFound(what);
        }
        var out = new LinkedHashMap<String, Object>();
        out.put("version", stored.version());
        out.put("current", !snapshot);
        AttributeValue by = item.get(VersionSnapshots.WRITER);
        out.put("writtenBy", by == null ? null : by.s());
        out.put("writtenAt", stored.updatedAt().toString());
        if (raw.containsKey(VersionSnapshots.DELETED_BY)) {
            out.put("deletedBy", raw.get(VersionSnapshots.DELETED_BY).s());
            out.put("deletedAt", raw.get(VersionSnapshots.DELETED_AT).s());
        }
        out.put("item", view(entity, stored));
        return out;
    }

    /** The item's snapshots, newest first: 1 strongly consistent Query of their prefix. */
    static QuerySpec versionsQuery(PrimaryKey item, int limit) {
        return QuerySpec.table(item.pk()).sort(SortCondition.beginsWith(VersionSnapshots.prefix(item.sk())))
                .descending().limit(limit).consistent().build();
    }

    private static void defaults(List<FieldModel> fields, Map<String, Object> values) {
        for (FieldModel field : fields) {
            if (field.defaultValue() == null || values.get(field.name()) != null) {
                continue;
            }
            String text = field.defaultValue();
            values.put(field.name(), switch (field.kind()) {
                case DATE -> LocalDate.now(ZoneOffset.UTC).toString();
                case INSTANT -> Instant.now().toString();
                case BOOLEAN -> Boolean.valueOf(text);
                case INTEGER, NUMBER -> new BigDecimal(text).stripTrailingZeros().scale() <= 0
                        ? (Object) new BigDecimal(text).longValueExact() : new BigDecimal(text).stripTrailingZeros();
                default -> text;
            });
        }
    }

    static Map<String, Object> ordered(EntityModel model, Map<String, Object> values) {
        var out = new LinkedHashMap<String, Object>();
        model.fields().forEach(f -> {
            if (values.get(f.name()) != null) {
                out.put(f.name(), values.get(f.name()));
            }
        });
        return out;
    }

    // --- read, change, delete -------------------------------------------------------------------------------------

    public Uni<Stored<Doc>> get(DeclaredEntity entity, List<String> identity) {
        return entities.find(entity.spec(), entity.key(identity), entity.describe(identity));
    }

    public Uni<Stored<Doc>> get(DeclaredEntity entity, Address address) {
        String what = what(entity, address);
        var visible = visibleAt(entity, address);
        return entities.find(entity.spec(), entity.key(address.identity()), what).invoke(stored -> {
            if (!visible.test(stored.value())) {
                throw EntityService.notFound(what);
            }
            rememberShards(entity, stored);
        });
    }

    /**
     * The entity and the first page of the children {@code member} names: ONE Query from the entity's sort key on
     * (its children sort right after it); a 404 when the entity is absent. The page's cursor continues at the
     * children's listing.
     */
    public Uni<View> getWith(DeclaredEntity entity, Address address, String member, int limit) {
        var include = entity.model().operation(dev.cairn.core.model.OperationModel.Op.GET).include().get(member);
        DeclaredEntity child = models.plan().entity(include.entity());
        String what = what(entity, address);
        var visible = visibleAt(entity, address);
        return withParent(entity, child, address.id(), limit, () -> what).map(found -> {
            if (!visible.test(found.parent().value())) {
                throw EntityService.notFound(what);
            }
            var body = new LinkedHashMap<String, Object>(view(entity, found.parent()));
            body.put(member, found.children().map(stored -> view(child, stored)));
            return new View(found.parent(), body);
        });
    }

    /**
     * The parent's item and the first page of its children in ONE Query of the parent's partition (404 when the
     * parent is absent): ascending from the parent for children that follow it, descending from it for children
     * listed newest first that precede it; over every write shard for the children of a sharded parent.
     */
    private Uni<EntityService.ParentPage<Doc, Doc>> withParent(DeclaredEntity parent, DeclaredEntity child, String id,
                                                               int limit, Supplier<String> what) {
        if (child.model().parentShards() != null) {
            return withParentSharded(parent, child, id, limit, what);
        }
        boolean newestFirst = child.model().precedesParent(parent.model());
        QuerySpec together = newestFirst ? DeclaredEntity.parentWithNewest(parent, child, id, limit)
                : withParentQuery(parent, id, limit);
        return entities.parentWithChildren(together, child.partitionQuery(id, limit, newestFirst), parent.spec(),
                child.spec(), what).invoke(found -> rememberShards(parent, found.parent()));
    }

    /**
     * A sharded parent and the first page of its newest children over every write shard, in one parallel round: shard 0
     * is the parent's own partition, read with the Query that also returns the parent (404 when absent, at no extra
     * call). The shard count is the cached one (1 when this replica has not seen the parent); if the parent's item
     * shows more, only the missing shards are read, in a second round.
     */
    private Uni<EntityService.ParentPage<Doc, Doc>> withParentSharded(DeclaredEntity parent, DeclaredEntity child,
                                                                      String id, int limit, Supplier<String> what) {
        Integer cached = shards.known(parent, id);
        int assumed = cached == null ? 1 : cached;
        FanOut guess = child.shardedPartitions(id, assumed, limit, true);
        List<FanOut.Position> start = guess.positions(null);
        String parentSk = parent.key(List.of(id)).sk();
        return store.readShards(guess, start, Map.of(0, DeclaredEntity.parentWithNewest(parent, child, id, limit)))
                .chain(pages -> {
                    var shardZero = pages.stream().filter(p -> p.shard() == 0).findFirst().orElseThrow();
                    var parentItem = shardZero.items().isEmpty() ? null : shardZero.items().get(0);
                    if (parentItem == null || !parentSk.equals(PrimaryKey.from(parentItem).sk())) {
                        throw EntityService.notFound(what.get());
                    }
                    Stored<Doc> found = parent.spec().fromItem(parentItem);
                    int actual = shards.remember(parent, id, found.value());
                    var childPages = new ArrayList<FanOut.ShardPage>();
                    childPages.add(new FanOut.ShardPage(0, shardZero.items().subList(1, shardZero.items().size()),
                            shardZero.lastEvaluatedKey()));
                    pages.stream().filter(p -> p.shard() != 0).forEach(childPages::add);
                    if (actual <= assumed) {
                        return Uni.createFrom().item(parentPage(child, found, guess, start, childPages));
                    }
                    FanOut full = child.shardedPartitions(id, actual, limit, true);
                    List<FanOut.Position> fullStart = full.positions(null);
                    var missing = new ArrayList<>(fullStart);
                    for (int shard = 0; shard < assumed; shard++) {
                        missing.set(shard, FanOut.Position.DONE_POSITION);
                    }
                    return store.readShards(full, missing, Map.of()).map(more -> {
                        childPages.addAll(more);
                        return parentPage(child, found, full, fullStart, childPages);
                    });
                });
    }

    private EntityService.ParentPage<Doc, Doc> parentPage(DeclaredEntity child, Stored<Doc> parent, FanOut listing,
                                                          List<FanOut.Position> start, List<FanOut.ShardPage> pages) {
        return new EntityService.ParentPage<>(parent, store.mergedPage(listing, start, pages).map(child.spec()::fromItem));
    }

    /**
     * The parent's item and then its first {@code limit} children: from the parent's sort key on, ascending, up to
     * {@code ~} — where the engine's own items (version snapshots) start, so the page never holds one.
     */
    static QuerySpec withParentQuery(DeclaredEntity parent, String id, int limit) {
        PrimaryKey key = parent.key(List.of(id));
        return QuerySpec.table(key.pk()).sort(SortCondition.between(key.sk(), ENGINE_ITEMS)).limit(limit + 1).consistent()
                .build();
    }

    /** Where the engine's own items sort in a partition: every sort key from here on ({@code ~VERSION#...}). */
    static final String ENGINE_ITEMS = "~";

    /** A merge patch, or a JSON Patch for {@code application/json-patch+json}. */
    public Uni<Changed> patch(DeclaredEntity entity, Address address, String parameter, String body, String contentType,
                              Long ifMatch, Mode mode) {
        actOn(entity, address, parameter);
        if (DeclaredEmbeds.embeds(entity.model())) {
            // whole copies: a changed ref is read and copied again (DeclaredEmbeds)
            return embeds.patch(entity, address.identity(), what(entity, address), body, contentType, ifMatch)
                    .map(stored -> new Changed(entity, stored, null));
        }
        var immutable = new HashSet<>(entity.model().immutable());
        var shape = DocJson.shape(entity.model().fields());
        return change(entity, address, Offload.forBody(body,
                current -> patcher.apply(current, shape, body, immutable, contentType)), ifMatch, mode);
    }

    /** A PUT of the whole document: its identity must be the path's, and server-set fields keep their values. */
    public Uni<Changed> replace(DeclaredEntity entity, Address address, String parameter, String body, Long ifMatch, Mode mode) {
        actOn(entity, address, parameter);
        List<String> identity = address.identity();
        EntityModel model = entity.model();
        var given = DocJson.object(body, false);
        for (int i = 0; i < identity.size(); i++) {
            Object named = given.get(model.identity().get(i));
            if (named != null && !named.equals(identity.get(i))) {
                throw dev.cairn.platform.Http.invalid(model.identity().get(i), "must be the id in the path");
            }
        }
        var replacement = new LinkedHashMap<>(given);
        for (int i = 0; i < identity.size(); i++) {
            FieldModel field = model.field(model.identity().get(i)).orElseThrow();
            if (field.serverSet()) {
                replacement.remove(field.name());
            } else {
                replacement.put(field.name(), identity.get(i));
            }
        }
        var values = new LinkedHashMap<>(DocJson.valid(model.fields(), replacement, false));
        defaults(model.fields(), values);
        return change(entity, address, current -> {
            // A ref is fixed once written (its copies and their guards were made for it): PUT may only repeat it.
            for (RefModel ref : model.refs()) {
                Object named = values.get(ref.field());
                if (named != null && !named.equals(current.get(ref.field()))) {
                    throw dev.cairn.platform.Http.invalid(ref.field(), "cannot be changed");
                }
            }
            var next = new LinkedHashMap<>(values);
            model.refs().forEach(ref -> next.put(ref.field(), current.get(ref.field())));
            model.fields().stream().filter(FieldModel::serverSet).forEach(f -> next.put(f.name(), current.get(f.name())));
            model.identity().forEach(field -> next.put(field, current.get(field)));
            return new Doc(ordered(model, next));
        }, ifMatch, mode);
    }

    private Uni<Changed> change(DeclaredEntity entity, Address address, UnaryOperator<Doc> asked, Long ifMatch,
                                Mode mode) {
        String countField = shards.countField(entity);
        UnaryOperator<Doc> change = countField == null ? asked : Offload.as(asked, current -> {
            Doc next = asked.apply(current);
            int was = DeclaredShards.count(current, countField);
            if (DeclaredShards.count(next, countField) < was) {
                throw dev.cairn.platform.Http.invalid(countField, "can only grow (it is " + was + "): children already "
                        + "live in every write shard up to that count");
            }
            return next;
        });
        return changed(entity, address, change, ifMatch, mode, writer()).invoke(changed -> rememberShards(entity, changed.stored()));
    }

    private Uni<Changed> changed(DeclaredEntity entity, Address address, UnaryOperator<Doc> change, Long ifMatch,
                                 Mode mode, String writer) {
        String what = what(entity, address);
        var visible = visibleAt(entity, address);
        CascadeSpec cascade = models.plan().cascade(entity.name());
        if (cascade == null) {
            return entities.change(entity.spec(), entity.key(address.identity()), change, ifMatch, what, visible,
                            (current, patched) -> { },
                            (EntityService.ItemWrite<Doc>) (item, current, patched) -> rewrite(entity, item, current, patched, writer))
                    .map(stored -> new Changed(entity, stored, null));
        }
        UnaryOperator<Doc> seen = Offload.as(change, current -> {
            if (!visible.test(current)) {
                throw EntityService.notFound(what);
            }
            return change.apply(current);
        });
        var target = new CascadeService.Target<>(entity.spec(), Doc.class, address.id(), cascade);
        // the unique values it moves, and the version it replaces, go in the source's own transaction, as on every write
        HistoryModel history = entity.model().history();
        var alongside = new CascadeService.Alongside<Doc>(history == null ? Map.of() : VersionSnapshots.writer(writer),
                (item, current, patched, now) -> {
                    var along = new ArrayList<>(sentinels(entity, current.value(), patched, now));
                    if (history != null) {
                        along.addAll(VersionSnapshots.snapshot(history, entity.name(), item, now, null));
                    }
                    return along;
                });
        return cascades.patch(target, seen, ifMatch, mode, what, alongside)
                .map(patched -> new Changed(entity, patched.stored(), patched));
    }

    /**
     * Deleted only while nothing depends on it (edges, children, copies): 409 StillReferenced otherwise. An entity
     * copied into other items is reference data: only an admin deletes it, as the hand-written reference routes.
     */
    public Uni<Void> delete(DeclaredEntity entity, Address address, String parameter, Long ifMatch) {
        actOn(entity, address, parameter);
        if (entity.model().softDelete()) {
            return softDeletes.delete(entity, address, ifMatch);
        }
        String writer = writer();
        if (address.owner() != null) {
            // Under an owner: read to see whose it is (an owner never changes), then delete as anywhere else.
            return get(entity, address).chain(stored -> delete(entity, address.identity(), ifMatch, what(entity, address),
                    writer));
        }
        return delete(entity, address.identity(), ifMatch, what(entity, address), writer);
    }

    private Uni<Void> delete(DeclaredEntity entity, List<String> identity, Long ifMatch, String what, String writer) {
        PrimaryKey key = entity.key(identity);
        var dependents = models.plan().dependents(entity.name());
        HistoryModel history = entity.model().history();
        if (dependents == null && (!entity.model().unique().isEmpty() || history != null)) {
            // its sentinels and its last version's snapshot go with it: the item is read (its values name them), then
            // deleted at that version with them in ONE transaction; a change in between makes the cycle run again (a
            // 412 under If-Match)
            return entities.againOnConflict(store.getItem(key, true).onItem().ifNull()
                    .failWith(() -> EntityService.notFound(what)).chain(item -> {
                        Stored<Doc> current = entity.spec().fromItem(item);
                        EntityService.requireVersion(entity.spec(), current, ifMatch, what);
                        Instant now = store.now();
                        var actions = new ArrayList<WriteAction>();
                        actions.add(WriteAction.delete(what, key, Expectation.present(current.version())));
                        actions.addAll(sentinels(entity, current.value(), null, now));
                        if (history != null) {
                            actions.addAll(VersionSnapshots.snapshot(history, entity.name(), item, now, writer));
                        }
                        return store.transact(TransactionPlan.of(actions));
                    }), ifMatch);
        }
        if (dependents == null) {
            return store.delete(entity.spec(), key, true, ifMatch, what)
                    .onFailure(e -> CairnException.is(e, CairnError.NotFound.class))
                    .transform(e -> EntityService.notFound(what))
                    .replaceWithVoid();
        }
        String id = identity.get(identity.size() - 1);
        return cascades.delete(key, ifMatch, what, marked -> {
                    Instant now = store.now();
                    var along = new ArrayList<>(sentinels(entity, entity.spec().fromItem(marked).value(), null, now));
                    if (history != null) {
                        along.addAll(VersionSnapshots.snapshot(history, entity.name(), marked, now, writer));
                    }
                    return along;
                },
                () -> Uni.join().all(dependents.apply(id).stream().map(q -> store.page(q.withLimit(1), null)).toList())
                        .andFailFast().map(pages -> pages.stream().mapToInt(p -> p.items().size()).sum()));
    }

    // --- listings and views ---------------------------------------------------------------------------------------

    /** One page of a child's or an edge's partition: 1 strongly consistent Query. */
    public Uni<Page<Map<String, Object>>> listPartition(DeclaredEntity entity, String partitionId, boolean newestFirst,
                                                        int limit, String cursor) {
        EntityModel model = entity.model();
        DeclaredEntity parent = model.parent() == null ? null : models.plan().entity(model.parent().entity());
        if (cursor == null && parent != null && model.readsWithParent(parent.model())) {
            // The first page is the same one Query with the parent in it: an unknown parent is a 404, not an empty page.
            // the 404's words only made when it is one
            return withParent(parent, entity, partitionId, limit, () -> parent.describe(List.of(partitionId)))
                    .map(found -> found.children().map(stored -> view(entity, stored)));
        }
        if (model.parentShards() != null) {
            // every later page: one parallel round over the shards still holding children, sized by the cursor
            return store.fanOutPage(count -> entity.shardedPartitions(partitionId, count, limit, true), 1, cursor)
                    .map(page -> page.map(item -> view(entity, entity.spec().fromItem(item))));
        }
        return page(entity, entity.partitionQuery(partitionId, limit, newestFirst), cursor);
    }

    /**
     * The partition value a listing takes from a query parameter, read by its field's rules (an enum's values, a
     * string's length): a 400 naming the parameter when it is missing or breaks them, before any call.
     */
    public String queryValue(DeclaredEntity entity, String field, String value) {
        FieldModel model = entity.model().field(field).orElseThrow();
        if (value == null) {
            throw dev.cairn.platform.Http.invalid(field, "is required");
        }
        if (model.kind() == FieldModel.Kind.ID) {
            return dev.cairn.platform.Http.id(field, value);
        }
        var values = new LinkedHashMap<String, Object>();
        values.put(field, value);
        return String.valueOf(DocJson.valid(List.of(model), values, true).get(field));
    }

    /** One page of the items indexed under an id: 1 Query of the index (eventually consistent). */
    public Uni<Page<Map<String, Object>>> listIndex(DeclaredEntity entity, IndexModel index, String id, boolean newestFirst,
                                                    int limit, String cursor) {
        Condition scope = null;
        String tenant = entity.model().access().tenant();
        if (tenant != null && !tenant.equals(index.partitionField())) {
            // An index partition mixes tenants: a scoped caller's page holds its own tenants' items only (a filter,
            // bound into the cursor, so a cursor of one scope cannot be replayed by a caller of another).
            Caller caller = Caller.current();
            if (!caller.allWorkspaces()) {
                if (caller.workspaceList().isEmpty()) {
                    return Uni.createFrom().item(new Page<>(List.of(), null));
                }
                scope = Condition.in(tenant, caller.workspaceList().stream().map(AttributeValue::fromS).toList());
            }
        }
        Condition filter = scope;
        if (index.shards() > 1) {
            // a sharded index: one parallel round of a Query per shard still holding items, merged in key order
            return store.fanOutPage(count -> FanOut.of(entity.indexShards(index, id, count, limit, newestFirst).shards()
                                    .stream().map(q -> filter == null ? q : q.filtered(filter)).toList()),
                            index.shards(), cursor)
                    .map(page -> page.map(item -> view(entity, entity.spec().fromItem(item))));
        }
        QuerySpec query = entity.indexQuery(index, id, limit, newestFirst);
        return page(entity, filter == null ? query : query.filtered(filter), cursor);
    }

    /**
     * One page of a natural index's listing: 1 Query of the index (eventually consistent), its partition fields from
     * the path, its sort fields' conditions from the query parameters (a rule broken is a 400 before any call).
     */
    public Uni<Page<Map<String, Object>>> listNatural(DeclaredEntity entity, NaturalIndexModel index,
                                                      Map<String, String> partition, Function<String, String> parameter,
                                                      boolean newestFirst, int limit, String cursor) {
        return Uni.createFrom().item(() -> entity.naturalQuery(index, partition, parameter, limit, newestFirst))
                .chain(query -> page(entity, query, cursor));
    }

    private Uni<Page<Map<String, Object>>> page(DeclaredEntity entity, QuerySpec query, String cursor) {
        return store.page(entity.spec(), query, cursor).map(page -> page.map(stored -> view(entity, stored)));
    }

    /**
     * A view: the root (1 GetItem) and, side by side, the first page of each member's listing — its partition's
     * Query or its index's — each with the cursor its own listing route continues from.
     */
    public Uni<View> view(ViewModel view, String id, int limit) {
        DomainPlan plan = models.plan();
        DeclaredEntity root = plan.entity(view.root());
        var members = new ArrayList<Uni<Page<Map<String, Object>>>>();
        for (String entityName : view.include().values()) {
            DeclaredEntity member = plan.entity(entityName);
            EntityModel model = member.model();
            boolean inPartition = model.pk().prefix().equals(root.model().pk().prefix());
            if (inPartition) {
                members.add(listPartition(member, id, model.list() != null && model.list().newestFirst(), limit, null));
            } else {
                IndexModel index = model.keyedIndexes().stream()
                        .filter(i -> i.pk().prefix().equals(root.model().pk().prefix())).findFirst().orElseThrow();
                members.add(listIndex(member, index, id, index.list() != null && index.list().newestFirst(), limit, null));
            }
        }
        return Uni.combine().all().unis(get(root, List.of(id)), Uni.join().all(members).andFailFast()).asTuple()
                .map(both -> {
                    var out = new LinkedHashMap<String, Object>(view(root, both.getItem1()));
                    var names = new ArrayList<>(view.include().keySet());
                    for (int i = 0; i < names.size(); i++) {
                        out.put(names.get(i), both.getItem2().get(i));
                    }
                    return new View(both.getItem1(), out);
                });
    }

    /** The item as the API shows it: its fields, and the store's instants under the timestamps it declares. */
    public Map<String, Object> view(DeclaredEntity entity, Stored<Doc> stored) {
        List<String> shown = entity.shown();
        List<FieldModel> fields = entity.model().fields();
        Object[] values = new Object[shown.size()];
        for (int i = 0; i < fields.size(); i++) {
            values[i] = stored.value().get(fields.get(i).name());
        }
        for (String timestamp : entity.model().timestamps()) {
            values[shown.indexOf(timestamp)] = Timestamps.text(timestamp.equals(EntityModel.CREATED_AT)
                    ? stored.createdAt() : stored.updatedAt());
        }
        return NamedValues.all(entity.shownNames(), values);
    }

    /** A cascade's answer with the entity as the API shows it. */
    public Map<String, Object> cascadedBody(DeclaredEntity entity, Patched<Doc> patched) {
        var body = new LinkedHashMap<>(patched.body());
        body.put("entity", view(entity, patched.stored()));
        return body;
    }
}
