package dev.cairn.core.cascade;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;

/**
 * The new state of a source entity whose copies must follow: its entity name, id, version after the update,
 * and its domain fields (exactly what an embedded copy holds).
 */
public record CascadeSource(String entity, String id, long version, Map<String, AttributeValue> fields) {

    public CascadeSource {
        fields = Map.copyOf(fields);
    }
}
