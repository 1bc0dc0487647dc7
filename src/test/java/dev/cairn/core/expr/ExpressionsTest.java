package dev.cairn.core.expr;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ExpressionsTest {

    @Test
    void placeholdersKeepTheOrderTheyWereMadeIn() {
        var p = new Placeholders();
        for (String name : java.util.List.of("pk", "sk", "status", "title", "createdBy", "a", "b", "c", "d", "e", "f", "g")) {
            p.name(name);
            p.value(AttributeValue.fromS(name));
        }
        assertThat(p.names().keySet()).containsExactly("#n0", "#n1", "#n2", "#n3", "#n4", "#n5", "#n6", "#n7", "#n8",
                "#n9", "#n10", "#n11");
        assertThat(p.values().keySet()).containsExactly(":v0", ":v1", ":v2", ":v3", ":v4", ":v5", ":v6", ":v7", ":v8",
                ":v9", ":v10", ":v11");
    }

    @Test
    void conditionsUseOnlyPlaceholders() {
        var p = new Placeholders();
        String text = Condition.attributeNotExists("pk")
                .or(Condition.eq("status", AttributeValue.fromS("x' OR 1=1")))
                .render(p);
        assertThat(text).isEqualTo("(attribute_not_exists(#n0)) OR (#n1 = :v0)");
        assertThat(text).doesNotContain("status").doesNotContain("OR 1=1");
        assertThat(p.names()).isEqualTo(Map.of("#n0", "pk", "#n1", "status"));
        assertThat(p.values()).isEqualTo(Map.of(":v0", AttributeValue.fromS("x' OR 1=1")));
    }

    @Test
    void inTakesAtMostOneHundredOperandsEachAndLongerListsBecomeAnOr() {
        var p = new Placeholders();
        String small = Condition.in("workspaceId", java.util.List.of(AttributeValue.fromS("a"), AttributeValue.fromS("b"))).render(p);
        assertThat(small).isEqualTo("#n0 IN (:v0, :v1)");
        var many = java.util.stream.IntStream.range(0, 250).mapToObj(i -> AttributeValue.fromS("w" + i)).toList();
        String big = Condition.in("workspaceId", many).render(new Placeholders());
        assertThat(big.split(" OR ")).hasSize(3);
        assertThat(big.split(":v", -1)).hasSize(251);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Condition.in("x", java.util.List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void reservedWordsAndSpecialNamesNeedNoCare() {
        var p = new Placeholders();
        String text = Condition.all(
                Condition.eq("name", AttributeValue.fromS("a")),
                Condition.eq("a.b #c", AttributeValue.fromN("1")),
                Condition.between("size", AttributeValue.fromN("1"), AttributeValue.fromN("9"))).render(p);
        assertThat(text).isEqualTo("(#n0 = :v0) AND (#n1 = :v1) AND (#n2 BETWEEN :v2 AND :v3)");
        assertThat(p.names()).containsEntry("#n1", "a.b #c").containsEntry("#n2", "size");
    }

    @Test
    void expressionsOfOneRequestShareOnePlaceholderSpaceWithoutCollisions() {
        var p = new Placeholders();
        String key = SortCondition.beginsWith("PROJ#").render("sk", p);
        String update = Update.create().set("title", AttributeValue.fromS("t")).remove("old")
                .add("_version", AttributeValue.fromN("1"))
                .setIfNotExists("_createdAt", AttributeValue.fromS("now")).render(p);
        String condition = Condition.eq("title", AttributeValue.fromS("u")).render(p);
        assertThat(key).isEqualTo("begins_with(#n0, :v0)");
        assertThat(update).isEqualTo("SET #n1 = :v1, #n2 = if_not_exists(#n2, :v2) REMOVE #n3 ADD #n4 :v3");
        assertThat(condition).isEqualTo("#n1 = :v4");
        assertThat(p.values()).hasSize(5);
        assertThat(p.names()).hasSize(5);
    }

    @Test
    void emptyPlaceholderMapsAreNull() {
        assertThat(new Placeholders().names()).isNull();
        assertThat(new Placeholders().values()).isNull();
    }

    @Test
    void sortConditionsCoverEveryOperator() {
        var p = new Placeholders();
        assertThat(SortCondition.eq("a").render("sk", p)).isEqualTo("#n0 = :v0");
        assertThat(SortCondition.lt("a").render("sk", p)).isEqualTo("#n0 < :v1");
        assertThat(SortCondition.le("a").render("sk", p)).isEqualTo("#n0 <= :v2");
        assertThat(SortCondition.gt("a").render("sk", p)).isEqualTo("#n0 > :v3");
        assertThat(SortCondition.ge("a").render("sk", p)).isEqualTo("#n0 >= :v4");
        assertThat(SortCondition.between("a", "b").render("sk", p)).isEqualTo("#n0 BETWEEN :v5 AND :v6");
    }

    @Test
    void aReadableExpressionHasItsNamesAndValuesBackLongestPlaceholderFirst() {
        var names = new java.util.LinkedHashMap<String, String>();
        var values = new java.util.LinkedHashMap<String, String>();
        names.put("#n0", "pk");
        names.put("#n1", "sk");
        for (int i = 0; i <= 10; i++) {
            values.put(":v" + i, "V" + i);
        }
        assertThat(Placeholders.readable("#n0 = :v1 AND begins_with(#n1, :v10)", names, values))
                .isEqualTo("pk = V1 AND begins_with(sk, V10)");
    }
}
