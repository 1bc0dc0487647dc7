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
 * {@code identity} lists the fields the item path's parameters fill, in order.
 */
public record EntityModel(String name, KeyTemplate pk, KeyTemplate sk, String path, List<FieldModel> fields,
                          List<String> identity, boolean generatedId, RefModel parent, List<RefModel> refs, boolean edge,
                          IndexModel index, Map<Op, OperationModel> operations, ListModel list, String describe,
                          String inputSchema, String inputDescription, int line) {

    public EntityModel {
        fields = List.copyOf(fields);
        identity = List.copyOf(identity);
        refs = List.copyOf(refs);
        var ordered = new java.util.EnumMap<Op, OperationModel>(Op.class);
        ordered.putAll(operations);
        operations = java.util.Collections.unmodifiableMap(ordered);
    }

    /** The entity's own id: the last identity field. */
    public String idField() {
        return identity.get(identity.size() - 1);
    }

    public Optional<FieldModel> field(String fieldName) {
        return fields.stream().filter(f -> f.name().equals(fieldName)).findFirst();
    }

    public boolean serves(Op op) {
        return operations.containsKey(op);
    }

    public OperationModel operation(Op op) {
        return operations.get(op);
    }

    /** Fields a client may never change: identity, refs, copies and every other server-set field. */
    public List<String> immutable() {
        var out = new ArrayList<String>(identity);
        for (FieldModel f : fields) {
            if ((f.serverSet() || refs.stream().anyMatch(r -> r.field().equals(f.name()))) && !out.contains(f.name())) {
                out.add(f.name());
            }
        }
        return out;
    }

    /** The collection a create is posted to: the item path without its last segment. */
    public String collectionPath() {
        return path.substring(0, path.lastIndexOf('/'));
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
