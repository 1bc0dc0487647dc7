package dev.cairn.platform;

import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.item.RecordCodec;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.store.EntityStore;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.util.Map;

/** Test-only routes exercising the platform: a known number of DynamoDB calls, and a validated body. */
@Path("/test-support/probe")
@Produces(MediaType.APPLICATION_JSON)
public class ProbeResource {

    public record Note(@NotBlank String id, @NotNull @Min(0) @Max(10) Integer stars) {
    }

    static final KeyTemplate NOTE = KeyTemplate.of("NOTE#{id}");
    static final EntitySpec<Note> SPEC = EntitySpec.builder("ProbeNote", RecordCodec.<Note>builder()
                    .string("id", Note::id).number("stars", Note::stars)
                    .build(f -> new Note(f.string("id"), f.integer("stars"))))
            .key(n -> PrimaryKey.of(NOTE.render(n.id()), "META"))
            .build();

    private final EntityStore store;

    public ProbeResource(EntityStore store) {
        this.store = store;
    }

    /** Exactly two DynamoDB calls, one after the other: a GetItem, then a Query of the same partition. */
    @GET
    @Path("/{id}/two-calls")
    public Uni<Map<String, Object>> twoCalls(@PathParam("id") String id) {
        PrimaryKey key = PrimaryKey.of(NOTE.render(id), "META");
        return store.get(SPEC, key, true)
                .chain(found -> store.page(QuerySpec.table(key.pk()).consistent().build(), null)
                        .map(page -> Map.<String, Object>of("found", found != null, "items", page.items().size())));
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Map<String, Object>> create(@Valid @NotNull Note note) {
        return store.create(SPEC, note).map(stored -> Map.of("id", note.id(), "version", stored.version()));
    }
}
