package dev.cairn.core.model;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** An aggregate's {@code tenant} and {@code roles} as the reader takes them, and the declarations it refuses. */
class AggregateAccessModelTest {

    static String shop(String access) {
        return """
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
                  Sale:
                    partition: "SALE#{id}"
                    path: /sales/{id}
                    label: HEAD
                %s
                    fields:
                      id: id
                      workspaceId: { type: id, required: true }
                      note: { type: string, maxLength: 100 }
                      lines:
                        many:
                          type: SaleLine
                          label: LINE
                          key: item
                          fields:
                            item: { ref: Item }
                """.formatted(access.indent(4).stripTrailing());
    }

    static AggregateModel sale(String access) {
        return ModelReader.read("models/tills.yaml", shop(access)).aggregates().get(0);
    }

    @Test
    void aTenantAndRolesAreTheAggregatesAccess() {
        AggregateModel sale = sale("tenant: workspaceId\nroles: { delete: admin, list: admin }");
        assertThat(sale.access().tenant()).isEqualTo("workspaceId");
        assertThat(sale.access().roles()).isEqualTo(Map.of("delete", "admin", "list", "admin"));
        assertThat(sale.referencedEntities()).containsExactly("Item");
        assertThat(sale("note: none".replace("note: none", "")).access().tenant()).isNull();
    }

    @Test
    void theTenantIsARequiredIdFieldOfTheRootAndTheRolesAreKnownOnes() {
        for (var broken : Map.of(
                "tenant: note", "the tenant is a required id field of the root",
                "tenant: nowhere", "the tenant is a required id field of the root",
                "tenant: id", "an aggregate is no tenant itself",
                "roles: { delete: owner }", "a role is reader, writer or admin, not 'owner'",
                "roles: { cascade: admin }", "cascade").entrySet()) {
            assertThat(catchThrowable(() -> sale(broken.getKey()))).as("%s", broken.getKey()).isInstanceOf(ModelException.class)
                    .hasMessageContaining(broken.getValue()).hasMessageContaining("tills.yaml");
        }
    }
}
