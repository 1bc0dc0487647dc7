package dev.cairn.core.model;

import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.key.KeyTemplate;

/**
 * A key the entity writes on one of the table's overloaded indexes ({@code pk} and {@code sk} templates over its
 * fields), named so that an entity can have several (one per index), optionally listed by a route.
 */
/**
 * {@code shards}: how many write shards the index's partitions are spread over (an item goes to the shard its own id
 * hashes to; a listing reads every shard in parallel and merges them), its count from the setting {@code setting}
 * when one is named (resolved at start; it may only ever grow).
 */
public record IndexModel(String name, Index index, KeyTemplate pk, KeyTemplate sk, ListModel list, int shards,
                         String setting) {

    public IndexModel(String name, Index index, KeyTemplate pk, KeyTemplate sk, ListModel list) {
        this(name, index, pk, sk, list, 1, null);
    }

    public IndexModel withShards(int count) {
        return new IndexModel(name, index, pk, sk, list, count, setting);
    }

    /** The field the index is partitioned by (its pk template names exactly one). */
    public String partitionField() {
        return pk.fieldNames().get(0);
    }

    public IndexModel listed(ListModel newList) {
        return new IndexModel(name, index, pk, sk, newList, shards, setting);
    }
}
