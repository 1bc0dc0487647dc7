package dev.cairn.core.model;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.NaturalIndex;
import dev.cairn.core.TableSpec;
import dev.cairn.core.query.QuerySpec;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A named index on an entity's own fields (DynamoDB's multi-attribute keys): how it is declared, what is refused, the
 * table definition it makes, and the Query a listing sends — every partition field equal, the sort fields left to
 * right, only the last one conditioned taking a range.
 */
class NaturalIndexModelTest {

    static final String TICKETS = """
            domain: Desk
            entities:
              Ticket:
                key: { pk: "TICKET#{ticketId}", sk: TICKET }
                path: /tickets/{ticketId}
                fields:
                  ticketId: id
                  tenantId: { type: string, required: true, maxLength: 64 }
                  status: { type: enum, values: [open, closed] }
                  priority: { type: integer, min: 1, max: 5 }
                  opened: date
                  closed: boolean
                indexes:
                  ticketsByTenantStatus:
                    pk: [tenantId, status]
                    sk: [priority, opened]
                    list: { path: "/tenants/{tenantId}/tickets/{status}" }
            """;

    static ModelException failure(String yaml) {
        try {
            DomainPlan.of(List.of(ModelReader.read("models/desk.yaml", yaml)));
        } catch (ModelException e) {
            return e;
        }
        throw new AssertionError("the model was accepted");
    }

    static DeclaredEntity ticket() {
        return DomainPlan.of(List.of(ModelReader.read("models/desk.yaml", TICKETS))).entity("Ticket");
    }

    static QueryRequest listing(Map<String, String> parameters) {
        DeclaredEntity ticket = ticket();
        NaturalIndexModel index = ticket.model().indexes().get(0);
        QuerySpec query = ticket.naturalQuery(index, Map.of("tenantId", "acme", "status", "open"), parameters::get, 20, false);
        return query.toRequest("cairn", null);
    }

    static String readable(QueryRequest request) {
        String text = request.keyConditionExpression();
        for (var name : request.expressionAttributeNames().entrySet()) {
            text = text.replace(name.getKey() + " ", name.getValue() + " ");
        }
        for (var value : request.expressionAttributeValues().entrySet()) {
            String shown = value.getValue().s() != null ? value.getValue().s() : value.getValue().n();
            text = text.replaceAll(value.getKey() + "(?![0-9])", shown);
        }
        return text;
    }

    @Test
    void anIndexIsDeclaredOnTheEntitysFieldsWithTheirKeyTypes() {
        DeclaredEntity ticket = ticket();
        NaturalIndexModel index = ticket.model().indexes().get(0);
        assertThat(index.name()).isEqualTo("ticketsByTenantStatus");
        assertThat(index.index().partition()).containsExactly(new NaturalIndex.Attribute("tenantId", false),
                new NaturalIndex.Attribute("status", false));
        assertThat(index.index().sort()).containsExactly(new NaturalIndex.Attribute("priority", true),
                new NaturalIndex.Attribute("opened", false));
        assertThat(index.list().operationId()).isEqualTo("listTicketsByTenantIdAndStatus");
    }

    @Test
    void theTableDefinesTheIndexWithItsAttributesInKeyOrderAndNoSyntheticAttribute() {
        DomainPlan plan = DomainPlan.of(List.of(ModelReader.read("models/desk.yaml", TICKETS)));
        CreateTableRequest table = TableSpec.createTableRequest("cairn", plan.naturalIndexes());
        var gsi = table.globalSecondaryIndexes().stream().filter(g -> g.indexName().equals("ticketsByTenantStatus"))
                .findFirst().orElseThrow();
        assertThat(gsi.keySchema()).extracting(k -> k.attributeName() + ":" + k.keyTypeAsString())
                .containsExactly("tenantId:HASH", "status:HASH", "priority:RANGE", "opened:RANGE");
        assertThat(gsi.projection().projectionTypeAsString()).isEqualTo("ALL");
        assertThat(table.attributeDefinitions()).extracting(AttributeDefinition::attributeName, AttributeDefinition::attributeTypeAsString)
                .contains(org.assertj.core.groups.Tuple.tuple("tenantId", "S"), org.assertj.core.groups.Tuple.tuple("priority", "N"),
                        org.assertj.core.groups.Tuple.tuple("opened", "S"));
        // A write of a ticket adds no key attribute: the item is its fields, keys and bookkeeping.
        var item = plan.entity("Ticket").spec().toItem(new Doc(Map.of("ticketId", "t1", "tenantId", "acme", "status", "open",
                "priority", 2L, "opened", "2026-11-27")), 1, java.time.Instant.EPOCH, java.time.Instant.EPOCH);
        assertThat(item.keySet()).containsExactlyInAnyOrder("pk", "sk", "_type", "_version", "_createdAt", "_updatedAt",
                "ticketId", "tenantId", "status", "priority", "opened");
    }

    @Test
    void aListingSetsEveryPartitionFieldEqualAndConditionsTheSortFieldsLeftToRight() {
        assertThat(readable(listing(Map.of()))).isEqualTo("tenantId = acme AND status = open");
        assertThat(listing(Map.of()).indexName()).isEqualTo("ticketsByTenantStatus");
        assertThat(listing(Map.of()).consistentRead()).isNull();
        assertThat(readable(listing(Map.of("priority", "2")))).isEqualTo("tenantId = acme AND status = open AND priority = 2");
        assertThat(readable(listing(Map.of("priorityFrom", "2", "priorityTo", "4"))))
                .isEqualTo("tenantId = acme AND status = open AND priority BETWEEN 2 AND 4");
        assertThat(readable(listing(Map.of("priority", "2", "openedFrom", "2026-11-01"))))
                .isEqualTo("tenantId = acme AND status = open AND priority = 2 AND opened >= 2026-11-01");
        assertThat(readable(listing(Map.of("priority", "2", "opened", "2026-11-01"))))
                .isEqualTo("tenantId = acme AND status = open AND priority = 2 AND opened = 2026-11-01");
        assertThat(readable(listing(Map.of("priorityTo", "3")))).isEqualTo("tenantId = acme AND status = open AND priority <= 3");
        assertThat(listing(Map.of("priority", "2")).expressionAttributeValues().get(":v2").n()).isEqualTo("2");
    }

    @Test
    void aConditionOutOfOrderOrOnAWrongValueIsRefusedNamingItsParameter() {
        assertRefused(Map.of("opened", "2026-11-01"), "opened", "left to right");
        assertRefused(Map.of("priorityFrom", "2", "opened", "2026-11-01"), "opened", "a range on priority ends the conditions");
        assertRefused(Map.of("priority", "2", "priorityFrom", "1"), "priority", "not both");
        assertRefused(Map.of("priorityFrom", "4", "priorityTo", "2"), "priorityFrom", "must not be after priorityTo");
        assertRefused(Map.of("priority", "high"), "priority", "wrong type");
        assertRefused(Map.of("priority", "9"), "priority", "less than or equal to 5");
        assertRefused(Map.of("priority", "2", "opened", "2026-13-01"), "opened", "wrong type");
        DeclaredEntity ticket = ticket();
        NaturalIndexModel index = ticket.model().indexes().get(0);
        assertThatThrownBy(() -> ticket.naturalQuery(index, Map.of("tenantId", "acme", "status", "pending"), n -> null, 20, false))
                .isInstanceOfSatisfying(CairnException.class, e -> assertThat(e.error().toString()).contains("status", "open, closed"));
    }

    static void assertRefused(Map<String, String> parameters, String field, String message) {
        assertThatThrownBy(() -> listing(parameters)).isInstanceOfSatisfying(CairnException.class, e -> {
            var failed = (CairnError.ValidationFailed) e.error();
            assertThat(failed.errors()).hasSize(1);
            assertThat(failed.errors().get(0).field()).isEqualTo(field);
            assertThat(failed.errors().get(0).message()).contains(message);
        });
    }

    @Test
    void aCursorContinuesAfterTheLastItemWithTheIndexsKeyAttributes() {
        DeclaredEntity ticket = ticket();
        QuerySpec query = ticket.naturalQuery(ticket.model().indexes().get(0), Map.of("tenantId", "acme", "status", "open"),
                n -> null, 1, false);
        var items = List.of(
                ticket.spec().toItem(new Doc(Map.of("ticketId", "t1", "tenantId", "acme", "status", "open", "priority", 1L,
                        "opened", "2026-11-01")), 1, java.time.Instant.EPOCH, java.time.Instant.EPOCH),
                ticket.spec().toItem(new Doc(Map.of("ticketId", "t2", "tenantId", "acme", "status", "open", "priority", 2L,
                        "opened", "2026-11-02")), 1, java.time.Instant.EPOCH, java.time.Instant.EPOCH));
        var page = query.cut(items, null);
        assertThat(page.items()).hasSize(1);
        assertThat(page.next().keySet()).containsExactlyInAnyOrder("pk", "sk", "tenantId", "status", "priority", "opened");
        assertThat(query.binding()).startsWith("ticketsByTenantStatus|");
    }

    @Test
    void whatAKeyCannotHoldIsRefusedWhereItIsDeclared() {
        assertThat(failure(TICKETS.replace("pk: [tenantId, status]", "pk: [tenantId, closed]")).getMessage())
                .contains("desk.yaml:", "'closed' cannot key an index", "not boolean");
        assertThat(failure(TICKETS.replace("pk: [tenantId, status]", "pk: [tenantId, nothing]")).getMessage())
                .contains("no field 'nothing'");
        assertThat(failure(TICKETS.replace("tenantId: { type: string, required: true, maxLength: 64 }",
                "tenantId: { type: string, maxLength: 64 }")).getMessage()).contains("may be empty");
        assertThat(failure(TICKETS.replace("sk: [priority, opened]", "sk: [priority, tenantId]"))
                .getMessage()).contains("named twice");
        assertThat(failure(TICKETS.replace("sk: [priority, opened]", "sk: []")).getMessage())
                .contains("list of the entity's field names");
        assertThat(failure(TICKETS.replace("pk: [tenantId, status]", "pk: [tenantId, status, priority, opened, ticketId]")
                .replace("sk: [priority, opened]", "sk: [closed]")).getMessage()).contains("'closed' cannot key an index");
        assertThat(failure(TICKETS.replace("pk: [tenantId, status]", "pk: [tenantId, status, priority, opened, ticketId]")
                .replace("        sk: [priority, opened]\n", "")).getMessage()).contains("1 to 4 partition attributes");
        assertThat(failure(TICKETS.replace("ticketsByTenantStatus:", "gsi2:")).getMessage()).contains("overloaded");
        assertThat(failure(TICKETS.replace("\"/tenants/{tenantId}/tickets/{status}\"", "\"/tenants/{tenantId}/tickets\""))
                .getMessage()).contains("exactly 2 parameter");
        assertThat(failure(TICKETS.replace("\"/tenants/{tenantId}/tickets/{status}\"", "\"/tenants/{tenantId}/tickets/{ticketId}\""))
                .getMessage()).contains("path parameters are the index's partition fields");
        assertThat(failure(TICKETS.replace("    indexes:", "    timestamps: true\n    indexes:")
                .replace("sk: [priority, opened]", "sk: [createdAt]")).getMessage()).contains("a timestamp is the store's");
    }

    @Test
    void oneTableHoldsEachIndexNameOnceAndEachKeyAttributeWithOneType() {
        String twice = TICKETS + """
                  Note:
                    key: { pk: "NOTE#{noteId}", sk: NOTE }
                    path: /notes/{noteId}
                    fields:
                      noteId: id
                      priority: { type: string, required: true }
                    indexes:
                      notesByPriority: { pk: [priority] }
                """;
        assertThat(failure(twice).getMessage()).contains("'priority' keys another index as a number");
        String sameName = twice.replace("priority: { type: string, required: true }", "priority: integer")
                .replace("notesByPriority:", "ticketsByTenantStatus:");
        assertThat(failure(sameName).getMessage()).contains("is an index of Ticket already");
        String storedOtherwise = TICKETS + """
                  Note:
                    key: { pk: "NOTE#{noteId}", sk: NOTE }
                    path: /notes/{noteId}
                    fields:
                      noteId: id
                      priority: { type: string }
                """;
        assertThat(failure(storedOtherwise).getMessage()).contains("Note.fields.priority", "stored so too");
    }
}
