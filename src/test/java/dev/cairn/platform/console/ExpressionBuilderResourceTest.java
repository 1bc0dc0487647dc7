package dev.cairn.platform.console;

import dev.cairn.core.expr.builder.BuilderSpec;
import dev.cairn.core.expr.builder.Clause;
import dev.cairn.core.expr.builder.Operand;
import dev.cairn.core.expr.builder.UpdateAction;
import dev.cairn.platform.DemoData;
import io.quarkus.arc.All;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

/** The builder's console API: its answers to bad input, its bounds, its pages, and the access patterns it opens. */
@QuarkusTest
class ExpressionBuilderResourceTest {

    private static final String PROBLEM = "application/problem+json";

    @Inject
    @All
    List<DemoData> demoData;

    @BeforeEach
    void demo() {
        DemoDataOnce.ensure(demoData);
    }

    static Operand s(String text) {
        return Operand.of("S", text);
    }

    static io.restassured.response.ValidatableResponse post(String path, Object body) {
        return given().contentType(ContentType.JSON).body(body).post("/console/api/builder/" + path).then();
    }

    @Test
    void theShapeNamesTheKeysOfTheTableAndItsIndexesAndTheModelsTypes() {
        given().get("/console/api/builder/shape").then().statusCode(200).header("X-DynamoDB-Calls", "0")
                .body("table", equalTo("cairn")).body("targets.name", hasItems("table", "gsi1", "gsi4"))
                .body("targets.find { it.name == 'gsi1' }.partition", equalTo(List.of("gsi1pk")))
                .body("keyTypes.pk", equalTo("S")).body("attributes.year.type", equalTo("N"))
                .body("attributes.year.entities", hasItems("Student.year")).body("attributes._version.type", equalTo("N"))
                .body("maxLimit", equalTo(100));
    }

    @Test
    void badInputIsAProblemNamingEachFieldAndCallsNothing() {
        var spec = BuilderSpec.query("gsi7", List.of(Clause.test("pk", "begins_with", s("WS#"))));
        JsonPath problem = post("render", spec).statusCode(400).contentType(PROBLEM).header("X-DynamoDB-Calls", "0")
                .body("code", equalTo("ValidationFailed")).extract().jsonPath();
        assertThat(problem.getList("errors.field", String.class)).containsExactly("index");
        JsonPath range = post("run", BuilderSpec.query(null, List.of(Clause.test("pk", "begins_with", s("WS#")))))
                .statusCode(400).contentType(PROBLEM).header("X-DynamoDB-Calls", "0").extract().jsonPath();
        assertThat(range.getList("errors.field", String.class)).containsExactly("key[0].op");
        assertThat(range.getString("detail")).contains("pk is the partition key");

        given().contentType(ContentType.JSON).body("{\"operation\": \"Query\", \"key\": [").post("/console/api/builder/render")
                .then().statusCode(400).contentType(PROBLEM);
        given().contentType(ContentType.JSON).body("{\"operation\": \"Query\", \"limit\": \"many\"}").post("/console/api/builder/render")
                .then().statusCode(400).contentType(PROBLEM);
        given().contentType(ContentType.JSON).post("/console/api/builder/render").then().statusCode(400).contentType(PROBLEM);
        given().contentType(ContentType.TEXT).body("Query").post("/console/api/builder/render").then().statusCode(415);
    }

    @Test
    void aWriteIsShownAndNeverRun() {
        var write = BuilderSpec.update(List.of(Clause.test("pk", "=", s("STU#a91")), Clause.test("sk", "=", s("PROFILE"))),
                Clause.test("pk", "attribute_exists"), List.of(UpdateAction.set("name", s("Changed"))));
        post("render", write).statusCode(200).header("X-DynamoDB-Calls", "0").body("runnable", equalTo(false))
                .body("request.UpdateExpression", equalTo("SET #name = :name")).body("reserved", equalTo(List.of("name")));
        post("run", write).statusCode(400).contentType(PROBLEM).header("X-DynamoDB-Calls", "0")
                .body("errors[0].field", equalTo("operation"));
        given().get("/students/a91").then().statusCode(200).body("name", equalTo("Ada Quinn"));
    }

    @Test
    void aReadIsOnePageOfOneCallAtMostAHundredItems() {
        post("run", BuilderSpec.query(null, List.of(Clause.test("pk", "=", s("MATCH#bgt-2025-test-1")))).withLimit(101))
                .statusCode(400).contentType(PROBLEM).body("errors[0].field", equalTo("limit"));
        // The items come from the API: a workspace and its projects.
        String ws = "builder-" + UUID.randomUUID().toString().substring(0, 8);
        given().contentType(ContentType.JSON).body("{\"id\":\"" + ws + "\",\"displayName\":\"W\",\"region\":\"eu-west-1\",\"seatLimit\":5}")
                .post("/workspaces").then().statusCode(201);
        for (int i = 0; i < 5; i++) {
            given().contentType(ContentType.JSON).body("{\"title\":\"P" + i + "\",\"status\":\"ACTIVE\",\"createdBy\":\"ann\"}")
                    .post("/workspaces/{id}/projects", ws).then().statusCode(201);
        }
        var spec = BuilderSpec.query(null, List.of(Clause.test("pk", "=", s("WS#" + ws)), Clause.test("sk", "begins_with", s("PROJ#"))))
                .withLimit(2).withOrder(true);
        var seen = new ArrayList<String>();
        String cursor = null;
        int pages = 0;
        do {
            var request = given().contentType(ContentType.JSON).body(spec);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            JsonPath page = request.post("/console/api/builder/run").then().statusCode(200).header("X-DynamoDB-Calls", "1")
                    .body("consumedCapacity", notNullValue()).extract().jsonPath();
            assertThat(page.getList("items")).hasSizeLessThanOrEqualTo(2);
            seen.addAll(page.getList("items.sk.S", String.class));
            cursor = page.getString("next");
            pages++;
        } while (cursor != null && pages < 10);
        assertThat(seen).hasSize(5).doesNotHaveDuplicates().isSortedAccordingTo(java.util.Comparator.reverseOrder());

        // A cursor opens the read that made it only.
        String next = post("run", spec).statusCode(200).extract().path("next");
        given().contentType(ContentType.JSON).body(BuilderSpec.query(null, List.of(Clause.test("pk", "=", s("WS#acme")))).withLimit(2))
                .queryParam("cursor", next).post("/console/api/builder/run").then().statusCode(400).contentType(PROBLEM)
                .body("code", equalTo("InvalidCursor"));
    }

    @Test
    void aScanReadsOnePageAtATimeAndItsCursorWalksTheTable() {
        var scan = new BuilderSpec("Scan", null, List.of(), Clause.test("sk", "=", s("METADATA")), List.of("pk", "title"),
                false, 100, false, null, null, null);
        var partitions = new HashSet<String>();
        String cursor = null;
        int pages = 0;
        do {
            var request = given().contentType(ContentType.JSON).body(scan);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            JsonPath page = request.post("/console/api/builder/run").then().statusCode(200).header("X-DynamoDB-Calls", "1")
                    .extract().jsonPath();
            assertThat(page.getInt("scanned")).isLessThanOrEqualTo(100);
            partitions.addAll(page.getList("items.pk.S", String.class));
            cursor = page.getString("next");
            pages++;
        } while (cursor != null && !partitions.contains("CRS#math204") && pages < 500);
        assertThat(partitions).contains("CRS#math204");
    }

    @Test
    void aGetItemReadsOneItemAndNoneWhenAbsent() {
        var get = new BuilderSpec("GetItem", null, List.of(Clause.test("pk", "=", s("CRS#math204")), Clause.test("sk", "=", s("METADATA"))),
                null, List.of("title"), false, null, true, null, null, null);
        post("run", get).statusCode(200).header("X-DynamoDB-Calls", "1").body("items[0].title.S", equalTo("Linear Algebra"))
                .body("next", nullValue());
        var absent = new BuilderSpec("GetItem", null, List.of(Clause.test("pk", "=", s("CRS#nothing")), Clause.test("sk", "=", s("METADATA"))),
                null, null, false, null, false, null, null, null);
        post("run", absent).statusCode(200).body("items", equalTo(List.of())).body("count", equalTo(0));
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyAccessPatternOpensInTheBuilderAsTheRequestItSends() {
        List<Map<String, Object>> patterns = given().get("/console/api/access-patterns").then().statusCode(200)
                .extract().jsonPath().getList("$");
        List<Map<String, Object>> published = given().get("/access-patterns").then().statusCode(200).extract().jsonPath().getList("$");
        assertThat(patterns).hasSizeGreaterThanOrEqualTo(20).hasSameSizeAs(published);
        for (int i = 0; i < patterns.size(); i++) {
            Map<String, Object> pattern = patterns.get(i);
            String name = (String) pattern.get("name");
            Map<String, Object> request = (Map<String, Object>) pattern.get("request");
            Map<String, Object> rendered = given().contentType(ContentType.JSON).body(pattern.get("builder"))
                    .post("/console/api/builder/render").then().log().ifValidationFails().statusCode(200).extract().jsonPath()
                    .getMap("request");
            for (String member : List.of("TableName", "IndexName", "Key", "KeyConditionExpression", "ProjectionExpression",
                    "ExpressionAttributeNames", "ExpressionAttributeValues", "ScanIndexForward")) {
                assertThat(rendered.get(member)).as(name + ": " + member).isEqualTo(request.get(member));
            }
            // A pattern reading more than a console page (an aggregate's whole partition) opens with the console's page.
            assertThat(rendered.get("Limit")).as(name + ": Limit").isEqualTo(request.get("Limit") == null ? null
                    : Math.min((Integer) request.get("Limit"), 100));
            if (request.get("FilterExpression") != null) {
                assertThat(rendered.get("FilterExpression")).as(name).isNotNull();
            }
            // The published list carries the very snippets the console shows.
            assertThat(published.get(i).get("snippets")).as(name).isEqualTo(pattern.get("snippets"));
            assertThat(((Map<String, String>) pattern.get("snippets")).get("cli")).as(name).startsWith("aws dynamodb ");
        }
    }
}
