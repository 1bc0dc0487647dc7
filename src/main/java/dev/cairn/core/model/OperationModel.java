package dev.cairn.core.model;

import java.util.Map;

/**
 * One served operation of an entity: its operationId, summary, the success answer's words and its access-pattern
 * label; {@code atOwner} when it is served under the entity's owner ({@link EntityModel#owner()}); for a read,
 * {@code include} names the children that {@code ?include=<name>} answers with it in the same Query.
 */
public record OperationModel(Op op, String operationId, String summary, String answer, String label, boolean atOwner,
                             Map<String, Include> include) {

    /** Children read with their parent: ONE Query of the partition, the parent first (its sort key leads theirs). */
    public record Include(String entity, String label) {
    }

    public OperationModel {
        include = include == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(include));
    }

    public enum Op {
        CREATE("create"), GET("get"), PUT("put"), PATCH("patch"), DELETE("delete");

        private final String word;

        Op(String word) {
            this.word = word;
        }

        public String word() {
            return word;
        }

        public static Op of(String word) {
            for (Op op : values()) {
                if (op.word.equals(word)) {
                    return op;
                }
            }
            return null;
        }
    }
}
