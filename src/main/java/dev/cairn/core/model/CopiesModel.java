package dev.cairn.core.model;

import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.key.KeyTemplate;

import java.util.List;

/**
 * Where whole copies of an entity are found ({@code copies:} on the entity): every item that embeds one — an inline
 * ref or a copy member of an aggregate, a ref an entity embeds whole — carries the key {@code key} (the entity's own
 * partition key, e.g. {@code PLAYER#<id>}) on {@code index}, sorted by where the copy lives ({@code <pk>#<sk>}), so a
 * cascade, a delete guard and {@code references} find them with ONE Query, never a Scan. {@code references} is the
 * listing of those items (null when not served); {@code targets} the item types whose copies a cascade rewrites
 * (null: all; the others keep the copy they took).
 */
public record CopiesModel(Index index, KeyTemplate key, ListModel references, List<String> targets, int line) {

    public CopiesModel {
        targets = targets == null ? null : List.copyOf(targets);
    }

    /** The ref-index partition of every copy of the entity with this id. */
    public String partitionOf(String id) {
        return key.render(id);
    }
}
