package dev.cairn.core.model;

import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The value of a declared entity: its fields in declaration order, in {@link FieldRules}' canonical form (so equal
 * documents are equal, and a patch that changes nothing is seen to change nothing).
 */
public record Doc(Map<String, Object> values) {

    public Doc {
        // A map only a Doc holds is not copied again (a listing decodes every item of its page).
        values = values instanceof Frozen || values instanceof NamedValues named && !named.keepsAbsent() ? values
                : new Frozen(new LinkedHashMap<>(values));
    }

    /**
     * A document decoded from an item: the values in the order of its layout's names (null where absent), not copied.
     * One array per item instead of a hash map with an entry per field (a listing decodes every item of its page).
     */
    static Doc laid(NamedValues.Names names, Object[] values) {
        return new Doc(NamedValues.present(names, values));
    }

    /** A document over a map the caller made for it and does not keep (the map is not copied). */
    static Doc owning(LinkedHashMap<String, Object> values) {
        return new Doc(new Frozen(values));
    }

    public Object get(String field) {
        return values.get(field);
    }

    public String text(String field) {
        Object value = values.get(field);
        return value == null ? null : value.toString();
    }

    public Doc with(String field, Object value) {
        var next = new LinkedHashMap<>(values);
        if (value == null) {
            next.remove(field);
        } else {
            next.put(field, value);
        }
        return owning(next);
    }

    /** A read-only map that only Doc makes, over a map nothing else holds. */
    private static final class Frozen extends AbstractMap<String, Object> {

        private final Map<String, Object> map;

        Frozen(LinkedHashMap<String, Object> map) {
            this.map = Collections.unmodifiableMap(map);
        }

        @Override
        public Object get(Object key) {
            return map.get(key);
        }

        @Override
        public boolean containsKey(Object key) {
            return map.containsKey(key);
        }

        @Override
        public int size() {
            return map.size();
        }

        @Override
        public Set<Entry<String, Object>> entrySet() {
            return map.entrySet();
        }

        @Override
        public Set<String> keySet() {
            return map.keySet();
        }

        @Override
        public java.util.Collection<Object> values() {
            return map.values();
        }

        @Override
        public void forEach(java.util.function.BiConsumer<? super String, ? super Object> action) {
            map.forEach(action);
        }

        @Override
        public boolean equals(Object o) {
            return map.equals(o);
        }

        @Override
        public int hashCode() {
            return map.hashCode();
        }

        @Override
        public String toString() {
            return map.toString();
        }
    }
}
