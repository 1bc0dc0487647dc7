package dev.cairn.core.aggregate;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;

import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reading JSON-like values of one aggregate, refusing what does not fit its shape with a decomposition error. */
record Values(String aggregate) {

    @SuppressWarnings("unchecked")
    Map<String, Object> map(Object value, String path) {
        if (value instanceof Map<?, ?> m) {
            return (Map<String, Object>) m;
        }
        throw refused(path + " must be an object", path);
    }

    @SuppressWarnings("unchecked")
    List<Map<String, Object>> list(Object value, String path) {
        if (value instanceof List<?> l && l.stream().allMatch(e -> e instanceof Map)) {
            return (List<Map<String, Object>>) l;
        }
        throw refused(path + " must be a list of objects", path);
    }

    /** The id a ref field names ({@code <field>Id}), required. */
    String refId(Map<String, Object> input, String field, String path) {
        Object id = input.get(field + "Id");
        if (!(id instanceof String s) || s.isBlank()) {
            String at = Place.join(path, field + "Id");
            throw refused(at + " is missing", at);
        }
        return s;
    }

    /** The identity of a list element (its key field, or the id of a ref key field), unique within its list. */
    String elementKey(AggregateNode node, Map<String, Object> element, String path, Set<String> seen) {
        Object key = element.get(node.keyField);
        if (node.refs.containsKey(node.keyField)) {
            key = idOf(key);
        }
        if (key == null) {
            throw refused(path + " has no " + node.keyField, path);
        }
        if (!seen.add(key.toString())) {
            String list = path.substring(0, path.lastIndexOf('['));
            throw refused(list + " holds '" + key + "' twice", path);
        }
        return key.toString();
    }

    static String idOf(Object copy) {
        return copy instanceof Map<?, ?> m && m.get("id") != null ? m.get("id").toString() : null;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> asMap(Object value) {
        return (Map<String, Object>) value;
    }

    private CairnException refused(String detail, String member) {
        return new CairnException(new CairnError.AggregateDecompositionError(detail, aggregate, member));
    }
}
