package dev.cairn.core.model;

import dev.cairn.core.model.FieldModel.Kind;
import dev.cairn.core.model.OperationModel.Op;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ModelReaderTest {

    static final String SHOP = """
            domain: Shop
            entities:
              Customer:
                key: { pk: "CUST#{id}", sk: PROFILE }
                path: /customers/{id}
                fields:
                  id: id
                  name: { type: string, required: true, maxLength: 100 }
              Order:
                parent: { entity: Customer, id: customerId }
                key: { pk: "CUST#{customerId}", sk: "ORDER#{orderId}" }
                generate: time-ordered
                path: /customers/{customerId}/orders/{orderId}
                fields:
                  total: { type: number, min: 0 }
                list: { path: "/customers/{customerId}/orders", order: newest-first }
            """;

    static ModelException failure(String yaml) {
        try {
            ModelReader.read("models/shop.yaml", yaml);
        } catch (ModelException e) {
            return e;
        }
        throw new AssertionError("the model was accepted");
    }

    @Test
    void aChildHasItsParentsIdAndAGeneratedIdLeadingItsFields() {
        DomainModel model = ModelReader.read("models/shop.yaml", SHOP);
        EntityModel order = model.entity("Order");
        assertThat(order.identity()).containsExactly("customerId", "orderId");
        assertThat(order.generatedId()).isTrue();
        assertThat(order.fields()).extracting(FieldModel::name).containsExactly("customerId", "orderId", "total");
        assertThat(order.fields().get(0).serverSet()).isTrue();
        assertThat(order.list().newestFirst()).isTrue();
        assertThat(order.operations()).containsKeys(Op.CREATE, Op.GET, Op.PUT, Op.PATCH, Op.DELETE);
        assertThat(order.operation(Op.CREATE).operationId()).isEqualTo("createOrder");
        assertThat(order.immutable()).containsExactly("customerId", "orderId");
        assertThat(model.entity("Customer").field("name").orElseThrow().kind()).isEqualTo(Kind.STRING);
    }

    @Test
    void anUnknownTypeNamesTheFileTheLineAndTheField() {
        ModelException e = failure(SHOP.replace("type: string, required: true", "type: text, required: true"));
        assertThat(e.file()).isEqualTo("models/shop.yaml");
        assertThat(e.line()).isEqualTo(8);
        assertThat(e.where()).isEqualTo("entities.Customer.fields.name.type");
        assertThat(e.getMessage()).isEqualTo("models/shop.yaml:8: entities.Customer.fields.name.type: unknown type 'text'"
                + " (expected one of id, string, integer, number, boolean, date, instant, enum, object, list)");
    }

    @Test
    void aKeyWithTwoIdsOfItsOwnIsRefused() {
        ModelException e = failure(SHOP.replace("sk: PROFILE", "sk: \"PROFILE#{region}\""));
        assertThat(e.getMessage()).startsWith("models/shop.yaml:4: entities.Customer.key: the key has two id fields");
    }

    @Test
    void unknownKeysAndReservedFeaturesAreNamed() {
        assertThat(failure(SHOP.replace("    path: /customers/{id}\n", "    path: /customers/{id}\n    colour: red\n"))
                .getMessage()).contains("entities.Customer.colour: unknown key 'colour'");
        assertThat(failure(SHOP.replace("    path: /customers/{id}\n", "    path: /customers/{id}\n    migrations: 5\n"))
                .getMessage()).contains("entities.Customer.migrations: 'migrations' is reserved for a coming entity feature");
    }

    @Test
    void aPathMustFitTheIdentityAndARefMustNameAnEntity() {
        assertThat(failure(SHOP.replace("path: /customers/{customerId}/orders/{orderId}", "path: /orders/{orderId}"))
                .getMessage()).contains("entities.Order.path: the path has 1 parameter(s) but the entity is identified by 2");
        assertThat(failure(SHOP.replace("parent: { entity: Customer", "parent: { entity: Client")).getMessage())
                .contains("entities.Order.parent.entity: no entity 'Client' to be the parent");
    }

    @Test
    void brokenYamlAndBadConstraintsAreRefusedWithTheirLine() {
        assertThat(failure("domain: Shop\nentities: [unclosed\n").getMessage()).startsWith("models/shop.yaml:").contains("not valid YAML");
        assertThat(failure(SHOP.replace("maxLength: 100", "maxLength: -1")).getMessage())
                .contains("entities.Customer.fields.name.maxLength: must be a whole number from 0");
        assertThat(failure(SHOP.replace("total: { type: number, min: 0 }", "total: { type: number, min: 5, max: 1 }"))
                .getMessage()).contains("min is above max");
    }

    @Test
    void demoItemsMustSatisfyTheirFields() {
        String withDemo = SHOP + "demo:\n  Customer:\n    - { id: c1, name: \"\" }\n";
        assertThat(failure(withDemo).getMessage()).contains("models/shop.yaml:19:").contains("name must not be blank");
        DomainModel ok = ModelReader.read("models/shop.yaml", SHOP + "demo:\n  Customer:\n    - { id: c1, name: Ada }\n");
        assertThat(ok.demo()).hasSize(1);
        assertThat(ok.demo().get(0).values()).containsEntry("name", "Ada");
    }

    @Test
    void twoRoutesOfTheSameShapeAreAmbiguous() {
        String clash = SHOP + """
                  Invoice:
                    key: { pk: "INV#{id}", sk: INVOICE }
                    path: /customers/{number}
                """;
        assertThat(failure(clash.replace("demo:", "")).getMessage()).contains("two routes POST /customers (Customer and Invoice)");
    }

    @Test
    void pathsThatDifferOnlyInParameterNamesAndTwinOperationIdsAreRefused() {
        assertThat(failure(SHOP.replace("path: /customers/{customerId}/orders/{orderId}", "path: /customers/{customer}/orders/{orderId}"))
                .getMessage()).contains("the paths /customers/{customer}/orders and /customers/{customerId}/orders differ only");
        assertThat(failure(SHOP.replace("      create: Create a book", "").replace("list: { path: \"/customers/{customerId}/orders\", order: newest-first }",
                "list: { path: \"/customers/{customerId}/orders\", order: newest-first, id: getCustomer }"))
                .getMessage()).contains("two operations are called getCustomer (Customer and Order)");
        DomainModel model = ModelReader.read("models/shop.yaml", SHOP);
        assertThat(model.entity("Order").list().operationId()).isEqualTo("listCustomerOrders");
        assertThat(model.entity("Order").list().summary()).isEqualTo("A customer's orders");
        assertThat(model.entity("Order").operation(Op.PUT).summary()).isEqualTo("Replace an order");
    }

    @Test
    void fieldRulesSpeakBeanValidationsWords() {
        var fields = ModelReader.read("models/shop.yaml", SHOP).entity("Customer").fields();
        var violations = FieldRules.check(fields, new java.util.LinkedHashMap<>(java.util.Map.of("id", "", "name", "x".repeat(101),
                "extra", 1)), false);
        assertThat(violations).extracting(FieldRules.Violation::field).containsExactlyInAnyOrder("extra", "id", "name");
        assertThat(violations).extracting(FieldRules.Violation::message).contains("unknown field",
                "size must be between 0 and 100", "must be 1 to 128 characters without control characters, not . or ..");
        assertThat(FieldRules.read(fields, java.util.Map.of("id", "c1", "name", "Ada"), false).values())
                .isEqualTo(java.util.Map.of("id", "c1", "name", "Ada"));
        assertThat(List.of(FieldRules.check(fields, java.util.Map.of("id", "c1", "name", 5), false).get(0).message()))
                .containsExactly("has the wrong type or format");
    }

    @Test
    void aStringsLengthIsCountedInCharactersAsTheDocumentsMaxLengthIs() {
        var fields = ModelReader.read("models/shop.yaml", SHOP).entity("Customer").fields();
        String emoji = "\uD83D\uDE80"; // one character, two UTF-16 units
        assertThat(FieldRules.check(fields, java.util.Map.of("id", "c1", "name", emoji.repeat(100)), false)).isEmpty();
        assertThat(FieldRules.check(fields, java.util.Map.of("id", "c1", "name", emoji.repeat(101)), false))
                .singleElement().satisfies(v -> assertThat(v.message()).isEqualTo("size must be between 0 and 100"));
    }

    @Test
    void anIdIsRefusedWhenItIsADotSegmentThatNoUrlCanName() {
        var fields = ModelReader.read("models/shop.yaml", SHOP).entity("Customer").fields();
        for (String id : List.of(".", "..", " ")) {
            assertThat(FieldRules.check(fields, java.util.Map.of("id", id, "name", "Ada"), false)).as("id [%s]", id)
                    .singleElement().satisfies(v -> {
                        assertThat(v.field()).isEqualTo("id");
                        assertThat(v.message()).isEqualTo("must be 1 to 128 characters without control characters, not . or ..");
                    });
        }
        assertThat(FieldRules.check(fields, java.util.Map.of("id", "...", "name", "Ada"), false)).isEmpty();
    }

    static final String BLOG = """
            domain: Blog
            entities:
              Writer:
                key: { pk: "WRITER#{id}", sk: PROFILE }
                path: /writers/{id}
                self: true
                fields:
                  id: id
              Article:
                key: { pk: "ARTICLE#{articleId}", sk: ARTICLE }
                generate: time-ordered
                path: /articles/{articleId}
                owner: { ref: writerId, path: "/writers/{wid}/articles/{articleId}" }
                timestamps: true
                fields:
                  title: { type: string, required: true }
                refs:
                  writerId: { entity: Writer }
                operations:
                  create: { at: owner }
                  get: { include: { notes: Note } }
                  patch: { at: owner }
              Note:
                parent: { entity: Article, id: articleId }
                key: { pk: "ARTICLE#{articleId}", sk: "ARTICLE#NOTE#{noteId}" }
                generate: time-ordered
                path: /articles/{articleId}/notes/{noteId}
                timestamps: [createdAt]
                fields:
                  text: { type: string, required: true }
                refs:
                  writerId: { entity: Writer, actor: true }
                list: { path: "/articles/{articleId}/notes" }
            """;

    @Test
    void anOwnedEntityIsWrittenUnderItsOwnerAndAnsweredWithItsTimestamps() {
        DomainModel model = ModelReader.read("models/blog.yaml", BLOG);
        EntityModel article = model.entity("Article");
        assertThat(model.entity("Writer").self()).isTrue();
        assertThat(article.owner().parameter()).isEqualTo("wid");
        assertThat(article.routeOf(article.operation(Op.CREATE))).isEqualTo("/writers/{wid}/articles");
        assertThat(article.routeOf(article.operation(Op.PATCH))).isEqualTo("/writers/{wid}/articles/{articleId}");
        assertThat(article.routeOf(article.operation(Op.GET))).isEqualTo("/articles/{articleId}");
        // The owner comes from the path: never from a body, never changed.
        assertThat(article.field("writerId").orElseThrow().serverSet()).isTrue();
        assertThat(article.actor().orElseThrow().field()).isEqualTo("writerId");
        assertThat(article.timestamps()).containsExactly("createdAt", "updatedAt");
        assertThat(article.immutable()).contains("createdAt", "updatedAt", "writerId");
        assertThat(article.operation(Op.GET).include()).containsOnlyKeys("notes");
        EntityModel note = model.entity("Note");
        assertThat(note.followsParent(article)).isTrue();
        assertThat(note.timestamps()).containsExactly("createdAt");
        // An actor named by a body is optional there (the caller when absent).
        assertThat(note.field("writerId").orElseThrow().required()).isFalse();
        assertThat(note.field("writerId").orElseThrow().serverSet()).isFalse();
    }

    @Test
    void ownersIncludesAndTimestampsAreCheckedWhereTheyAreDeclared() {
        assertThat(failure(BLOG.replace("owner: { ref: writerId,", "owner: { ref: authorId,")).getMessage())
                .contains("entities.Article.owner.ref: the owner is one of the entity's refs: 'authorId' is not");
        assertThat(failure(BLOG.replace("\"/writers/{wid}/articles/{articleId}\"", "\"/writers/{wid}/articles\"")).getMessage())
                .contains("an owner path has 2 parameters");
        assertThat(failure(BLOG.replace("sk: \"ARTICLE#NOTE#{noteId}\"", "sk: \"NOTE#{noteId}\"")).getMessage())
                .contains("entities.Article: operations.get.include.notes: 'Note' is not a child of Article that sorts right after it");
        assertThat(failure(BLOG.replace("list: { path: \"/articles/{articleId}/notes\" }",
                "list: { path: \"/articles/{articleId}/notes\", order: newest-first }")).getMessage())
                .contains("is listed newest first");
        assertThat(failure(BLOG.replace("timestamps: [createdAt]", "timestamps: [createdAt, deletedAt]")).getMessage())
                .contains("entities.Note.timestamps: timestamps are createdAt and updatedAt, each once");
        assertThat(failure(BLOG.replace("      patch: { at: owner }", "      patch: { at: home }")).getMessage())
                .contains("an operation is served at its item path, or 'at: owner'");
        assertThat(failure(BLOG.replace("    owner: { ref: writerId, path: \"/writers/{wid}/articles/{articleId}\" }\n", ""))
                .getMessage()).contains("create is 'at: owner' but the entity declares no 'owner'");
        assertThat(failure(BLOG.replace("actor: true }", "actor: true }\n      editorId: { entity: Writer, actor: true }"))
                .getMessage()).contains("an entity has one actor");
    }

    static final String LINES = """
            domain: Shop
            entities:
              Product:
                key: { pk: "PRODUCT#{id}", sk: PRODUCT }
                path: /products/{id}
                fields:
                  id: id
                  name: { type: string, required: true, maxLength: 100 }
              Order:
                key: { pk: "ORDER#{id}", sk: ORDER }
                path: /orders/{id}
                fields:
                  id: id
                  status: { type: enum, values: [open, shipped], required: true }
              Line:
                parent: { entity: Order, id: orderId }
                key: { pk: "ORDER#{orderId}", sk: "LINE#{number}" }
                path: /orders/{orderId}/lines/{number}
                fields:
                  number: { type: integer, required: true, min: 1, max: 999 }
                  quantity: { type: integer, min: 1, max: 100 }
                  status: { type: enum, values: [open, shipped], required: true }
                refs:
                  productId: { entity: Product, copy: { productName: name } }
                indexes:
                  byProduct: { index: gsi1, pk: "PRODUCT#{productId}", sk: "LINE#{orderId}#{number}" }
                  byStatus: { index: gsi2, pk: "LINESTATUS#{status}", sk: "LINE#{orderId}#{number}", list: { path: "/line-statuses/{status}/lines" } }
                list: { path: "/orders/{orderId}/lines" }
            """;

    @Test
    void anEntityKeysSeveralIndexesEachNamedAndARefsCopiesAreFoundThroughTheOnePartitionedByIt() {
        DomainModel model = ModelReader.read("models/shop.yaml", LINES);
        EntityModel line = model.entity("Line");
        assertThat(line.keyedIndexes()).extracting(IndexModel::name).containsExactly("byProduct", "byStatus");
        assertThat(line.indexBy("productId")).map(IndexModel::name).hasValue("byProduct");
        assertThat(line.indexBy("status")).map(IndexModel::name).hasValue("byStatus");
        DomainPlan plan = DomainPlan.of(List.of(model));
        var copies = plan.cascade("Product").copies().apply("p1");
        assertThat(copies).hasSize(1);
        assertThat(copies.get(0).index().indexName()).isEqualTo("gsi1");
        assertThat(copies.get(0).partition()).isEqualTo("PRODUCT#p1");
        var spec = plan.entity("Line").spec();
        var item = spec.toItem(new Doc(java.util.Map.of("orderId", "o1", "number", 2L, "quantity", 1L, "status", "open",
                "productId", "p1", "productName", "Tea")), 1, java.time.Instant.EPOCH, java.time.Instant.EPOCH);
        assertThat(item.get("gsi1pk").s()).isEqualTo("PRODUCT#p1");
        assertThat(item.get("gsi2pk").s()).isEqualTo("LINESTATUS#open");
        assertThatThrownBy(() -> ModelReader.read("models/shop.yaml", LINES.replace("index: gsi2", "index: gsi1")))
                .isInstanceOf(ModelException.class).hasMessageContaining("one key per index");
    }

    @Test
    void integersInKeysSortAsNumbers() {
        DomainPlan plan = DomainPlan.of(List.of(ModelReader.read("models/shop.yaml", LINES)));
        DeclaredEntity line = plan.entity("Line");
        assertThat(line.model().sk().pattern()).isEqualTo("LINE#{number:n}");
        String two = line.key(List.of("o1", "2")).sk();
        String ten = line.key(List.of("o1", "10")).sk();
        String nine = line.key(List.of("o1", "9")).sk();
        assertThat(List.of(ten, two, nine).stream().sorted().toList()).containsExactly(two, nine, ten);
        assertThatThrownBy(() -> line.key(List.of("o1", "two"))).isInstanceOf(dev.cairn.core.CairnException.class)
                .hasMessageContaining("number");
    }
}
