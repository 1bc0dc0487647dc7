package dev.cairn.core.model;

import java.util.Map;

/**
 * A read-only page of an aggregate: the root entity with, under each name, the members that live in its partition
 * (children, edges) or are indexed under its key (one Query per index, all side by side).
 */
public record ViewModel(String name, String path, String root, Map<String, String> include, String operationId,
                        String summary, String label, int line) {

    public ViewModel {
        include = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(include));
    }
}
