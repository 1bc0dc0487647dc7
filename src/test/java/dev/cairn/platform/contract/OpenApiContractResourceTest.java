package dev.cairn.platform.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.cairn.platform.Management;
import dev.cairn.platform.OpenApi30Endpoint;
import dev.cairn.platform.OpenApi30Rendition;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.startsWith;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The served OpenAPI document is the committed contract (src/test/openapi/openapi.json, from which the test
 * client is generated), its served 3.0 rendition is the committed one (src/test/openapi/openapi-3.0.json, from which
 * the older generator's client is generated), and the checker that every {@code @QuarkusTest} runs catches each kind
 * of disagreement.
 */
@QuarkusTest
class OpenApiContractResourceTest {

    static final Path SNAPSHOT = Path.of("src/test/openapi/openapi.json");
    static final Path SNAPSHOT_30 = Path.of("src/test/openapi/openapi-3.0.json");
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    @Test
    void theServedDocumentIsTheCommittedContract() throws Exception {
        JsonNode served = ContractEveryRequest.servedDocument();
        Path fresh = Path.of("target/openapi/openapi.json");
        Files.createDirectories(fresh.getParent());
        Files.writeString(fresh, render(served));
        if (Boolean.getBoolean("contract.update")) {
            Files.writeString(SNAPSHOT, render(served));
        }
        assertThat(Files.exists(SNAPSHOT)).as("the committed contract " + SNAPSHOT).isTrue();
        assertThat(render(served))
                .as("the API changed: review target/openapi/openapi.json and commit it as " + SNAPSHOT
                        + " (or run the tests with -Dcontract.update=true)")
                .isEqualTo(render(JSON.readTree(SNAPSHOT.toFile())));
    }

    @Test
    void theServed30RenditionIsTheCommittedOneAndTheServedDocumentConverted() throws Exception {
        var answer = Management.management().get("/q/" + OpenApi30Endpoint.PATH).then().statusCode(200)
                .contentType(startsWith("application/json")).extract().asString();
        JsonNode served = JSON.readTree(answer);
        Path fresh = Path.of("target/openapi/openapi-3.0.json");
        Files.createDirectories(fresh.getParent());
        Files.writeString(fresh, render(served));
        if (Boolean.getBoolean("contract.update")) {
            Files.writeString(SNAPSHOT_30, render(served));
        }
        assertThat(served.path("openapi").asText()).isEqualTo("3.0.3");
        assertThat(served).isEqualTo(OpenApi30Rendition.of(ContractEveryRequest.servedDocument()));
        assertThat(Files.exists(SNAPSHOT_30)).as("the committed rendition " + SNAPSHOT_30).isTrue();
        assertThat(render(served))
                .as("the API changed: review target/openapi/openapi-3.0.json and commit it as " + SNAPSHOT_30
                        + " (or run the tests with -Dcontract.update=true)")
                .isEqualTo(render(JSON.readTree(SNAPSHOT_30.toFile())));
    }

    @Test
    void everyOperationHasAnIdATagASummaryAndNoCatchAllAnswer() {
        JsonNode document = ContractEveryRequest.servedDocument();
        var ids = new java.util.HashSet<String>();
        document.path("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(op -> {
            String where = op.getKey() + " " + path.getKey();
            assertThat(op.getValue().path("operationId").asText()).as(where).isNotBlank();
            assertThat(ids.add(op.getValue().path("operationId").asText())).as("unique id of " + where).isTrue();
            assertThat(op.getValue().path("summary").asText()).as(where).isNotBlank();
            assertThat(op.getValue().path("tags")).as(where).isNotEmpty();
            assertThat(op.getValue().path("responses").has("default")).as(where).isFalse();
        }));
        assertThat(ids).hasSizeGreaterThan(60);
        assertThat(document.path("servers")).isNotEmpty();
        assertThat(document.path("info").path("license").path("name").asText()).isEqualTo("Apache-2.0");
    }

    @Test
    void everyRequestOfTheSuiteIsChecked() {
        assertThat(RestAssured.filters()).anyMatch(OpenApiValidationFilter.class::isInstance);
        long before = OpenApiValidationFilter.CHECKED.get();
        given().get("/teams/{id}", "contract-none-" + UUID.randomUUID()).then().statusCode(404);
        assertThat(OpenApiValidationFilter.CHECKED.get()).isEqualTo(before + 1);
    }

    @Test
    void theCheckerCatchesEachKindOfDisagreement() {
        var contract = OpenApiContract.of(ContractEveryRequest.servedDocument());
        String id = "contract-" + UUID.randomUUID();
        String team = "{\"id\":\"" + id + "\",\"name\":\"Contract XI\",\"country\":\"NZ\",\"ranking\":7}";
        Response created = given().contentType("application/json").body(team).post("/teams").then().statusCode(201).extract().response();
        var request = new OpenApiContract.Request("POST", "/teams", Map.of(), Map.of(), "application/json", team);
        assertThat(contract.check(request, answer(created, created.statusCode(), created.asString())).agrees()).isTrue();

        assertThat(contract.check(request, answer(created, 200, created.asString())).answer())
                .singleElement().asString().contains("status not documented");
        assertThat(contract.check(request, answer(created, 201, created.asString().replace("\"Contract XI\"", "42"))).answer())
                .anyMatch(p -> p.contains("body") && p.contains("name"));
        var withoutLocation = new java.util.LinkedHashMap<>(headers(created));
        withoutLocation.remove("Location");
        assertThat(contract.check(request, new OpenApiContract.Answer(201, created.contentType(), withoutLocation, created.asString())).answer())
                .anyMatch(p -> p.contains("documented header location is not sent"));

        Response deleted = given().delete("/teams/{id}", id).then().statusCode(204).extract().response();
        var delete = new OpenApiContract.Request("DELETE", "/teams/" + id, Map.of(), Map.of(), null, null);
        assertThat(contract.check(delete, answer(deleted, 204, "")).agrees()).isTrue();
        var withETag = new java.util.LinkedHashMap<>(headers(deleted));
        withETag.put("ETag", List.of("\"1\""));
        assertThat(contract.check(delete, new OpenApiContract.Answer(204, null, withETag, "")).answer())
                .anyMatch(p -> p.contains("header ETag is sent but not documented"));

        Response page = given().queryParam("limit", 2).get("/teams/{id}/references", id).then().statusCode(200).extract().response();
        var badLimit = new OpenApiContract.Request("GET", "/teams/" + id + "/references", Map.of("limit", List.of("many")), Map.of(), null, null);
        var verdict = contract.check(badLimit, answer(page, 200, page.asString()));
        assertThat(verdict.request()).anyMatch(p -> p.contains("limit"));
        assertThat(verdict.answer()).anyMatch(p -> p.contains("expected a 4xx problem"));
    }

    private static OpenApiContract.Answer answer(Response response, int status, String body) {
        return new OpenApiContract.Answer(status, response.contentType(), headers(response), body);
    }

    private static Map<String, List<String>> headers(Response response) {
        var out = new java.util.LinkedHashMap<String, List<String>>();
        response.getHeaders().forEach(h -> out.computeIfAbsent(h.getName(), k -> new java.util.ArrayList<>()).add(h.getValue()));
        return out;
    }

    private static String render(JsonNode document) throws Exception {
        return JSON.writeValueAsString(JSON.treeToValue(document, Object.class)) + "\n";
    }
}
