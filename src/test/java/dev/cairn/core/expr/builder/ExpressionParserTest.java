package dev.cairn.core.expr.builder;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.cairn.core.expr.builder.ExpressionBuilderTest.SHAPE;
import static dev.cairn.core.expr.builder.ExpressionBuilderTest.n;
import static dev.cairn.core.expr.builder.ExpressionBuilderTest.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExpressionParserTest {

    @Test
    void aRequestReadsBackIntoTheSpecThatBuildsItAgain() {
        var spec = BuilderSpec.query("gsi1", List.of(Clause.test("gsi1pk", "=", s("CRS#math204")),
                        Clause.test("gsi1sk", "between", s("STU#a"), s("STU#z"))))
                .withFilter(Clause.and(
                        Clause.or(Clause.test("a", "=", s("1")), Clause.not(Clause.test("b", "attribute_exists"))),
                        Clause.test("c.d[1]", "in", n("1"), n("2")), Clause.size("tags", ">", n("0")),
                        Clause.test("status", "begins_with", s("ACT")), Clause.test("g", "attribute_type", s("N"))))
                .withProjection(List.of("name", "tags[0]")).withOrder(true).withLimit(20);
        BuiltRequest built = ExpressionBuilder.build(spec, SHAPE);
        BuilderSpec read = ExpressionParser.spec("Query", built.request());
        BuiltRequest again = ExpressionBuilder.build(read, SHAPE);
        assertThat(again.request()).isEqualTo(built.request());
    }

    @Test
    void aGetItemOpensWithItsKey() {
        BuilderSpec spec = ExpressionParser.spec("GetItem", Map.of("TableName", "cairn",
                "Key", Map.of("pk", Map.of("S", "WS#acme"), "sk", Map.of("S", "META")), "ConsistentRead", true));
        BuiltRequest built = ExpressionBuilder.build(spec, SHAPE);
        assertThat(built.operation()).isEqualTo(Operation.GET_ITEM);
        assertThat(built.request()).containsEntry("Key", Map.of("pk", Map.of("S", "WS#acme"), "sk", Map.of("S", "META")))
                .containsEntry("ConsistentRead", true);
    }

    @Test
    void theStoresRedundantParenthesesReadAsTheSameTree() {
        BuilderSpec spec = ExpressionParser.spec("Query", Map.of("TableName", "cairn",
                "KeyConditionExpression", "#n0 = :v0", "FilterExpression", "(#n1 IN (:v1, :v2)) OR (attribute_not_exists(#n2))",
                "ExpressionAttributeNames", Map.of("#n0", "pk", "#n1", "workspaceId", "#n2", "x"),
                "ExpressionAttributeValues", Map.of(":v0", Map.of("S", "P"), ":v1", Map.of("S", "a"), ":v2", Map.of("S", "b")),
                "Limit", 5));
        assertThat(ExpressionBuilder.build(spec, SHAPE).filter()).isEqualTo("#n1 IN (:v1, :v2) OR attribute_not_exists(#n2)");
    }

    @Test
    void anExpressionTheBuilderCannotComposeIsRefusedWithAReason() {
        assertThatThrownBy(() -> ExpressionParser.spec("Query", Map.of("KeyConditionExpression", "#a = :a",
                "FilterExpression", "#a < #b", "ExpressionAttributeNames", Map.of("#a", "x", "#b", "y"),
                "ExpressionAttributeValues", Map.of(":a", Map.of("S", "1")))))
                .hasMessageContaining("compares an attribute with values");
        assertThatThrownBy(() -> ExpressionParser.spec("UpdateItem", Map.of())).hasMessageContaining("Query, Scan and GetItem");
    }
}
