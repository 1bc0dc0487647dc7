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
        assertThat(failure(SHOP.replace("    path: /customers/{id}\n", "    path: /customers/{id}\n    ttl: 30d\n"))
                .getMessage()).contains("entities.Customer.ttl: 'ttl' is reserved for a coming entity feature");
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
                "size must be between 0 and 100", "must be 1 to 128 characters without control characters");
        assertThat(FieldRules.read(fields, java.util.Map.of("id", "c1", "name", "Ada"), false).values())
                .isEqualTo(java.util.Map.of("id", "c1", "name", "Ada"));
        assertThat(List.of(FieldRules.check(fields, java.util.Map.of("id", "c1", "name", 5), false).get(0).message()))
                .containsExactly("has the wrong type or format");
    }
}
