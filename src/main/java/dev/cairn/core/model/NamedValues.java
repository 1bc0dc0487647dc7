package dev.cairn.core.model;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * A read-only map over names shared by many maps (an entity's fields) and one array of values in their order: a listing
 * decodes and answers every item of its page, so each is one array, not a hash map with an entry per field.
 * {@link #present} leaves the null values out, as a document has no absent field; {@link #all} keeps every name, a
 * null where a value is absent, as an answer shows it.
 */
public final class NamedValues extends AbstractMap<String, Object> {

    /** The names, in order, and where each one's value is; made once per entity. */
    public static final class Names {

        private final String[] names;
        private final Map<String, Integer> index;

        private Names(List<String> names) {
            this.names = names.toArray(String[]::new);
            var at = new HashMap<String, Integer>();
            for (int i = 0; i < this.names.length; i++) {
                if (at.put(this.names[i], i) != null) {
                    // a map has each key once
                    throw new IllegalArgumentException("the name " + this.names[i] + " twice in " + names);
                }
            }
            this.index = Map.copyOf(at);
        }

        public static Names of(List<String> names) {
            return new Names(names);
        }

        /** Where this name's value is; -1 when there is no such name (a null one included, as a hash map has). */
        public int at(Object name) {
            Integer at = name == null ? null : index.get(name);
            return at == null ? -1 : at;
        }
    }

    private final Names names;
    private final Object[] values;
    private final boolean all;
    private final int size;

    private NamedValues(Names names, Object[] values, boolean all) {
        if (values.length != names.names.length) {
            throw new IllegalArgumentException(values.length + " values for " + names.names.length + " names");
        }
        this.names = names;
        this.values = values;
        this.all = all;
        int present = 0;
        for (Object value : values) {
            if (all || value != null) {
                present++;
            }
        }
        this.size = present;
    }

    /**
     * The names with a value (not null), in order; the array is not copied: the caller does not keep it. Only a decoded
     * document is made this way (a {@link Doc} takes it as it is, so nothing else may hold its array).
     */
    static NamedValues present(Names names, Object[] values) {
        return new NamedValues(names, values, false);
    }

    /** Every name, its value null where absent, in order; the array is not copied: the caller does not keep it. */
    public static NamedValues all(Names names, Object[] values) {
        return new NamedValues(names, values, true);
    }

    /** Whether every name is an entry, also where its value is null. */
    boolean keepsAbsent() {
        return all;
    }

    @Override
    public Object get(Object key) {
        int at = names.at(key);
        return at < 0 ? null : values[at];
    }

    @Override
    public boolean containsKey(Object key) {
        int at = names.at(key);
        return at >= 0 && (all || values[at] != null);
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public void forEach(BiConsumer<? super String, ? super Object> action) {
        for (int i = 0; i < values.length; i++) {
            if (all || values[i] != null) {
                action.accept(names.names[i], values[i]);
            }
        }
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return size;
            }

            @Override
            public Iterator<Entry<String, Object>> iterator() {
                return new Iterator<>() {
                    private int next = advance(0);

                    private int advance(int from) {
                        int at = from;
                        while (!all && at < values.length && values[at] == null) {
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
                            throw new NoSuchElementException();
                        }
                        int at = next;
                        next = advance(at + 1);
                        return new SimpleImmutableEntry<>(names.names[at], values[at]);
                    }
                };
            }
        };
    }
}
