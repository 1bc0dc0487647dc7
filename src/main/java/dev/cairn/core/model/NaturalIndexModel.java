package dev.cairn.core.model;

import dev.cairn.core.NaturalIndex;

import java.util.List;

/**
 * A named index an entity declares on its own fields ({@code indexes: { name: { pk: [a, b], sk: [c] } }}): the table's
 * {@link NaturalIndex} of that name, the fields of its partition and sort attributes, and the listing route that
 * queries it, if any ({@code list}: its path's parameters are the partition fields; the sort fields are query
 * parameters, see {@link DeclaredEntity#naturalQuery}).
 */
public record NaturalIndexModel(NaturalIndex index, List<FieldModel> partition, List<FieldModel> sort, ListModel list,
                                int line) {

    public NaturalIndexModel {
        partition = List.copyOf(partition);
        sort = List.copyOf(sort);
    }

    public String name() {
        return index.name();
    }

    /** The query parameter that sets a sort field equal to a value: the field's name. */
    public static String equalParameter(FieldModel field) {
        return field.name();
    }

    /** The query parameters of a range on a sort field: {@code <field>From} (at least) and {@code <field>To} (at most). */
    public static String fromParameter(FieldModel field) {
        return field.name() + "From";
    }

    public static String toParameter(FieldModel field) {
        return field.name() + "To";
    }

    /** The query parameters of one sort field: equal, at least, at most. */
    public static List<String> sortParametersOf(FieldModel field) {
        return List.of(equalParameter(field), fromParameter(field), toParameter(field));
    }
}
