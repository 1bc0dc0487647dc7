package dev.cairn.core.model;

import java.util.Map;

/**
 * A field that holds another entity's id: the write checks in its own transaction that the entity exists (and, when
 * fields are copied, that it is still at the version copied); {@code copies} maps a field of this entity to the
 * referenced entity's field it copies, kept in sync by the referenced entity's cascade.
 */
public record RefModel(String field, String entity, Map<String, String> copies, int line) {

    public RefModel {
        copies = Map.copyOf(copies);
    }
}
