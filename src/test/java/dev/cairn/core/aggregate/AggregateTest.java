package dev.cairn.core.aggregate;

import dev.cairn.core.CairnException;
import dev.cairn.core.TableSpec;
import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.aggregate.Aggregate.Items;
import dev.cairn.core.aggregate.Aggregate.Member;
import dev.cairn.core.aggregate.Aggregate.RefCopy;
import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.item.RecordCodec;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.write.WriteAction;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The engine with a shape that has nothing to do with cricket: an order with a customer ref, a shipping
 * address member, lines (many, keyed by product ref), and two bound "parcel" sub-aggregates.
 */
class AggregateTest {

    record Customer(String id, String name) {
    }

    record Product(String id, String title) {
    }

    static final EntitySpec<Customer> CUSTOMER = EntitySpec.builder("Customer", RecordCodec.<Customer>builder()
                    .string("id", Customer::id).string("name", Customer::name)
                    .build(f -> new Customer(f.string("id"), f.string("name"))))
            .key(c -> PrimaryKey.of("CUST#" + c.id(), "CUST")).build();
    static final EntitySpec<Product> PRODUCT = EntitySpec.builder("Product", RecordCodec.<Product>builder()
                    .string("id", Product::id).string("title", Product::title)
                    .build(f -> new Product(f.string("id"), f.string("title"))))
            .key(p -> PrimaryKey.of("PROD#" + p.id(), "PROD")).build();

    static final RefSpec<Customer> CUSTOMER_REF = RefSpec.of(CUSTOMER, id -> PrimaryKey.of("CUST#" + id, "CUST"), Index.GSI2, "CUST");
    static final RefSpec<Product> PRODUCT_REF = RefSpec.of(PRODUCT, id -> PrimaryKey.of("PROD#" + id, "PROD"), Index.GSI1, "PROD");

    static final AggregateNode PARCEL = AggregateNode.builder("OrderParcel", "PARCEL")
            .field("carrier")
            .many("lines", AggregateNode.builder("OrderLine", "LINE").ref("product", PRODUCT_REF).field("quantity")
                    .keyedBy("product").build())
            .build();

    static final Aggregate ORDER = Aggregate.of("Order", KeyTemplate.of("ORDER#{id}"), "id",
            AggregateNode.builder("Order", "ORDER")
                    .field("note").field("total")
                    .ref("customer", CUSTOMER_REF)
                    .one("shipping", AggregateNode.builder("OrderShipping", "SHIP").field("street").field("city").build())
                    .sub("first", PARCEL, Map.of("parcel", "A"))
                    .sub("second", PARCEL, Map.of("parcel", "B"))
                    .build(),
            List.of("note"));

    static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");

    @Test
    void aNodesRefsAreProjectedInTheOrderTheyWereDeclared() {
        for (var refs : List.of(List.of("customer", "product"), List.of("product", "customer"))) {
            var node = AggregateNode.builder("Basket", "BASKET");
            refs.forEach(name -> node.ref(name, name.equals("customer") ? CUSTOMER_REF : PRODUCT_REF));
            var basket = Aggregate.of("Basket", KeyTemplate.of("BASKET#{id}"), "id", node.build(), List.of());
            // the same projection (and placeholders) in every JVM: a Query reads the same on every replica
            assertThat(basket.viewQuery("b1").projection()).containsSubsequence(refs);
        }
    }

    static Map<String, Object> input(String note, List<Map<String, Object>> firstLines) {
        var in = new LinkedHashMap<String, Object>();
        in.put("id", "o#1");
        in.put("note", note);
        in.put("total", 42);
        in.put("customerId", "c1");
        in.put("shipping", Map.of("street", "1 Main St", "city", "Leeds"));
        in.put("first", Map.of("carrier", "UPS", "lines", firstLines));
        in.put("second", Map.of("carrier", "DHL", "lines", List.of(line("p3", 1))));
        return in;
    }

    static Map<String, Object> line(String productId, int quantity) {
        return Map.of("productId", productId, "quantity", quantity);
    }

    static Map<String, RefCopy> resolved() {
        var copies = new HashMap<String, RefCopy>();
        copies.put(Aggregate.refKey(CUSTOMER_REF, "c1"), new RefCopy(Map.of("id", "c1", "name", "Ann"), 4));
        for (String p : List.of("p1", "p2", "p3", "p4")) {
            copies.put(Aggregate.refKey(PRODUCT_REF, p), new RefCopy(Map.of("id", p, "title", "Title " + p), 1));
        }
        return copies;
    }

    static Items items(Map<String, Object> input, long version) {
        var view = ORDER.hydrate(input, resolved());
        var versions = new HashMap<String, Long>();
        resolved().forEach((k, v) -> versions.put(k, v.version()));
        return ORDER.decompose(view, versions, version, T0, T0);
    }

    @Test
    void everyMemberSortKeyTellsItsGroupAsDecompositionAssignsIt() {
        Items items = items(input("n", List.of(line("p1", 2), line("p2", 1), line("p3", 4))), 1);
        assertThat(items.groups()).hasSizeGreaterThan(1);
        items.bySk().values().forEach(member ->
                assertThat(ORDER.groupOf(member.sk())).as(member.sk()).isEqualTo(member.group()));
        assertThat(ORDER.groupOf("NOT#A#MEMBER")).isNull();
        assertThat(ORDER.holdsPartition(ORDER.partitionOf("o-1"))).isTrue();
        assertThat(ORDER.holdsPartition("SOMETHING#o-1")).isFalse();
    }

    @Test
    void refsAreListedWithTheirInputPaths() {
        var uses = ORDER.refs(input("n", List.of(line("p1", 2), line("p2", 1))));
        assertThat(uses).extracting(Aggregate.RefUse::path).containsExactly(
                "customer", "first.lines[0].product", "first.lines[1].product", "second.lines[0].product");
        assertThat(uses).extracting(Aggregate.RefUse::id).containsExactly("c1", "p1", "p2", "p3");
    }

    @Test
    void decomposesIntoOneItemPerMemberWithPathSortKeysGroupsAndSystemAttributes() {
        Items items = items(input("n", List.of(line("p1", 2), line("p2", 1))), 1);
        assertThat(items.pk()).isEqualTo("ORDER#o%231");
        assertThat(items.bySk().keySet()).containsExactly("ORDER", "SHIP", "PARCEL#A", "PARCEL#A#LINE#p1",
                "PARCEL#A#LINE#p2", "PARCEL#B", "PARCEL#B#LINE#p3");
        assertThat(items.groups()).containsExactly("root", "first", "second");
        Map<String, AttributeValue> line = items.bySk().get("PARCEL#A#LINE#p2").item();
        assertThat(line.get("_type").s()).isEqualTo("OrderLine");
        assertThat(line.get("_pos").n()).isEqualTo("1");
        assertThat(line.get("_disc").m().get("parcel").s()).isEqualTo("A");
        assertThat(line.get("_ctx").m().get("note").s()).isEqualTo("n");
        assertThat(line.get("gsi1pk").s()).isEqualTo("PROD#p2");
        assertThat(line.get("gsi1sk").s()).isEqualTo("ORDER#o%231#PARCEL#A#LINE#p2");
        assertThat(line.get("product").m().get("title").s()).isEqualTo("Title p2");
        assertThat(items.bySk().get("ORDER").item().get("gsi2pk").s()).isEqualTo("CUST#c1");
        assertThat(CopyVersions.copiesOf(items.bySk().get("ORDER").item(), "Customer")).containsEntry("customer", 4L);
        assertThat(CopyVersions.copiesOf(line, "Product")).containsEntry("product", 1L);
    }

    @Test
    void assemblyRoundTripsTheViewWhateverTheItemOrder() {
        var in = input("n", List.of(line("p2", 5), line("p1", 2)));
        var view = ORDER.hydrate(in, resolved());
        var items = new ArrayList<>(items(in, 3).bySk().values().stream().map(Aggregate.Member::item).toList());
        java.util.Collections.reverse(items);
        Aggregate.Assembled assembled = ORDER.assemble(items);
        assertThat(assembled.view()).isEqualTo(JsonAttributes.normalize(view));
        assertThat(assembled.version()).isEqualTo(3);
        assertThat(assembled.refVersions()).containsEntry(Aggregate.refKey(CUSTOMER_REF, "c1"), 4L);
        assertThat(ORDER.toInput(assembled.view())).isEqualTo(JsonAttributes.normalize(in));
    }

    @Test
    @SuppressWarnings("unchecked")
    void elementsKeyedWithEscapedOrRangeEdgeCharactersComeBackWholeAndInTheirStoredPositions() {
        // keys around the list's sort-key range: '#' (escaped), '%', '$' (the character after the delimiter), '~'
        var ids = List.of("p$", "p#1", "p%25", "p", "p~", "p#LINE#x");
        var stored = storedOrder(ids);
        var view = stored.view();
        var items = new ArrayList<>(stored.items());
        java.util.Collections.shuffle(items, new java.util.Random(7));

        var assembled = ORDER.assemble(items);

        assertThat(assembled.view()).isEqualTo(JsonAttributes.normalize(view));
        var lines = (List<Map<String, Object>>) ((Map<String, Object>) assembled.view().get("first")).get("lines");
        assertThat(lines).extracting(line -> ((Map<String, Object>) line.get("product")).get("id"))
                .containsExactlyElementsOf(ids);
        assertThat((List<?>) ((Map<String, Object>) assembled.view().get("second")).get("lines")).hasSize(1);
    }

    @Test
    @SuppressWarnings("unchecked")
    void elementsAtTheSamePositionKeepDynamoDbsOrderOfTheirKeysAboveTheBasicPlane() {
        // U+FF5E sorts before U+1F600 by code point (DynamoDB's order), after it by Java's UTF-16 order
        var ids = List.of("p\uFF5E", "p\uD83D\uDE00");
        var items = new ArrayList<Map<String, AttributeValue>>();
        for (var storedItem : storedOrder(ids).items()) {
            var item = new HashMap<>(storedItem);
            if (item.get(TableSpec.SK).s().contains("#LINE#")) {
                item.put(Aggregate.POS, AttributeValue.fromN("0")); // tied, as data written by another tool could be
            }
            items.add(item);
        }
        java.util.Collections.reverse(items);

        var lines = (List<Map<String, Object>>) ((Map<String, Object>) ORDER.assemble(items).view().get("first")).get("lines");

        assertThat(lines).extracting(line -> ((Map<String, Object>) line.get("product")).get("id"))
                .containsExactly("p\uFF5E", "p\uD83D\uDE00");
    }

    /** An order whose first parcel has a line per product id, hydrated, and the items it is stored as (version 2). */
    private static StoredOrder storedOrder(List<String> productIds) {
        var copies = new HashMap<>(resolved());
        productIds.forEach(p -> copies.put(Aggregate.refKey(PRODUCT_REF, p), new RefCopy(Map.of("id", p, "title", "Title " + p), 1)));
        var versions = new HashMap<String, Long>();
        copies.forEach((k, v) -> versions.put(k, v.version()));
        var view = ORDER.hydrate(input("n", productIds.stream().map(id -> line(id, 1)).toList()), copies);
        return new StoredOrder(view, ORDER.decompose(view, versions, 2, T0, T0).bySk().values().stream().map(Member::item).toList());
    }

    private record StoredOrder(Map<String, Object> view, List<Map<String, AttributeValue>> items) {
    }

    @Test
    void theViewQueryFetchesOnlyWhatAssemblyReadsAndTheViewIsTheSame() {
        var in = input("n", List.of(line("p2", 5), line("p1", 2)));
        var full = items(in, 3).bySk().values().stream().map(Aggregate.Member::item).toList();
        var query = ORDER.viewQuery("o#1");
        assertThat(query.partition()).isEqualTo("ORDER#o%231");
        assertThat(query.consistent()).isTrue();
        assertThat(query.projection()).contains("sk", "_type", "_pos", "_ref", "_version", "_lease", "_leaseUntil", "customer",
                "product", "quantity").doesNotContain("pk", "gsi1pk", "gsi1sk", "gsi2pk", "_ctx", "_disc", "_refv");
        var projected = full.stream().map(item -> {
            var kept = new HashMap<>(item);
            kept.keySet().retainAll(query.projection());
            return Map.copyOf(kept);
        }).toList();
        assertThat(projected.stream().mapToInt(Map::size).sum()).isLessThan(full.stream().mapToInt(Map::size).sum());

        Aggregate.Assembled fromProjection = ORDER.assemble(projected);
        Aggregate.Assembled fromWholeItems = ORDER.assemble(full);
        assertThat(fromProjection.view()).isEqualTo(fromWholeItems.view());
        assertThat(fromProjection.version()).isEqualTo(3);
        assertThat(ORDER.itemsQuery("o#1").projection()).isEmpty();
    }

    @Test
    void assemblyReportsMissingAndUnexpectedItems() {
        var items = new ArrayList<>(items(input("n", List.of(line("p1", 1))), 1).bySk().values().stream()
                .map(Aggregate.Member::item).toList());
        var withoutShipping = items.stream().filter(i -> !i.get("sk").s().equals("SHIP")).toList();
        assertThatThrownBy(() -> ORDER.assemble(withoutShipping)).isInstanceOfSatisfying(CairnException.class, e -> {
            assertThat(e.error().code()).isEqualTo("AggregateAssemblyError");
            assertThat(e.error().detail()).contains("SHIP");
        });
        var stray = new HashMap<>(items.get(1));
        stray.put("sk", AttributeValue.fromS("ZZZ"));
        var withStray = new ArrayList<>(items);
        withStray.add(stray);
        assertThatThrownBy(() -> ORDER.assemble(withStray)).isInstanceOfSatisfying(CairnException.class,
                e -> assertThat(e.error().detail()).contains("ZZZ"));
    }

    @Test
    void diffWritesOnlyChangedGroupsAndDeletesRemovedMembers() {
        Items before = items(input("n", List.of(line("p1", 2), line("p2", 1))), 1);
        Items after = items(input("n", List.of(line("p1", 3))), 2);
        var changes = Aggregate.diff(before, after);
        assertThat(changes).extracting(Aggregate.GroupChange::group).containsExactly("first");
        assertThat(changes.get(0).puts()).extracting(Aggregate.Member::sk).containsExactly("PARCEL#A#LINE#p1");
        assertThat(changes.get(0).deletes()).extracting(Aggregate.Member::sk).containsExactly("PARCEL#A#LINE#p2");

        var plan = AggregateWrites.update(ORDER, before, after, 1, T0);
        assertThat(plan.size()).isEqualTo(3);
        assertThat(plan.root().condition().render(new dev.cairn.core.expr.Placeholders()))
                .contains("attribute_exists").contains("=");
        assertThat(plan.fitsOneTransaction()).isTrue();
    }

    @Test
    void sourceGuardsCountTowardsTheOneTransactionAndPushALargeWriteIntoSteps() {
        var lines = new ArrayList<Map<String, Object>>();
        var copies = resolved();
        for (int i = 0; i < 60; i++) {
            lines.add(line("x" + i, 1));
            copies.put(Aggregate.refKey(PRODUCT_REF, "x" + i), new RefCopy(Map.of("id", "x" + i, "title", "t"), 1));
        }
        var plan = AggregateWrites.create(ORDER, ORDER.decompose(ORDER.hydrate(input("n", lines), copies), Map.of(), 1, T0, T0));
        assertThat(plan.fitsOneTransaction()).isTrue();
        var guards = copies.entrySet().stream().map(e -> WriteAction.copiedSource("Product", e.getKey(),
                PrimaryKey.of("PROD#" + e.getKey(), "PROD"), e.getValue().version(), T0)).toList();
        var guarded = plan.guardedBy(guards);
        assertThat(guarded.size()).isEqualTo(plan.size() + guards.size());
        assertThat(guarded.allActions()).endsWith(guards.toArray(WriteAction[]::new));
        assertThat(guarded.fitsOneTransaction()).isFalse();
        assertThat(plan.guardedBy(guards.subList(0, 100 - plan.size())).fitsOneTransaction()).isTrue();
    }

    @Test
    void aContextFieldChangeRewritesEveryGroup() {
        Items before = items(input("old note", List.of(line("p1", 2))), 1);
        Items after = items(input("new note", List.of(line("p1", 2))), 2);
        assertThat(Aggregate.diff(before, after)).extracting(Aggregate.GroupChange::group)
                .containsExactly("root", "first", "second");
    }

    @Test
    void duplicateElementsAndOversizedGroupsAreRejectedBeforeAnyWrite() {
        assertThatThrownBy(() -> items(input("n", List.of(line("p1", 2), line("p1", 3))), 1))
                .isInstanceOfSatisfying(CairnException.class, e -> {
                    assertThat(e.error().code()).isEqualTo("AggregateDecompositionError");
                    assertThat(e.error().extensions()).containsEntry("member", "first.lines[1]");
                });
        var manyLines = new ArrayList<Map<String, Object>>();
        var copies = resolved();
        for (int i = 0; i < 100; i++) {
            manyLines.add(line("x" + i, 1));
            copies.put(Aggregate.refKey(PRODUCT_REF, "x" + i), new RefCopy(Map.of("id", "x" + i, "title", "t"), 1));
        }
        var view = ORDER.hydrate(input("n", manyLines), copies);
        Items items = ORDER.decompose(view, Map.of(), 1, T0, T0);
        assertThatThrownBy(() -> AggregateWrites.create(ORDER, items)).isInstanceOfSatisfying(CairnException.class, e -> {
            assertThat(e.error().code()).isEqualTo("AggregateTransactionOverflow");
            assertThat(e.error().extensions()).containsEntry("group", "first").containsEntry("itemCount", 101);
        });
    }

    @Test
    void aViewGoesBackToTheInputItCameFromAndNamesEveryCopyItHolds() {
        var input = input("n", List.of(line("p1", 2), line("p2", 1)));
        var view = ORDER.hydrate(input, resolved());
        assertThat(ORDER.toInput(view)).isEqualTo(JsonAttributes.normalize(input)); // numbers come back as longs
        assertThat(ORDER.copies(view, Map.of(Aggregate.refKey(CUSTOMER_REF, "c1"), 4L)))
                .containsOnlyKeys(Aggregate.refKey(CUSTOMER_REF, "c1"), Aggregate.refKey(PRODUCT_REF, "p1"),
                        Aggregate.refKey(PRODUCT_REF, "p2"), Aggregate.refKey(PRODUCT_REF, "p3"))
                .hasEntrySatisfying(Aggregate.refKey(CUSTOMER_REF, "c1"), copy -> assertThat(copy.version()).isEqualTo(4));
        var assembled = ORDER.assemble(List.copyOf(items(input, 3).bySk().values().stream().map(Member::item).toList()));
        assertThat(assembled.view()).isEqualTo(view);
        assertThat(assembled.version()).isEqualTo(3);
    }

    @Test
    void aSubAggregateInsideAListIsRefusedAtDefinition() {
        var parcelInList = AggregateNode.builder("Crate", "CRATE").field("n").keyedBy("n")
                .sub("parcel", PARCEL, Map.of("parcel", "A")).build();
        assertThatThrownBy(() -> AggregateNode.builder("Shipment", "SHIPMENT").many("crates", parcelInList))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot hold a sub-aggregate");
    }

    @Test
    void groupsArePackedWithoutSplitting() {
        var groups = List.of(
                new AggregateWrites.GroupActions("a", actions("a", 60)),
                new AggregateWrites.GroupActions("b", actions("b", 50)),
                new AggregateWrites.GroupActions("c", actions("c", 30)));
        var bins = AggregateWrites.pack(groups, AggregateWrites.MAX_GROUP_ACTIONS);
        assertThat(bins).extracting(List::size).containsExactly(90, 50);
    }

    private static List<WriteAction> actions(String prefix, int count) {
        var out = new ArrayList<WriteAction>();
        for (int i = 0; i < count; i++) {
            var key = PrimaryKey.of("P", prefix + i);
            out.add(WriteAction.putItem(key, Map.of("pk", AttributeValue.fromS("P"),
                    "sk", AttributeValue.fromS(prefix + i)), WriteAction.Expectation.NONE, "t"));
        }
        return out;
    }
}
