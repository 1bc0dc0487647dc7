package dev.cairn.declared;

import dev.cairn.core.model.DomainPlan;
import dev.cairn.core.model.ModelReader;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A list of a tenant-scoped aggregate {@code by} its tenant field answers another tenant's value as a missing workspace
 * (404, DeclaredAggregates.list); the document must say so, as it does for an entity's list scoped by its tenant.
 */
class AggregateTenantListContractTest {

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
              Sale:
                partition: "SALE#{id}"
                path: /sales/{id}
                label: HEAD
                tenant: workspaceId
                fields:
                  id: id
                  workspaceId: { type: id, required: true }
                  lines:
                    many:
                      type: SaleLine
                      label: LINE
                      key: item
                      fields:
                        item: { ref: Item }
                lists:
                  workspace:
                    path: "/tills-workspaces/{workspaceId}/sales"
                    partition: "SALES#WS#{id}"
                    by: { workspaceId: gsi2 }
                    id: listWorkspaceSales
                    summary: "A workspace's sales"
                summary:
                  schema: SaleSummary
                  fields:
                    workspaceId: workspaceId
            """;

    @Test
    void aListByTheTenantDocumentsTheNotFoundItAnswersAnotherTenant() {
        DomainPlan plan = DomainPlan.of(List.of(ModelReader.read("models/tills.yaml", TILLS)));
        OpenAPI openAPI = OASFactory.createOpenAPI().paths(OASFactory.createPaths())
                .components(OASFactory.createComponents());
        DeclaredOpenApi.addTo(openAPI, plan);
        var list = openAPI.getPaths().getPathItem("/tills-workspaces/{workspaceId}/sales").getGET();
        assertThat(list.getOperationId()).isEqualTo("listWorkspaceSales");
        assertThat(list.getResponses().getAPIResponses()).containsKey("404");
    }
}
