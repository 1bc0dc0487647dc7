package dev.cairn.core.model;

import java.util.Map;

/**
 * A field that holds another entity's id: the write checks in its own transaction that the entity exists (and, when
 * fields are copied, that it is still at the version copied); {@code copies} maps a field of this entity to the
 * referenced entity's field it copies, kept in sync by the referenced entity's cascade. An {@code actor} ref names
 * the user a write acts as: the caller when the body names none, and only an admin may name someone else.
 * {@code embed} names the field that holds a WHOLE copy of the referenced entity (null: none): the id comes in, the
 * entity is read with the others in one BatchGetItem, and the copy is found on the entity's {@code copies:} index,
 * so its cascade keeps it current; such a ref may change (the new entity is read and copied).
 */
public record RefModel(String field, String entity, Map<String, String> copies, boolean actor, int line, String embed) {

    public RefModel {
        copies = Map.copyOf(copies);
    }

    public RefModel(String field, String entity, Map<String, String> copies, boolean actor, int line) {
        this(field, entity, copies, actor, line, null);
    }

    public RefModel(String field, String entity, Map<String, String> copies, int line) {
        this(field, entity, copies, false, line, null);
    }
}
