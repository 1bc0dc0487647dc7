package dev.cairn.core.model;

import dev.cairn.core.TableSpec;
import dev.cairn.core.entity.EntitySpec;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code ttl: <field>}: how an entity declares its expiry, how it is stored, and what the reader refuses. */
class ExpiryModelTest {

    static final String HOLDS = """
            domain: Holds
            entities:
              Desk:
                key: { pk: "DESK#{deskId}", sk: DESK }
                path: /desks/{deskId}
                fields:
                  deskId: id
              Hold:
                parent: { entity: Desk, id: deskId }
                key: { pk: "DESK#{deskId}", sk: "HOLD#{holdId}" }
                generate: time-ordered
                path: /desks/{deskId}/holds/{holdId}
                ttl: expiresAt
                fields:
                  expiresAt: { type: instant, required: true }
                  note: { type: string }
                  day: date
                list: { path: "/desks/{deskId}/holds" }
            """;

    static ModelException failure(String yaml) {
        try {
            ModelReader.read("models/holds.yaml", yaml);
        } catch (ModelException e) {
            return e;
        }
        throw new AssertionError("the model was accepted");
    }

    @Test
    void anEntityNamesItsExpiryFieldWhichTheContractDescribesAsSuch() {
        EntityModel hold = ModelReader.read("models/holds.yaml", HOLDS).entity("Hold");
        assertThat(hold.ttl()).isEqualTo("expiresAt");
        assertThat(hold.field("expiresAt").orElseThrow().description()).startsWith("The item's expiry (whole seconds)");
        assertThat(ModelReader.read("models/holds.yaml", HOLDS).entity("Desk").ttl()).isNull();
    }

    @Test
    void theExpiryIsStoredAsTheTablesTtlAttributeInEpochSecondsAndReadBackAsRfc3339() {
        var domain = ModelReader.read("models/holds.yaml", HOLDS);
        EntitySpec<Doc> spec = new DeclaredEntity(domain.entity("Hold")).spec();
        assertThat(spec.expires()).isTrue();
        var values = new LinkedHashMap<String, Object>();
        values.put("deskId", "d1");
        values.put("holdId", "h1");
        values.put("expiresAt", "2030-01-02T03:04:05Z");
        values.put("note", "n");
        Map<String, AttributeValue> item = spec.toItem(new Doc(values), 1, Instant.EPOCH, Instant.EPOCH);
        long epoch = Instant.parse("2030-01-02T03:04:05Z").getEpochSecond();
        assertThat(item.get(TableSpec.EXPIRES_AT)).isEqualTo(AttributeValue.fromN(Long.toString(epoch)));
        assertThat(item).doesNotContainKey("expiresAt");
        Doc read = spec.fromItem(item).value();
        assertThat(read.values()).containsExactly(Map.entry("deskId", "d1"), Map.entry("holdId", "h1"),
                Map.entry("expiresAt", "2030-01-02T03:04:05Z"), Map.entry("note", "n"));
        assertThat(EntitySpec.expired(item, Instant.ofEpochSecond(epoch - 1))).isFalse();
        assertThat(EntitySpec.expired(item, Instant.ofEpochSecond(epoch))).isTrue();
        assertThat(new DeclaredEntity(domain.entity("Desk")).spec().expires()).isFalse();
    }

    @Test
    void anExpiringEntityCannotDeclareUniqueValuesWhoseSentinelsTheTtlWouldStrand() {
        ModelException e = failure(HOLDS.replace("ttl: expiresAt", "ttl: expiresAt\n    unique: { note: { fields: [note] } }"));
        assertThat(e.getMessage()).isEqualTo("models/holds.yaml:13: entities.Hold.ttl: an entity with unique values cannot "
                + "expire yet: DynamoDB's TTL would delete the item and leave its sentinels holding its values");
    }

    @Test
    void anExpiryThatIsNotAnInstantFieldIsRefusedAtItsLine() {
        ModelException e = failure(HOLDS.replace("ttl: expiresAt", "ttl: note"));
        assertThat(e.getMessage()).isEqualTo("models/holds.yaml:13: entities.Hold.ttl: ttl names one of the entity's instant "
                + "fields (its expiry), not 'note'");
        assertThat(failure(HOLDS.replace("ttl: expiresAt", "ttl: day")).getMessage())
                .contains(":13: entities.Hold.ttl: ttl names one of the entity's instant fields (its expiry), not 'day'");
        assertThat(failure(HOLDS.replace("ttl: expiresAt", "ttl: lapse")).getMessage())
                .contains(":13: entities.Hold.ttl: ttl names one of the entity's instant fields (its expiry), not 'lapse'");
        assertThat(failure(HOLDS.replace("ttl: expiresAt", "ttl: [expiresAt]")).getMessage())
                .contains(":13: entities.Hold.ttl: must be a single value");
    }

    @Test
    void anExpiryCannotBeAKeyOrAnIndexBecauseItIsNotStoredUnderItsName() {
        ModelException keyed = failure(HOLDS.replace("    list: { path: \"/desks/{deskId}/holds\" }\n",
                "    list: { path: \"/desks/{deskId}/holds\" }\n    index: { index: gsi1, pk: \"LAPSE#{deskId}\", sk: \"AT#{expiresAt}\" }\n"));
        assertThat(keyed.getMessage()).contains(":13: entities.Hold.ttl: the ttl field 'expiresAt' is stored as the table's "
                + "TTL attribute: no key, index, tenant or author may be made of it");
        ModelException indexed = failure(HOLDS.replace("    list: { path: \"/desks/{deskId}/holds\" }\n",
                "    list: { path: \"/desks/{deskId}/holds\" }\n    indexes:\n      byExpiry: { pk: [deskId], sk: [expiresAt] }\n"));
        assertThat(indexed.getMessage()).contains("entities.Hold.ttl: the ttl field 'expiresAt' is stored as the table's TTL attribute");
    }
}
