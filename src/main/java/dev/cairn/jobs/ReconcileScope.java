package dev.cairn.jobs;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a reconcile covers: the copies of one source ({@code entity} and {@code id}), of every source of one entity
 * type ({@code entity}), or every copy in the table (neither); and how many copies it checks per second.
 */
public record ReconcileScope(String entity, String id, int rate) {

    public static ReconcileScope of(String entity, String id, int rate) {
        return new ReconcileScope(entity, id, rate);
    }

    public static ReconcileScope everything(int rate) {
        return new ReconcileScope(null, null, rate);
    }

    /** {@code source}, {@code entity} or {@code all}. */
    public String kind() {
        return id != null ? "source" : entity != null ? "entity" : "all";
    }

    /** Whether copies of {@code sourceEntity} are in scope. */
    public boolean covers(String sourceEntity) {
        return entity == null || entity.equals(sourceEntity);
    }

    public Map<String, AttributeValue> toAttributes() {
        var out = new LinkedHashMap<String, AttributeValue>();
        out.put("scope", AttributeValue.fromS(kind()));
        if (entity != null) {
            out.put("entity", AttributeValue.fromS(entity));
        }
        if (id != null) {
            out.put("id", AttributeValue.fromS(id));
        }
        out.put("rate", AttributeValue.fromN(Integer.toString(rate)));
        return out;
    }

    public static ReconcileScope fromAttributes(Map<String, AttributeValue> target) {
        AttributeValue entity = target.get("entity");
        AttributeValue id = target.get("id");
        return new ReconcileScope(entity == null ? null : entity.s(), id == null ? null : id.s(),
                Integer.parseInt(target.get("rate").n()));
    }
}
