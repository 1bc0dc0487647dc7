package dev.cairn.core.model;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** An aggregate's root label must sort before its members' (a read's first page holds the root): said at its line. */
class AggregateLabelsTest {

    static String order(String rootLabel) {
        return """
                domain: Store
                entities:
                  Product:
                    key: { pk: "PROD#{id}", sk: PRODUCT }
                    path: /products/{id}
                    copies: { index: gsi1 }
                    fields:
                      id: id
                      name: { type: string, required: true, maxLength: 100 }
                aggregates:
                  Order:
                    partition: "ORDER#{id}"
                    path: /orders/{id}
                    label: %s
                    fields:
                      id: id
                      lines:
                        many:
                          type: OrderLine
                          label: LINE
                          key: product
                          fields:
                            product: { ref: Product }
                            quantity: { type: integer, required: true, min: 1, max: 9 }
                """.formatted(rootLabel);
    }

    @Test
    void aRootLabelSortingAfterAMembersIsRefusedAtItsLine() {
        assertThat(ModelReaderTest.failure(order("ORDER")).getMessage())
                .startsWith("models/shop.yaml:14: aggregates.Order.label:")
                .contains("the root's label ORDER must sort before every member's: lines is LINE");
    }

    @Test
    void aRootLabelSortingBeforeEveryMemberIsRead() {
        var model = ModelReader.read("models/shop.yaml", order("HEAD"));
        assertThat(model.aggregates()).extracting(a -> a.root().label()).containsExactly("HEAD");
    }
}
