package dev.cairn.core.expr.builder;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnError.FieldError;
import dev.cairn.core.CairnException;
import dev.cairn.core.TableSpec;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExpressionBuilderTest {

    /** Cairn's table, and a few attributes as the models declare them. */
    static final TableShape SHAPE = TableShape.of(TableSpec.createTableRequest("cairn"), Map.of(
            "year", new TableShape.Declared(AttributeType.N, List.of("Student")),
            "name", new TableShape.Declared(AttributeType.S, List.of("Student")),
            "status", new TableShape.Declared(AttributeType.S, List.of("Project")),
            "tags", new TableShape.Declared(AttributeType.L, List.of("Post"))));

    static Operand s(String text) {
        return Operand.of("S", text);
    }

    static Operand s(String text, String alias) {
        return new Operand("S", text, alias);
    }

    static Operand n(String text) {
        return Operand.of("N", text);
    }

    static BuiltRequest build(BuilderSpec spec) {
        return ExpressionBuilder.build(spec, SHAPE);
    }

    static List<FieldError> errorsOf(BuilderSpec spec) {
        try {
            build(spec);
        } catch (CairnException e) {
            return ((CairnError.ValidationFailed) e.error()).errors();
        }
        throw new AssertionError("the spec was accepted: " + spec);
    }

    static BuiltRequest update(List<Clause> key, Clause condition, UpdateAction... actions) {
        return build(BuilderSpec.update(key, condition, List.of(actions)));
    }

    static final List<Clause> ITEM = List.of(Clause.test("pk", "=", s("STU#a91")), Clause.test("sk", "=", s("ENROLL#CRS#math204")));

    @Test
    void theSeedsWorkspaceQueryReadsAsTheSeedWritesIt() {
        BuiltRequest built = build(BuilderSpec.query(null, List.of(
                        Clause.test("pk", "=", s("WS#acme", "er")), Clause.test("sk", "begins_with", s("PROJ#", "p"))))
                .withNames(Map.of("pk", "er", "sk", "d")).withOrder(true));
        assertThat(built.keyCondition()).isEqualTo("#er = :er AND begins_with(#d, :p)");
        assertThat(built.names()).containsExactly(Map.entry("#er", "pk"), Map.entry("#d", "sk"));
        assertThat(built.values()).containsExactly(Map.entry(":er", AttributeValue.fromS("WS#acme")),
                Map.entry(":p", AttributeValue.fromS("PROJ#")));
        assertThat(built.request()).containsEntry("ScanIndexForward", false).containsEntry("Limit", 25)
                .containsEntry("ExpressionAttributeValues", Map.of(":er", Map.of("S", "WS#acme"), ":p", Map.of("S", "PROJ#")));
        assertThat(built.readable(built.keyCondition())).isEqualTo("pk = WS#acme AND begins_with(sk, PROJ#)");
    }

    @Test
    void placeholdersAreNamedAfterTheirAttributeUnlessTheUserNamesThem() {
        BuiltRequest built = build(BuilderSpec.query(null, List.of(
                Clause.test("pk", "=", s("WS#acme")), Clause.test("sk", "between", s("PROJ#1"), s("PROJ#2"))))
                .withFilter(Clause.or(Clause.test("first name", "=", s("a")), Clause.test("first name", "=", s("b")))));
        assertThat(built.keyCondition()).isEqualTo("#pk = :pk AND #sk BETWEEN :sk AND :sk2");
        assertThat(built.filter()).isEqualTo("#first_name = :first_name OR #first_name = :first_name2");
        assertThat(built.names()).containsEntry("#first_name", "first name");
    }

    @Test
    void aUsersAliasIsNeverTakenByADefaultOne() {
        // "status" is aliased #s by the user; the attribute named "s" must then get another placeholder.
        BuiltRequest built = build(BuilderSpec.query(null, List.of(Clause.test("pk", "=", s("WS#acme"))))
                .withFilter(Clause.and(Clause.test("s", "=", s("x")), Clause.test("status", "=", s("ACTIVE", "s"))))
                .withNames(Map.of("status", "s")));
        assertThat(built.filter()).isEqualTo("#s2 = :s2 AND #s = :s");
        assertThat(built.names()).containsEntry("#s", "status").containsEntry("#s2", "s");
    }

    @Test
    void theEnrollmentGuardOfTheSecondSeedIsAnAttributeNotExistsOnThePartitionKey() {
        BuiltRequest built = update(ITEM, Clause.test("pk", "attribute_not_exists"),
                UpdateAction.set("gsi1pk", s("CRS#math204")), UpdateAction.set("gsi1sk", s("STU#a91")),
                UpdateAction.set("enrolledOn", s("2026-09-01")));
        assertThat(built.condition()).isEqualTo("attribute_not_exists(#pk)");
        assertThat(built.update()).isEqualTo("SET #gsi1pk = :gsi1pk, #gsi1sk = :gsi1sk, #enrolledOn = :enrolledOn");
        assertThat(built.key()).containsExactly(Map.entry("pk", AttributeValue.fromS("STU#a91")),
                Map.entry("sk", AttributeValue.fromS("ENROLL#CRS#math204")));
        assertThat(built.request()).containsEntry("ConditionExpression", "attribute_not_exists(#pk)")
                .containsEntry("ReturnValues", "ALL_NEW").doesNotContainKey("Limit");
        assertThat(built.toUpdateItem().conditionExpression()).isEqualTo("attribute_not_exists(#pk)");
    }

    @Test
    void namesAndValuesAreNeverPartOfTheExpressionText() {
        String hostile = "x) OR attribute_exists(#pk) OR (:v = :v";
        BuiltRequest built = build(BuilderSpec.query(null, List.of(Clause.test("pk", "=", s("WS#a:b#c")),
                        Clause.test("sk", "begins_with", s("PROJ#:#"))))
                .withFilter(Clause.test("status) OR (pk", "=", s(hostile))));
        assertThat(built.keyCondition() + built.filter()).doesNotContain("WS#a:b#c").doesNotContain("PROJ#:#")
                .doesNotContain(hostile).doesNotContain("status)");
        assertThat(built.values()).containsValue(AttributeValue.fromS("WS#a:b#c")).containsValue(AttributeValue.fromS(hostile));
        assertThat(built.names()).containsValue("status) OR (pk");
    }

    @Test
    void reservedWordsAreEscapedAndNamedAsSuch() {
        BuiltRequest built = build(BuilderSpec.query(null, List.of(Clause.test("pk", "=", s("WS#acme"))))
                .withFilter(Clause.and(Clause.test("status", "=", s("ACTIVE")), Clause.test("year", ">", n("1"))))
                .withProjection(List.of("name", "data.size", "title")));
        assertThat(built.filter()).isEqualTo("#status = :status AND #year > :year");
        assertThat(built.projection()).isEqualTo("#name, #data.#size, #title");
        assertThat(built.reserved()).containsExactly("status", "year", "name", "data", "size");
    }

    @Test
    void everyOperatorAndFunctionRendersWithGrouping() {
        BuiltRequest built = build(BuilderSpec.query("gsi1", List.of(Clause.test("gsi1pk", "=", s("CRS#math204"))))
                .withFilter(Clause.and(
                        Clause.or(Clause.test("a", "=", s("1")), Clause.test("b", "<>", s("2"))),
                        Clause.not(Clause.test("c", "between", n("1"), n("5"))),
                        Clause.test("d", "in", s("x"), s("y")),
                        Clause.test("e", "attribute_exists"),
                        Clause.not(Clause.test("f", "attribute_not_exists")),
                        Clause.test("g", "attribute_type", s("SS")),
                        Clause.test("h", "begins_with", s("pre")),
                        Clause.test("tags", "contains", s("red")),
                        Clause.size("tags", ">=", n("2")),
                        Clause.test("i", "<", n("3")), Clause.test("j", "<=", n("3")), Clause.test("k", ">", n("3")))));
        assertThat(built.filter()).isEqualTo("(#a = :a OR #b <> :b) AND NOT (#c BETWEEN :c AND :c2) AND #d IN (:d, :d2)"
                + " AND attribute_exists(#e) AND NOT attribute_not_exists(#f) AND attribute_type(#g, :g)"
                + " AND begins_with(#h, :h) AND contains(#tags, :tags) AND size(#tags) >= :tags2"
                + " AND #i < :i AND #j <= :j AND #k > :k");
        assertThat(built.indexName()).isEqualTo("gsi1");
        assertThat(built.request()).doesNotContainKey("ConsistentRead");
    }

    @Test
    void everyUpdateActionAndFunctionRenders() {
        BuiltRequest built = update(ITEM, null,
                UpdateAction.set("title", s("T")),
                UpdateAction.set("views", "if_not_exists", n("0")),
                UpdateAction.set("tags", "list_append", Operand.of("L", "[\"new\"]")),
                UpdateAction.set("history", "list_prepend", Operand.of("L", "[1]")),
                UpdateAction.set("score", "plus", n("5")),
                UpdateAction.set("debt", "minus", n("2")),
                UpdateAction.remove("draft"),
                UpdateAction.add("counter", n("1")),
                UpdateAction.delete("labels", Operand.of("SS", "[\"old\"]")),
                UpdateAction.set("address.city", s("Oslo")));
        assertThat(built.update()).isEqualTo("SET #title = :title, #views = if_not_exists(#views, :views),"
                + " #tags = list_append(#tags, :tags), #history = list_append(:history, #history),"
                + " #score = #score + :score, #debt = #debt - :debt, #address.#city = :city"
                + " REMOVE #draft ADD #counter :counter DELETE #labels :labels");
        assertThat(built.values().get(":tags")).isEqualTo(AttributeValue.fromL(List.of(AttributeValue.fromS("new"))));
        assertThat(built.values().get(":labels")).isEqualTo(AttributeValue.fromSs(List.of("old")));
    }

    @Test
    void aRangeConditionOnThePartitionKeyIsExplainedAtItsOperator() {
        assertThat(errorsOf(BuilderSpec.query(null, List.of(Clause.test("pk", "begins_with", s("WS#"))))))
                .anySatisfy(e -> {
                    assertThat(e.field()).isEqualTo("key[0].op");
                    assertThat(e.message()).contains("pk is the partition key").contains("= only");
                });
    }

    @Test
    void anUnknownIndexIsExplainedAtTheIndex() {
        assertThat(errorsOf(BuilderSpec.query("gsi9", List.of(Clause.test("gsi9pk", "=", s("x"))))))
                .singleElement().satisfies(e -> {
                    assertThat(e.field()).isEqualTo("index");
                    assertThat(e.message()).contains("gsi9").contains("gsi1");
                });
    }

    @Test
    void beginsWithOnANumberIsExplainedWhereItIsTyped() {
        // A number prefix on the (string) sort key: at the value.
        assertThat(errorsOf(BuilderSpec.query(null, List.of(Clause.test("pk", "=", s("STU#a91")),
                Clause.test("sk", "begins_with", n("1"))))))
                .extracting(FieldError::field).containsExactly("key[1].values[0]");
        // On an attribute the models declare a number: at the operator.
        assertThat(errorsOf(BuilderSpec.query(null, List.of(Clause.test("pk", "=", s("STU#a91"))))
                .withFilter(Clause.test("year", "begins_with", s("2")))))
                .singleElement().satisfies(e -> {
                    assertThat(e.field()).isEqualTo("filter.op");
                    assertThat(e.message()).contains("year is a number (N)").contains("Student");
                });
        // With a number prefix in a filter: at the value.
        assertThat(errorsOf(BuilderSpec.query(null, List.of(Clause.test("pk", "=", s("STU#a91"))))
                .withFilter(Clause.test("title", "begins_with", n("2")))))
                .extracting(FieldError::field).containsExactly("filter.values[0]");
    }

    @Test
    void whatDynamoDbWouldRefuseIsRefusedFieldByField() {
        var spec = new BuilderSpec("Query", "gsi1", List.of(Clause.test("gsi1pk", "=", n("1")), Clause.test("title", "=", s("x")),
                Clause.test("gsi1sk", "<>", s("x"))),
                Clause.and(Clause.test("gsi1sk", "=", s("x")), Clause.or(), Clause.test("c", "between", n("5"), n("1")),
                        Clause.test("d", "<", Operand.of("BOOL", "true")), Clause.test("e", "in"), Clause.size("f", ">", s("x")),
                        Clause.test("g", "attribute_type", s("STRING")), Clause.test("h", "=", Operand.of("N", "12abc"))),
                List.of("a..b"), false, 500, true, null, null, Map.of("x", "bad alias!"));
        assertThat(errorsOf(spec)).extracting(FieldError::field).containsExactlyInAnyOrder(
                "names.x", "key[0].values[0]", "key[1].path", "key[2].op",
                "filter.clauses[0].path", "filter.clauses[1]", "filter.clauses[2].values[1]", "filter.clauses[3].values[0]",
                "filter.clauses[4].values", "filter.clauses[5].values[0]", "filter.clauses[6].values[0]",
                "filter.clauses[7].values[0]", "projection[0]", "limit", "consistent");
    }

    @Test
    void aScanTakesNoKeyConditionAndNoOrder() {
        var spec = new BuilderSpec("Scan", null, List.of(Clause.test("pk", "=", s("x"))), null, null, true, 10, false, null, null, null);
        assertThat(errorsOf(spec)).extracting(FieldError::field).containsExactly("key", "descending");
        BuiltRequest scan = build(new BuilderSpec("Scan", null, List.of(), Clause.test("pk", "begins_with", s("WS#")),
                null, false, 10, true, null, null, null));
        assertThat(scan.filter()).isEqualTo("begins_with(#pk, :pk)");
        assertThat(scan.request()).containsEntry("ConsistentRead", true).doesNotContainKey("ScanIndexForward");
    }

    @Test
    void aWriteNamesItsWholeKeyAndNeverChangesIt() {
        assertThat(errorsOf(BuilderSpec.update(List.of(Clause.test("pk", "=", s("x"))), null,
                List.of(UpdateAction.set("sk", s("y")), UpdateAction.add("title", s("t")), UpdateAction.delete("tags", n("1")),
                        UpdateAction.set("a.b", s("1")), UpdateAction.set("a", s("2")), UpdateAction.remove("c"),
                        UpdateAction.set("d", "list_append", s("x")), UpdateAction.set("e", "plus", s("x"))))))
                .extracting(FieldError::field).containsExactlyInAnyOrder("key", "update[0].path", "update[1].value",
                        "update[2].value", "update[4].path", "update[6].value", "update[7].value");
    }

    @Test
    void aValuePlaceholderStandsForOneValue() {
        var spec = BuilderSpec.query(null, List.of(Clause.test("pk", "=", s("WS#acme", "v"))))
                .withFilter(Clause.or(Clause.test("a", "=", s("same", "x")), Clause.test("b", "=", s("same", "x")),
                        Clause.test("c", "=", s("other", "x"))));
        assertThat(errorsOf(spec)).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("filter.clauses[2].values[0].alias");
            assertThat(e.message()).contains(":x already stands for another value");
        });
        BuiltRequest shared = build(spec.withFilter(Clause.or(Clause.test("a", "=", s("same", "x")), Clause.test("b", "=", s("same", "x")))));
        assertThat(shared.filter()).isEqualTo("#a = :x OR #b = :x");
        assertThat(shared.values()).hasSize(2);
    }

    @Test
    void aFilterMayNotTestTheKeysOfItsQuery() {
        assertThat(errorsOf(BuilderSpec.query(null, List.of(Clause.test("pk", "=", s("WS#acme"))))
                .withFilter(Clause.test("sk", "begins_with", s("PROJ#")))))
                .singleElement().satisfies(e -> assertThat(e.field()).isEqualTo("filter.path"));
        // On an index, the table's keys are ordinary attributes.
        assertThat(build(BuilderSpec.query("gsi1", List.of(Clause.test("gsi1pk", "=", s("CRS#math204"))))
                .withFilter(Clause.test("sk", "begins_with", s("ENROLL#")))).filter()).isEqualTo("begins_with(#sk, :sk)");
    }

    @Test
    void aTypeThatDiffersFromTheModelsIsAWarningNotAnError() {
        BuiltRequest built = build(BuilderSpec.query(null, List.of(Clause.test("pk", "=", s("STU#a91"))))
                .withFilter(Clause.test("year", "=", s("2"))));
        assertThat(built.warnings()).singleElement().satisfies(w -> {
            assertThat(w.field()).isEqualTo("filter.values[0]");
            assertThat(w.message()).contains("year is a number (N)");
        });
    }

    @Test
    void betweenComparesBoundsAsDynamoDbDoes() {
        // Numbers by value (9 < 10), strings by their bytes ("Z" < "a").
        build(BuilderSpec.query(null, List.of(Clause.test("pk", "=", s("x")))).withFilter(Clause.test("n", "between", n("9"), n("10"))));
        build(BuilderSpec.query(null, List.of(Clause.test("pk", "=", s("x")), Clause.test("sk", "between", s("Z"), s("a")))));
        assertThat(errorsOf(BuilderSpec.query(null, List.of(Clause.test("pk", "=", s("x")), Clause.test("sk", "between", s("a"), s("Z"))))))
                .extracting(FieldError::field).containsExactly("key[1].values[1]");
    }

    @Test
    void theLimitIsRequiredAndCapped() {
        var base = BuilderSpec.query(null, List.of(Clause.test("pk", "=", s("x"))));
        assertThat(errorsOf(base.withLimit(null))).extracting(FieldError::field).containsExactly("limit");
        assertThat(errorsOf(base.withLimit(ExpressionBuilder.MAX_LIMIT + 1))).extracting(FieldError::field).containsExactly("limit");
        assertThat(build(base.withLimit(ExpressionBuilder.MAX_LIMIT)).limit()).isEqualTo(ExpressionBuilder.MAX_LIMIT);
    }

    @Test
    void anExpressionLongerThanDynamoDbTakesIsRefused() {
        var tests = new ArrayList<Clause>();
        for (int i = 0; i < 200; i++) {
            tests.add(Clause.test("attribute_with_a_long_name_" + i, "attribute_exists"));
        }
        assertThat(errorsOf(BuilderSpec.query(null, List.of(Clause.test("pk", "=", s("x"))))
                .withFilter(Clause.and(tests.toArray(Clause[]::new))))).extracting(FieldError::field).containsExactly("filter");
    }

    @Test
    void theBindingOfAReadIgnoresItsPageSizeButNotItsValues() {
        var base = BuilderSpec.query(null, List.of(Clause.test("pk", "=", s("WS#acme"))));
        assertThat(build(base.withLimit(5)).binding()).isEqualTo(build(base.withLimit(50)).binding());
        assertThat(build(base).binding()).isNotEqualTo(build(BuilderSpec.query(null, List.of(Clause.test("pk", "=", s("WS#other"))))).binding());
    }

    @Test
    void aMissingOperationIsTheOnlyErrorReported() {
        assertThatThrownBy(() -> build(new BuilderSpec(null, null, null, null, null, null, null, null, null, null, new LinkedHashMap<>())))
                .isInstanceOf(CairnException.class).hasMessageContaining("operation");
    }
}
