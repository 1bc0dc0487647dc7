package dev.cairn.declared;

import dev.cairn.core.NaturalIndex;
import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.cascade.CascadeSpec;
import dev.cairn.core.expr.builder.AttributeType;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.model.DeclaredAggregate;
import dev.cairn.core.model.DeclaredEntity;
import dev.cairn.core.model.Doc;
import dev.cairn.core.model.DomainModel;
import dev.cairn.core.model.DomainPlan;
import dev.cairn.core.model.EntityModel;
import dev.cairn.core.model.FieldModel;
import dev.cairn.core.model.NaturalIndexModel;
import dev.cairn.core.model.OperationModel.Op;
import dev.cairn.core.model.ViewModel;
import dev.cairn.core.query.AccessPattern;
import dev.cairn.platform.AccessPatterns;
import dev.cairn.platform.AllowedMethods;
import dev.cairn.platform.Http;
import dev.cairn.platform.auth.Caller;
import dev.cairn.platform.auth.DeclaredAccess;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.PreventFurtherStepsException;
import io.quarkus.runtime.Startup;
import org.jboss.logging.Logger;
import dev.cairn.core.model.ModelException;
import dev.cairn.core.model.ModelReader;
import jakarta.inject.Singleton;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The declared domains: every model file on the class path, read once at start (a broken file stops the start with
 * its file, line and field), served by {@link DeclaredResource}, and known to the rest of Cairn as one more
 * {@link AccessPatterns}: its access patterns, console partitions and cascades sit beside the hand-written ones.
 * Read before any other step of the start (priority 0): a broken file stops it before a DynamoDB call is begun, so
 * no call cut off by the shutdown is logged beside its error.
 */
@Singleton
@Startup(0)
public class DeclaredModels implements AccessPatterns {

    private final DomainPlan plan;
    private final DeclaredRoutes routes;
    private final List<KeyTemplate> tenantPartitions;

    private static final Logger LOG = Logger.getLogger(DeclaredModels.class);

    public DeclaredModels() {
        try {
            var config = org.eclipse.microprofile.config.ConfigProvider.getConfig();
            this.plan = ModelFiles.plan(Thread.currentThread().getContextClassLoader(),
                    setting -> config.getOptionalValue(setting, Integer.class).orElse(null));
        } catch (ModelException e) {
            // The one line that says what to fix, before the start fails (in dev mode: fix the file, send a request).
            LOG.error("a model file cannot be served: " + e.getMessage());
            if (LaunchMode.current() == LaunchMode.NORMAL) {
                // A failed start whose root cause is a PreventFurtherStepsException with a message: Quarkus prints that
                // message alone and exits with its code, where any other cause is logged again as an ERROR with its
                // stack trace. Thrown as a cause: thrown bare, the start would stop quietly and the process stay up.
                // Dev mode and tests keep the model's own exception (dev mode's error page shows it).
                throw new IllegalStateException(e.getMessage(), new PreventFurtherStepsException(
                        "Cairn did not start: a model file cannot be served (the ERROR above says which and why)", 1));
            }
            throw e;
        }
        this.routes = new DeclaredRoutes(plan);
        this.tenantPartitions = tenantPartitions(plan);
        AllowedMethods.declared(path -> routes.methodsOn(DeclaredRoutes.segments(path)));
        DeclaredAccess.rules(this::rule);
    }

    /**
     * What the declared route of this method and path needs (its role, the tenant its path names); OPTIONS of a declared
     * path is a read; null when no declared route serves it (the resource answers 404 or 405).
     */
    private DeclaredAccess.Rule rule(String method, String path) {
        var parts = DeclaredRoutes.segments(path);
        if ("OPTIONS".equals(method)) {
            return routes.methodsOn(parts).isEmpty() ? null : new DeclaredAccess.Rule(Caller.Role.READER, null, null, null);
        }
        var match = routes.match("HEAD".equals(method) ? "GET" : method, parts, new java.util.HashSet<>()).orElse(null);
        if (match == null) {
            return null;
        }
        var access = match.route().access();
        String tenant = access.tenantAt() < 0 ? null : match.values().get(access.tenantAt());
        String user = access.userAt() < 0 ? null : match.values().get(access.userAt());
        return new DeclaredAccess.Rule(access.role(), tenant,
                tenant == null ? null : () -> access.describeTenant(tenant), match, user,
                user == null ? null : () -> access.user().describe(List.of(user)));
    }

    public DomainPlan plan() {
        return plan;
    }

    public DeclaredRoutes routes() {
        return routes;
    }

    @Override
    public List<AccessPattern> accessPatterns(String table) {
        var out = new ArrayList<AccessPattern>();
        for (DomainModel domain : plan.domains()) {
            for (EntityModel model : domain.entities().values()) {
                DeclaredEntity entity = plan.entity(model.name());
                List<String> example = example(domain, model);
                int first = out.size();
                if (model.serves(Op.GET)) {
                    var get = model.operation(Op.GET);
                    out.add(AccessPattern.getItem(get.label(), "GET " + model.path(), table, entity.key(example)));
                    get.include().forEach((member, include) -> {
                        var pattern = AccessPattern.query(include.label() != null ? include.label()
                                        : "A " + ModelReader.words(model.name()) + " with its first " + member,
                                "GET " + model.path() + "?include=" + member, table,
                                includeQuery(entity, plan.entity(include.entity()), example.get(0)));
                        out.add(plan.entity(include.entity()).model().ttl() != null ? pattern.hidingExpired() : pattern);
                    });
                }
                if (model.history() != null && model.serves(Op.GET)) {
                    historyPatterns(model, entity, example, table, out);
                }
                if (model.list() != null) {
                    out.add(AccessPattern.query(label(model.list().label(), model.list().summary()), "GET " + model.list().path(),
                            table, entity.partitionQuery(example.get(0), Http.DEFAULT_LIMIT, model.list().newestFirst())));
                }
                for (NaturalIndexModel index : model.indexes()) {
                    if (index.list() != null) {
                        var partition = new LinkedHashMap<String, String>();
                        index.partition().forEach(f -> partition.put(f.name(), exampleOf(domain, model, f)));
                        out.add(AccessPattern.query(label(index.list().label(), index.list().summary()),
                                "GET " + index.list().path(), table, entity.naturalQuery(index, partition, name -> null,
                                        Http.DEFAULT_LIMIT, index.list().newestFirst())));
                    }
                }
                for (var index : model.keyedIndexes()) {
                    if (index.list() == null) {
                        continue;
                    }
                    String indexed = exampleOf(domain, model, index.partitionField());
                    String query = index.list().query() == null ? "" : "?" + index.list().query() + "={" + index.list().query() + "}";
                    out.add(AccessPattern.query(label(index.list().label(), index.list().summary()),
                            "GET " + index.list().path() + query, table,
                            entity.indexQuery(index, indexed, Http.DEFAULT_LIMIT, index.list().newestFirst())));
                }
                if (model.softDelete()) {
                    softDeletePatterns(model, entity, example, table, out);
                }
                if (model.ttl() != null) {
                    for (int i = first; i < out.size(); i++) {
                        out.set(i, out.get(i).hidingExpired());
                    }
                }
            }
            for (EntityModel model : domain.entities().values()) {
                uniquePatterns(domain, model, table, out);
            }
            for (ViewModel view : domain.views()) {
                EntityModel root = domain.entity(view.root());
                out.add(AccessPattern.getItem(view.label(), "GET " + view.path(), table,
                        plan.entity(root.name()).key(example(domain, root))));
            }
        }
        out.addAll(AggregatePatterns.of(plan, table));
        return out;
    }

    /**
     * A soft-deleted entity's tombstones (see DeclaredSoftDeletes): the deleted listing (1 Query of the listing index),
     * and the tombstone by key, which the delete writes and the restore and the purge read — with what each costs.
     */
    private static void softDeletePatterns(EntityModel model, DeclaredEntity entity, List<String> example, String table,
                                           List<AccessPattern> out) {
        String words = ModelReader.words(model.name());
        String scope = example.size() < 2 ? null : String.join("#", example.subList(0, example.size() - 1));
        out.add(AccessPattern.query("The deleted " + words + "s, newest deleted first (1 Query of "
                        + dev.cairn.core.entity.Tombstones.LISTING.indexName() + ")", "GET " + model.deletedPath(), table,
                dev.cairn.core.query.QuerySpec.on(dev.cairn.core.entity.Tombstones.LISTING,
                        dev.cairn.core.entity.Tombstones.listing(model.name(), scope)).descending()
                        .limit(Http.DEFAULT_LIMIT).build()));
        out.add(AccessPattern.getItem("A deleted " + words + "'s tombstone, in a partition no live read reaches: a delete "
                        + "reads the item (1 GetItem) and moves it here in ONE TransactWriteItems (1 Delete, 1 Put, +1 per "
                        + "unique value); a restore reads it (1 GetItem, +1 BatchGetItem of its refs) and moves it back in "
                        + "ONE TransactWriteItems (1 Put, 1 Delete, +1 per ref and unique value); a purge reads it "
                        + "(1 GetItem; where anything may depend on it, +1 GetItem of the live key and +1 Query per kind of dependent "
                        + "and per soft-deleted child entity) and deletes it (1 DeleteItem, or a transaction "
                        + "with the unique values it kept)",
                "DELETE " + model.path() + ", POST " + model.restorePath() + ", DELETE " + model.purgePath(), table,
                dev.cairn.core.entity.Tombstones.keyOf(entity.key(example))));
    }

    /**
     * An entity with history: what its versions' routes read, and what each of its writes costs more — the pattern's
     * name says it, as a unique value's does.
     */
    private static void historyPatterns(EntityModel model, DeclaredEntity entity, List<String> example, String table,
                                        List<AccessPattern> out) {
        var history = model.history();
        String words = ModelReader.words(model.name());
        String item = model.routeOf(model.operation(Op.GET));
        dev.cairn.core.key.PrimaryKey key = entity.key(example);
        String writes = "every write of a " + words + " (create, PUT, PATCH, DELETE, a cascade's rewrite of a copy) is ONE "
                + "TransactWriteItems: the write itself checked at the version read, +1 Put of that version's snapshot "
                + "(none for a create)" + (history.keep() != null ? ", +1 Delete of the snapshot that falls out of the last "
                + history.keep() : "") + "; a write that was one PutItem/UpdateItem/DeleteItem becomes a transaction, and a "
                + "transaction's writes cost 2 WCU per KB each (a change of a 1 KB item: 2 + 2" + (history.keep() != null
                ? " + 2" : "") + " WCU instead of 1)";
        out.add(AccessPattern.getItem("A " + words + "'s current version: the first page of its versions starts with the "
                + "live item, read beside the snapshots' Query", "GET " + item + "/versions", table, key));
        var listing = AccessPattern.query("A " + words + "'s retained versions, newest first (it keeps "
                + history.describe() + "): the snapshots under ~VERSION#<sk>#, in the item's partition, which no listing "
                + "reads; " + writes, "GET " + item + "/versions", table, DeclaredService.versionsQuery(key, Http.DEFAULT_LIMIT));
        out.add(history.retain() != null ? listing.hidingExpired() : listing);
        out.add(AccessPattern.getItem("One retained version of a " + words + " (beside the live item's GetItem)",
                "GET " + item + "/versions/{version}", table, dev.cairn.core.write.VersionSnapshots.key(key, 1)));
    }

    /** The Query that reads the entity with its first children: ascending from it, or descending for newest first. */
    private static dev.cairn.core.query.QuerySpec includeQuery(DeclaredEntity parent, DeclaredEntity child, String id) {
        return child.model().list() != null && child.model().list().newestFirst()
                ? DeclaredEntity.parentWithNewest(parent, child, id, Http.DEFAULT_LIMIT)
                : DeclaredService.withParentQuery(parent, id, Http.DEFAULT_LIMIT);
    }

    private static String label(String label, String summary) {
        return label != null ? label : summary;
    }

    /** The identity of the entity's first demo item, so every pattern shows a request that finds something. */
    /**
     * A unique value's sentinel, by key (what an operator reads to see that a value is taken): it is never read by the
     * API, only written in the item's own transaction — what the pattern's name says each write costs.
     */
    private void uniquePatterns(DomainModel domain, EntityModel model, String table, List<AccessPattern> out) {
        for (var unique : model.unique()) {
            var values = new LinkedHashMap<String, Object>();
            unique.allFields().forEach(field -> values.put(field, exampleOf(domain, model, field)));
            String words = ModelReader.words(model.name());
            String item = model.path();
            String collection = item.substring(0, item.lastIndexOf('/'));
            out.add(AccessPattern.getItem("The sentinel that keeps a " + words + "'s " + String.join(" + ", unique.fields())
                            + " unique (" + unique.describe() + "): never read by the API, written in the item's own "
                            + "TransactWriteItems — a create puts it (+1 Put, condition attribute_not_exists(pk)), a change "
                            + "of the value moves it (+1 Delete, +1 Put), a delete removes it (+1 Delete, after 1 GetItem); "
                            + "a write that leaves the value as it is costs nothing more",
                    "POST " + collection + ", PUT|PATCH|DELETE " + item + " (unique " + unique.name() + ")", table,
                    unique.sentinel(model.name(), values).orElseThrow()));
        }
    }

    private static List<String> example(DomainModel domain, EntityModel model) {
        var values = new ArrayList<String>();
        for (String field : model.identity()) {
            values.add(exampleOf(domain, model, field));
        }
        return values;
    }

    /** A natural key field's example: a demo item's value, else its first enum value, else "example". */
    private static String exampleOf(DomainModel domain, EntityModel model, FieldModel field) {
        String demo = exampleOf(domain, model, field.name());
        if (!demo.equals("example")) {
            return demo;
        }
        return field.defaultValue() != null ? field.defaultValue() : field.values() != null ? field.values().get(0)
                : field.kind() == FieldModel.Kind.INTEGER || field.kind() == FieldModel.Kind.NUMBER ? "1"
                : field.kind() == FieldModel.Kind.DATE ? "2026-01-01" : "example";
    }

    private static String exampleOf(DomainModel domain, EntityModel model, String field) {
        return domain.demo().stream().filter(d -> d.entity().equals(model.name()) && d.values().get(field) != null)
                .map(d -> d.values().get(field).toString()).findFirst().orElse("example");
    }

    @Override
    public Map<String, KeyTemplate> partitions() {
        var out = new LinkedHashMap<String, KeyTemplate>();
        for (DeclaredEntity entity : plan.entities()) {
            EntityModel model = entity.model();
            if (model.parent() == null && !model.edge()) {
                out.put(model.name().toLowerCase(Locale.ROOT), model.pk());
            }
        }
        out.putAll(AggregatePatterns.partitions(plan));
        return out;
    }

    /**
     * The tenant a partition belongs to: an entity that declares a tenant field as the one field of its partition key
     * (a workspace's WS#acme, and its children's write shards WS#acme#07) names it; index partitions mix tenants and
     * belong to none.
     */
    @Override
    public java.util.Optional<String> tenantOf(String partitionKey) {
        if (partitionKey.startsWith(dev.cairn.core.model.UniqueModel.PREFIX)) {
            // a sentinel names a value and its scope, and holds its owner's key: no tenant's alone
            return java.util.Optional.of(UNNAMED_TENANT);
        }
        if (partitionKey.startsWith(dev.cairn.core.entity.Tombstones.PREFIX)) {
            // a tombstone's partition is its item's, prefixed: it belongs to the item's tenant
            return tenantOf(partitionKey.substring(dev.cairn.core.entity.Tombstones.PREFIX.length()));
        }
        for (KeyTemplate template : tenantPartitions) {
            if (template.matches(partitionKey)) {
                return java.util.Optional.of(template.decode(partitionKey).get(0).toString());
            }
        }
        for (DeclaredAggregate aggregate : plan.aggregates()) {
            if (aggregate.model().access().tenant() != null && aggregate.model().partition().matches(partitionKey)) {
                // a tenant-scoped aggregate's tenant is a field of its root, not of its key: no id names it, so
                // only a caller of every tenant sees the partition
                return java.util.Optional.of(UNNAMED_TENANT);
            }
        }
        return java.util.Optional.empty();
    }

    /** No workspace id: ids hold no control characters (see {@link dev.cairn.platform.Http#id}). */
    static final String UNNAMED_TENANT = "\u0000";

    private static List<KeyTemplate> tenantPartitions(DomainPlan plan) {
        var out = new ArrayList<KeyTemplate>();
        for (DeclaredEntity entity : plan.entities()) {
            EntityModel model = entity.model();
            String tenant = model.access().tenant();
            if (tenant != null && model.pk().fieldNames().equals(List.of(tenant))) {
                out.add(model.pk());
                if (model.parentShards() != null) {
                    out.add(KeyTemplate.of(model.pk().pattern() + "#{shard}"));
                }
            }
        }
        return List.copyOf(out);
    }

    /** Each declared field as the attribute its codec writes: strings, dates, instants and enums S, numbers N, … */
    @Override
    public Map<String, Map<String, AttributeType>> attributeTypes() {
        var out = new LinkedHashMap<String, Map<String, AttributeType>>();
        for (DeclaredEntity entity : plan.entities()) {
            var fields = new LinkedHashMap<String, AttributeType>();
            for (FieldModel field : entity.model().fields()) {
                fields.put(field.name(), field.isText() ? AttributeType.S : switch (field.kind()) {
                    case INTEGER, NUMBER -> AttributeType.N;
                    case BOOLEAN -> AttributeType.BOOL;
                    case OBJECT -> AttributeType.M;
                    default -> AttributeType.L;
                });
            }
            out.put(entity.model().name(), fields);
        }
        return out;
    }

    @Override
    public List<NaturalIndex> naturalIndexes() {
        return plan.naturalIndexes();
    }

    @Override
    public List<CascadeSpec> cascades() {
        return List.copyOf(plan.cascades());
    }

    @Override
    public List<Aggregate> aggregates() {
        return plan.aggregates().stream().map(dev.cairn.core.model.DeclaredAggregate::aggregate).toList();
    }

    /** A demo item as a document of its entity (server-set fields allowed: demo items name their ids). */
    Doc demoDoc(DomainModel.DemoItem item) {
        EntityModel model = plan.entity(item.entity()).model();
        return new Doc(DocJson.valid(model.fields(), item.values(), true));
    }
}
