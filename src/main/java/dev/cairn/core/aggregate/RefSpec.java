package dev.cairn.core.aggregate;

import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.key.PrimaryKey;

import java.util.function.Function;

/**
 * A referenceable entity: how to find it by id (for hydration) and the ref-index key every embedded copy of it
 * carries ({@code <LABEL>#<id>} on {@code index}), so a cascade finds all copies with a Query, never a Scan.
 */
public record RefSpec<T>(String entity, EntitySpec<T> spec, Function<String, PrimaryKey> keyOf, Index index,
                         KeyTemplate refKey) {

    public static <T> RefSpec<T> of(EntitySpec<T> spec, Function<String, PrimaryKey> keyOf, Index index, String label) {
        return new RefSpec<>(spec.type(), spec, keyOf, index, KeyTemplate.of(label + "#{id}"));
    }

    /** The ref-index partition of every copy of the entity with this id. */
    public String refPartition(String id) {
        return refKey.render(id);
    }
}
