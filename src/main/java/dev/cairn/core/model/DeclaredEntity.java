package dev.cairn.core.model;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.aggregate.CopyVersions;
import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.expr.SortCondition;
import dev.cairn.core.key.IndexKey;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.key.ShardedIds;
import dev.cairn.core.key.WriteShards;
import dev.cairn.core.query.FanOut;
import java.util.stream.IntStream;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.query.NaturalKeyCondition;
import dev.cairn.core.query.QuerySpec;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A declared entity made ready to serve: the {@link EntitySpec} of its documents (the same spec type hand-written
 * entities use, so every store and service path is shared), its keys from identity values, and the queries of its
 * listings.
 */
public final class DeclaredEntity {

    private final EntityModel model;
    private final EntitySpec<Doc> spec;
    /** The field names of the key templates, in template order: made once, not per key rendered. */
    private final String[] pkFields;
    private final String[] skFields;
    /** What an item shows, in order: its fields, then its timestamps (made once: listings show one per item). */
    private final java.util.List<String> shown;
    private final NamedValues.Names shownNames;

    DeclaredEntity(EntityModel model) {
        this.model = model;
        var names = new java.util.LinkedHashSet<String>();
        model.fields().forEach(field -> names.add(field.name()));
        names.addAll(model.timestamps());
        this.shown = java.util.List.copyOf(names);
        this.shownNames = NamedValues.Names.of(shown);
        this.pkFields = model.pk().fieldNames().toArray(String[]::new);
        this.skFields = model.sk().fieldNames().toArray(String[]::new);
        var builder = EntitySpec.builder(model.name(), new DocCodec(model.fields(), model.ttl())).key(this::keyOf);
        if (model.ttl() != null) {
            builder.expiring();
        }
        for (IndexModel index : model.keyedIndexes()) {
            String[] indexPk = index.pk().fieldNames().toArray(String[]::new);
            String[] indexSk = index.sk().fieldNames().toArray(String[]::new);
            String idField = model.idField();
            // a sharded index: the item goes to the shard its own id hashes to
            builder.index(index.index(), doc -> IndexKey.of(ShardedIds.partition(render(index.pk(), indexPk, doc.values()),
                            WriteShards.of(String.valueOf(doc.values().get(idField)), index.shards())),
                    render(index.sk(), indexSk, doc.values())));
        }
        this.spec = builder.build();
    }

    public EntityModel model() {
        return model;
    }

    /** The names an item shows, in order: its fields, then its timestamps. */
    public java.util.List<String> shown() {
        return shown;
    }

    /** The same names, for an item as the API shows it ({@link NamedValues#all}). */
    public NamedValues.Names shownNames() {
        return shownNames;
    }

    public String name() {
        return model.name();
    }

    public EntitySpec<Doc> spec() {
        return spec;
    }

    public PrimaryKey keyOf(Doc doc) {
        return keyOf(doc.values());
    }

    private PrimaryKey keyOf(Map<String, ?> values) {
        String partition = render(model.pk(), pkFields, values);
        if (model.parentShards() != null) {
            // a child of a write-sharded parent lives in the shard its id names
            partition = ShardedIds.partition(partition, ShardedIds.shardOfId(String.valueOf(values.get(model.idField()))));
        }
        return PrimaryKey.of(partition, render(model.sk(), skFields, values));
    }

    /** The key of the entity whose identity fields (in {@link EntityModel#identity()} order) have these values. */
    public PrimaryKey key(List<String> identity) {
        return keyOf(identityValues(identity));
    }

    public Map<String, Object> identityValues(List<String> identity) {
        var values = new LinkedHashMap<String, Object>();
        for (int i = 0; i < identity.size(); i++) {
            values.put(model.identity().get(i), identity.get(i));
        }
        return values;
    }

    public String describe(List<String> identity) {
        return model.describe(identityValues(identity));
    }

    private static String render(KeyTemplate template, String[] names, Map<String, ?> fields) {
        Object[] values = new Object[names.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = fields.get(names[i]);
        }
        return template.render(values);
    }

    /** A child's or an edge's items in one partition ({@code partitionId} fills the pk), in the declared order. */
    public QuerySpec partitionQuery(String partitionId, int limit, boolean newestFirst) {
        return partitionQuery(partitionId, 0, limit, newestFirst);
    }

    /** The children in one write shard of their parent's partition. */
    public QuerySpec partitionQuery(String partitionId, int shard, int limit, boolean newestFirst) {
        var query = QuerySpec.table(ShardedIds.partition(model.pk().render(partitionId), shard))
                .sort(SortCondition.beginsWith(model.sk().prefix())).limit(limit).consistent();
        return (newestFirst ? query.descending() : query).build();
    }

    /** The children over every write shard of a parent that has {@code shards}: one Query each, for a fan-out read. */
    public FanOut shardedPartitions(String partitionId, int shards, int limit, boolean newestFirst) {
        return FanOut.of(IntStream.range(0, shards).mapToObj(shard -> partitionQuery(partitionId, shard, limit, newestFirst))
                .toList());
    }

    /**
     * The parent's item and then its newest children, in ONE descending Query of the parent's partition: the parent's
     * sort key (a literal) sorts above every child's, so the Query starts at it ({@link EntityModel#precedesParent}).
     */
    public static QuerySpec parentWithNewest(DeclaredEntity parent, DeclaredEntity child, String parentId, int limit) {
        PrimaryKey key = parent.key(List.of(parentId));
        return QuerySpec.table(key.pk()).sort(SortCondition.between(child.model().sk().prefix(), key.sk()))
                .descending().limit(limit + 1).consistent().build();
    }

    /** The items indexed under {@code id} (an edge's other end, a ref's target): eventually consistent, as every GSI. */
    public QuerySpec indexQuery(IndexModel index, String id, int limit, boolean newestFirst) {
        return indexQuery(index, id, 0, limit, newestFirst);
    }

    /** One shard of a sharded index's listing. */
    public QuerySpec indexQuery(IndexModel index, String id, int shard, int limit, boolean newestFirst) {
        var query = QuerySpec.on(index.index(), ShardedIds.partition(index.pk().render(id), shard))
                .sort(SortCondition.beginsWith(index.sk().prefix())).limit(limit);
        return (newestFirst ? query.descending() : query).build();
    }

    /** Every shard of a sharded index's listing, for a fan-out read. */
    public FanOut indexShards(IndexModel index, String id, int shards, int limit, boolean newestFirst) {
        return FanOut.of(IntStream.range(0, shards).mapToObj(shard -> indexQuery(index, id, shard, limit, newestFirst))
                .toList());
    }

    /**
     * A listing of one of the entity's natural indexes: {@code partition} (the path's values, by field name) sets every
     * partition field equal; the query parameters condition the sort fields left to right — {@code <field>} equal,
     * or {@code <field>From} / {@code <field>To} a range (at least / at most, both: between) on the last one
     * conditioned. A value that is not one of its field or a condition out of that order is a 400 naming the
     * parameter, before any call.
     */
    public QuerySpec naturalQuery(NaturalIndexModel index, Map<String, String> partition, Function<String, String> parameter,
                                  int limit, boolean newestFirst) {
        var partitionValues = new ArrayList<AttributeValue>();
        for (FieldModel field : index.partition()) {
            partitionValues.add(keyValue(field, field.name(), partition.get(field.name())));
        }
        var equal = new ArrayList<AttributeValue>();
        AttributeValue from = null;
        AttributeValue to = null;
        String stopped = null;
        for (FieldModel field : index.sort()) {
            String eq = parameter.apply(NaturalIndexModel.equalParameter(field));
            String low = parameter.apply(NaturalIndexModel.fromParameter(field));
            String high = parameter.apply(NaturalIndexModel.toParameter(field));
            String given = eq != null ? NaturalIndexModel.equalParameter(field)
                    : low != null ? NaturalIndexModel.fromParameter(field) : high != null ? NaturalIndexModel.toParameter(field) : null;
            if (given == null) {
                stopped = stopped == null ? "no condition on " + field.name() : stopped;
                continue;
            }
            if (stopped != null) {
                throw invalid(given, "the sort fields of " + index.name() + " are conditioned left to right, each equal but "
                        + "the last, which may take a range: " + stopped);
            }
            if (eq != null && (low != null || high != null)) {
                throw invalid(given, "give either " + given + " or a range (" + NaturalIndexModel.fromParameter(field) + ", "
                        + NaturalIndexModel.toParameter(field) + "), not both");
            }
            if (eq != null) {
                equal.add(keyValue(field, given, eq));
                continue;
            }
            from = low == null ? null : keyValue(field, NaturalIndexModel.fromParameter(field), low);
            to = high == null ? null : keyValue(field, NaturalIndexModel.toParameter(field), high);
            if (from != null && to != null && compare(from, to) > 0) {
                throw invalid(NaturalIndexModel.fromParameter(field), "must not be after " + NaturalIndexModel.toParameter(field));
            }
            stopped = "a range on " + field.name() + " ends the conditions";
        }
        var query = QuerySpec.on(new NaturalKeyCondition(index.index(), partitionValues, equal, from, to)).limit(limit);
        return (newestFirst ? query.descending() : query).build();
    }

    /** A key attribute's value from its text: read by its field's rules (kind, enum values, pattern, bounds). */
    private static AttributeValue keyValue(FieldModel field, String parameter, String text) {
        Object raw = text;
        if (field.kind() == FieldModel.Kind.INTEGER || field.kind() == FieldModel.Kind.NUMBER) {
            try {
                raw = new BigDecimal(text);
            } catch (NumberFormatException | NullPointerException e) {
                throw invalid(parameter, "has the wrong type or format");
            }
        }
        FieldRules.Result read = FieldRules.read(List.of(field), Map.of(field.name(), raw == null ? "" : raw), true);
        if (!read.valid()) {
            throw invalid(parameter, read.violations().get(0).message());
        }
        Object value = read.values().get(field.name());
        if (value == null || value instanceof String s && s.isEmpty()) {
            throw invalid(parameter, "must not be empty");
        }
        return value instanceof String s ? AttributeValue.fromS(s)
                : AttributeValue.fromN(value instanceof BigDecimal d ? d.toPlainString() : value.toString());
    }

    /** DynamoDB's order: numbers by value, strings by their UTF-8 bytes (code points). */
    private static int compare(AttributeValue a, AttributeValue b) {
        return a.n() != null ? new BigDecimal(a.n()).compareTo(new BigDecimal(b.n())) : dev.cairn.core.aggregate.PartitionRanges.compare(a.s(), b.s());
    }

    private static CairnException invalid(String parameter, String message) {
        return new CairnException(CairnError.ValidationFailed.of(parameter, message));
    }

    /** The {@code _refv} of a write: which version of each referenced entity its copied fields come from. */
    public Map<String, AttributeValue> copyVersions(Map<String, Long> versionsByRefField) {
        var copies = new LinkedHashMap<String, Map.Entry<String, Long>>();
        for (RefModel ref : model.refs()) {
            Long version = versionsByRefField.get(ref.field());
            if (version != null) {
                ref.copies().keySet().forEach(copy -> copies.put(copy, Map.entry(ref.entity(), version)));
            }
        }
        return copies.isEmpty() ? Map.of() : Map.of(CopyVersions.ATTRIBUTE, CopyVersions.of(copies));
    }
}
