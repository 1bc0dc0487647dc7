package dev.cairn.core.expr.builder;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.cairn.core.expr.builder.ExpressionBuilderTest.SHAPE;
import static dev.cairn.core.expr.builder.ExpressionBuilderTest.s;
import static org.assertj.core.api.Assertions.assertThat;

/** What the snippets look like; that they run is proven against DynamoDB Local by ExpressionBuilderSnippetsTest. */
class SnippetsTest {

    static final Snippets.Endpoint LOCAL = new Snippets.Endpoint("us-east-1", "http://127.0.0.1:8000");

    static Snippets seedQuery() {
        BuiltRequest built = ExpressionBuilder.build(BuilderSpec.query(null, List.of(
                        Clause.test("pk", "=", s("WS#acme", "er")), Clause.test("sk", "begins_with", s("PROJ#", "p"))))
                .withNames(Map.of("pk", "er", "sk", "d")).withOrder(true), SHAPE);
        return Snippets.of(built.operation(), built.request(), LOCAL);
    }

    @Test
    void theCliCommandQuotesForTheShellAndSpellsTheApisMembersAsOptions() {
        assertThat(seedQuery().cli()).isEqualTo("""
                aws dynamodb query \\
                    --table-name cairn \\
                    --key-condition-expression '#er = :er AND begins_with(#d, :p)' \\
                    --expression-attribute-names '{"#er":"pk","#d":"sk"}' \\
                    --expression-attribute-values '{":er":{"S":"WS#acme"},":p":{"S":"PROJ#"}}' \\
                    --no-scan-index-forward \\
                    --limit 25 \\
                    --no-consistent-read \\
                    --return-consumed-capacity TOTAL \\
                    --region us-east-1 \\
                    --endpoint-url http://127.0.0.1:8000""");
        assertThat(Snippets.shell("it's")).isEqualTo("'it'\\''s'");
    }

    @Test
    void theJavaProgramUsesTheAsyncClientAndOnlyTheImportsItNeeds() {
        String java = seedQuery().java();
        assertThat(java).contains("public class CairnQuery", "DynamoDbAsyncClient.builder()", ".region(Region.of(\"us-east-1\"))",
                ".endpointOverride(URI.create(\"http://127.0.0.1:8000\"))", ".keyConditionExpression(\"#er = :er AND begins_with(#d, :p)\")",
                ".expressionAttributeValues(Map.of(\":er\", AttributeValue.fromS(\"WS#acme\"), \":p\", AttributeValue.fromS(\"PROJ#\")))",
                ".scanIndexForward(false)", "return dynamo.query(request);")
                .doesNotContain("SdkBytes").doesNotContain("import java.util.List;");
        assertThat(Snippets.javaString("a\"b\\c\nd\u0001")).isEqualTo("\"a\\\"b\\\\c\\nd\\u0001\"");
    }

    @Test
    void manyPlaceholdersMakeAMapOfEntriesInJava() {
        var tests = new ArrayList<Clause>();
        for (int i = 0; i < 11; i++) {
            tests.add(Clause.test("a" + i, "=", s("v")));
        }
        BuiltRequest built = ExpressionBuilder.build(BuilderSpec.query(null, List.of(Clause.test("pk", "=", s("x"))))
                .withFilter(Clause.and(tests.toArray(Clause[]::new))), SHAPE);
        assertThat(Snippets.of(built.operation(), built.request(), Snippets.Endpoint.DEFAULT).java())
                .contains("Map.ofEntries(Map.entry(\"#pk\", \"pk\")").contains("DynamoDbAsyncClient.create()");
    }

    @Test
    void theJavaScriptModuleWritesBinariesAsBuffers() {
        BuiltRequest built = ExpressionBuilder.build(BuilderSpec.query(null, List.of(Clause.test("pk", "=", s("x"))))
                .withFilter(Clause.test("data", "=", Operand.of("B", "aGk="))), SHAPE);
        String js = Snippets.of(built.operation(), built.request(), LOCAL).javascript();
        assertThat(js).contains("import { DynamoDBClient, QueryCommand } from \"@aws-sdk/client-dynamodb\";",
                "new DynamoDBClient({ region: \"us-east-1\", endpoint: \"http://127.0.0.1:8000\" })",
                "\":data\": { B: Buffer.from(\"aGk=\", \"base64\") }", "ScanIndexForward: true,",
                "console.log(JSON.stringify(response.Items, null, 2));");
    }
}
