package dev.cairn.core.model;

/**
 * A listing route: {@code path} (its single parameter is the partition's id — or, when {@code query} names one, that
 * query parameter is), its operationId and summary, the label it has at {@code /access-patterns}, its order, and
 * {@code page}, the name of its page's schema (null: the entity's answer schema's name followed by {@code Page}).
 */
public record ListModel(String path, String operationId, String summary, String label, boolean newestFirst, String query,
                        String page, int line) {
}
