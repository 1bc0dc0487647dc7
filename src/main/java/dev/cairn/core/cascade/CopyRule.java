package dev.cairn.core.cascade;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;

/** How one copy attribute is rendered from the source's fields: the whole entity, or one display field. */
@FunctionalInterface
public interface CopyRule {

    AttributeValue render(Map<String, AttributeValue> sourceFields);

    /** Whether the copy in {@code current} is a copy of the source with this id (a whole copy names its id). */
    default boolean copies(AttributeValue current, String sourceId) {
        return current == null || current.m() == null || current.m().get("id") == null
                || sourceId.equals(current.m().get("id").s());
    }

    /**
     * The id of the source the copy in {@code attribute} was taken from, or null when the item does not say: a
     * whole copy names it; a display field's item names it in another attribute ({@link #field(String, String)}).
     */
    default String sourceId(Map<String, AttributeValue> item, String attribute) {
        AttributeValue copy = item.get(attribute);
        AttributeValue id = copy == null || copy.m() == null ? null : copy.m().get("id");
        return id == null ? null : id.s();
    }

    static CopyRule whole() {
        return AttributeValue::fromM;
    }

    /** A display field: the copy attribute holds the value of one source field (e.g. a course title). */
    static CopyRule field(String sourceField) {
        return new CopyRule() {
            public AttributeValue render(Map<String, AttributeValue> sourceFields) {
                return sourceFields.get(sourceField);
            }

            public boolean copies(AttributeValue current, String sourceId) {
                return true;
            }
        };
    }

    /** A display field whose item names its source's id in {@code idAttribute} (an edge's {@code courseId}). */
    static CopyRule field(String sourceField, String idAttribute) {
        CopyRule display = field(sourceField);
        return new CopyRule() {
            public AttributeValue render(Map<String, AttributeValue> sourceFields) {
                return display.render(sourceFields);
            }

            public boolean copies(AttributeValue current, String sourceId) {
                return true;
            }

            public String sourceId(Map<String, AttributeValue> item, String attribute) {
                AttributeValue id = item.get(idAttribute);
                return id == null ? null : id.s();
            }
        };
    }
}
