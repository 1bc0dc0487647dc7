package dev.cairn.declared;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.TableSpec;
import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.aggregate.Aggregate.FoundMember;
import dev.cairn.core.aggregate.Aggregate.Items;
import dev.cairn.core.aggregate.Aggregate.RefCopy;
import dev.cairn.core.aggregate.Aggregate.RefUse;
import dev.cairn.core.aggregate.AggregateTombstones;
import dev.cairn.core.aggregate.AggregateVersions;
import dev.cairn.core.entity.Tombstones;
import dev.cairn.core.aggregate.AggregateWrites;
import dev.cairn.core.aggregate.AggregateWrites.Plan;
import dev.cairn.core.aggregate.CopyVersions;
import dev.cairn.core.aggregate.JsonAttributes;
import dev.cairn.core.expr.Condition;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.model.AggregateModel.Appearances;
import dev.cairn.core.model.CopiesModel;
import dev.cairn.core.model.DeclaredAggregate;
import dev.cairn.core.model.DeclaredEntity;
import dev.cairn.core.model.Doc;
import dev.cairn.core.query.Page;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.core.write.UniqueSentinels;
import dev.cairn.core.model.AggregateModel;
import dev.cairn.core.aggregate.MemberSentinels;
import dev.cairn.core.write.WriteAction;
import dev.cairn.platform.Http;
import dev.cairn.platform.MergePatcher;
import dev.cairn.platform.Offload;
import dev.cairn.platform.auth.Caller;
import dev.cairn.service.EntityService;
import dev.cairn.store.AggregateStore;
import dev.cairn.store.AggregateStore.Snapshot;
import dev.cairn.store.EntityStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The use cases of every declared aggregate, on the aggregate engine ({@link AggregateStore}): every check that needs
 * no I/O runs first (the input's fields and rules, duplicate members, transaction group sizes), then ONE BatchGetItem
 * hydrates the refs, then the plan is written (ONE transaction when it fits; one commit point and an undo log when
 * not). Reads are ONE strongly consistent Query; lists one Query per list partition; an update writes only the
 * groups that changed, at the version read.
 */
@ApplicationScoped
public class DeclaredAggregates {

    /** An assembled aggregate and its version (the ETag). */
    public record Versioned(Map<String, Object> view, long version) {
    }

    /** What an answer shows of an aggregate: its view, and the root's timestamps where declared. */
    private static Versioned shown(DeclaredAggregate aggregate, Map<String, Object> view, long version, Instant createdAt,
                                   Instant updatedAt) {
        return new Versioned(AggregateVersions.shown(view, aggregate.model().timestamps(), createdAt, updatedAt), version);
    }

    @Inject AggregateStore aggregates;
    @Inject EntityStore store;
    @Inject EntityService entities;
    @Inject MergePatcher patcher;
    @Inject DeclaredModels models;

    /** The input's fields as a merge patch or a JSON Patch sees them (the create body's shape). */
    private static MergePatcher.Shape<Doc> shape(DeclaredAggregate aggregate) {
        return DocJson.shape(aggregate.inputFields());
    }

    // --- reads --------------------------------------------------------------------------------------------------

    /** ONE strongly consistent Query of the partition (a larger one in parallel ranges); 404 when absent. */
    public Uni<Versioned> find(DeclaredAggregate aggregate, String id) {
        return hidingDamaged(aggregate, id, aggregates.read(aggregate.aggregate(), id))
                .onItem().ifNull().failWith(() -> EntityService.notFound(aggregate.describe(id)))
                .invoke(s -> requireVisible(aggregate, id, s.assembled().view()))
                .map(s -> shown(aggregate, s.assembled().view(), s.assembled().version(), s.assembled().createdAt(),
                        s.assembled().updatedAt()));
    }

    // --- versions (history) -------------------------------------------------------------------------------------

    /**
     * The retained versions, newest first, the current one first: the first page is the aggregate's read (1 Query, as
     * its GET) and 1 Query of its snapshots side by side, each later page 1 Query. A deleted aggregate's versions while
     * retained; none at all is a 404. Each version is read by exactly who may read the aggregate (its tenant).
     */
    public Uni<Page<Map<String, Object>>> versions(DeclaredAggregate aggregate, String id, int limit, String cursor) {
        String what = aggregate.describe(id);
        String pk = aggregate.aggregate().partitionOf(id);
        QuerySpec query = AggregateVersions.listing(pk, limit);
        if (cursor != null) {
            return store.page(query, cursor).map(page -> page.map(item -> snapshotView(aggregate, item, what)));
        }
        return Uni.combine().all().unis(live(aggregate, id), store.page(query, null)).asTuple().map(both -> {
            Snapshot live = both.getItem1();
            Page<Map<String, AttributeValue>> snapshots = both.getItem2();
            if (live == null) {
                if (snapshots.items().isEmpty()) {
                    throw EntityService.notFound(what);
                }
                return snapshots.map(item -> snapshotView(aggregate, item, what));
            }
            var out = new java.util.ArrayList<Map<String, Object>>();
            out.add(liveView(aggregate, live, what));
            int room = limit - 1;
            snapshots.items().subList(0, Math.min(room, snapshots.items().size()))
                    .forEach(item -> out.add(snapshotView(aggregate, item, what)));
            String next = null;
            if (snapshots.items().size() > room || snapshots.next() != null) {
                // the next page starts below the last version shown (the live one's own place, when only it fits)
                PrimaryKey after = room == 0 ? AggregateVersions.key(pk, live.assembled().version())
                        : PrimaryKey.from(snapshots.items().get(room - 1));
                next = store.cursor(query, after.toAttributes());
            }
            return new Page<>(out, next);
        });
    }

    /**
     * One retained version: the aggregate itself when it is at that version, else its snapshot (its read and 1 GetItem
     * side by side). One not retained (or never written) is a 404 naming the version; its number is the ETag.
     */
    public Uni<Versioned> version(DeclaredAggregate aggregate, String id, long number) {
        String what = aggregate.describe(id);
        String pk = aggregate.aggregate().partitionOf(id);
        return Uni.combine().all().unis(live(aggregate, id), store.getItem(AggregateVersions.key(pk, number), true),
                store.getItem(AggregateVersions.tailKey(pk), true)).asTuple().map(all -> {
            Snapshot live = all.getItem1();
            Map<String, AttributeValue> snapshot = all.getItem2();
            Map<String, AttributeValue> tail = all.getItem3();
            // an aggregate the caller may not see answers exactly as a missing one: its version "not retained"; once
            // deleted, only the workspace it was deleted in sees its versions, each version of that workspace
            var notRetained = new CairnException(new CairnError.NotFound("version " + number + " of " + what
                    + " is not retained"));
            if (live != null && !visible(aggregate, live.assembled().view())
                    || live == null && tail != null && !visibleTenant(aggregate, tail.get(Tombstones.TENANT))
                    || live == null && snapshot != null && !visible(aggregate, AggregateVersions.shownOf(snapshot))) {
                throw notRetained;
            }
            Map<String, Object> view;
            if (live != null && live.assembled().version() == number) {
                view = liveView(aggregate, live, what);
            } else if (snapshot != null && visible(aggregate, AggregateVersions.shownOf(snapshot))) {
                view = snapshotView(aggregate, snapshot, what);
            } else {
                throw notRetained;
            }
            return new Versioned(view, number);
        });
    }

    /** The aggregate as its GET reads it, or null where there is none (deleted; versions may outlive it). */
    private Uni<Snapshot> live(DeclaredAggregate aggregate, String id) {
        return hidingDamaged(aggregate, id, aggregates.read(aggregate.aggregate(), id))
                .map(s -> s == null || s.assembled() == null ? null : s);
    }

    /**
     * A partition that does not form the aggregate has no tenant anyone can confirm: to a caller scoped to some
     * workspaces it answers as a missing one (404), never as the 409 AggregateAssemblyError that would tell it exists;
     * a caller of every workspace (who alone may DELETE it, the way out) gets the 409.
     */
    private static <T> Uni<T> hidingDamaged(DeclaredAggregate aggregate, String id, Uni<T> read) {
        if (aggregate.model().access().tenant() == null || Caller.current().allWorkspaces()) {
            return read;
        }
        return read.onFailure(e -> CairnException.is(e, CairnError.AggregateAssemblyError.class))
                .transform(e -> EntityService.notFound(aggregate.describe(id)));
    }

    private static Map<String, Object> liveView(DeclaredAggregate aggregate, Snapshot live, String what) {
        var assembled = live.assembled();
        if (!visible(aggregate, assembled.view())) {
            throw EntityService.notFound(what);
        }
        var out = new LinkedHashMap<String, Object>();
        out.put("version", assembled.version());
        out.put("current", true);
        out.put("writtenBy", AggregateVersions.writtenBy(assembled.rootItem()));
        out.put("writtenAt", assembled.updatedAt().toString());
        out.put("item", shown(aggregate, assembled.view(), assembled.version(), assembled.createdAt(),
                assembled.updatedAt()).view());
        return out;
    }

    /** A snapshot as the API shows it; one of a tenant the caller may not see is as absent as the aggregate. */
    private static Map<String, Object> snapshotView(DeclaredAggregate aggregate, Map<String, AttributeValue> snapshot,
                                                    String what) {
        // a version kept before a list was declared shows it empty, as the aggregate's answer always holds it
        Map<String, Object> item = withLists(aggregate.model().root(), AggregateVersions.shownOf(snapshot), true);
        if (!visible(aggregate, item)) {
            throw EntityService.notFound(what);
        }
        var out = new LinkedHashMap<String, Object>();
        out.put("version", AggregateVersions.versionOf(snapshot));
        out.put("current", false);
        out.put("writtenBy", AggregateVersions.writtenBy(snapshot));
        out.put("writtenAt", AggregateVersions.writtenAt(snapshot).toString());
        if (snapshot.containsKey(dev.cairn.core.write.VersionSnapshots.DELETED_BY)) {
            out.put("deletedBy", snapshot.get(dev.cairn.core.write.VersionSnapshots.DELETED_BY).s());
            out.put("deletedAt", snapshot.get(dev.cairn.core.write.VersionSnapshots.DELETED_AT).s());
        }
        out.put("item", item);
        return out;
    }

    // --- tenant scope -------------------------------------------------------------------------------------------

    /**
     * Another tenant's aggregate answers exactly as a missing one: the same 404, before any version is compared. A
     * root stored without the tenant field (written before the aggregate declared one) belongs to no workspace: only
     * a caller of every workspace sees it, until a write names its tenant.
     */
    private static void requireVisible(DeclaredAggregate aggregate, String id, Map<String, Object> view) {
        if (!visible(aggregate, view)) {
            throw EntityService.notFound(aggregate.describe(id));
        }
    }

    /** Whether the caller sees a tenant as stored (null: a caller of every workspace only, as for a root without one). */
    private static boolean visibleTenant(DeclaredAggregate aggregate, AttributeValue tenant) {
        if (aggregate.model().access().tenant() == null) {
            return true;
        }
        Caller caller = Caller.current();
        return tenant != null && tenant.s() != null ? caller.canSee(tenant.s()) : caller.allWorkspaces();
    }

    private static boolean visible(DeclaredAggregate aggregate, Map<String, Object> view) {
        String field = aggregate.model().access().tenant();
        if (field == null) {
            return true;
        }
        Caller caller = Caller.current();
        return view.get(field) instanceof String tenant ? caller.canSee(tenant) : caller.allWorkspaces();
    }

    /** An aggregate written into a tenant out of the caller's scope: 403, whether or not that tenant exists. */
    private static void requireWritable(DeclaredAggregate aggregate, Map<String, Object> input) {
        String field = aggregate.model().access().tenant();
        if (field != null) {
            // the input was checked: the tenant field is a required id
            Caller.current().requireCreatable(String.valueOf(input.get(field)));
        }
    }

    /**
     * A page of one of the aggregate's lists, newest first, as summaries from root items: one Query per shard of the
     * list of every root, one per index of a list by an id. A list of an id nothing holds is empty.
     */
    public Uni<Page<Map<String, Object>>> list(DeclaredAggregate aggregate, String list, String key, int limit,
                                               String cursor) {
        checkByField(aggregate, list, key);
        String tenant = aggregate.model().access().tenant();
        Caller caller = tenant == null ? null : Caller.current();
        Condition scope = null;
        if (caller != null && !caller.allWorkspaces()) {
            var listing = aggregate.model().lists().stream().filter(l -> l.name().equals(list)).findFirst().orElseThrow();
            if (listing.by().containsKey(tenant)) {
                // a list by the tenant itself: another tenant's answers as a missing one
                if (!caller.canSee(key)) {
                    throw EntityService.notFound("workspace " + key);
                }
            } else if (caller.workspaceList().isEmpty()) {
                return Uni.createFrom().item(new Page<>(List.of(), null));
            } else {
                // a list that mixes tenants: the caller's page holds its own tenants' roots only (a filter, bound
                // into the cursor, so a cursor of one scope cannot be replayed by a caller of another)
                scope = Condition.in(tenant, caller.workspaceList().stream().map(AttributeValue::fromS).toList());
            }
        }
        return aggregates.list(aggregate.aggregate(), aggregate.listing(list), key, limit, cursor, scope);
    }

    /**
     * A list by one of the root's own fields (an order's status) reads the path's value by that field's rules, as an
     * index listing does: a value the field cannot hold is a 400 naming it, before any call, not an empty page.
     */
    private static void checkByField(DeclaredAggregate aggregate, String list, String key) {
        aggregate.model().lists().stream().filter(l -> l.name().equals(list)).findFirst()
                .map(l -> aggregate.model().byField(l))
                .ifPresent(field -> {
                    var values = new LinkedHashMap<String, Object>();
                    values.put(field.name(), key);
                    DocJson.valid(List.of(field), values, true);
                });
    }

    /** The members of one type that copy an entity: ONE Query of its copies' partition (the entity's ref index). */
    public Uni<Page<Map<String, Object>>> appearances(DeclaredAggregate aggregate, String name, String id, int limit,
                                                      String cursor) {
        if (aggregate.model().access().tenant() != null) {
            // its members' aggregates belong to every tenant: an admin of every workspace's (the route needs the role)
            Caller.current().requireAllWorkspaces("where " + aggregate.name() + " members appear");
        }
        Appearances found = aggregate.model().appearances().stream().filter(a -> a.name().equals(name)).findFirst()
                .orElseThrow();
        Aggregate engine = aggregate.aggregate();
        return store.page(aggregate.appearancesQuery(found, id, limit), cursor)
                .map(page -> page.map(item -> appearance(found, engine.foundMember(item))));
    }

    private static Map<String, Object> appearance(Appearances found, FoundMember member) {
        var out = new LinkedHashMap<String, Object>();
        found.fields().forEach((field, source) -> {
            Object value;
            if (source.equals("id")) {
                value = member.aggregateId();
            } else if (member.context().containsKey(source)) {
                value = member.context().get(source);
            } else if (member.discriminator().containsKey(source)) {
                value = member.discriminator().get(source);
            } else {
                AttributeValue attribute = member.item().get(source);
                value = attribute == null ? null : JsonAttributes.fromAttribute(attribute);
            }
            out.put(field, value);
        });
        return out;
    }

    /**
     * Every item that embeds a whole copy of an entity, with the source version of each copy it holds: ONE Query of
     * the entity's ref index per page.
     */
    public Uni<Page<Map<String, Object>>> references(DeclaredEntity entity, String id, int limit, String cursor) {
        if (copiedAcrossTenants(entity)) {
            // the copies live in aggregates of every tenant: an admin of every workspace's (the route needs the role)
            Caller.current().requireAllWorkspaces("where copies of " + entity.name() + " live");
        }
        CopiesModel copies = entity.model().copies();
        QuerySpec query = QuerySpec.on(copies.index(), copies.partitionOf(id)).limit(limit).build();
        return store.page(query, cursor).map(page -> page.map(item -> reference(entity.name(), item)));
    }

    /** Whether a tenant-scoped aggregate holds copies of the entity (its references then span tenants). */
    private boolean copiedAcrossTenants(DeclaredEntity entity) {
        return models.plan().aggregates().stream().anyMatch(a -> a.model().access().tenant() != null
                && a.model().referencedEntities().contains(entity.name()));
    }

    private static Map<String, Object> reference(String entity, Map<String, AttributeValue> item) {
        PrimaryKey key = PrimaryKey.from(item);
        var out = new LinkedHashMap<String, Object>();
        out.put("entityType", TableSpec.typeOf(item));
        out.put("pk", key.pk());
        out.put("sk", key.sk());
        out.put("copies", CopyVersions.copiesOf(item, entity));
        return out;
    }

    // --- writes -------------------------------------------------------------------------------------------------

    /**
     * A create: the input read and checked (fields, rules, groups) before any call; then the refs (ONE BatchGetItem)
     * and "the partition is empty" (ONE Query) side by side; then the write. A ref that changed before the write
     * committed makes the whole create run again (RefChanged).
     */
    public Uni<Versioned> create(DeclaredAggregate aggregate, String body) {
        Map<String, Object> in = DocJson.valid(aggregate.inputFields(), DocJson.object(body, false), false);
        String idField = aggregate.aggregate().idField();
        if (aggregate.model().softDelete() && DeclaredSoftDeletes.DELETED.equals(in.get(idField))) {
            // GET <collection>/deleted is the deleted listing: an aggregate of that id could never be read at its path
            throw Http.invalid(idField, "cannot be '" + DeclaredSoftDeletes.DELETED + "': "
                    + aggregate.model().deletedPath() + " lists the deleted ones");
        }
        requireWritable(aggregate, in);
        return createValid(aggregate, in, null, 1);
    }

    /** A create from an input's plain values (a demo input's). */
    public Uni<Versioned> create(DeclaredAggregate aggregate, Map<String, Object> input) {
        return createValid(aggregate, DocJson.valid(aggregate.inputFields(), input, false), null);
    }

    /** A restore's create: the tombstone it takes the aggregate from, the version deleted, and its creation time. */
    private record Restoring(PrimaryKey tombstone, long version, Instant createdAt, String what) {
    }

    /**
     * A create of an input validated once (a second pass over a large input would be work for nothing); or, with
     * {@code restoring}, a restore: at the version after the one deleted, with its creation time, the tombstone
     * deleted at its version and every unique value taken again (from the tombstone that kept it, or free) in the same
     * commit.
     */
    private Uni<Versioned> createValid(DeclaredAggregate aggregate, Map<String, Object> in, Restoring restoring) {
        return createValid(aggregate, in, restoring, 1);
    }

    private Uni<Versioned> createValid(DeclaredAggregate aggregate, Map<String, Object> given, Restoring restoring,
                                       int attempt) {
        Map<String, Object> in = withLists(aggregate.model().root(), given);
        DeclaredService.requireLiving(aggregate.model().ttl(), in, store.now());
        Aggregate engine = aggregate.aggregate();
        String id = (String) in.get(engine.idField());
        List<RefUse> refs = checked(engine, in);
        String writer = DeclaredService.writer();
        Uni<Optional<AggregateVersions.Newest>> newest = restoring == null ? newest(aggregate, id)
                : Uni.createFrom().item(Optional.empty());
        Uni<Versioned> created = entities.againOnCollision(Uni.combine().all()
                .unis(aggregates.resolve(refs, Map.of()), aggregates.requireEmpty(engine, id), newest)
                .asTuple().chain(all -> {
                    var resolved = all.getItem1();
                    var retained = all.getItem3().orElse(null);
                    long first = restoring != null ? restoring.version() + 1 : retained == null ? 1 : retained.last() + 1;
                    String tenantField = aggregate.model().access().tenant();
                    if (retained != null && retained.tenant() != null && tenantField != null
                            && !retained.tenant().equals(in.get(tenantField))) {
                        // the id's retained versions are another workspace's: the id stays theirs while they are kept
                        // (answered as an id taken by a live aggregate is, naming nothing of them)
                        throw new CairnException(new CairnError.Conflict(aggregate.name() + " " + id + " already exists"));
                    }
                    Instant now = store.now();
                    Instant createdAt = restoring == null ? now : restoring.createdAt();
                    Map<String, Object> view = engine.hydrate(in, resolved.copies());
                    Items items = engine.decompose(view, versions(resolved.copies()), first, createdAt, now);
                    requireHoldable(aggregate, items);
                    Plan plan = AggregateWrites.create(engine, items, now).guardedBy(resolved.sourceGuards());
                    plan = withHistory(aggregate, plan, null, view, first, createdAt, now, writer, null);
                    var more = new java.util.ArrayList<WriteAction>();
                    if (restoring == null) {
                        more.addAll(sentinels(aggregate, plan, null, in, now));
                        more.addAll(MemberSentinels.moved(aggregate.memberUnique(), null, items, now));
                        if (retained != null) {
                            // a delete committed after that read would have moved the tail: read again
                            more.add(retained.unchanged(plan.rootKey().pk(), aggregate.describe(id)));
                        }
                    } else {
                        more.add(WriteAction.delete("deleted " + restoring.what(), restoring.tombstone(),
                                WriteAction.Expectation.present(restoring.version())));
                        more.addAll(UniqueSentinels.restored(aggregate.name(), aggregate.model().unique(), plan.rootKey(),
                                restoring.tombstone(), in, now));
                        more.addAll(MemberSentinels.restored(aggregate.memberUnique(), items, restoring.tombstone(), now));
                    }
                    return aggregates.write(engine, plan.alongside(alongside(more, plan.alongside())), Map.of())
                            .map(done -> shown(aggregate, view, first, createdAt, now));
                }));
        created = created.onFailure(e -> attempt < 3 && e instanceof CairnException ce
                        && ce.error().detail() != null && ce.error().detail().startsWith("the retained versions of "))
                .recoverWithUni(() -> createValid(aggregate, in, restoring, attempt + 1));
        return restoring != null ? created : created.onFailure(e -> CairnException.is(e, CairnError.Conflict.class))
                .recoverWithUni(e -> shownConflict(aggregate, id, (CairnException) e));
    }

    /**
     * A create refused because the aggregate exists shows it as it is now, with its version, to a caller who may read
     * it: ONE Query more, on that refusal only (the create's own check reads which items the partition holds, not
     * the aggregate). Another tenant's aggregate, a partition without its root, or anything else leaves the refusal
     * as it was: nothing of it shown.
     */
    private Uni<Versioned> shownConflict(DeclaredAggregate aggregate, String id, CairnException refused) {
        if (!DeclaredRoutes.mayRead(aggregate.model().access())) {
            return Uni.createFrom().failure(refused);
        }
        return aggregates.read(aggregate.aggregate(), id).onFailure().recoverWithNull().chain(snapshot -> {
            var assembled = snapshot == null ? null : snapshot.assembled();
            if (assembled == null || !visible(aggregate, assembled.view())) {
                return Uni.createFrom().failure(refused);
            }
            return Uni.createFrom().failure(refused.withCurrent(shown(aggregate, assembled.view(), assembled.version(),
                    assembled.createdAt(), assembled.updatedAt()).view(), assembled.version()));
        });
    }

    /** A PUT: the whole input, its id from the path (the body may repeat it, not contradict it). */
    public Uni<Versioned> replace(DeclaredAggregate aggregate, String id, Long ifMatch, String body) {
        var given = new LinkedHashMap<>(DocJson.object(body, false));
        String idField = aggregate.aggregate().idField();
        Object named = given.get(idField);
        if (named != null && !named.equals(id)) {
            throw Http.invalid(idField, "the body names " + aggregate.describe("'" + named + "'") + " but the path names '"
                    + id + "'");
        }
        given.put(idField, id);
        Doc replacement = new Doc(DocJson.valid(aggregate.inputFields(), given, false));
        return update(aggregate, id, ifMatch, current -> replacement);
    }

    /** An RFC 6902 JSON Patch or an RFC 7396 merge patch of the input shape (refs by id); the id cannot change. */
    public Uni<Versioned> patch(DeclaredAggregate aggregate, String id, Long ifMatch, String contentType, String body) {
        Set<String> immutable = Set.of(aggregate.aggregate().idField());
        MergePatcher.Shape<Doc> shape = shape(aggregate);
        return update(aggregate, id, ifMatch, Offload.forBody(body,
                current -> patcher.apply(current, shape, body, immutable, contentType)));
    }

    /**
     * Reads the aggregate (1 Query), applies {@code change} to its input shape, and writes only the changed groups,
     * conditioned on the version read: a concurrent change is a 409, a stale If-Match a 412; no change, no write.
     */
    private Uni<Versioned> update(DeclaredAggregate aggregate, String id, Long ifMatch, UnaryOperator<Doc> change) {
        Aggregate engine = aggregate.aggregate();
        String writer = DeclaredService.writer();
        return entities.againOnCollision(readForWrite(aggregate, id, ifMatch).chain(snapshot -> Offload.apply(change,
                new Doc(engine.toInput(snapshot.assembled().view()))).chain(next -> {
            var current = snapshot.assembled();
            Map<String, Object> in = withLists(aggregate.model().root(), next.values());
            if (!id.equals(in.get(engine.idField()))) {
                throw Http.invalid(engine.idField(), "must be the " + aggregate.describe("id") + " '" + id + "'");
            }
            requireWritable(aggregate, in);
            List<RefUse> refs = checked(engine, in);
            return aggregates.resolve(refs, engine.copies(current.view(), current.refVersions())).chain(resolved -> {
                Map<String, Object> view = engine.hydrate(in, resolved.copies());
                Instant now = store.now();
                Items before = engine.decompose(current.view(), current.refVersions(), current.version(),
                        current.createdAt(), current.updatedAt());
                Items after = engine.decompose(view, versions(resolved.copies()), current.version() + 1,
                        current.createdAt(), now);
                requireHoldable(aggregate, after);
                var changes = Aggregate.diff(before, after);
                if (changes.isEmpty()) {
                    // Nothing changed: no write, and the version (the ETag) stays.
                    return Uni.createFrom().item(shown(aggregate, current.view(), current.version(), current.createdAt(),
                            current.updatedAt()));
                }
                Plan plan = AggregateWrites.update(engine, after, changes, current.version(), now)
                        .guardedBy(resolved.sourceGuards());
                plan = withHistory(aggregate, plan, current, view, current.version() + 1, current.createdAt(), now,
                        writer, null);
                plan = plan.alongside(alongside(alongside(sentinels(aggregate, plan, current.view(), in, now),
                        MemberSentinels.moved(aggregate.memberUnique(), before, after, now)), plan.alongside()));
                return aggregates.write(engine, plan, snapshot.bySk())
                        .map(done -> shown(aggregate, view, current.version() + 1, current.createdAt(), now));
            });
        })));
    }

    /**
     * Deletes every item of the aggregate at the version read; a partition that does not form the aggregate (its root
     * gone, members that do not fit) is cleaned whole instead: the way out of such a state.
     */
    public Uni<Void> delete(DeclaredAggregate aggregate, String id, Long ifMatch) {
        Aggregate engine = aggregate.aggregate();
        return readForWrite(aggregate, id, ifMatch)
                .onFailure(e -> CairnException.is(e, CairnError.AggregateAssemblyError.class)
                        && (aggregate.model().access().tenant() == null || Caller.current().allWorkspaces()))
                .recoverWithUni(() -> released(aggregate, id).chain(() -> aggregates.purge(engine, id))
                        .replaceWith((Snapshot) null))
                .chain(snapshot -> snapshot == null ? Uni.createFrom().voidItem() : deleteWhole(aggregate, snapshot));
    }

    private Uni<Void> deleteWhole(DeclaredAggregate aggregate, Snapshot snapshot) {
        Aggregate engine = aggregate.aggregate();
        var current = snapshot.assembled();
        Items items = engine.decompose(current.view(), current.refVersions(), current.version(),
                current.createdAt(), current.updatedAt());
        Instant now = store.now();
        Plan plan = AggregateWrites.delete(engine, items, current.version(), now);
        String by = DeclaredService.writer();
        plan = withHistory(aggregate, plan, current, null, 0, null, now, null, by);
        if (aggregate.model().history() != null) {
            // the tail: a new aggregate of the id numbers after this version, in this workspace only
            String tenantField = aggregate.model().access().tenant();
            plan = plan.alongside(alongside(List.of(AggregateVersions.tail(aggregate.model().history(), aggregate.name(),
                    plan.rootKey().pk(), current.version(), tenantField == null ? null
                            : (String) current.view().get(tenantField), now)), plan.alongside()));
        }
        if (!aggregate.model().softDelete()) {
            return aggregates.write(engine, plan.alongside(alongside(alongside(sentinels(aggregate, plan, current.view(),
                    null, now), MemberSentinels.moved(aggregate.memberUnique(), items, null, now)), plan.alongside())),
                    snapshot.bySk());
        }
        // soft: the whole aggregate kept as ONE tombstone in the delete's commit (refused while an older one of the
        // id waits), each unique value released or passed to the tombstone, as the constraint declares
        String id = engine.idOf(plan.rootKey().pk());
        String what = aggregate.describe(id);
        PrimaryKey tombstone = Tombstones.keyOf(plan.rootKey());
        String tenantField = aggregate.model().access().tenant();
        var more = new java.util.ArrayList<WriteAction>();
        more.add(WriteAction.putItem(tombstone, AggregateTombstones.of(aggregate.name(), plan.rootKey(), id, current,
                tenantField == null ? null : (String) current.view().get(tenantField), by, now),
                WriteAction.Expectation.ABSENT, "a deleted " + what));
        more.addAll(UniqueSentinels.softDeleted(aggregate.name(), aggregate.model().unique(), plan.rootKey(), tombstone,
                current.view(), now));
        more.addAll(MemberSentinels.softDeleted(aggregate.memberUnique(), items, tombstone, now));
        return aggregates.write(engine, plan.alongside(alongside(more, plan.alongside())), snapshot.bySk())
                // a twin delete that won took the aggregate away: this one answers as a delete of a missing one
                .onFailure(CairnException.class).recoverWithUni(e -> aggregates.read(engine, id)
                        .onFailure().recoverWithNull()
                        .chain(left -> Uni.createFrom().failure(left == null || left.assembled() == null
                                ? EntityService.notFound(what) : e)))
                .onFailure(e -> e instanceof CairnException ce && ce.error() instanceof CairnError.Conflict c
                        && c.detail().startsWith("a deleted ")).transform(e -> new CairnException(new CairnError.Conflict(
                        "a deleted " + what + " is waiting to be restored or purged: purge it before deleting this one")));
    }

    // --- soft delete: restore, purge, the deleted listing ---------------------------------------------------------

    /**
     * Brings a soft-deleted aggregate back as it was deleted, at its next version: 1 GetItem (the tombstone), then as a
     * create — its refs read again (ONE BatchGetItem: copies current, a ref deleted meanwhile a 422 RefNotFound), its
     * partition checked empty (409 Conflict when another aggregate took the id) — and ONE commit that also deletes the
     * tombstone at its version and takes every unique value again (409 UniqueViolation when another holds it).
     */
    public Uni<Versioned> restore(DeclaredAggregate aggregate, String id, Long ifMatch) {
        String what = aggregate.describe(id);
        return tombstone(aggregate, id, ifMatch).chain(tombstone -> {
            long version = AggregateTombstones.versionOf(tombstone);
            Aggregate engine = aggregate.aggregate();
            Map<String, Object> in = DocJson.valid(aggregate.inputFields(),
                    engine.toInput(AggregateTombstones.viewOf(tombstone)), false);
            requireWritable(aggregate, in);
            return createValid(aggregate, in, new Restoring(PrimaryKey.from(tombstone), version,
                    AggregateTombstones.createdAt(tombstone), what))
                    // refused because the id is live (restored by a twin, or a new aggregate took it): a 409 Conflict
                    // showing it as it is now to a caller who may read it, as a create of a taken id does
                    .onFailure(e -> e instanceof CairnException ce && (ce.error() instanceof CairnError.Conflict
                            || ce.error() instanceof CairnError.TransactionCanceled))
                    .recoverWithUni(e -> aggregates.read(engine, id).onFailure().recoverWithNull().chain(live ->
                            live == null || live.assembled() == null ? Uni.createFrom().failure(e)
                                    : shownConflict(aggregate, id, new CairnException(new CairnError.Conflict(what
                                    + " exists (restored or created meanwhile): delete it first to restore the deleted one")))));
        });
    }

    /** Removes a tombstone for good, with the unique values it kept: ONE transaction (one DeleteItem when it kept none). */
    public Uni<Void> purge(DeclaredAggregate aggregate, String id, Long ifMatch) {
        String what = aggregate.describe(id);
        return tombstone(aggregate, id, ifMatch).chain(tombstone -> {
            long version = AggregateTombstones.versionOf(tombstone);
            PrimaryKey key = PrimaryKey.from(tombstone);
            var actions = new java.util.ArrayList<WriteAction>();
            actions.add(WriteAction.delete("deleted " + what, key, WriteAction.Expectation.present(version)));
            actions.addAll(UniqueSentinels.purged(aggregate.name(), aggregate.model().unique(), key,
                    AggregateTombstones.viewOf(tombstone)));
            if (!aggregate.memberUnique().isEmpty()) {
                // the members' values the tombstone kept, read from the aggregate it holds
                actions.addAll(MemberSentinels.purged(aggregate.memberUnique(), aggregate.aggregate().decompose(
                        AggregateTombstones.viewOf(tombstone), Map.of(), version, AggregateTombstones.createdAt(tombstone),
                        AggregateTombstones.updatedAt(tombstone)), key));
            }
            return actions.size() == 1 ? store.write(actions.get(0)).replaceWithVoid()
                    : store.transact(dev.cairn.core.write.TransactionPlan.of(actions));
        });
    }

    /**
     * One page of the soft-deleted aggregates, newest deleted first: 1 Query of the deleted listing's index. A caller
     * scoped to some workspaces sees theirs only (a filter, bound into the cursor), as on the live lists.
     */
    public Uni<Page<Map<String, Object>>> deleted(DeclaredAggregate aggregate, int limit, String cursor) {
        var query = QuerySpec.on(Tombstones.LISTING, Tombstones.listing(aggregate.name(), null)).descending().limit(limit);
        if (aggregate.model().access().tenant() != null && !DeclaredSoftDeletes.callersOnly(query)) {
            return Uni.createFrom().item(new Page<>(List.of(), null));
        }
        return store.page(query.build(), cursor).map(page -> page.map(item -> deletedView(aggregate, item)));
    }

    /** A deleted aggregate as its listing answers it: the aggregate as it was, who deleted it when, and its version. */
    private static Map<String, Object> deletedView(DeclaredAggregate aggregate, Map<String, AttributeValue> tombstone) {
        var out = new LinkedHashMap<String, Object>();
        out.put("item", shown(aggregate, withLists(aggregate.model().root(), AggregateTombstones.viewOf(tombstone), true),
                AggregateTombstones.versionOf(tombstone),
                AggregateTombstones.createdAt(tombstone), AggregateTombstones.updatedAt(tombstone)).view());
        out.put("deletedAt", tombstone.get(Tombstones.DELETED_AT).s());
        out.put("deletedBy", tombstone.get(Tombstones.DELETED_BY).s());
        out.put("version", AggregateTombstones.versionOf(tombstone));
        return out;
    }

    /**
     * The tombstone of a deleted aggregate: 1 GetItem; 404 when there is none or it is not the caller's to see, 412 when
     * {@code ifMatch} (if given) names another version than the one deleted.
     */
    private Uni<Map<String, AttributeValue>> tombstone(DeclaredAggregate aggregate, String id, Long ifMatch) {
        String what = aggregate.describe(id);
        return store.getItem(Tombstones.keyOf(aggregate.aggregate().rootKey(id)), true).map(item -> {
            if (item == null || !AggregateTombstones.isTombstoneOf(item, aggregate.name())
                    || !visible(aggregate, AggregateTombstones.viewOf(item))) {
                throw EntityService.notFound("deleted " + what);
            }
            long version = AggregateTombstones.versionOf(item);
            if (ifMatch != null && ifMatch != version) {
                throw new CairnException(new CairnError.VersionConflict("deleted " + what + " is at version " + version
                        + ", not " + ifMatch, ifMatch, version, true));
            }
            return item;
        });
    }

    /**
     * Before a partition that does not form the aggregate is purged, the unique values its root (if any) holds are
     * given up: nothing else would ever free them. First, so that a new aggregate created under the same id after the
     * purge keeps what it takes (its sentinels name the same root key). 1 GetItem, and 1 transaction when it holds any.
     */
    private Uni<Void> released(DeclaredAggregate aggregate, String id) {
        var unique = aggregate.model().unique();
        if (!aggregate.memberUnique().isEmpty()) {
            return releasedWithMembers(aggregate, id);
        }
        if (unique.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        PrimaryKey root = aggregate.aggregate().rootKey(id);
        return store.getItem(root, true).chain(item -> {
            if (item == null) {
                return Uni.createFrom().voidItem();
            }
            var values = new HashMap<String, Object>();
            item.forEach((name, value) -> values.put(name, JsonAttributes.fromAttribute(value)));
            var releases = UniqueSentinels.actions(aggregate.name(), unique, root, values, null, store.now());
            return releases.isEmpty() ? Uni.createFrom().voidItem()
                    : store.transact(dev.cairn.core.write.TransactionPlan.of(releases));
        });
    }

    /**
     * As above where members hold unique values too: the partition read whole (1 Query per page) and every value its
     * items hold given up, each alone (a value another item holds is not theirs to give up: that refusal is passed by).
     */
    private Uni<Void> releasedWithMembers(DeclaredAggregate aggregate, String id) {
        Aggregate engine = aggregate.aggregate();
        PrimaryKey rootKey = engine.rootKey(id);
        return store.queryAll(engine.itemsQuery(id)).chain(items -> {
            var releases = new java.util.ArrayList<WriteAction>();
            items.stream().filter(i -> rootKey.sk().equals(i.get(dev.cairn.core.TableSpec.SK).s())).findFirst()
                    .ifPresent(root -> {
                        var values = new HashMap<String, Object>();
                        root.forEach((name, value) -> values.put(name, JsonAttributes.fromAttribute(value)));
                        releases.addAll(UniqueSentinels.actions(aggregate.name(), aggregate.model().unique(), rootKey,
                                values, null, store.now()));
                    });
            releases.addAll(MemberSentinels.released(aggregate.memberUnique(), items, rootKey));
            return releases.isEmpty() ? Uni.createFrom().voidItem()
                    : Uni.join().all(releases.stream().map(release -> store.write(release).replaceWithVoid()
                    .onFailure(CairnException.class).recoverWithNull()).toList()).andFailFast().replaceWithVoid();
        });
    }

    /**
     * For an aggregate that keeps history: the root marked with its writer, the version the write replaces kept as a
     * snapshot in the write's commit ({@code previous}, null for a create; a delete's names {@code deletedBy}), and
     * the new version checked to be keepable in its turn ({@code view}, null for a delete). Others: the plan as it is.
     */
    private static Plan withHistory(DeclaredAggregate aggregate, Plan plan, Aggregate.Assembled previous,
                                    Map<String, Object> view, long version, Instant createdAt, Instant now,
                                    String writer, String deletedBy) {
        var history = aggregate.model().history();
        if (history == null && !aggregate.model().softDelete()) {
            return plan;
        }
        String pk = plan.rootKey().pk();
        boolean timestamps = aggregate.model().timestamps();
        if (view != null) {
            // a version kept whole later (a snapshot, or a soft delete's tombstone) must fit one item
            AggregateVersions.requireKeepable(aggregate.name(), timestamps, pk, view, version, createdAt, now, writer);
            plan = history == null ? plan : plan.writtenBy(writer);
        }
        return previous == null || history == null ? plan : plan.alongside(AggregateVersions.snapshot(history,
                aggregate.name(), timestamps, pk, previous, now, deletedBy));
    }

    /** An input with every optional list it leaves out given as empty (at any depth): the engine reads lists whole. */
    static Map<String, Object> withLists(AggregateModel.Node node, Map<String, Object> in) {
        return withLists(node, in, false);
    }

    /**
     * The same, for every list ({@code all}): a view kept whole before a list was declared (a version, a tombstone)
     * answers it empty, as the aggregate's answer always holds its lists.
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> withLists(AggregateModel.Node node, Map<String, Object> in, boolean all) {
        Map<String, Object> out = in;
        for (AggregateModel.Child child : node.children()) {
            Object value = in.get(child.name());
            Object filled = value;
            if (child.kind() == AggregateModel.Kind.MANY && value == null && (all ? !in.containsKey(child.name())
                    : child.optional())) {
                filled = List.of();
            } else if (child.kind() == AggregateModel.Kind.MANY && value instanceof List<?> list) {
                // a new list only where an element changed: an input that leaves nothing out is passed on as it is
                java.util.ArrayList<Object> copy = null;
                for (int i = 0; i < list.size(); i++) {
                    Object element = list.get(i);
                    Object completed = element instanceof Map<?, ?> m
                            ? withLists(child.node(), (Map<String, Object>) m, all) : element;
                    if (completed != element) {
                        copy = copy == null ? new java.util.ArrayList<>(list) : copy;
                        copy.set(i, completed);
                    }
                }
                filled = copy == null ? value : copy;
            } else if ((child.kind() == AggregateModel.Kind.ONE || child.kind() == AggregateModel.Kind.PART)
                    && value instanceof Map<?, ?> map) {
                filled = withLists(child.node(), (Map<String, Object>) map, all);
            }
            if (filled != value) {
                if (out == in) {
                    out = new LinkedHashMap<>(in);
                }
                out.put(child.name(), filled);
            }
        }
        return out;
    }

    private static List<WriteAction> alongside(List<WriteAction> sentinels, List<WriteAction> more) {
        if (more.isEmpty()) {
            return sentinels;
        }
        var all = new java.util.ArrayList<>(sentinels);
        all.addAll(more);
        return all;
    }

    /**
     * Where it keeps history: the newest items of its id's versions (1 Query of at most two: the tail a delete left
     * and the newest snapshot). A new aggregate numbers its versions after them, so it never overwrites one, and
     * takes the id only in the workspace they belong to.
     */
    private Uni<Optional<AggregateVersions.Newest>> newest(DeclaredAggregate aggregate, String id) {
        if (aggregate.model().history() == null) {
            return Uni.createFrom().item(Optional.empty());
        }
        return store.page(AggregateVersions.newest(aggregate.aggregate().partitionOf(id)), null)
                .map(page -> page.items().isEmpty() ? Optional.empty()
                        : Optional.of(AggregateVersions.Newest.of(page.items(), aggregate.model().access().tenant())));
    }

    /**
     * The root's unique values moved from {@code before} (null: a create) to {@code after} (null: a delete): sentinel
     * puts and deletes owned by the root, committed in the write's commit transaction with the root itself.
     */
    private static List<WriteAction> sentinels(DeclaredAggregate aggregate, Plan plan, Map<String, Object> before,
                                               Map<String, Object> after, Instant now) {
        var unique = aggregate.model().unique();
        return unique.isEmpty() ? List.of()
                : UniqueSentinels.actions(aggregate.name(), unique, plan.rootKey(), before, after, now);
    }

    /**
     * An aggregate may hold no more members' unique values than its delete can move in ONE commit with its root's
     * values, its tombstone, its last version and its tail: refused before anything is sent (422), never a live
     * aggregate that could not be deleted.
     */
    private static void requireHoldable(DeclaredAggregate aggregate, Items items) {
        if (!aggregate.memberUnique().isEmpty()) {
            MemberSentinels.requireHoldable(aggregate.name(), aggregate.memberUnique(), items,
                    AggregateWrites.MAX_ALONGSIDE - DELETE_COMMIT_ACTIONS - aggregate.model().unique().size());
        }
    }

    /** What a delete's commit holds beside the values: a tombstone, the version deleted, the one out of a window, the tail. */
    static final int DELETE_COMMIT_ACTIONS = 4;

    private Uni<Snapshot> readForWrite(DeclaredAggregate aggregate, String id, Long ifMatch) {
        String what = aggregate.describe(id);
        return hidingDamaged(aggregate, id, aggregates.readForWrite(aggregate.aggregate(), id))
                .onItem().ifNull().failWith(() -> EntityService.notFound(what))
                .invoke(snapshot -> {
                    if (snapshot.assembled() == null) {
                        throw EntityService.notFound(what);
                    }
                    requireVisible(aggregate, id, snapshot.assembled().view());
                    long version = snapshot.assembled().version();
                    if (ifMatch != null && ifMatch != version) {
                        // a stale If-Match answers the aggregate as read (no extra call) to a caller who may read it
                        var stale = new CairnException(new CairnError.VersionConflict(what + " is at version " + version
                                + ", not " + ifMatch, ifMatch, version, true));
                        var assembled = snapshot.assembled();
                        throw DeclaredRoutes.mayRead(aggregate.model().access()) ? stale.withCurrent(shown(aggregate, assembled.view(), version,
                                assembled.createdAt(), assembled.updatedAt()).view(), version) : stale;
                    }
                });
    }

    /**
     * Everything that needs no I/O: the aggregate's rules, then a dry decomposition with placeholder copies, which
     * finds duplicate members and transaction groups that can never fit before a single call is made.
     */
    private static List<RefUse> checked(Aggregate engine, Map<String, Object> in) {
        engine.checkRules(in);
        List<RefUse> refs = engine.refs(in);
        var placeholders = new HashMap<String, RefCopy>();
        refs.forEach(use -> placeholders.put(Aggregate.refKey(use.ref(), use.id()), new RefCopy(Map.of("id", use.id()), 0)));
        Instant now = Instant.EPOCH; // a dry run: the decomposition's shape does not depend on the time
        AggregateWrites.create(engine, engine.decompose(engine.hydrate(in, placeholders), Map.of(), 1, now, now));
        return refs;
    }

    private static Map<String, Long> versions(Map<String, RefCopy> resolved) {
        var versions = new HashMap<String, Long>();
        resolved.forEach((key, copy) -> versions.put(key, copy.version()));
        return versions;
    }
}
