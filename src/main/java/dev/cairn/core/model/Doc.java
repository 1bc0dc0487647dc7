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
        values = values instanceof Frozen || values instanceof Laid ? values : new Frozen(new LinkedHashMap<>(values));
    }

    /**
     * A document decoded from an item: the values in the order of its layout's names (null where absent), not copied.
     * One array per item instead of a hash map with an entry per field (a listing decodes every item of its page).
     */
    static Doc laid(Layout layout, Object[] values) {
        return new Doc(new Laid(layout, values));
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

    /** The field names of a decoded document, in their declared order, and where each one's value is. */
    static final class Layout {

        private final String[] names;
        private final Map<String, Integer> index;

        Layout(java.util.List<String> names) {
            this.names = names.toArray(String[]::new);
            var at = new java.util.HashMap<String, Integer>();
            for (int i = 0; i < this.names.length; i++) {
                at.put(this.names[i], i);
            }
            this.index = Map.copyOf(at);
        }

        /** Where this name's value is; -1 when the layout has no such name (a null one included, as a hash map has). */
        int at(Object name) {
            Integer at = name == null ? null : index.get(name);
            return at == null ? -1 : at;
        }
    }

    /** A read-only map over a layout's names and one array of values, the absent ones (null) left out. */
    private static final class Laid extends AbstractMap<String, Object> {

        private final Layout layout;
        private final Object[] values;
        private final int size;

        Laid(Layout layout, Object[] values) {
            this.layout = layout;
            this.values = values;
            int present = 0;
            for (Object value : values) {
                if (value != null) {
                    present++;
                }
            }
            this.size = present;
        }

        @Override
        public Object get(Object key) {
            int at = layout.at(key);
            return at < 0 ? null : values[at];
        }

        @Override
        public boolean containsKey(Object key) {
            return get(key) != null;
        }

        @Override
        public int size() {
            return size;
        }

        @Override
        public void forEach(java.util.function.BiConsumer<? super String, ? super Object> action) {
            for (int i = 0; i < values.length; i++) {
                if (values[i] != null) {
                    action.accept(layout.names[i], values[i]);
                }
            }
        }

        @Override
        public Set<Entry<String, Object>> entrySet() {
            return new java.util.AbstractSet<>() {
                @Override
                public int size() {
                    return size;
                }

                @Override
                public java.util.Iterator<Entry<String, Object>> iterator() {
                    return new java.util.Iterator<>() {
                        private int next = advance(0);

                        private int advance(int from) {
                            int at = from;
                            while (at < values.length && values[at] == null) {
                                at++;
                            }
                            return at;
                        }

                        @Override
                        public boolean hasNext() {
                            return next < values.length;
                        }

                        @Override
                        public Entry<String, Object> next() {
                            if (next >= values.length) {
                                throw new java.util.NoSuchElementException();
                            }
                            int at = next;
                            next = advance(at + 1);
                            return new SimpleImmutableEntry<>(layout.names[at], values[at]);
                        }
                    };
                }
            };
        }
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
