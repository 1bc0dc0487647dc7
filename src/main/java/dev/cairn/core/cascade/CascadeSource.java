package dev.cairn.core.cascade;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;

/**
 * The new state of a source entity whose copies must follow: its entity name, id, version after the update,
 * and its domain fields (exactly what an embedded copy holds). A cascade job carries it, so a replica that
 * resumes the job writes the very values the committed update wrote.
 */
public record CascadeSource(String entity, String id, long version, Map<String, AttributeValue> fields) {

    public CascadeSource {
        fields = Map.copyOf(fields);
    }

    public Map<String, AttributeValue> toAttributes() {
        return Map.of("entity", AttributeValue.fromS(entity), "id", AttributeValue.fromS(id),
                "version", AttributeValue.fromN(Long.toString(version)), "fields", AttributeValue.fromM(fields));
    }

    public static CascadeSource fromAttributes(Map<String, AttributeValue> target) {
        return new CascadeSource(target.get("entity").s(), target.get("id").s(), Long.parseLong(target.get("version").n()),
                target.get("fields").m());
    }
}
