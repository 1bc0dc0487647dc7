package dev.cairn.core.model;

import dev.cairn.core.model.AggregateModel.Child;
import dev.cairn.core.model.AggregateModel.Node;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An aggregate's input shape as fields, so the one set of field rules ({@link FieldRules}) checks a body: refs and
 * copies are ids ({@code <name>Id}), members and parts objects, lists lists of objects.
 */
public final class AggregateInputs {

    private AggregateInputs() {
    }

    /** The input fields of a node, in declaration order. */
    public static List<FieldModel> fieldsOf(Node node, Map<String, EntityModel> entities) {
        var out = new ArrayList<FieldModel>();
        for (Child child : node.children()) {
            out.add(switch (child.kind()) {
                case FIELD -> child.field();
                case REF -> id(child.inputName(), true, child.line());
                case COPY -> id(child.inputName(), !child.optional(), child.line());
                case ONE, PART -> object(child.name(), fieldsOf(child.node(), entities), !child.optional(), child.line());
                case MANY -> new FieldModel(child.name(), FieldModel.Kind.LIST, !child.optional(), null, child.maxItems(), null, null,
                        null, null, null, object("items", fieldsOf(child.node(), entities), true, child.line()), null, null,
                        null, false, child.line());
            });
        }
        return out;
    }

    private static FieldModel id(String name, boolean required, int line) {
        return new FieldModel(name, FieldModel.Kind.ID, required, null, null, null, null, null, null, null, null, null,
                null, null, false, line);
    }

    private static FieldModel object(String name, List<FieldModel> fields, boolean required, int line) {
        return new FieldModel(name, FieldModel.Kind.OBJECT, required, null, null, null, null, null, null, fields, null,
                null, null, null, false, line);
    }
}
