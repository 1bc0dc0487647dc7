package dev.cairn.core.model;

import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.key.KeyTemplate;

/** A secondary index entry the entity writes (pk and sk templates over its fields), optionally listed by a route. */
public record IndexModel(Index index, KeyTemplate pk, KeyTemplate sk, ListModel list) {
}
