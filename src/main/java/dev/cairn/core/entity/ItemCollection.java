package dev.cairn.core.entity;

import dev.cairn.core.TableSpec;
import dev.cairn.core.key.PrimaryKey;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The items of one Query over a partition (e.g. a workspace plus its projects), each decoded by its
 * discriminator into its own record. Items of a type no spec declares are kept in {@link #unknown()}
 * rather than silently dropped.
 */
public final class ItemCollection {

    /** An item whose discriminator matched none of the expected entity types. */
    public record UnknownItem(PrimaryKey key, String type) {
    }

    private final Map<String, List<Stored<?>>> byType;
    private final List<UnknownItem> unknown;

    private ItemCollection(Map<String, List<Stored<?>>> byType, List<UnknownItem> unknown) {
        this.byType = byType;
        this.unknown = List.copyOf(unknown);
    }

    public static ItemCollection decode(List<Map<String, AttributeValue>> items, List<EntitySpec<?>> specs) {
        var specByType = new LinkedHashMap<String, EntitySpec<?>>();
        specs.forEach(spec -> specByType.put(spec.type(), spec));
        var byType = new LinkedHashMap<String, List<Stored<?>>>();
        var unknown = new ArrayList<UnknownItem>();
        for (var item : items) {
            AttributeValue type = item.get(TableSpec.TYPE);
            EntitySpec<?> spec = type == null ? null : specByType.get(type.s());
            if (spec == null) {
                unknown.add(new UnknownItem(PrimaryKey.from(item), type == null ? null : type.s()));
            } else {
                byType.computeIfAbsent(spec.type(), t -> new ArrayList<>()).add(spec.fromItem(item));
            }
        }
        return new ItemCollection(byType, unknown);
    }

    /** The items of one type, in the order the query returned them. */
    @SuppressWarnings("unchecked")
    public <T> List<Stored<T>> all(EntitySpec<T> spec) {
        List<Stored<?>> found = byType.getOrDefault(spec.type(), List.of());
        return (List<Stored<T>>) (List<?>) List.copyOf(found);
    }

    /** The single item of a type, or null when absent. */
    public <T> Stored<T> single(EntitySpec<T> spec) {
        List<Stored<T>> found = all(spec);
        return found.isEmpty() ? null : found.get(0);
    }

    public List<UnknownItem> unknown() {
        return unknown;
    }

    public int size() {
        return byType.values().stream().mapToInt(List::size).sum() + unknown.size();
    }
}
