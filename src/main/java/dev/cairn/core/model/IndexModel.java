package dev.cairn.core.model;

import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.key.KeyTemplate;

/**
 * A key the entity writes on one of the table's overloaded indexes ({@code pk} and {@code sk} templates over its
 * fields), named so that an entity can have several (one per index), optionally listed by a route.
 */
public record IndexModel(String name, Index index, KeyTemplate pk, KeyTemplate sk, ListModel list) {

    /** The field the index is partitioned by (its pk template names exactly one). */
    public String partitionField() {
        return pk.fieldNames().get(0);
    }

    public IndexModel listed(ListModel newList) {
        return new IndexModel(name, index, pk, sk, newList);
    }
}
