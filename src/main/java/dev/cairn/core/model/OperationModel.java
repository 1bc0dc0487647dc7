package dev.cairn.core.model;

/** One served operation of an entity: its operationId, summary, the success answer's words and its access-pattern label. */
public record OperationModel(Op op, String operationId, String summary, String answer, String label) {

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
