package dev.cairn.core.key;

/** The key of an item in one global secondary index (both parts required: the index is sparse otherwise). */
public record IndexKey(String pk, String sk) {

    public IndexKey {
        PrimaryKey.requireWithin("index partition key", pk, PrimaryKey.MAX_PARTITION_KEY_BYTES);
        PrimaryKey.requireWithin("index sort key", sk, PrimaryKey.MAX_SORT_KEY_BYTES);
    }

    public static IndexKey of(String pk, String sk) {
        return new IndexKey(pk, sk);
    }
}
