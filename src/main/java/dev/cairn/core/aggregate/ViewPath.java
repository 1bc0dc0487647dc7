package dev.cairn.core.aggregate;

import java.util.Map;

/** A dotted path into a JSON-like view ({@code team1.team.name}); lists are not traversed. */
final class ViewPath {

    private ViewPath() {
    }

    /** The value at the path, or null when any step is missing or not an object. */
    static Object valueAt(Map<String, Object> view, String path) {
        Object at = view;
        for (String step : path.split("\\.")) {
            if (!(at instanceof Map<?, ?> map)) {
                return null;
            }
            at = map.get(step);
        }
        return at;
    }
}
