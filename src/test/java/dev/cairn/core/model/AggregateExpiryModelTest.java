package dev.cairn.core.model;

import dev.cairn.core.TableSpec;
import dev.cairn.core.aggregate.Aggregate;
import dev.cairn.core.aggregate.AggregateWrites;
import dev.cairn.core.write.WriteAction;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ttl: <field>} on an aggregate: the root's own instant field, which every item of the aggregate (root and
 * members) carries as the table's TTL attribute; and the declarations the reader refuses, each at its line.
 */
class AggregateExpiryModelTest {

    static final String TILLS = """
            domain: Tills
            entities:
              Item:
                key: { pk: "ITEM#{id}", sk: ITEM }
                path: /items/{id}
                copies: { index: gsi1 }
                fields:
                  id: id
                  name: { type: string, required: true, maxLength: 100 }
            aggregates:
              Basket:
                partition: "BASKET#{id}"
                path: /baskets/{id}
                label: HEAD
                ttl: lapsesAt
                fields:
                  id: id
                  workspaceId: { type: id, required: true }
                  lapsesAt: { type: instant, description: "When the basket lapses" }
                  note: { type: string, maxLength: 100 }
                  day: date
                  owner: { ref: Item }
                  card:
                    one:
                      type: BasketCard
                      label: SLIP
                      fields:
                        printedAt: instant
                  lines:
                    many:
                      type: BasketLine
                      label: LINE
                      key: item
                      fields:
                        item: { ref: Item }
                        quantity: { type: integer, required: true, min: 1 }
                lists:
                  all: { path: /baskets, index: gsi3, partition: "BASKETS#ALL#{shard}", shards: 2 }
                  note: { path: "/notes/{note}/baskets", partition: "BASKETS#NOTE#{id}", by: { note: gsi4 } }
                summary: { fields: { note: note, lapsesAt: lapsesAt } }
            """;

    static DomainModel read(String yaml) {
        return ModelReader.read("models/tills.yaml", yaml);
    }

    static ModelException failure(String yaml) {
        try {
            read(yaml);
        } catch (ModelException e) {
            return e;
        }
        throw new AssertionError("the model was accepted");
    }

    static Map<String, Object> input(String lapsesAt) {
        var in = new LinkedHashMap<String, Object>();
        in.put("id", "b1");
        in.put("workspaceId", "w1");
        in.put("lapsesAt", lapsesAt);
        in.put("note", "n");
        in.put("ownerId", "i0");
        in.put("card", Map.of("printedAt", "2030-01-01T00:00:00Z"));
        in.put("lines", List.of(Map.of("itemId", "i1", "quantity", 1), Map.of("itemId", "i2", "quantity", 2)));
        return in;
    }

    static Map<String, Aggregate.RefCopy> copies() {
        var copies = new LinkedHashMap<String, Aggregate.RefCopy>();
        for (String id : List.of("i0", "i1", "i2")) {
            copies.put("Item#" + id, new Aggregate.RefCopy(Map.of("id", id, "name", "item " + id), 1));
        }
        return copies;
    }

    @Test
    void anAggregateNamesItsRootsInstantFieldAsItsExpiryWhichTheContractDescribesAsSuch() {
        AggregateModel basket = read(TILLS).aggregates().get(0);
        assertThat(basket.ttl()).isEqualTo("lapsesAt");
        var field = basket.root().children().stream().filter(c -> c.name().equals("lapsesAt")).findFirst().orElseThrow();
        assertThat(field.field().description()).startsWith("When the basket lapses. The aggregate's expiry (whole seconds)");
        assertThat(read(TILLS.replace("    ttl: lapsesAt\n", "")).aggregates().get(0).ttl()).isNull();
    }

    @Test
    void everyItemOfTheAggregateCarriesTheRootsExpiryAsEpochSecondsAndTheViewAnswersItAsRfc3339() {
        DomainModel domain = read(TILLS);
        Aggregate basket = DomainPlan.of(List.of(domain)).aggregate("Basket").aggregate();
        assertThat(basket.expiry()).isEqualTo("lapsesAt");
        Instant now = Instant.parse("2029-01-01T00:00:00Z");
        // a fraction of a second is dropped: TTL counts whole seconds, and so does the view every answer shows
        Map<String, Object> view = basket.hydrate(input("2030-01-02T03:04:05.900Z"), copies());
        assertThat(view.get("lapsesAt")).isEqualTo("2030-01-02T03:04:05Z");
        Aggregate.Items items = basket.decompose(view, Map.of(), 1, now, now);
        AttributeValue epoch = AttributeValue.fromN(Long.toString(Instant.parse("2030-01-02T03:04:05Z").getEpochSecond()));
        assertThat(items.bySk().keySet()).containsExactlyInAnyOrder("HEAD", "SLIP", "LINE#i1", "LINE#i2");
        items.bySk().values().forEach(member -> assertThat(member.item().get(TableSpec.EXPIRES_AT)).as(member.sk()).isEqualTo(epoch));
        assertThat(items.root().item()).doesNotContainKey("lapsesAt");
        assertThat(basket.assemble(items.bySk().values().stream().map(Aggregate.Member::item).toList()).view())
                .isEqualTo(view);

        // a new expiry is a change of every item: the diff puts every group, the root's and the members'
        Aggregate.Items later = basket.decompose(basket.hydrate(input("2031-01-01T00:00:00Z"), copies()), Map.of(), 2, now, now);
        var changes = Aggregate.diff(items, later);
        assertThat(changes.stream().flatMap(c -> c.puts().stream()).map(Aggregate.Member::sk))
                .containsExactlyInAnyOrder("HEAD", "SLIP", "LINE#i1", "LINE#i2");
        // no expiry: no item carries one (a put replaces each whole item, so a removed expiry leaves none behind)
        Aggregate.Items never = basket.decompose(basket.hydrate(input(null), copies()), Map.of(), 2, now, now);
        never.bySk().values().forEach(member -> assertThat(member.item()).doesNotContainKey(TableSpec.EXPIRES_AT));
        assertThat(basket.assemble(never.bySk().values().stream().map(Aggregate.Member::item).toList()).view().get("lapsesAt")).isNull();
    }

    @Test
    void everyWriteIsConditionedOnALiveRootAndACreateMayTakeTheIdOfAnExpiredOne() {
        Aggregate basket = DomainPlan.of(List.of(read(TILLS))).aggregate("Basket").aggregate();
        Instant now = Instant.parse("2029-01-01T00:00:00Z");
        Aggregate.Items items = basket.decompose(basket.hydrate(input("2030-01-01T00:00:00Z"), copies()), Map.of(), 1, now, now);
        WriteAction.Expectation create = AggregateWrites.create(basket, items, now).root().expectation();
        assertThat(create.state()).isEqualTo(WriteAction.Expectation.State.ABSENT);
        assertThat(create.liveAt()).isEqualTo(now);
        assertThat(AggregateWrites.update(basket, items, items, 1, now).root().expectation().liveAt()).isEqualTo(now);
        assertThat(AggregateWrites.delete(basket, items, 1, now).root().expectation().liveAt()).isEqualTo(now);
        // a write in several transactions: its commit needs the root unexpired at the commit's own instant too
        var update = AggregateWrites.update(basket, items, items, 1, now);
        Instant later = now.plusSeconds(60);
        var commit = dev.cairn.core.aggregate.AggregateTxn.committingAt(
                List.of(dev.cairn.core.aggregate.AggregateTxn.commit(update, "me")), update, later);
        assertThat(commit.get(0).expectation().state()).isEqualTo(WriteAction.Expectation.State.PRESENT);
        assertThat(commit.get(0).expectation().liveAt()).isEqualTo(later);
        assertThat(commit.get(0).extraCondition()).isNotNull();
        var created = AggregateWrites.create(basket, items, now);
        var createCommit = List.of(dev.cairn.core.aggregate.AggregateTxn.commit(created, "me"));
        assertThat(dev.cairn.core.aggregate.AggregateTxn.committingAt(createCommit, created, later)).isSameAs(createCommit);
        // an aggregate that never expires keeps its plain conditions
        Aggregate plain = DomainPlan.of(List.of(read(TILLS.replace("    ttl: lapsesAt\n", "")))).aggregate("Basket").aggregate();
        assertThat(plain.expires()).isFalse();
        Aggregate.Items plainItems = plain.decompose(plain.hydrate(input("2030-01-01T00:00:00Z"), copies()), Map.of(), 1, now, now);
        assertThat(AggregateWrites.create(plain, plainItems, now).root().expectation().liveAt()).isNull();
        assertThat(plainItems.root().item()).containsKey("lapsesAt").doesNotContainKey(TableSpec.EXPIRES_AT);
    }

    @Test
    void anExpiryThatIsNotOneOfTheRootsInstantFieldsIsRefusedAtItsLine() {
        String expected = "ttl names one of the root's own instant fields (the aggregate's expiry; a member expires with "
                + "its root), not '";
        for (String name : List.of("note", "day", "id", "workspaceId", "owner", "card", "lines", "nowhere", "printedAt")) {
            assertThat(failure(TILLS.replace("ttl: lapsesAt", "ttl: " + name)).getMessage()).as(name)
                    .isEqualTo("models/tills.yaml:15: aggregates.Basket.ttl: " + expected + name + "'");
        }
        assertThat(failure(TILLS.replace("ttl: lapsesAt", "ttl: [lapsesAt]")).getMessage())
                .isEqualTo("models/tills.yaml:15: aggregates.Basket.ttl: must be a single value");
    }

    @Test
    void aMemberOrAPartExpiresWithItsRootAndCannotDeclareATtlOfItsOwn() {
        String message = "a member expires with its root: declare ttl on the aggregate (one of the root's instant fields), "
                + "not on a member or a part";
        ModelException one = failure(TILLS.replace("          type: BasketCard\n", "          type: BasketCard\n          ttl: printedAt\n"));
        assertThat(one.getMessage()).isEqualTo("models/tills.yaml:26: aggregates.Basket.fields.card.one.ttl: " + message);
        ModelException many = failure(TILLS.replace("          type: BasketLine\n", "          type: BasketLine\n          ttl: quantity\n"));
        assertThat(many.getMessage()).isEqualTo("models/tills.yaml:32: aggregates.Basket.fields.lines.many.ttl: " + message);
        ModelException copy = failure(TILLS.replace("      owner: { ref: Item }\n",
                "      owner: { copy: Item, type: BasketOwner, label: OWNER, ttl: lapsesAt }\n"));
        assertThat(copy.getMessage()).isEqualTo("models/tills.yaml:22: aggregates.Basket.fields.owner.ttl: " + message);
        ModelException part = failure(TILLS.replace("    lists:\n",
                "    parts:\n      Side:\n        type: BasketSide\n        label: SIDE\n        ttl: lapsesAt\n    lists:\n"));
        assertThat(part.getMessage()).isEqualTo("models/tills.yaml:41: aggregates.Basket.parts.Side.ttl: " + message);
    }

    @Test
    void anExpiryCannotBeWhatAListIsByNorTheTenantBecauseItIsNotStoredUnderItsName() {
        ModelException listed = failure(TILLS.replace("by: { note: gsi4 }", "by: { lapsesAt: gsi4 }"));
        assertThat(listed.getMessage()).isEqualTo("models/tills.yaml:15: aggregates.Basket.ttl: the ttl field 'lapsesAt' "
                + "is stored as the table's TTL attribute: no list, key or tenant may be made of it (list 'note' is by it)");
        // the tenant is a required id field, which an expiry (an instant) never is: refused as either
        ModelException tenant = failure(TILLS.replace("    ttl: lapsesAt\n", "    ttl: lapsesAt\n    tenant: lapsesAt\n"));
        assertThat(tenant.getMessage()).contains("aggregates.Basket.tenant: the tenant is a required id field of the root");
    }

    @Test
    void theShopsCartsExpireWithTheirLines() throws java.io.IOException {
        String shop;
        try (var in = getClass().getClassLoader().getResourceAsStream("models/shop.yaml")) {
            shop = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        AggregateModel cart = ModelReader.read("models/shop.yaml", shop).aggregates().stream()
                .filter(a -> a.name().equals("Cart")).findFirst().orElseThrow();
        assertThat(cart.ttl()).isEqualTo("expiresAt");
        assertThat(cart.access().tenant()).isEqualTo("workspaceId");
    }
}
