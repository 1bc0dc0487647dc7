package dev.cairn.core.model;

import dev.cairn.core.model.FieldModel.Kind;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Refs that embed a WHOLE copy of the entity they name ({@code refs: { playerId: { entity: Player, embed: player } }}):
 * the body names the id, the answer carries the entity under {@code embed}. The copy is found, as every whole copy
 * is, on the referenced entity's {@code copies:} index, so the entity must declare one, and the embedding entity must
 * write that key: a keyed index on that gsi partitioned by the entity's own key with the ref's id
 * ({@code PLAYER#{playerId}}).
 */
final class EmbeddedRefs {

    private static final Pattern FIELD = Pattern.compile("[a-z][A-Za-z0-9]*");

    private EmbeddedRefs() {
    }

    /** Reads {@code embed: <field>} and adds that field (an object of the entity's fields, server-set). */
    static String embed(String file, Node node, String where, String refField, String target, boolean conflicting,
                        List<FieldModel> targetFields, List<FieldModel> fields) {
        int line = node.getStartMark().getLine() + 1;
        if (!(node instanceof ScalarNode scalar) || !FIELD.matcher(scalar.getValue()).matches()) {
            throw new ModelException(file, line, where, "names the field that holds the whole copy (a lower-case word)");
        }
        String embed = scalar.getValue();
        if (conflicting) {
            throw new ModelException(file, line, where, "a ref embeds the whole entity or copies some fields ('copy'), "
                    + "and an actor is not embedded");
        }
        if (embed.equals(refField) || fields.stream().anyMatch(f -> f.name().equals(embed))) {
            throw new ModelException(file, line, where, "'" + embed + "' is a field already: the copy needs a name of its own");
        }
        fields.add(new FieldModel(embed, Kind.OBJECT, false, null, null, null, null, null, null, List.copyOf(targetFields),
                null, null, null, null, true, line, target));   // its schema: the entity's answer (a $ref in the API document)
        return embed;
    }

    /** After every entity is read: each embedded entity declares its copies' index, and the embedder writes its key. */
    static void check(String file, Map<String, EntityModel> entities) {
        for (EntityModel entity : entities.values()) {
            for (RefModel ref : entity.refs()) {
                if (ref.embed() == null) {
                    continue;
                }
                String where = "entities." + entity.name() + ".refs." + ref.field();
                if (entity.parent() != null || entity.refs().stream().anyMatch(r -> r.embed() == null)) {
                    throw new ModelException(file, ref.line(), where, "an entity that embeds whole copies has only "
                            + "embedding refs and no parent entity (not supported yet)");
                }
                CopiesModel copies = entities.get(ref.entity()).copies();
                if (copies == null) {
                    throw new ModelException(file, ref.line(), where, "whole copies of " + ref.entity() + " must be "
                            + "findable for its cascade: give " + ref.entity() + " 'copies: { index: gsiN }'");
                }
                boolean keyed = entity.keyedIndexes().stream().anyMatch(index -> index.index() == copies.index()
                        && index.pk().fieldNames().equals(List.of(ref.field()))
                        && index.pk().prefix().equals(copies.key().prefix()) && index.shards() == 1);
                if (!keyed) {
                    throw new ModelException(file, ref.line(), where, "a whole copy of " + ref.entity() + " is found on "
                            + copies.index().name().toLowerCase(java.util.Locale.ROOT) + " under the entity's key: declare "
                            + "an index { index: " + copies.index().name().toLowerCase(java.util.Locale.ROOT) + ", pk: \""
                            + copies.key().prefix() + "{" + ref.field() + "}\", sk: ... }");
                }
            }
        }
    }
}
