package dev.cairn.declared;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.entity.Stored;
import dev.cairn.core.job.Job;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.model.DeclaredEntity;
import dev.cairn.core.model.Doc;
import dev.cairn.core.model.UniqueModel;
import dev.cairn.core.write.TransactionPlan;
import dev.cairn.core.write.UniqueSentinels;
import dev.cairn.core.write.WriteAction;
import dev.cairn.core.write.WriteAction.Expectation;
import dev.cairn.jobs.Backfills;
import dev.cairn.store.EntityStore;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The backfill of an entity's unique values ({@value Job#UNIQUE_BACKFILL}): items stored before a constraint was
 * declared hold their value without its sentinel, so another item could take it. Per Scan page of the entity's items,
 * ONE strongly consistent BatchGetItem of the sentinels their values need, then for each one missing ONE
 * TransactWriteItems: the item at the version read (a write that slipped in between took its own values: the item is
 * read again) and the sentinel put while it is free or already the item's. A value another item holds is left to it
 * and reported (the item, the constraint, the holder's key) for an admin to settle. Live items only: a soft-deleted
 * item's kept values are not backfilled.
 */
@ApplicationScoped
public class DeclaredUniqueBackfills implements Backfills.Kind {

    /** A read or write that changed under the backfill is tried again this many times before it is reported. */
    private static final int ATTEMPTS = 3;

    @Inject EntityStore store;
    @Inject DeclaredModels models;

    /** What one value of the item at {@code owner} came to. */
    private record Result(PrimaryKey owner, boolean taken, boolean own, Map<String, String> failure) {
        static Result taken(PrimaryKey owner) {
            return new Result(owner, true, false, null);
        }

        static Result own(PrimaryKey owner) {
            return new Result(owner, false, true, null);
        }

        static Result failed(PrimaryKey owner, String id, UniqueModel constraint, String reason) {
            var out = new LinkedHashMap<String, String>();
            out.put("id", id);
            out.put("constraint", constraint.name());
            out.put("reason", reason);
            return new Result(owner, false, false, out);
        }
    }

    /** One value an item should hold: the item, its constraint and the sentinel's key. */
    private record Value(Map<String, AttributeValue> item, UniqueModel constraint, PrimaryKey sentinel) {
    }

    @Override
    public String kind() {
        return Job.UNIQUE_BACKFILL;
    }

    @Override
    public Map<String, AttributeValue> target(String name) {
        DeclaredEntity entity = entity(name);
        return entity == null ? null : Map.of("entity", AttributeValue.fromS(entity.name()));
    }

    @Override
    public Backfills.Pager pager(Job job) {
        DeclaredEntity entity = entity(job.target().get("entity").s());
        return entity == null ? null : (start, limit) -> page(entity, start, limit);
    }

    private DeclaredEntity entity(String name) {
        DeclaredEntity entity = models.plan().entity(name);
        return entity == null || entity.model().unique().isEmpty() ? null : entity;
    }

    private Uni<Backfills.Outcome> page(DeclaredEntity entity, Map<String, AttributeValue> start, int limit) {
        return store.scanPage(entity.spec().type(), null, limit, start).chain(page -> {
            var items = page.items().stream().filter(entity.spec()::isTypeOf).toList();
            var values = new ArrayList<Value>();
            items.forEach(item -> values.addAll(values(entity, item)));
            // the sentinel of each value, in the values' order
            return store.batchGet(values.stream().map(Value::sentinel).toList(), true).chain(sentinels ->
                    Multi.createFrom().range(0, values.size())
                            .onItem().transformToUni(i -> take(entity, values.get(i), sentinels.get(i), 1)).merge(4)
                            .collect().asList()).map(results -> {
                int taken = (int) results.stream().filter(Result::taken).count();
                var failures = results.stream().map(Result::failure).filter(f -> f != null).toList();
                // an item is unchanged when every value it holds was its own already
                int unchanged = items.size() - (int) results.stream().filter(r -> !r.own()).map(Result::owner).distinct().count();
                return new Backfills.Outcome(items.size(), taken, unchanged, failures, page.lastKey());
            });
        });
    }

    /** The sentinels an item's values need (a value left empty needs none). */
    private static List<Value> values(DeclaredEntity entity, Map<String, AttributeValue> item) {
        Doc doc = entity.spec().fromItem(item).value();
        var out = new ArrayList<Value>();
        for (UniqueModel constraint : entity.model().unique()) {
            constraint.sentinel(entity.name(), doc.values()).ifPresent(key -> out.add(new Value(item, constraint, key)));
        }
        return out;
    }

    /** Takes one value for its item, unless it is the item's already or another's. */
    private Uni<Result> take(DeclaredEntity entity, Value value, Map<String, AttributeValue> sentinel, int attempt) {
        PrimaryKey owner = PrimaryKey.from(value.item());
        String id = entity.spec().fromItem(value.item()).value().text(entity.model().idField());
        if (sentinel != null) {
            boolean own = owner.pk().equals(text(sentinel, UniqueSentinels.OWNER_PK))
                    && owner.sk().equals(text(sentinel, UniqueSentinels.OWNER_SK));
            return Uni.createFrom().item(own ? Result.own(owner) : Result.failed(owner, id, value.constraint(), "held by the item at "
                    + text(sentinel, UniqueSentinels.OWNER_PK) + " / " + text(sentinel, UniqueSentinels.OWNER_SK)));
        }
        Stored<Doc> current = entity.spec().fromItem(value.item());
        var actions = new ArrayList<WriteAction>();
        actions.add(WriteAction.check(entity.name() + " " + id, owner, Expectation.present(current.version())));
        try {
            actions.addAll(UniqueSentinels.actions(entity.name(), List.of(value.constraint()), owner, null,
                    current.value().values(), store.now()));
        } catch (CairnException e) {
            // stored before the rule: blank once compared, or with control characters — no value to take
            if (CairnException.is(e, CairnError.ValidationFailed.class)) {
                return Uni.createFrom().item(Result.failed(owner, id, value.constraint(), "its value is "
                        + "not one a unique value can be (blank once compared, or with control characters)"));
            }
            throw e;
        }
        return store.transact(TransactionPlan.of(actions)).replaceWith(Result.taken(owner))
                .onFailure(e -> CairnException.is(e, CairnError.UniqueViolation.class))
                .recoverWithItem(() -> Result.failed(owner, id, value.constraint(), "taken by another item meanwhile"))
                .onFailure(CairnException.class).recoverWithUni(e -> attempt >= ATTEMPTS
                        ? Uni.createFrom().item(Result.failed(owner, id, value.constraint(), "the item kept changing: run the "
                        + "backfill again"))
                        // the item changed (or went) since the Scan read it: its own write moved its values, so the
                        // value it holds now is the one to take
                        : store.getItem(owner, true).chain(now -> {
                            if (now == null || !entity.spec().isTypeOf(now)) {
                                return Uni.createFrom().item(Result.own(owner));
                            }
                            var again = values(entity, now).stream()
                                    .filter(v -> v.constraint().name().equals(value.constraint().name())).findFirst();
                            return again.isEmpty() ? Uni.createFrom().item(Result.own(owner))
                                    : store.getItem(again.get().sentinel(), true)
                                    .chain(held -> take(entity, again.get(), held, attempt + 1));
                        }));
    }

    private static String text(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null ? null : value.s();
    }

    @Override
    public Map<String, Object> view(Job job) {
        var out = new LinkedHashMap<String, Object>();
        out.put("id", job.id());
        out.put("kind", job.kind());
        out.put("entity", job.target().get("entity").s());
        out.put("state", job.state().wire());
        out.put("pages", job.progress().pages());
        out.put("items", job.progress().matched());
        out.put("taken", job.progress().updated());
        out.put("unchanged", job.progress().skipped());
        out.put("failed", job.progress().failed());
        out.put("failures", job.progress().failedKeys());
        out.put("createdAt", job.createdAt() == null ? null : job.createdAt().toString());
        out.put("finishedAt", job.finishedAt() == null ? null : job.finishedAt().toString());
        return out;
    }
}
