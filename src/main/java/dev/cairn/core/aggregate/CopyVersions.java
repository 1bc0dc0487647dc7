package dev.cairn.core.aggregate;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code _refv} attribute of every item that embeds a copy of another entity: for each attribute holding a
 * copy, the entity it copies and the source version it was copied at. A cascade moves a copy forward only
 * when its version is older, so it never overwrites a newer copy and a repeated cascade skips current ones.
 */
public final class CopyVersions {

    public static final String ATTRIBUTE = "_refv";
    static final String ENTITY = "e";
    static final String VERSION = "v";

    private CopyVersions() {
    }

    public static AttributeValue of(String entity, long version) {
        return AttributeValue.fromM(Map.of(ENTITY, AttributeValue.fromS(entity),
                VERSION, AttributeValue.fromN(Long.toString(version))));
    }

    /** The {@code _refv} value for several copies: attribute name → (entity, version). */
    public static AttributeValue of(Map<String, Map.Entry<String, Long>> copies) {
        var out = new LinkedHashMap<String, AttributeValue>();
        copies.forEach((attribute, copy) -> out.put(attribute, of(copy.getKey(), copy.getValue())));
        return AttributeValue.fromM(out);
    }

    /** The attributes of an item that hold a copy of {@code entity}, with their versions. */
    public static Map<String, Long> copiesOf(Map<String, AttributeValue> item, String entity) {
        var out = new LinkedHashMap<String, Long>();
        AttributeValue versions = item.get(ATTRIBUTE);
        if (versions == null || versions.m() == null) {
            return out;
        }
        versions.m().forEach((attribute, descriptor) -> {
            if (descriptor.m() != null && descriptor.m().containsKey(ENTITY)
                    && entity.equals(descriptor.m().get(ENTITY).s())) {
                out.put(attribute, Long.parseLong(descriptor.m().get(VERSION).n()));
            }
        });
        return out;
    }

    static Long version(Map<String, AttributeValue> versions, String attribute) {
        AttributeValue descriptor = versions.get(attribute);
        if (descriptor == null || descriptor.m() == null || !descriptor.m().containsKey(VERSION)) {
            return null;
        }
        return Long.parseLong(descriptor.m().get(VERSION).n());
    }
}
