package dev.cairn.store;

import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.item.RecordCodec;
import dev.cairn.core.key.PrimaryKey;

/** A minimal entity for tests that need one. */
public final class TestSpecs {

    public record Note(String id, String text) {
    }

    public static final EntitySpec<Note> NOTE = EntitySpec.builder("Note", RecordCodec.<Note>builder()
                    .string("id", Note::id).string("text", Note::text)
                    .build(f -> new Note(f.string("id"), f.string("text"))))
            .key(n -> PrimaryKey.of("N#" + n.id(), "META")).build();

    private TestSpecs() {
    }
}
