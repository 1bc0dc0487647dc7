package dev.cairn.core.model;

/**
 * A listing route: {@code path} (its single parameter is the partition's id), its operationId and summary, the
 * label it has at {@code /access-patterns}, and its order.
 */
public record ListModel(String path, String operationId, String summary, String label, boolean newestFirst, int line) {
}
