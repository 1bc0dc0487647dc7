package dev.cairn.platform;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The OpenAPI 3.0.3 spelling of the served 3.1 document, for tools that read 3.0 well and 3.1 badly (openapi-generator
 * 7.10, for one, makes a Java model of {@code additionalProperties: false} a {@code HashMap} that serializes as
 * {@code {}}). Same paths, operations, statuses, headers and schemas; only these spellings change:
 * <ul>
 *   <li>{@code type: [T, "null"]} becomes {@code type: T, nullable: true} (an enum keeps its {@code null}: 3.0.3
 *       accepts null for an enum only when the list has it); several types become an {@code anyOf} of one each;
 *   <li>{@code anyOf}/{@code oneOf} with a {@code {type: "null"}} member lose it and become {@code nullable: true};
 *       one member left is written {@code allOf: [it]}, the 3.0 way to give a {@code $ref} siblings, beside its
 *       type (3.0.3 honours {@code nullable} only next to a {@code type});
 *   <li>a schema {@code $ref} with sibling keywords becomes {@code allOf: [{$ref}]} beside them (3.0 ignores a
 *       {@code $ref}'s siblings); any other reference object keeps only its {@code $ref};
 *   <li>a schema's {@code examples: [x, ...]} becomes {@code example: x}; {@code const: x} becomes
 *       {@code enum: [x]}; a numeric {@code exclusiveMinimum}/{@code exclusiveMaximum} becomes the bound plus
 *       {@code true};
 *   <li>{@code jsonSchemaDialect}, {@code info.summary}, {@code license.identifier}, {@code $schema} and
 *       {@code $comment} are left out (3.0 has no place for them; none changes what is valid).
 * </ul>
 * A construct 3.0 cannot say (webhooks, {@code prefixItems}, {@code if}/{@code then}, {@code type: "null"} alone,
 * ...) is refused with an {@link IllegalArgumentException}: the contract test then fails rather than a tool reading
 * a document that says less than the service does.
 */
public final class OpenApi30Rendition {

    public static final String VERSION = "3.0.3";

    /** JSON Schema keywords with no OpenAPI 3.0 equivalent. */
    private static final Set<String> UNSAYABLE_IN_SCHEMA = Set.of("prefixItems", "if", "then", "else",
            "dependentRequired", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems", "patternProperties",
            "propertyNames", "contains", "minContains", "maxContains", "$defs", "$id", "$anchor", "$dynamicRef",
            "$dynamicAnchor", "contentMediaType", "contentEncoding", "contentSchema");
    /** Annotations only: leaving them out changes no answer's validity. */
    private static final Set<String> DROPPED_IN_SCHEMA = Set.of("$schema", "$comment");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String SCHEMA_REF = "#/components/schemas/";

    /** The source document's named schemas, to read the type a {@code $ref} stands for. */
    private final JsonNode namedSchemas;

    private OpenApi30Rendition(JsonNode namedSchemas) {
        this.namedSchemas = namedSchemas;
    }

    /** The 3.0.3 rendition of a 3.1 document; the argument is not changed. */
    public static ObjectNode of(JsonNode document) {
        if (!document.path("openapi").asText().startsWith("3.1")) {
            throw new IllegalArgumentException("not an OpenAPI 3.1 document: " + document.path("openapi"));
        }
        if (document.has("webhooks")) {
            throw new IllegalArgumentException("OpenAPI 3.0 has no webhooks");
        }
        if (document.path("components").has("pathItems")) {
            throw new IllegalArgumentException("OpenAPI 3.0 has no components.pathItems");
        }
        var rendition = new OpenApi30Rendition(document.path("components").path("schemas"));
        ObjectNode out = document.deepCopy();
        out.put("openapi", VERSION);
        out.remove("jsonSchemaDialect");
        if (out.get("info") instanceof ObjectNode info) {
            info.remove("summary");
            if (info.get("license") instanceof ObjectNode license) {
                license.remove("identifier");
            }
        }
        if (out.get("components") instanceof ObjectNode components && components.get("schemas") instanceof ObjectNode schemas) {
            schemas.fields().forEachRemaining(entry -> entry.setValue(rendition.schema(entry.getValue(), SCHEMA_REF + entry.getKey())));
        }
        for (Map.Entry<String, JsonNode> part : iterable(out)) {
            if (!part.getKey().equals("components") && !part.getKey().equals("info")) {
                part.setValue(rendition.outsideSchemas(part.getValue(), "#/" + part.getKey()));
            }
        }
        if (out.get("components") instanceof ObjectNode components) {
            for (Map.Entry<String, JsonNode> kind : iterable(components)) {
                if (!kind.getKey().equals("schemas")) {
                    kind.setValue(rendition.outsideSchemas(kind.getValue(), "#/components/" + kind.getKey()));
                }
            }
        }
        return out;
    }

    /** Parameters, media types, headers, responses...: finds the schemas; a reference keeps only its {@code $ref}. */
    private JsonNode outsideSchemas(JsonNode node, String where) {
        if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, outsideSchemas(array.get(i), where + "/" + i));
            }
            return array;
        }
        if (!(node instanceof ObjectNode object)) {
            return node;
        }
        if (object.has("$ref")) {
            object.retain("$ref");
            return object;
        }
        if (object.path("type").asText().equals("mutualTLS")) {
            throw new IllegalArgumentException("OpenAPI 3.0 has no mutualTLS security scheme: " + where);
        }
        for (Map.Entry<String, JsonNode> field : iterable(object)) {
            String key = field.getKey();
            if (key.equals("schema")) {
                field.setValue(schema(field.getValue(), where + "/schema"));
            } else if (!key.startsWith("x-") && !key.equals("example") && !key.equals("value")) {
                // example values are data, not document structure
                field.setValue(outsideSchemas(field.getValue(), where + "/" + key));
            }
        }
        return object;
    }

    private JsonNode schema(JsonNode node, String where) {
        if (!(node instanceof ObjectNode schema)) {
            return node; // true/false schemas do not occur in a generated document; left as they are
        }
        for (String keyword : UNSAYABLE_IN_SCHEMA) {
            if (schema.has(keyword)) {
                throw new IllegalArgumentException("OpenAPI 3.0 cannot say " + keyword + ": " + where);
            }
        }
        DROPPED_IN_SCHEMA.forEach(schema::remove);
        if (schema.has("$ref") && schema.size() > 1) {
            ObjectNode ref = NODES.objectNode().set("$ref", schema.remove("$ref"));
            schema.set("allOf", NODES.arrayNode().add(ref));
        }
        types(schema, where);
        nullMembers(schema, "anyOf", where);
        nullMembers(schema, "oneOf", where);
        if (schema.get("examples") instanceof ArrayNode examples) {
            schema.remove("examples");
            if (!examples.isEmpty()) {
                schema.set("example", examples.get(0));
            }
        }
        if (schema.has("const")) {
            schema.set("enum", NODES.arrayNode().add(schema.remove("const")));
        }
        exclusiveBound(schema, "exclusiveMinimum", "minimum", true);
        exclusiveBound(schema, "exclusiveMaximum", "maximum", false);

        if (schema.get("properties") instanceof ObjectNode properties) {
            properties.fields().forEachRemaining(p -> p.setValue(schema(p.getValue(), where + "/properties/" + p.getKey())));
        }
        for (String single : List.of("items", "additionalProperties", "not")) {
            if (schema.get(single) instanceof ObjectNode sub) {
                schema.set(single, schema(sub, where + "/" + single));
            }
        }
        for (String many : List.of("allOf", "anyOf", "oneOf")) {
            if (schema.get(many) instanceof ArrayNode members) {
                for (int i = 0; i < members.size(); i++) {
                    members.set(i, schema(members.get(i), where + "/" + many + "/" + i));
                }
            }
        }
        return schema;
    }

    private static void types(ObjectNode schema, String where) {
        JsonNode type = schema.get("type");
        if (type == null) {
            return;
        }
        var named = new ArrayList<String>();
        boolean nullable = false;
        for (JsonNode each : type.isArray() ? type : List.of(type)) {
            if (each.asText().equals("null")) {
                nullable = true;
            } else {
                named.add(each.asText());
            }
        }
        if (named.isEmpty()) {
            throw new IllegalArgumentException("OpenAPI 3.0 has no type null: " + where);
        }
        if (named.size() == 1) {
            schema.put("type", named.get(0));
        } else {
            // keywords of one type (maxLength, minimum...) apply only to values of that type, so they stay outside
            schema.remove("type");
            if (schema.has("anyOf")) {
                throw new IllegalArgumentException("several types beside an anyOf: " + where);
            }
            ArrayNode anyOf = schema.putArray("anyOf");
            named.forEach(name -> anyOf.addObject().put("type", name));
        }
        if (nullable) {
            schema.put("nullable", true);
        }
    }

    private void nullMembers(ObjectNode schema, String combinator, String where) {
        if (!(schema.get(combinator) instanceof ArrayNode members)) {
            return;
        }
        var rest = NODES.arrayNode();
        boolean nullable = false;
        for (JsonNode member : members) {
            if (isNullOnly(member)) {
                nullable = true;
            } else {
                rest.add(member);
            }
        }
        if (!nullable) {
            return;
        }
        if (rest.isEmpty()) {
            throw new IllegalArgumentException("OpenAPI 3.0 has no type null: " + where);
        }
        schema.remove(combinator);
        if (rest.size() == 1 && !schema.has("allOf")) {
            schema.set("allOf", rest);
            // 3.0.3: nullable counts only beside a type, so the member's own type is repeated here
            String type = typeOf(rest.get(0));
            if (type != null && !schema.has("type")) {
                schema.put("type", type);
            }
        } else {
            schema.set(combinator, rest);
        }
        schema.put("nullable", true);
    }

    /** The one non-null type of a schema, or of the named schema its {@code $ref} points at; null if none. */
    private String typeOf(JsonNode member) {
        JsonNode target = member;
        String ref = member.path("$ref").asText();
        if (ref.startsWith(SCHEMA_REF)) {
            target = namedSchemas.path(ref.substring(SCHEMA_REF.length()));
        }
        var types = new ArrayList<String>();
        for (JsonNode type : target.path("type").isArray() ? target.path("type") : List.of(target.path("type"))) {
            if (type.isTextual() && !type.asText().equals("null")) {
                types.add(type.asText());
            }
        }
        return types.size() == 1 ? types.get(0) : null;
    }

    private static boolean isNullOnly(JsonNode member) {
        if (member.size() != 1 || !member.has("type")) {
            return false;
        }
        JsonNode type = member.get("type");
        return type.asText().equals("null") || type.isArray() && type.size() == 1 && type.get(0).asText().equals("null");
    }

    /** 3.1's {@code exclusiveMinimum: 5} is 3.0's {@code minimum: 5, exclusiveMinimum: true}; the stricter bound wins. */
    private static void exclusiveBound(ObjectNode schema, String exclusive, String bound, boolean lower) {
        JsonNode limit = schema.get(exclusive);
        if (limit == null || !limit.isNumber()) {
            return;
        }
        JsonNode inclusive = schema.get(bound);
        int order = inclusive == null ? 0 : inclusive.decimalValue().compareTo(limit.decimalValue());
        if (inclusive != null && (lower ? order > 0 : order < 0)) {
            schema.remove(exclusive); // the inclusive bound already excludes the exclusive one
            return;
        }
        schema.set(bound, limit);
        schema.put(exclusive, true);
    }

    /** The fields of an object, safe to replace values while iterating. */
    private static List<Map.Entry<String, JsonNode>> iterable(ObjectNode object) {
        var fields = new ArrayList<Map.Entry<String, JsonNode>>();
        object.fields().forEachRemaining(fields::add);
        return fields;
    }
}
