package dev.cairn.core.query;

import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.expr.Condition;
import dev.cairn.core.expr.SortCondition;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class QuerySpecTest {

    private static final Map<String, AttributeValue> START = Map.of("pk", AttributeValue.fromS("P#1"),
            "sk", AttributeValue.fromS("C#9"));

    private static List<QuerySpec> shapes(String partition) {
        return List.of(
                QuerySpec.table(partition).build(),
                QuerySpec.table(partition).consistent().limit(26).project("sk", "name", "_v", "team").build(),
                QuerySpec.table(partition).sort(SortCondition.beginsWith("PROJ#")).descending().limit(11).build(),
                QuerySpec.table(partition).sort(SortCondition.between("A", "M")).filter(Condition.eq("status",
                        AttributeValue.fromS("open")).and(Condition.attributeNotExists("_deleted"))).limit(5).build(),
                QuerySpec.on(Index.GSI2, partition).sort(SortCondition.gt("2026")).limit(3).project("pk", "sk").build());
    }

    @Test
    void aTemplatedRequestIsTheRequestRenderedAnewForEveryShapePartitionAndStartKey() {
        for (String partition : List.of("CRS#math204", "WS#acme#SHARD#3", "M#x y", "CRS#math204")) {
            for (QuerySpec spec : shapes(partition)) {
                assertThat(spec.toRequest("cairn", null)).isEqualTo(spec.render("cairn", null));
                assertThat(spec.toRequest("cairn", START)).isEqualTo(spec.render("cairn", START));
                assertThat(spec.toRequest("other", START)).isEqualTo(spec.render("other", START));
            }
        }
    }

    @Test
    void twoPartitionsOfOneShapeEachSendTheirOwnValueAndNoStartKeyLeaksIntoTheNextRequest() {
        var first = QuerySpec.table("M#one").consistent().limit(26).project("sk", "name").build();
        var second = QuerySpec.table("M#two").consistent().limit(26).project("sk", "name").build();

        var a = first.toRequest("cairn", START);
        var b = second.toRequest("cairn", null);

        assertThat(a.expressionAttributeValues()).containsValue(AttributeValue.fromS("M#one"))
                .doesNotContainValue(AttributeValue.fromS("M#two"));
        assertThat(b.expressionAttributeValues()).containsValue(AttributeValue.fromS("M#two"))
                .doesNotContainValue(AttributeValue.fromS("M#one"));
        assertThat(b.hasExclusiveStartKey()).isFalse();
        assertThat(a.exclusiveStartKey()).isEqualTo(START);
    }

    @Test
    void aShapeMadeOfManyOrLongValuesIsRenderedAnewAndNeverKept() {
        var workspaces = new java.util.ArrayList<AttributeValue>();
        for (int i = 0; i < 300; i++) {
            workspaces.add(AttributeValue.fromS("ws-" + java.util.UUID.randomUUID()));
        }
        var tenantScoped = QuerySpec.on(Index.GSI1, "STATUS#PAUSED").filter(Condition.in("workspaceId", workspaces))
                .limit(21).build();
        var longValue = QuerySpec.table("P#1").sort(SortCondition.gt("x".repeat(2_000))).build();
        var small = QuerySpec.table("P#1").sort(SortCondition.gt("v-" + java.util.UUID.randomUUID())).build();

        for (QuerySpec spec : List.of(tenantScoped, longValue, small)) {
            assertThat(spec.toRequest("cairn", START)).isEqualTo(spec.render("cairn", START));
        }

        assertThat(tenantScoped.cached("cairn")).isFalse();
        assertThat(longValue.cached("cairn")).isFalse();
        assertThat(small.cached("cairn")).isTrue();
    }

    @Test
    void shapesBeyondTheCachesBoundStillRenderExactly() {
        for (int i = 0; i < 1_500; i++) {
            var spec = QuerySpec.table("P#" + i).filter(Condition.eq("n", AttributeValue.fromN(Integer.toString(i)))).build();
            assertThat(spec.toRequest("cairn", null)).isEqualTo(spec.render("cairn", null));
        }
    }
}
