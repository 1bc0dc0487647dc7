package dev.cairn.core.model;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * An aggregate's {@code tenant} and {@code roles} as the reader takes them, a domain's {@code tenant} that scopes every
 * entity and aggregate of its file, and the declarations it refuses.
 */
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

    static final String TENANT_DOMAIN = """
            domain: Desks
            tenant: workspaceId
            entities:
              Office:
                key: { pk: "OFFICE#{id}", sk: OFFICE }
                path: /offices/{id}
                tenant: id
                fields:
                  id: id
              Desk:
                parent: { entity: Office, id: workspaceId }
                key: { pk: "OFFICE#{workspaceId}", sk: "DESK#{id}" }
                path: /offices/{id}/desks/{deskId}
                fields:
                  label: { type: string, maxLength: 20 }
            %s
            aggregates:
              Booking:
                partition: "BOOKING#{id}"
                path: /bookings/{id}
                label: HEAD
                fields:
                  id: id
                  %s
            """;

    @Test
    void aDomainsTenantScopesEveryEntityAndAggregateThatNamesNoneOfItsOwn() {
        DomainModel desks = ModelReader.read("models/desks.yaml",
                TENANT_DOMAIN.formatted("", "workspaceId: { type: id, required: true }"));
        assertThat(desks.entities().get("Office").access().tenant()).as("its own").isEqualTo("id");
        assertThat(desks.entities().get("Desk").access().tenant()).as("the domain's").isEqualTo("workspaceId");
        assertThat(desks.aggregates().get(0).access().tenant()).as("the domain's").isEqualTo("workspaceId");
    }

    @Test
    void aDomainsTenantRefusesAnEntityOrAggregateWithoutTheField() {
        String shared = """
                  Colour:
                    key: { pk: "COLOUR#{id}", sk: COLOUR }
                    path: /colours/{id}
                    fields:
                      id: id
                """;
        assertThat(catchThrowable(() -> ModelReader.read("models/desks.yaml",
                TENANT_DOMAIN.formatted(shared, "workspaceId: { type: id, required: true }"))))
                .isInstanceOf(ModelException.class).hasMessageContaining("desks.yaml")
                .hasMessageContaining("the domain is scoped by 'workspaceId'").hasMessageContaining("Colour");
        assertThat(catchThrowable(() -> ModelReader.read("models/desks.yaml",
                TENANT_DOMAIN.formatted("", "note: { type: string, maxLength: 9 }"))))
                .isInstanceOf(ModelException.class)
                .hasMessageContaining("the domain's tenant 'workspaceId' is a required id field of the root");
    }
}
