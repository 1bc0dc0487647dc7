package dev.cairn.platform;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The 3.0 spelling rules, one by one, and their result on the committed contract. */
class OpenApi30RenditionTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theDocumentSaysItIs303AndDropsWhat30HasNoPlaceFor() throws Exception {
        var out = OpenApi30Rendition.of(document("""
                {"openapi": "3.1.0", "jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
                 "info": {"title": "t", "version": "1", "summary": "s",
                          "license": {"name": "Apache-2.0", "identifier": "Apache-2.0"}}, "paths": {}}"""));
        assertThat(out.path("openapi").asText()).isEqualTo("3.0.3");
        assertThat(out.has("jsonSchemaDialect")).isFalse();
        assertThat(out.path("info").has("summary")).isFalse();
        assertThat(out.path("info").path("license")).isEqualTo(document("{\"name\": \"Apache-2.0\"}"));
        assertThat(out.path("info").path("title").asText()).isEqualTo("t");
    }

    @Test
    void aTypeWithNullIsTheTypeMadeNullableAndAnEnumKeepsItsNull() throws Exception {
        assertThat(converted("{\"type\": [\"string\", \"null\"], \"maxLength\": 3}"))
                .isEqualTo(document("{\"type\": \"string\", \"nullable\": true, \"maxLength\": 3}"));
        assertThat(converted("{\"type\": [\"string\", \"null\"], \"enum\": [\"a\", null]}"))
                .isEqualTo(document("{\"type\": \"string\", \"nullable\": true, \"enum\": [\"a\", null]}"));
        assertThat(converted("{\"type\": [\"integer\"]}")).isEqualTo(document("{\"type\": \"integer\"}"));
        assertThat(converted("{\"type\": [\"string\", \"integer\", \"null\"]}")).isEqualTo(document(
                "{\"anyOf\": [{\"type\": \"string\"}, {\"type\": \"integer\"}], \"nullable\": true}"));
    }

    @Test
    void aNullMemberOfAnyOfOrOneOfMakesTheRestNullable() throws Exception {
        // the referenced schema's type is repeated: 3.0.3 honours nullable only beside a type
        assertThat(converted("{\"anyOf\": [{\"$ref\": \"#/components/schemas/Role\"}, {\"type\": \"null\"}]}"))
                .isEqualTo(document("{\"type\": \"string\", \"allOf\": [{\"$ref\": \"#/components/schemas/Role\"}], \"nullable\": true}"));
        assertThat(converted("{\"anyOf\": [{\"$ref\": \"#/components/schemas/Elsewhere\"}, {\"type\": \"null\"}]}"))
                .isEqualTo(document("{\"allOf\": [{\"$ref\": \"#/components/schemas/Elsewhere\"}], \"nullable\": true}"));
        assertThat(converted("{\"oneOf\": [{\"type\": \"string\"}, {\"type\": \"integer\"}, {\"type\": \"null\"}]}"))
                .isEqualTo(document("{\"oneOf\": [{\"type\": \"string\"}, {\"type\": \"integer\"}], \"nullable\": true}"));
        assertThat(converted("{\"anyOf\": [{\"type\": \"string\"}, {\"type\": \"integer\"}]}"))
                .isEqualTo(document("{\"anyOf\": [{\"type\": \"string\"}, {\"type\": \"integer\"}]}"));
    }

    @Test
    void aRefWithSiblingsIsWrappedInAllOf() throws Exception {
        assertThat(converted("{\"$ref\": \"#/components/schemas/Venue\", \"description\": \"where\"}"))
                .isEqualTo(document("{\"allOf\": [{\"$ref\": \"#/components/schemas/Venue\"}], \"description\": \"where\"}"));
        assertThat(converted("{\"$ref\": \"#/components/schemas/Venue\"}"))
                .isEqualTo(document("{\"$ref\": \"#/components/schemas/Venue\"}"));
    }

    @Test
    void examplesConstAndNumericExclusiveBoundsAreSpelledThe30Way() throws Exception {
        assertThat(converted("{\"type\": \"string\", \"format\": \"date\", \"examples\": [\"2022-03-10\", \"2023-01-01\"]}"))
                .isEqualTo(document("{\"type\": \"string\", \"format\": \"date\", \"example\": \"2022-03-10\"}"));
        assertThat(converted("{\"const\": \"done\"}")).isEqualTo(document("{\"enum\": [\"done\"]}"));
        assertThat(converted("{\"type\": \"number\", \"exclusiveMinimum\": 0, \"exclusiveMaximum\": 10}")).isEqualTo(document(
                "{\"type\": \"number\", \"minimum\": 0, \"exclusiveMinimum\": true, \"maximum\": 10, \"exclusiveMaximum\": true}"));
        // an inclusive bound that is already stricter stays, and the looser exclusive one goes
        assertThat(converted("{\"type\": \"integer\", \"minimum\": 5, \"exclusiveMinimum\": 0}"))
                .isEqualTo(document("{\"type\": \"integer\", \"minimum\": 5}"));
        assertThat(converted("{\"type\": \"integer\", \"minimum\": 0, \"exclusiveMinimum\": 0}"))
                .isEqualTo(document("{\"type\": \"integer\", \"minimum\": 0, \"exclusiveMinimum\": true}"));
    }

    @Test
    void nestedSchemasAreConvertedButPropertyNamesAndExampleValuesAreNot() throws Exception {
        var out = converted("""
                {"type": "object", "properties": {
                   "type": {"type": ["string", "null"]},
                   "examples": {"type": "array", "items": {"type": ["integer", "null"]}},
                   "tags": {"type": "object", "additionalProperties": {"type": ["string", "null"]}}},
                 "example": {"type": ["kept", "null"]}}""");
        assertThat(out.path("properties").path("type")).isEqualTo(document("{\"type\": \"string\", \"nullable\": true}"));
        assertThat(out.path("properties").path("examples").path("items"))
                .isEqualTo(document("{\"type\": \"integer\", \"nullable\": true}"));
        assertThat(out.path("properties").path("tags").path("additionalProperties").path("nullable").asBoolean()).isTrue();
        assertThat(out.path("example")).isEqualTo(document("{\"type\": [\"kept\", \"null\"]}"));
    }

    @Test
    void schemasOfParametersHeadersAndBodiesAreConvertedAndReferencesKeepOnlyTheirRef() throws Exception {
        var out = OpenApi30Rendition.of(document("""
                {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"get": {
                   "parameters": [{"name": "cursor", "in": "query", "schema": {"type": ["string", "null"]},
                                   "examples": {"one": {"value": {"type": ["not", "a", "schema"]}}}}],
                   "responses": {
                     "200": {"description": "ok",
                             "headers": {"ETag": {"schema": {"type": ["string", "null"]}}},
                             "content": {"application/json": {"schema": {"anyOf": [{"$ref": "#/components/schemas/X"}, {"type": "null"}]}}}},
                     "404": {"$ref": "#/components/responses/NotFound", "description": "3.1 lets a reference say this"}}}}},
                 "components": {"responses": {"NotFound": {"description": "nf",
                     "content": {"application/problem+json": {"schema": {"type": ["object", "null"]}}}}}}}"""));
        var get = out.path("paths").path("/a").path("get");
        assertThat(get.path("parameters").path(0).path("schema")).isEqualTo(document("{\"type\": \"string\", \"nullable\": true}"));
        assertThat(get.path("parameters").path(0).path("examples").path("one").path("value").path("type").isArray()).isTrue();
        assertThat(get.path("responses").path("200").path("headers").path("ETag").path("schema").path("nullable").asBoolean()).isTrue();
        assertThat(get.path("responses").path("200").path("content").path("application/json").path("schema"))
                .isEqualTo(document("{\"allOf\": [{\"$ref\": \"#/components/schemas/X\"}], \"nullable\": true}"));
        assertThat(get.path("responses").path("404")).isEqualTo(document("{\"$ref\": \"#/components/responses/NotFound\"}"));
        assertThat(out.path("components").path("responses").path("NotFound").path("content").path("application/problem+json")
                .path("schema")).isEqualTo(document("{\"type\": \"object\", \"nullable\": true}"));
    }

    @Test
    void whatOpenApi30CannotSayIsRefused() {
        assertThatThrownBy(() -> converted("{\"type\": \"null\"}")).hasMessageContaining("no type null");
        assertThatThrownBy(() -> converted("{\"type\": \"array\", \"prefixItems\": [{\"type\": \"string\"}]}"))
                .hasMessageContaining("prefixItems").hasMessageContaining("#/components/schemas/S");
        assertThatThrownBy(() -> converted("{\"type\": \"string\", \"contentMediaType\": \"image/png\"}"))
                .hasMessageContaining("contentMediaType");
        assertThatThrownBy(() -> OpenApi30Rendition.of(document(
                "{\"openapi\": \"3.1.0\", \"info\": {\"title\": \"t\", \"version\": \"1\"}, \"webhooks\": {}}")))
                .hasMessageContaining("webhooks");
        assertThatThrownBy(() -> OpenApi30Rendition.of(document("{\"openapi\": \"3.0.3\"}")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theInputIsNotChanged() throws Exception {
        var input = document("{\"openapi\": \"3.1.0\", \"components\": {\"schemas\": {\"S\": {\"type\": [\"string\", \"null\"]}}}}");
        var before = input.deepCopy();
        OpenApi30Rendition.of(input);
        assertThat(input).isEqualTo(before);
    }

    /** Fast, without the app: the committed rendition is the committed contract converted, in 3.0 spelling only. */
    @Test
    void theCommittedRenditionIsTheCommittedContractConvertedAndSpeaks30Only() throws Exception {
        JsonNode contract = JSON.readTree(Path.of("src/test/openapi/openapi.json").toFile());
        JsonNode committed = JSON.readTree(Path.of("src/test/openapi/openapi-3.0.json").toFile());
        assertThat(OpenApi30Rendition.of(contract)).isEqualTo(committed);
        assertThat(committed.path("paths").size()).isEqualTo(contract.path("paths").size()).isGreaterThan(30);
        var leftovers = new ArrayList<String>();
        thirtyOneSpellings(committed.path("components").path("schemas"), "#/components/schemas", leftovers);
        assertThat(leftovers).isEmpty();
        assertThat(committed.toString()).doesNotContain("\"type\":\"null\"").doesNotContain("\"type\":[");
    }

    private static void thirtyOneSpellings(JsonNode node, String where, List<String> found) {
        if (node.isObject()) {
            node.fields().forEachRemaining(field -> {
                String key = field.getKey();
                JsonNode value = field.getValue();
                if (key.equals("examples") && value.isArray() || key.equals("const") || key.equals("$schema")
                        || key.startsWith("exclusiveM") && value.isNumber()) {
                    found.add(where + "/" + key);
                }
                thirtyOneSpellings(value, where + "/" + key, found);
            });
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                thirtyOneSpellings(node.get(i), where + "/" + i, found);
            }
        }
    }

    private static JsonNode converted(String schema) throws Exception {
        ObjectNode document = (ObjectNode) document("{\"openapi\": \"3.1.0\", \"info\": {\"title\": \"t\", \"version\": \"1\"},"
                + " \"paths\": {}, \"components\": {\"schemas\": {\"S\": " + schema + ","
                + " \"Role\": {\"type\": \"string\", \"enum\": [\"batter\", \"bowler\"]}}}}");
        return OpenApi30Rendition.of(document).path("components").path("schemas").path("S");
    }

    private static JsonNode document(String json) throws Exception {
        return JSON.readTree(json);
    }
}
