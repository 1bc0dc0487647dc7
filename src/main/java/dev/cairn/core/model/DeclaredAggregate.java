package dev.cairn.core.model;

import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.aggregate.AggregateNode;
import dev.cairn.core.aggregate.Listing;
import dev.cairn.core.aggregate.RefSpec;
import dev.cairn.core.expr.SortCondition;
import dev.cairn.core.model.AggregateModel.Appearances;
import dev.cairn.core.model.AggregateModel.Child;
import dev.cairn.core.model.AggregateModel.Node;
import dev.cairn.core.query.QuerySpec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A declared aggregate made ready to serve: the engine's {@link Aggregate} built once from the declaration (the same
 * type the hand-written match used, so reads, writes, lists, cascades and repairs share one engine), its input
 * fields, and its lists by name. Nothing here is interpreted per request.
 */
public final class DeclaredAggregate {

    private final AggregateModel model;
    private final Aggregate aggregate;
    private final List<FieldModel> inputFields;
    private final Map<String, Listing> listings = new LinkedHashMap<>();
    private final Map<String, EntityModel> entities;
    private final Map<String, List<UniqueModel>> memberUnique;

    DeclaredAggregate(AggregateModel model, Map<String, DeclaredEntity> declared) {
        this.model = model;
        var entityModels = new LinkedHashMap<String, EntityModel>();
        declared.forEach((name, entity) -> entityModels.put(name, entity.model()));
        this.entities = entityModels;
        this.inputFields = List.copyOf(AggregateInputs.fieldsOf(model.root(), entityModels));
        this.memberUnique = model.memberUnique();
        var refs = new HashMap<String, RefSpec<?>>();
        var parts = new HashMap<String, AggregateNode>();
        AggregateNode root = node(model.root(), model.idField(), declared, refs, parts);
        var lists = new ArrayList<Listing>();
        for (AggregateModel.Listing list : model.lists()) {
            Listing listing;
            if (list.all()) {
                listing = Listing.all(list.name(), list.partition(), list.index(), list.shards());
            } else {
                listing = Listing.by(list.name(), list.partition(), list.by().entrySet().stream()
                        .map(e -> Listing.Entry.of(e.getValue(), e.getKey())).toArray(Listing.Entry[]::new));
            }
            listings.put(list.name(), listing);
            lists.add(listing);
        }
        Aggregate built = Aggregate.of(model.name(), model.partition(), model.idField(), root, model.context());
        if (model.summary() != null) {
            built = built.listed(model.summary().fields(), lists);
        }
        built = built.ruled(model.rules());
        this.aggregate = model.ttl() == null ? built : built.expiring(model.ttl());
    }

    /** The engine's node of a declared one; a part's node is built once and bound wherever it is used. */
    private static AggregateNode node(Node node, String idField, Map<String, DeclaredEntity> declared,
                                      Map<String, RefSpec<?>> refs, Map<String, AggregateNode> parts) {
        var builder = AggregateNode.builder(node.type(), node.label());
        for (Child child : node.children()) {
            switch (child.kind()) {
                case FIELD -> {
                    if (!child.name().equals(idField)) {
                        builder.field(child.name());
                    }
                }
                case REF -> builder.ref(child.name(), ref(child.entity(), declared, refs));
                case COPY -> {
                    AggregateNode copy = AggregateNode.refMember(child.node().type(), child.node().label(),
                            ref(child.entity(), declared, refs));
                    if (child.optional()) {
                        builder.optionalOne(child.name(), copy);
                    } else {
                        builder.one(child.name(), copy);
                    }
                }
                case ONE -> {
                    AggregateNode one = node(child.node(), null, declared, refs, parts);
                    if (child.optional()) {
                        builder.optionalOne(child.name(), one);
                    } else {
                        builder.one(child.name(), one);
                    }
                }
                case MANY -> builder.many(child.name(), node(child.node(), null, declared, refs, parts));
                case PART -> {
                    AggregateNode part = parts.get(child.node().part());
                    if (part == null) {
                        part = node(child.node(), null, declared, refs, parts);
                        parts.put(child.node().part(), part);
                    }
                    builder.sub(child.name(), part, child.bind());
                }
            }
        }
        if (node.key() != null) {
            builder.keyedBy(node.key());
        }
        return builder.build();
    }

    /** How a referenced entity is found by id, and the ref-index key every copy of it carries. */
    static RefSpec<?> ref(String entity, Map<String, DeclaredEntity> declared, Map<String, RefSpec<?>> refs) {
        return refs.computeIfAbsent(entity, name -> {
            DeclaredEntity target = declared.get(name);
            CopiesModel copies = target.model().copies();
            return new RefSpec<>(name, target.spec(), id -> target.key(List.of(id)), copies.index(), copies.key());
        });
    }

    /** The members' unique values by item type (empty: none declared). */
    public Map<String, List<UniqueModel>> memberUnique() {
        return memberUnique;
    }

    public AggregateModel model() {
        return model;
    }

    public String name() {
        return model.name();
    }

    public Aggregate aggregate() {
        return aggregate;
    }

    /** The input's fields: the body of a create, a replacement, and what a patch must leave. */
    public List<FieldModel> inputFields() {
        return inputFields;
    }

    public Listing listing(String name) {
        return listings.get(name);
    }

    /**
     * The members one appearance listing shows: ONE Query of the referenced entity's copies partition, only the items
     * of this aggregate's partitions (their sort key there starts with its partition's prefix).
     */
    public QuerySpec appearancesQuery(Appearances appearances, String id, int limit) {
        CopiesModel copies = entities.get(appearances.entity()).copies();
        return QuerySpec.on(copies.index(), copies.partitionOf(id))
                .sort(SortCondition.beginsWith(model.partition().prefix())).limit(limit).build();
    }

    /** "match m1": what a 404 names. */
    public String describe(String id) {
        return ModelReader.words(model.name()) + " " + id;
    }
}
