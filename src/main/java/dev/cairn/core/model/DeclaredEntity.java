package dev.cairn.core.model;

import dev.cairn.core.aggregate.CopyVersions;
import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.expr.SortCondition;
import dev.cairn.core.key.IndexKey;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.query.QuerySpec;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

    DeclaredEntity(EntityModel model) {
        this.model = model;
        this.pkFields = model.pk().fieldNames().toArray(String[]::new);
        this.skFields = model.sk().fieldNames().toArray(String[]::new);
        var builder = EntitySpec.builder(model.name(), new DocCodec(model.fields())).key(this::keyOf);
        if (model.index() != null) {
            IndexModel index = model.index();
            String[] indexPk = index.pk().fieldNames().toArray(String[]::new);
            String[] indexSk = index.sk().fieldNames().toArray(String[]::new);
            builder.index(index.index(), doc -> IndexKey.of(render(index.pk(), indexPk, doc.values()),
                    render(index.sk(), indexSk, doc.values())));
        }
        this.spec = builder.build();
    }

    public EntityModel model() {
        return model;
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
        return PrimaryKey.of(render(model.pk(), pkFields, values), render(model.sk(), skFields, values));
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
        var query = QuerySpec.table(model.pk().render(partitionId)).sort(SortCondition.beginsWith(model.sk().prefix()))
                .limit(limit).consistent();
        return (newestFirst ? query.descending() : query).build();
    }

    /** The items indexed under {@code id} (an edge's other end, a ref's target): eventually consistent, as every GSI. */
    public QuerySpec indexQuery(String id, int limit, boolean newestFirst) {
        IndexModel index = model.index();
        var query = QuerySpec.on(index.index(), index.pk().render(id)).sort(SortCondition.beginsWith(index.sk().prefix()))
                .limit(limit);
        return (newestFirst ? query.descending() : query).build();
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
