package dev.cairn.platform.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.core.expr.builder.BuilderSpec;
import dev.cairn.core.expr.builder.Clause;
import dev.cairn.core.expr.builder.DynamoJson;
import dev.cairn.core.expr.builder.Operand;
import dev.cairn.core.expr.builder.UpdateAction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every snippet the builder generates runs: for a set of expressions — every key, filter and update operator and
 * function, reserved words, values holding {@code #} and {@code :}, binaries and sets, an index query — the AWS CLI v2
 * command, the Java program and the JavaScript module run against DynamoDB Local and read the very items the console's
 * builder reads; the write snippets leave the item the console then reads.
 */
@QuarkusTest
class ExpressionBuilderSnippetsTest {

    @ConfigProperty(name = "quarkus.dynamodb.endpoint-override")
    String endpoint;

    String partition;
    String indexPartition;
    DynamoDbAsyncClient client;

    static Operand s(String text) {
        return Operand.of("S", text);
    }

    static Operand s(String text, String alias) {
        return new Operand("S", text, alias);
    }

    static Operand n(String text) {
        return Operand.of("N", text);
    }

    @BeforeEach
    void fixture() {
        String run = UUID.randomUUID().toString().substring(0, 8);
        partition = "BUILDER#" + run;
        indexPartition = "BUILDERIX#" + run;
        client = DynamoDbAsyncClient.builder().region(Region.US_EAST_1).endpointOverride(URI.create(endpoint))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"))).build();
        put("META", Map.of("name", AttributeValue.fromS("the fixture")), null);
        put("ITEM#01", Map.of("status", AttributeValue.fromS("ACTIVE"), "year", AttributeValue.fromN("2019"),
                "note", AttributeValue.fromS("a#b:c"), "labels", AttributeValue.fromSs(List.of("red", "blue")),
                "tags", AttributeValue.fromL(List.of(AttributeValue.fromS("x"), AttributeValue.fromS("y"))),
                "data", AttributeValue.fromB(software.amazon.awssdk.core.SdkBytes.fromUtf8String("hi")),
                "flag", AttributeValue.fromBool(true), "address", AttributeValue.fromM(Map.of("city", AttributeValue.fromS("Oslo"))),
                "scores", AttributeValue.fromNs(List.of("1", "2")), "name", AttributeValue.fromS("Ada")),
                "A#01");
        put("ITEM#02", Map.of("status", AttributeValue.fromS("PAUSED"), "year", AttributeValue.fromN("2020"),
                "note", AttributeValue.fromS("plain"), "labels", AttributeValue.fromSs(List.of("green")),
                "tags", AttributeValue.fromL(List.of(AttributeValue.fromS("x"))), "flag", AttributeValue.fromBool(false),
                "nothing", AttributeValue.fromNul(true)), "A#02");
        put("ITEM#03", Map.of("status", AttributeValue.fromS("ACTIVE"), "year", AttributeValue.fromN("2021"),
                "tags", AttributeValue.fromL(List.of())), "B#03");
        put("ITEM#04", Map.of("status", AttributeValue.fromS("DONE"), "year", AttributeValue.fromN("2024"),
                "note", AttributeValue.fromS("a#b:c:d")), null);
        put("ITEM#05", Map.of("year", AttributeValue.fromN("2022")), null);
        put("ITEM#06", Map.of("status", AttributeValue.fromS("ACTIVE"), "year", AttributeValue.fromN("2023"),
                "name", AttributeValue.fromS("Zed")), null);
    }

    @AfterEach
    void close() {
        client.close();
    }

    private void put(String sk, Map<String, AttributeValue> attributes, String indexSort) {
        var item = new LinkedHashMap<>(attributes);
        item.put("pk", AttributeValue.fromS(partition));
        item.put("sk", AttributeValue.fromS(sk));
        item.put("_type", AttributeValue.fromS("BuilderFixture"));
        if (indexSort != null) {
            item.put("gsi1pk", AttributeValue.fromS(indexPartition));
            item.put("gsi1sk", AttributeValue.fromS(indexSort));
        }
        client.putItem(r -> r.tableName("cairn").item(item)).join();
    }

    BuilderSpec query(Clause... sort) {
        var key = new ArrayList<Clause>(List.of(Clause.test("pk", "=", s(partition))));
        key.addAll(List.of(sort));
        return BuilderSpec.query(null, key).withLimit(100).withConsistent(true);
    }

    /** The reads, and the sort keys each finds. */
    Map<String, Map.Entry<BuilderSpec, List<String>>> reads() {
        var reads = new LinkedHashMap<String, Map.Entry<BuilderSpec, List<String>>>();
        reads.put("the seed's query, its first page newest first", Map.entry(BuilderSpec.query(null, List.of(
                        Clause.test("pk", "=", s(partition, "er")), Clause.test("sk", "begins_with", s("ITEM#", "p"))))
                .withNames(Map.of("pk", "er", "sk", "d")).withOrder(true).withLimit(4), List.of("ITEM#06", "ITEM#05", "ITEM#04", "ITEM#03")));
        reads.put("sk =", Map.entry(query(Clause.test("sk", "=", s("ITEM#03"))), List.of("ITEM#03")));
        reads.put("sk <", Map.entry(query(Clause.test("sk", "<", s("ITEM#03"))), List.of("ITEM#01", "ITEM#02")));
        reads.put("sk <=", Map.entry(query(Clause.test("sk", "<=", s("ITEM#02"))), List.of("ITEM#01", "ITEM#02")));
        reads.put("sk >", Map.entry(query(Clause.test("sk", ">", s("ITEM#05"))), List.of("ITEM#06", "META")));
        reads.put("sk >=", Map.entry(query(Clause.test("sk", ">=", s("ITEM#06"))), List.of("ITEM#06", "META")));
        reads.put("sk BETWEEN", Map.entry(query(Clause.test("sk", "between", s("ITEM#02"), s("ITEM#04"))),
                List.of("ITEM#02", "ITEM#03", "ITEM#04")));
        reads.put("= and OR, >= <= and AND", Map.entry(query().withFilter(Clause.or(
                Clause.and(Clause.test("year", ">=", n("2020")), Clause.test("year", "<=", n("2022"))),
                Clause.test("year", "=", n("2024")))), List.of("ITEM#02", "ITEM#03", "ITEM#04", "ITEM#05")));
        reads.put("NOT <, <> and >", Map.entry(query().withFilter(Clause.and(Clause.not(Clause.test("year", "<", n("2021"))),
                Clause.test("year", "<>", n("2023")), Clause.test("year", ">", n("2020")))), List.of("ITEM#03", "ITEM#04", "ITEM#05")));
        reads.put("BETWEEN, IN on a reserved word, a projection of reserved words", Map.entry(query(Clause.test("sk", "begins_with", s("ITEM#")))
                .withFilter(Clause.and(Clause.test("year", "between", n("2019"), n("2021")),
                        Clause.test("status", "in", s("ACTIVE"), s("PAUSED"))))
                .withProjection(List.of("sk", "status", "year", "name", "data")), List.of("ITEM#01", "ITEM#02", "ITEM#03")));
        reads.put("attribute_exists and contains on a string set", Map.entry(query().withFilter(Clause.and(
                Clause.test("labels", "attribute_exists"), Clause.test("labels", "contains", s("red")))), List.of("ITEM#01")));
        reads.put("attribute_not_exists", Map.entry(query(Clause.test("sk", "begins_with", s("ITEM#")))
                .withFilter(Clause.test("status", "attribute_not_exists")), List.of("ITEM#05")));
        reads.put("attribute_type BOOL and NOT attribute_type NULL", Map.entry(query().withFilter(Clause.and(
                Clause.test("flag", "attribute_type", s("BOOL")), Clause.not(Clause.test("nothing", "attribute_type", s("NULL"))))),
                List.of("ITEM#01")));
        reads.put("begins_with a value holding # and :", Map.entry(query().withFilter(Clause.test("note", "begins_with", s("a#b:"))),
                List.of("ITEM#01", "ITEM#04")));
        reads.put("= a value holding # and :", Map.entry(query().withFilter(Clause.test("note", "=", s("a#b:c"))), List.of("ITEM#01")));
        reads.put("size and contains on a list", Map.entry(query().withFilter(Clause.and(Clause.size("tags", ">=", n("1")),
                Clause.test("tags", "contains", s("x")))), List.of("ITEM#01", "ITEM#02")));
        reads.put("a binary value and a number set", Map.entry(query().withFilter(Clause.and(
                Clause.test("data", "=", Operand.of("B", "aGk=")), Clause.test("scores", "contains", n("2")))), List.of("ITEM#01")));
        reads.put("a value of every type: BOOL, M, NS, SS, NULL", Map.entry(query().withFilter(Clause.or(
                Clause.and(Clause.test("flag", "=", Operand.of("BOOL", "true")),
                        Clause.test("address", "=", Operand.of("M", "{\"city\": \"Oslo\"}")),
                        Clause.test("scores", "=", Operand.of("NS", "[2, 1]")),
                        Clause.test("labels", "=", Operand.of("SS", "[\"blue\", \"red\"]"))),
                Clause.test("nothing", "=", Operand.of("NULL", "")))), List.of("ITEM#01", "ITEM#02")));
        reads.put("a list value", Map.entry(query().withFilter(Clause.test("tags", "=", Operand.of("L", "[\"x\", \"y\"]"))),
                List.of("ITEM#01")));
        reads.put("a nested path", Map.entry(query().withFilter(Clause.test("address.city", "=", s("Oslo"))), List.of("ITEM#01")));
        reads.put("an index query", Map.entry(BuilderSpec.query("gsi1", List.of(Clause.test("gsi1pk", "=", s(indexPartition)),
                Clause.test("gsi1sk", "begins_with", s("A#")))).withLimit(10), List.of("ITEM#01", "ITEM#02")));
        reads.put("a GetItem with a projection", Map.entry(new BuilderSpec("GetItem", null, List.of(Clause.test("pk", "=", s(partition)),
                Clause.test("sk", "=", s("ITEM#01"))), null, List.of("sk", "status", "address.city"), false, null, true, null,
                null, null), List.of("ITEM#01")));
        return reads;
    }

    static Map<String, Object> render(BuilderSpec spec) {
        return given().contentType(ContentType.JSON).body(spec).post("/console/api/builder/render").then().log().ifValidationFails().statusCode(200)
                .extract().jsonPath().getMap("$");
    }

    static JsonNode consoleItems(BuilderSpec spec) {
        List<Object> items = given().contentType(ContentType.JSON).body(spec).post("/console/api/builder/run").then().log().ifValidationFails()
                .statusCode(200).header("X-DynamoDB-Calls", "1").extract().jsonPath().getList("items");
        return SnippetTools.normalized(SnippetTools.JSON.valueToTree(items));
    }

    @SuppressWarnings("unchecked")
    static Map<String, String> snippets(Map<String, Object> rendered) {
        return (Map<String, String>) rendered.get("snippets");
    }

    @Test
    void everySnippetReadsTheItemsTheConsoleReads() {
        SnippetTools.awsCliV2();
        for (var read : reads().entrySet()) {
            String name = read.getKey();
            BuilderSpec spec = read.getValue().getKey();
            Map<String, String> snippets = snippets(render(spec));
            boolean get = "GetItem".equals(spec.operation());

            JsonNode console = consoleItems(spec);
            var sortKeys = new ArrayList<String>();
            console.forEach(item -> sortKeys.add(item.path("sk").path("S").asText()));
            assertThat(sortKeys).as(name + ": the console's items").containsExactlyElementsOf(read.getValue().getValue());

            JsonNode cli = SnippetTools.cli(snippets.get("cli"));
            assertThat(SnippetTools.normalized(get ? List1.of(cli.path("Item")) : cli.path("Items")))
                    .as(name + ": the AWS CLI's items\n" + snippets.get("cli")).isEqualTo(console);

            Class<?> program = SnippetTools.compile(snippets.get("java"));
            Object response = SnippetTools.send(program, client);
            List<Map<String, AttributeValue>> javaItems = get ? List.of(((GetItemResponse) response).item())
                    : ((QueryResponse) response).items();
            assertThat(SnippetTools.normalized(SnippetTools.JSON.valueToTree(javaItems.stream().map(DynamoJson::ofItem).toList())))
                    .as(name + ": the Java program's items\n" + snippets.get("java")).isEqualTo(console);

            JsonNode js = SnippetTools.javascript(snippets.get("javascript"));
            assertThat(SnippetTools.normalized(get ? List1.of(js) : js))
                    .as(name + ": the JavaScript module's items\n" + snippets.get("javascript")).isEqualTo(console);
        }
    }

    @Test
    void theJavaProgramRunsWholeWithItsOwnClient() {
        Map<String, String> snippets = snippets(render(reads().get("an index query").getKey()));
        Class<?> program = SnippetTools.compile(snippets.get("java"));
        String previousKey = System.getProperty("aws.accessKeyId");
        String previousSecret = System.getProperty("aws.secretAccessKey");
        System.setProperty("aws.accessKeyId", "local");
        System.setProperty("aws.secretAccessKey", "local");
        try {
            // main builds its client for the console's region and endpoint, sends, prints the items, closes the client.
            SnippetTools.main(program);
        } finally {
            restore("aws.accessKeyId", previousKey);
            restore("aws.secretAccessKey", previousSecret);
        }
        assertThat(snippets.get("java")).contains(".endpointOverride(URI.create(\"" + endpoint + "\"))");
    }

    private static void restore(String property, String value) {
        if (value == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, value);
        }
    }

    /** The seed's enrollment: the item is created once; the guard refuses a second enrollment. */
    @Test
    void theEnrollmentGuardCreatesTheItemOnceWhicheverSnippetRunsIt() {
        SnippetTools.awsCliV2();
        // A course of its own: an edge into a demo course would join that course's roster for every other test.
        String course = "CRS#" + partition;
        List<Clause> key = List.of(Clause.test("pk", "=", s("STU#" + partition)), Clause.test("sk", "=", s("ENROLL#" + course)));
        BuilderSpec enroll = BuilderSpec.update(key, Clause.test("pk", "attribute_not_exists"), List.of(
                UpdateAction.set("gsi1pk", s(course)), UpdateAction.set("gsi1sk", s("STU#" + partition)),
                UpdateAction.set("enrolledOn", s("2026-09-01"))));
        Map<String, Object> rendered = render(enroll);
        assertThat(rendered).containsEntry("runnable", false);
        assertThat(((Map<?, ?>) ((Map<?, ?>) rendered.get("expressions")).get("condition")).get("text")).isEqualTo("attribute_not_exists(#pk)");
        Map<String, String> snippets = snippets(rendered);
        BuilderSpec read = new BuilderSpec("GetItem", null, key, null, null, false, null, true, null, null, null);
        JsonNode expected = SnippetTools.normalized(SnippetTools.JSON.valueToTree(List.of(Map.of(
                "pk", Map.of("S", "STU#" + partition), "sk", Map.of("S", "ENROLL#" + course),
                "gsi1pk", Map.of("S", course), "gsi1sk", Map.of("S", "STU#" + partition),
                "enrolledOn", Map.of("S", "2026-09-01")))));

        for (String tool : List.of("cli", "java", "javascript")) {
            client.deleteItem(r -> r.tableName("cairn").key(Map.of("pk", AttributeValue.fromS("STU#" + partition),
                    "sk", AttributeValue.fromS("ENROLL#" + course)))).join();
            assertThat(consoleItems(read)).as(tool + ": before").isEmpty();
            runWrite(tool, snippets);
            assertThat(consoleItems(read)).as(tool + ": the enrolled item").isEqualTo(expected);
        }
        // Enrolled already: the CLI's second run is refused by the guard, and the item stays as it was.
        SnippetTools.Result again = SnippetTools.attempt(List.of("bash", "-c", snippets.get("cli")), cliEnvironment(), null);
        assertThat(again.status()).isNotZero();
        assertThat(again.err()).contains("ConditionalCheckFailed");
        assertThat(consoleItems(read)).isEqualTo(expected);
    }

    /** SET (a value, if_not_exists, list_append both ways, + and -, a nested path), REMOVE, ADD, DELETE, a condition. */
    @Test
    void everyUpdateActionLeavesTheItemTheConsoleThenReads() {
        SnippetTools.awsCliV2();
        List<Clause> key = List.of(Clause.test("pk", "=", s(partition)), Clause.test("sk", "=", s("WRITE")));
        BuilderSpec update = BuilderSpec.update(key, Clause.and(Clause.test("pk", "attribute_exists"),
                        Clause.size("tags", "<", n("5")), Clause.test("status", "=", s("a#b:c"))),
                List.of(UpdateAction.set("title", s("T2")), UpdateAction.set("views", "if_not_exists", n("0")),
                        UpdateAction.set("tags", "list_append", Operand.of("L", "[\"b\"]")),
                        UpdateAction.set("history", "list_prepend", Operand.of("L", "[-1]")),
                        UpdateAction.set("score", "plus", n("5")), UpdateAction.set("debt", "minus", n("2")),
                        UpdateAction.set("address.city", s("Bergen")), UpdateAction.remove("draft"),
                        UpdateAction.add("counter", n("1")), UpdateAction.add("labels", Operand.of("SS", "[\"z\"]")),
                        UpdateAction.delete("colours", Operand.of("SS", "[\"x\"]"))));
        Map<String, String> snippets = snippets(render(update));
        BuilderSpec read = new BuilderSpec("GetItem", null, key, null, null, false, null, true, null, null, null);
        JsonNode expected = SnippetTools.normalized(SnippetTools.parse("""
                [{"pk": {"S": "%s"}, "sk": {"S": "WRITE"}, "status": {"S": "a#b:c"}, "title": {"S": "T2"},
                  "views": {"N": "0"}, "tags": {"L": [{"S": "a"}, {"S": "b"}]}, "history": {"L": [{"N": "-1"}, {"N": "0"}]},
                  "score": {"N": "15"}, "debt": {"N": "3"}, "address": {"M": {"city": {"S": "Bergen"}}},
                  "counter": {"N": "2"}, "labels": {"SS": ["y", "z"]}, "colours": {"SS": ["w"]}}]
                """.formatted(partition)));

        for (String tool : List.of("cli", "java", "javascript")) {
            client.putItem(r -> r.tableName("cairn").item(Map.ofEntries(
                    Map.entry("pk", AttributeValue.fromS(partition)), Map.entry("sk", AttributeValue.fromS("WRITE")),
                    Map.entry("status", AttributeValue.fromS("a#b:c")), Map.entry("title", AttributeValue.fromS("T1")),
                    Map.entry("tags", AttributeValue.fromL(List.of(AttributeValue.fromS("a")))),
                    Map.entry("history", AttributeValue.fromL(List.of(AttributeValue.fromN("0")))),
                    Map.entry("score", AttributeValue.fromN("10")), Map.entry("debt", AttributeValue.fromN("5")),
                    Map.entry("address", AttributeValue.fromM(Map.of("city", AttributeValue.fromS("Oslo")))),
                    Map.entry("draft", AttributeValue.fromS("d")), Map.entry("counter", AttributeValue.fromN("1")),
                    Map.entry("labels", AttributeValue.fromSs(List.of("y"))),
                    Map.entry("colours", AttributeValue.fromSs(List.of("w", "x")))))).join();
            runWrite(tool, snippets);
            assertThat(consoleItems(read)).as(tool + ": the updated item\n" + snippets.get(tool)).isEqualTo(expected);
        }
    }

    private void runWrite(String tool, Map<String, String> snippets) {
        switch (tool) {
            case "cli" -> SnippetTools.cli(snippets.get("cli"));
            case "java" -> SnippetTools.send(SnippetTools.compile(snippets.get("java")), client);
            default -> SnippetTools.javascript(snippets.get("javascript"));
        }
    }

    private static Map<String, String> cliEnvironment() {
        var env = new java.util.HashMap<>(SnippetTools.environment());
        env.put("PATH", new java.io.File(SnippetTools.awsCliV2()).getParent() + java.io.File.pathSeparator + System.getenv("PATH"));
        return env;
    }

    /** A one-element JSON array of a node (a GetItem answers with one item, not a list). */
    private static final class List1 {
        static JsonNode of(JsonNode node) {
            var array = SnippetTools.JSON.createArrayNode();
            if (node != null && !node.isMissingNode() && !node.isNull()) {
                array.add(node);
            }
            return array;
        }
    }
}
