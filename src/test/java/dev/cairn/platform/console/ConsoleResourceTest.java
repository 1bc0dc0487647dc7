package dev.cairn.platform.console;

import dev.cairn.platform.DemoData;
import io.quarkus.arc.All;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.notNullValue;

/** The console's page, script and read-only JSON API, against DynamoDB Local with the demo data. */
@QuarkusTest
class ConsoleResourceTest {

    @Inject
    @All
    List<DemoData> demoData;

    @BeforeEach
    void demo() {
        DemoDataOnce.ensure(demoData);
    }

    @Test
    void thePageAndItsAssetsAreServedFromTheJar() {
        given().accept("text/html").get("/console").then().statusCode(200).contentType(containsString("text/html"))
                .body(containsString("Cairn")).body(containsString("/console/assets/console.js"));
        given().get("/console/assets/console.js").then().statusCode(200).contentType(containsString("javascript"))
                .body(containsString("/console/api/collections"));
        given().get("/console/assets/console.css").then().statusCode(200);
        given().get("/console/assets/../../application.properties").then().statusCode(404);
        given().get("/console/assets/secret.txt").then().statusCode(404).contentType("application/problem+json");
    }

    @Test
    void theOverviewDescribesTheTableInOneCallAndCountsItemsByTypeOnRequest() {
        given().get("/console/api/table").then().statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("keys.partition", equalTo("pk")).body("keys.sort", equalTo("sk"))
                .body("indexes.name", hasItems("gsi1", "gsi2", "gsi3", "gsi4"))
                .body("indexes.find { it.name == 'gsi1' }.keys.partition", equalTo("gsi1pk"))
                // a multi-attribute index (library.yaml's): its attributes in key order
                .body("indexes.find { it.name == 'loansByMemberStatus' }.keys.partition", equalTo("memberId, status"))
                .body("indexes.find { it.name == 'loansByMemberStatus' }.keys.sort", equalTo("due"))
                .body("itemCount", notNullValue());
        given().get("/console/api/type-counts").then().statusCode(200)
                .body("counts.Match", greaterThanOrEqualTo(1)).body("counts.Course", greaterThanOrEqualTo(1))
                .body("scanned", greaterThan(0));
    }

    @Test
    void thePageAndItsAssetsComeWithAStrictContentSecurityPolicyAndNoInlineCode() {
        for (String path : List.of("/console", "/console/assets/console.js", "/console/assets/builder.js",
                "/console/assets/console.css", "/console/api/access-patterns", "/console/api/builder/shape")) {
            String policy = given().get(path).then().statusCode(200).header("X-Content-Type-Options", "nosniff")
                    .header("Referrer-Policy", "no-referrer").extract().header("Content-Security-Policy");
            assertThat(policy).as(path).contains("default-src 'self'", "script-src 'self'", "style-src 'self'",
                    "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'").doesNotContain("unsafe", "*", "data:");
        }
        // What the policy would refuse: inline scripts, inline styles and handlers; the page has none.
        String page = given().get("/console").then().statusCode(200).extract().asString();
        assertThat(page).doesNotContainPattern("<script(?![^>]*\\ssrc=)").doesNotContain("<style")
                .doesNotContainPattern("\\sstyle=").doesNotContainPattern("\\son[a-z]+=").doesNotContain("javascript:");
        for (String asset : List.of("console.js", "builder.js")) {
            String script = given().get("/console/assets/" + asset).then().statusCode(200).extract().asString();
            assertThat(script).as(asset).doesNotContain("setAttribute('style'", "innerHTML", "eval(", "new Function");
        }
        // Only the console's paths: the API's answers are not pages.
        assertThat(given().get("/access-patterns").then().statusCode(200).extract().header("Content-Security-Policy")).isNull();
    }

    @Test
    @SuppressWarnings("unchecked")
    void accessPatternsListTheirKeyConditionsPlaceholdersRequestsAndSnippets() {
        JsonPath patterns = given().get("/console/api/access-patterns").then().statusCode(200)
                .header("X-DynamoDB-Calls", "0").extract().jsonPath();
        Map<String, Object> list = patterns.getMap("find { it.name == 'List projects newest first' }");
        assertThat(list).containsEntry("route", "GET /workspaces/{id}/projects").containsEntry("operation", "Query")
                .containsEntry("table", "cairn").containsEntry("index", "table").containsEntry("runnable", true);
        assertThat((String) list.get("keyCondition")).contains("begins_with");
        assertThat((String) list.get("readableKeyCondition")).isEqualTo("pk = WS#acme AND begins_with(sk, PROJ#)");
        Map<String, Object> roster = patterns.getMap("find { it.route == 'GET /courses/{cid}/students' }");
        assertThat((String) roster.get("readableKeyCondition")).contains("CRS#math204").doesNotContain(":v").doesNotContain("#n");
        Map<String, Object> get = patterns.getMap("find { it.operation == 'GetItem' }");
        assertThat((String) get.get("readableKeyCondition")).matches("pk = \\S+ AND sk = \\S+");
        assertThat((Map<?, ?>) list.get("names")).isNotEmpty();
        assertThat((Map<?, ?>) list.get("values")).isNotEmpty();
        Map<String, String> snippets = (Map<String, String>) list.get("snippets");
        assertThat(snippets.get("java")).contains("QueryRequest.builder()").contains(".keyConditionExpression(")
                .contains("AttributeValue.fromS(\"WS#acme\")").contains("return dynamo.query(request);");
        assertThat(snippets.get("cli")).startsWith("aws dynamodb query").contains("--key-condition-expression");
        assertThat(snippets.get("javascript")).contains("new QueryCommand({");
        assertThat((Map<String, Object>) list.get("builder")).containsEntry("operation", "Query").containsEntry("descending", true);
        assertThat(patterns.getList("index")).contains("gsi1", "table");
        assertThat(patterns.getList("operation")).contains("GetItem", "Query");
    }

    @Test
    void aMatchOpensAsOneCollectionWithEveryMemberInItsSubAggregate() {
        JsonPath match = given().queryParam("kind", "match").queryParam("id", "bgt-2025-test-1")
                .get("/console/api/collections").then().statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("pk", equalTo("MATCH#bgt-2025-test-1")).body("aggregate", equalTo("Match"))
                .body("next", equalTo(null)).extract().jsonPath();
        List<Map<String, Object>> items = match.getList("items");
        assertThat(items).hasSizeGreaterThan(5);
        // Attributes come typed, as DynamoDB JSON: a batting position is a number, a copy's context a map.
        assertThat(items).anySatisfy(item -> assertThat(String.valueOf(((Map<?, ?>) item.get("attributes")).get("battingPosition")))
                .matches("\\{N=[0-9]+}"));
        assertThat(items).anySatisfy(item -> assertThat(String.valueOf(((Map<?, ?>) item.get("attributes")).get("_ctx"))).startsWith("{M={"));
        for (Map<String, Object> item : items) {
            String sk = (String) item.get("sk");
            String expected = sk.startsWith("TEAM#1") ? "team1" : sk.startsWith("TEAM#2") ? "team2" : "root";
            assertThat(item.get("group")).as(sk).isEqualTo(expected);
            assertThat(item.get("type")).as(sk).isNotNull();
            assertThat(item.get("pk")).isEqualTo("MATCH#bgt-2025-test-1");
        }
        assertThat(items).extracting(i -> i.get("sk")).contains("MATCH", "VENUE", "TEAM#1", "TEAM#2", "TEAM#1#COACH");
        // The same partition by its key, paged with cursors.
        String next = given().queryParam("pk", "MATCH#bgt-2025-test-1").queryParam("limit", 4)
                .get("/console/api/collections").then().statusCode(200).body("items", hasSize(4))
                .body("next", notNullValue()).extract().path("next");
        given().queryParam("pk", "MATCH#bgt-2025-test-1").queryParam("limit", 4).queryParam("cursor", next)
                .get("/console/api/collections").then().statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("items[0].sk", equalTo(items.get(4).get("sk")));
    }

    @Test
    void indexesAreQueriedByPartitionKey() {
        given().queryParam("pk", "CRS#math204").get("/console/api/indexes/gsi1").then().statusCode(200)
                .header("X-DynamoDB-Calls", "1").body("index", equalTo("gsi1"))
                .body("items.sk", hasItem(containsString("ENROLL#CRS#math204")));
        given().queryParam("pk", "x").get("/console/api/indexes/gsi9").then().statusCode(400)
                .body("errors[0].field", equalTo("index"));
    }

    @Test
    void badConsoleRequestsAreProblemsAndNothingScansTheTable() {
        given().get("/console/api/collections").then().statusCode(400).contentType("application/problem+json")
                .body("errors[0].field", equalTo("pk")).header("X-DynamoDB-Calls", "0");
        given().queryParam("pk", "A").queryParam("kind", "match").get("/console/api/collections").then().statusCode(400);
        given().queryParam("kind", "galaxy").queryParam("id", "x").get("/console/api/collections").then().statusCode(400)
                .body("errors[0].field", equalTo("kind"));
        given().queryParam("pk", "A").queryParam("limit", 1000).get("/console/api/collections").then().statusCode(400)
                .body("errors[0].field", equalTo("limit"));
        given().queryParam("pk", "A").queryParam("cursor", "forged").get("/console/api/collections").then().statusCode(400)
                .body("code", equalTo("InvalidCursor"));
        given().contentType("application/json").body("{}").post("/console/api/collections").then().statusCode(405);
        given().queryParam("pk", "NO#SUCH").get("/console/api/collections").then().statusCode(200).body("items", hasSize(0));
    }
}
