package dev.cairn.declared;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.entity.DeleteMark;
import dev.cairn.core.entity.Stored;
import dev.cairn.core.entity.Tombstones;
import dev.cairn.core.expr.Condition;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.model.DeclaredEntity;
import dev.cairn.core.model.Doc;
import dev.cairn.core.model.EntityModel;
import dev.cairn.core.model.RefModel;
import dev.cairn.core.query.Page;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.core.write.TransactionPlan;
import dev.cairn.core.write.VersionSnapshots;
import dev.cairn.core.write.UniqueSentinels;
import dev.cairn.core.write.WriteAction;
import dev.cairn.core.write.WriteAction.Expectation;
import dev.cairn.declared.DeclaredService.Address;
import dev.cairn.platform.auth.Caller;
import dev.cairn.service.EntityService;
import dev.cairn.store.EntityStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Soft delete of a declared entity ({@code softDelete: true}). Every write is ONE transaction, so a process killed at
 * any instant leaves the item either live or a tombstone, never both and never neither, and its sentinels with it:
 * <ul>
 *   <li>delete: 1 GetItem (the item, to keep it), then ONE transaction: the item deleted at the version read, its
 *       tombstone put ({@link Tombstones}: refused while an older tombstone of the id waits), each unique value
 *       released or passed to the tombstone;</li>
 *   <li>restore: 1 GetItem (the tombstone), 1 BatchGetItem of what it refers to (when it refers to anything), then ONE
 *       transaction: the item put back only if its key is free (409 Conflict), at the next version with its index
 *       keys and its copies taken fresh (each copy's source guarded at the version read), its refs checked, every
 *       unique value taken again (409 UniqueViolation when another item holds it), the tombstone deleted;</li>
 *   <li>purge: 1 GetItem (the tombstone), 1 Query per kind of dependent (limit 1: the dependents rule of a hard
 *       delete, 409 StillReferenced), then the tombstone deleted with the values it kept, in ONE transaction (one
 *       DeleteItem when it kept none);</li>
 *   <li>the deleted listing: 1 Query of {@link Tombstones#LISTING}, newest deleted first, a page at a time.</li>
 * </ul>
 */
@ApplicationScoped
public class DeclaredSoftDeletes {

    /** The literal segment of the deleted listing, which no item's id may be. */
    public static final String DELETED = "deleted";

    @Inject EntityStore store;
    @Inject EntityService entities;
    @Inject DeclaredService service;
    @Inject DeclaredModels models;

    /** A deleted item as its listing answers it: the item as it was, who deleted it when, and its version. */
    public Map<String, Object> deletedView(DeclaredEntity entity, Map<String, AttributeValue> tombstone) {
        var deletion = Tombstones.deletion(tombstone);
        var out = new LinkedHashMap<String, Object>();
        out.put("item", service.view(entity, entity.spec().fromItem(Tombstones.item(tombstone))));
        out.put("deletedAt", deletion.at().toString());
        out.put("deletedBy", deletion.by());
        // the version deleted: what If-Match names to restore or purge exactly this
        out.put("version", dev.cairn.core.entity.EntitySpec.versionOf(tombstone));
        return out;
    }

    // --- delete ---------------------------------------------------------------------------------------------------

    /** Moves the item to its tombstone (the caller's rights on the item were checked by the delete). */
    public Uni<Void> delete(DeclaredEntity entity, Address address, Long ifMatch) {
        String what = service.what(entity, address);
        var visible = DeclaredService.visibleAt(entity, address);
        PrimaryKey key = entity.key(address.identity());
        String by = Caller.current().subject();
        return entities.againOnConflict(store.getItem(key, true).chain(item -> {
            if (item == null || !entity.spec().isTypeOf(item)) {
                throw EntityService.notFound(what);
            }
            Stored<Doc> current = entity.spec().fromItem(item);
            if (!visible.test(current.value())) {
                throw EntityService.notFound(what);
            }
            EntityService.requireVersion(entity.spec(), current, ifMatch, what);
            Instant now = store.now();
            EntityModel model = entity.model();
            PrimaryKey tombstone = Tombstones.keyOf(key);
            var actions = new ArrayList<WriteAction>();
            actions.add(WriteAction.delete(what, key, Expectation.present(current.version())));
            actions.add(WriteAction.putItem(tombstone, Tombstones.of(item, model.name(), scope(model, address.identity()),
                    address.id(), tenant(model, current.value()), by, now), Expectation.ABSENT, "a deleted " + what));
            actions.addAll(UniqueSentinels.softDeleted(model.name(), model.unique(), key, tombstone,
                    current.value().values(), now));
            if (model.history() != null) {
                // its last version is kept as a hard delete keeps it, marked with who deleted it: a restore then
                // writes the next version, and the versions go on without a gap
                actions.addAll(VersionSnapshots.snapshot(model.history(), model.name(), item, now, by));
            }
            return transact(actions);
        }), ifMatch).onFailure(e -> e instanceof CairnException ce && ce.error() instanceof CairnError.Conflict c
                && c.detail().startsWith("a deleted ")).transform(e -> new CairnException(new CairnError.Conflict(
                "a deleted " + what + " is waiting to be restored or purged: purge it before deleting this one")));
    }

    // --- restore --------------------------------------------------------------------------------------------------

    /** Brings the item back as it was, at its next version, with fresh copies; the table is unchanged on a refusal. */
    public Uni<Stored<Doc>> restore(DeclaredEntity entity, Address address, String parameter, Long ifMatch) {
        DeclaredService.actOn(entity, address, parameter);
        String what = service.what(entity, address);
        EntityModel model = entity.model();
        PrimaryKey key = entity.key(address.identity());
        PrimaryKey tombstoneKey = Tombstones.keyOf(key);
        return entities.againOnCollision(tombstone(entity, address, what).chain(tombstone -> {
            Stored<Doc> was = entity.spec().fromItem(Tombstones.item(tombstone));
            long version = dev.cairn.core.entity.EntitySpec.versionOf(tombstone);
            EntityService.requireVersion(entity.spec(), was, ifMatch, "deleted " + what);
            var refs = new ArrayList<RefModel>();
            if (model.parent() != null && model.parent().entity() != null) {
                refs.add(model.parent());
            }
            refs.addAll(model.refs());
            List<PrimaryKey> keys = refs.stream().map(ref -> service.target(ref).key(List.of(was.value().text(ref.field()))))
                    .toList();
            return store.batchGet(keys, true).chain(found -> {
                Instant now = store.now();
                var values = new LinkedHashMap<>(was.value().values());
                var versions = new LinkedHashMap<String, Long>();
                var actions = new ArrayList<WriteAction>();
                for (int i = 0; i < refs.size(); i++) {
                    RefModel ref = refs.get(i);
                    DeclaredEntity target = service.target(ref);
                    String id = was.value().text(ref.field());
                    Map<String, AttributeValue> item = found.get(i);
                    if (item == null || !target.spec().isTypeOf(item) || DeleteMark.live(item, now)) {
                        throw service.refNotFound(ref, id);
                    }
                    if (ref.copies().isEmpty()) {
                        actions.add(service.existenceCheck(ref, was.value(), now));
                        continue;
                    }
                    // the copies as the source is now: a restored item never shows a title renamed meanwhile
                    Stored<Doc> source = target.spec().fromItem(item);
                    ref.copies().forEach((copy, field) -> values.put(copy, source.value().get(field)));
                    versions.put(ref.field(), source.version());
                    actions.add(WriteAction.copiedSource(target.name(), id, keys.get(i), source.version(), now));
                }
                Doc doc = new Doc(DeclaredService.ordered(model, values));
                var item = new HashMap<>(entity.spec().toItem(doc, version + 1, was.createdAt(), now));
                item.putAll(entity.copyVersions(versions));
                if (model.history() != null) {
                    item.putAll(VersionSnapshots.writer(DeclaredService.writer()));
                }
                actions.add(0, WriteAction.putItem(key, item, Expectation.ABSENT, what));
                actions.add(1, WriteAction.delete("deleted " + what, tombstoneKey, Expectation.present(version)));
                actions.addAll(UniqueSentinels.restored(model.name(), model.unique(), key, tombstoneKey, doc.values(), now));
                return transact(actions)
                        .onFailure(e -> CairnException.is(e, CairnError.NotFound.class)).transform(e -> {
                            // a ref's check refused: the ref it names is gone (a restore's body is the tombstone)
                            for (RefModel ref : refs) {
                                String id = was.value().text(ref.field());
                                if (((CairnException) e).error().detail().equals(service.target(ref).describe(List.of(id))
                                        + " does not exist")) {
                                    return service.refNotFound(ref, id);
                                }
                            }
                            return e;
                        })
                        .replaceWith(new Stored<>(entity.spec().asStored(doc), key, version + 1, was.createdAt(), now));
            });
        }));
    }

    // --- purge ----------------------------------------------------------------------------------------------------

    /** Removes the tombstone for good, with the values it kept; refused while anything depends on the id. */
    public Uni<Void> purge(DeclaredEntity entity, Address address, String parameter, Long ifMatch) {
        DeclaredService.actOn(entity, address, parameter);
        String what = service.what(entity, address);
        EntityModel model = entity.model();
        var dependents = models.plan().dependents(entity.name());
        // what depends on the id: live items (edges, children, copies) and the tombstones of deleted children, which
        // a purge would otherwise leave behind, restorable under a later item of the same id
        var queries = new ArrayList<QuerySpec>(dependents == null ? List.of() : dependents.apply(address.id()));
        String scope = String.join("#", address.identity());
        models.plan().entities().stream().map(DeclaredEntity::model)
                .filter(child -> child.softDelete() && child.parent() != null && entity.name().equals(child.parent().entity()))
                .forEach(child -> queries.add(QuerySpec.on(Tombstones.LISTING, Tombstones.listing(child.name(), scope))
                        .limit(1).build()));
        return entities.againOnConflict(tombstone(entity, address, what).chain(tombstone -> {
            Stored<Doc> was = entity.spec().fromItem(Tombstones.item(tombstone));
            EntityService.requireVersion(entity.spec(), was, ifMatch, "deleted " + what);
            // once the id is live again, what depends on it is the live item's: nothing holds the old one back
            Uni<Integer> count = queries.isEmpty() ? Uni.createFrom().item(0)
                    : store.getItem(entity.key(address.identity()), true).chain(live -> live != null
                            ? Uni.createFrom().item(0)
                            : Uni.join().all(queries.stream().map(q -> store.page(q.withLimit(1), null)).toList())
                            .andFailFast().map(pages -> pages.stream().mapToInt(p -> p.items().size()).sum()));
            return count.chain(found -> {
                if (found > 0) {
                    throw new CairnException(new CairnError.StillReferenced("deleted " + what + " is still referenced by "
                            + found + " item(s) (at least one of each kind): it cannot be purged", found));
                }
                PrimaryKey tombstoneKey = PrimaryKey.from(tombstone);
                var actions = new ArrayList<WriteAction>();
                actions.add(WriteAction.delete("deleted " + what, tombstoneKey,
                        Expectation.present(dev.cairn.core.entity.EntitySpec.versionOf(tombstone))));
                actions.addAll(UniqueSentinels.purged(model.name(), model.unique(), tombstoneKey, was.value().values()));
                return actions.size() == 1 ? store.write(actions.get(0)) : transact(actions);
            });
        }), ifMatch);
    }

    // --- the deleted listing --------------------------------------------------------------------------------------

    /**
     * One page of the deleted items of a collection (its parent's, for a child), newest deleted first: 1 Query of the
     * listing index. Where the collection mixes tenants a scoped caller's page holds its own tenants' items only (a
     * filter, bound into the cursor), as the live index listings.
     */
    public Uni<Page<Map<String, Object>>> list(DeclaredEntity entity, List<String> pathIds, int limit, String cursor) {
        EntityModel model = entity.model();
        var query = QuerySpec.on(Tombstones.LISTING, Tombstones.listing(model.name(), scope(model, pathIds, pathIds.size())))
                .descending().limit(limit);
        String tenant = model.access().tenant();
        int tenantAt = tenant == null ? -1 : model.identity().indexOf(tenant);
        if (tenant != null && !(tenantAt >= 0 && tenantAt < pathIds.size()) && !callersOnly(query)) {
            return Uni.createFrom().item(new Page<>(List.of(), null));
        }
        return store.page(query.build(), cursor).map(page -> page.map(item -> deletedView(entity, item)));
    }

    /**
     * A deleted listing that mixes tenants, kept to the caller's workspaces (a filter on the tombstones' tenant, bound
     * into the cursor); false when the caller has none, and the page is empty without a call.
     */
    static boolean callersOnly(dev.cairn.core.query.QuerySpec.Builder query) {
        Caller caller = Caller.current();
        if (caller.allWorkspaces()) {
            return true;
        }
        if (caller.workspaceList().isEmpty()) {
            return false;
        }
        query.filter(Condition.in(Tombstones.TENANT, caller.workspaceList().stream().map(AttributeValue::fromS).toList()));
        return true;
    }

    // --- helpers --------------------------------------------------------------------------------------------------

    /**
     * ONE transaction whose first action is the write's own item. When a racing twin (the same delete, restore or
     * purge) won, that item's condition failed and so did the tombstone's beside it: the item's failure is the answer
     * (a delete reads again and finds nothing, a restore meets the item restored), not a list of internal actions.
     */
    private Uni<Void> transact(List<WriteAction> actions) {
        return store.transact(TransactionPlan.of(actions)).onFailure(e -> ownFailure(e) != null)
                .transform(e -> new CairnException(actions.get(0).explainFailure(ownFailure(e).oldItem()), e));
    }

    private static CairnError.ActionFailure ownFailure(Throwable e) {
        if (!(e instanceof CairnException ce && ce.error() instanceof CairnError.TransactionCanceled canceled)
                || !canceled.failures().stream().allMatch(f -> "ConditionalCheckFailed".equals(f.reason()))) {
            return null;
        }
        return canceled.failures().stream().filter(f -> f.index() == 0).findFirst().orElse(null);
    }

    /** The tombstone of the addressed item (404 when there is none, or it is not the caller's to see). */
    private Uni<Map<String, AttributeValue>> tombstone(DeclaredEntity entity, Address address, String what) {
        var visible = DeclaredService.visibleAt(entity, address);
        return store.getItem(Tombstones.keyOf(entity.key(address.identity())), true).map(item -> {
            if (item == null || !Tombstones.isTombstone(item)
                    || !visible.test(entity.spec().fromItem(Tombstones.item(item)).value())) {
                throw EntityService.notFound("deleted " + what);
            }
            return item;
        });
    }

    /** The deleted listing's scope: the ids before the item's own (a child's parent id), null for none. */
    private static String scope(EntityModel model, List<String> identity) {
        return scope(model, identity, identity.size() - 1);
    }

    private static String scope(EntityModel model, List<String> ids, int count) {
        return count <= 0 ? null : String.join("#", ids.subList(0, count));
    }

    private static String tenant(EntityModel model, Doc doc) {
        String tenant = model.access().tenant();
        return tenant == null ? null : doc.text(tenant);
    }
}
