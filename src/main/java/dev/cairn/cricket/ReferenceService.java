package dev.cairn.cricket;

import dev.cairn.core.TableSpec;
import dev.cairn.core.aggregate.CopyVersions;
import dev.cairn.core.entity.Stored;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.query.Page;
import dev.cairn.service.CascadeService.Mode;
import dev.cairn.service.CascadeService.Patched;
import dev.cairn.service.CascadeService;
import dev.cairn.service.EntityService;
import dev.cairn.store.EntityStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.LinkedHashMap;
import java.util.Map;

/** The use cases of teams, players, coaches and venues: 1 call per create and read, a cascade per change. */
@ApplicationScoped
public class ReferenceService {

    @Inject EntityStore store;
    @Inject EntityService entities;
    @Inject CascadeService cascades;

    /** A conditional put: an existing id is a 409, never an overwrite. */
    <T> Uni<Stored<T>> create(RefKind<T> kind, T value) {
        return store.create(kind.ref().spec(), value);
    }

    <T> Uni<Stored<T>> find(RefKind<T> kind, String id) {
        return entities.find(kind.ref().spec(), kind.ref().keyOf().apply(id), kind.what(id));
    }

    /** A merge patch of the entity, then its cascade ({@code eventual} or {@code transactional}). */
    <T> Uni<Patched<T>> patch(RefKind<T> kind, String id, String patch, Long ifMatch, Mode mode) {
        return cascades.patch(kind.target(id), patch, ifMatch, mode, kind.what(id));
    }

    /** Refused with 409 StillReferenced while any item embeds the entity. */
    <T> Uni<Void> delete(RefKind<T> kind, String id, Long ifMatch) {
        return cascades.delete(kind.target(id), ifMatch, kind.what(id));
    }

    /** Every item embedding a copy of the entity, with the source version of its copy: 1 Query per page. */
    Uni<Page<Map<String, Object>>> references(RefKind<?> kind, String id, int limit, String cursor) {
        return store.page(kind.references(id, limit), cursor).map(page -> page.map(item -> reference(kind, item)));
    }

    private static Map<String, Object> reference(RefKind<?> kind, Map<String, AttributeValue> item) {
        PrimaryKey key = PrimaryKey.from(item);
        var out = new LinkedHashMap<String, Object>();
        out.put("entityType", TableSpec.typeOf(item));
        out.put("pk", key.pk());
        out.put("sk", key.sk());
        out.put("copies", CopyVersions.copiesOf(item, kind.ref().entity()));
        return out;
    }
}
