package dev.cairn.declared;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * An item as the API shows it: the entity's names, shared by all its items, and this item's values in the same order
 * (null where absent). A listing answers one per item, so each is one array, not a hash map of its own with an entry
 * per field. Read only.
 */
final class ItemView extends AbstractMap<String, Object> {

    private final List<String> names;
    private final Object[] values;

    ItemView(List<String> names, Object[] values) {
        this.names = names;
        this.values = values;
    }

    @Override
    public int size() {
        return values.length;
    }

    @Override
    public boolean containsKey(Object key) {
        return names.contains(key);
    }

    @Override
    public Object get(Object key) {
        int at = names.indexOf(key);
        return at < 0 ? null : values[at];
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return values.length;
            }

            @Override
            public Iterator<Entry<String, Object>> iterator() {
                return new Iterator<>() {
                    int next;

                    @Override
                    public boolean hasNext() {
                        return next < values.length;
                    }

                    @Override
                    public Entry<String, Object> next() {
                        if (next >= values.length) {
                            throw new NoSuchElementException();
                        }
                        int at = next++;
                        return new SimpleImmutableEntry<>(names.get(at), values[at]);
                    }
                };
            }
        };
    }
}
