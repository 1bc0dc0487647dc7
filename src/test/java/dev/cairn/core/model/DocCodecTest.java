package dev.cairn.core.model;

import dev.cairn.core.TableSpec;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A decoded document (one array over its entity's names) is the same map, in every way, as one built field by field. */
class DocCodecTest {

    static final String TICKETS = """
            domain: Tickets
            entities:
              Ticket:
                key: { pk: "TICKET#{id}", sk: TICKET }
                path: /tickets/{id}
                ttl: expiresAt
                fields:
                  id: id
                  title: { type: string, required: true }
                  seats: integer
                  price: number
                  open: boolean
                  venue: { type: object, fields: { city: string, hall: string } }
                  tags: { type: list, items: string }
                  expiresAt: instant
            """;

    static DocCodec codec() {
        EntityModel ticket = ModelReader.read("models/tickets.yaml", TICKETS).entity("Ticket");
        return new DocCodec(ticket.fields(), ticket.ttl());
    }

    @Test
    void aDecodedDocumentEqualsTheSameFieldsBuiltAsAMapAndLeavesAbsentFieldsOut() {
        var item = new HashMap<String, AttributeValue>();
        item.put("pk", AttributeValue.fromS("TICKET#t1"));
        item.put("title", AttributeValue.fromS("Final"));
        item.put("seats", AttributeValue.fromN("12"));
        item.put("open", AttributeValue.fromNul(true)); // a stored NULL is an absent field
        item.put("venue", AttributeValue.fromM(Map.of("city", AttributeValue.fromS("Leeds"))));
        item.put("tags", AttributeValue.fromL(List.of(AttributeValue.fromS("a"), AttributeValue.fromS("b"))));
        item.put(TableSpec.EXPIRES_AT, AttributeValue.fromN("1800000000"));
        Doc decoded = codec().decode(item);

        var expected = new LinkedHashMap<String, Object>();
        expected.put("title", "Final");
        expected.put("seats", 12L);
        expected.put("venue", Map.of("city", "Leeds"));
        expected.put("tags", List.of("a", "b"));
        expected.put("expiresAt", "2027-01-15T08:00:00Z");
        Doc built = new Doc(expected);

        assertThat(decoded).isEqualTo(built).hasSameHashCodeAs(built);
        assertThat(built).isEqualTo(decoded);
        assertThat(decoded.values()).hasSize(5).containsExactlyEntriesOf(expected);
        assertThat(new ArrayList<>(decoded.values().keySet()))
                .containsExactly("title", "seats", "venue", "tags", "expiresAt");
        var visited = new ArrayList<String>();
        decoded.values().forEach((name, value) -> visited.add(name + "=" + value));
        assertThat(visited).containsExactly("title=Final", "seats=12", "venue={city=Leeds}", "tags=[a, b]",
                "expiresAt=2027-01-15T08:00:00Z");
        assertThat(decoded.values().containsKey("open")).isFalse();
        assertThat(decoded.values().containsKey("pk")).isFalse();
        assertThat(decoded.get("price")).isNull();
        assertThat(decoded.get("nonsense")).isNull();
        assertThat(decoded.values().get(null)).isNull();
        assertThat(decoded.values().containsKey(null)).isFalse();
        assertThat(decoded.values().toString()).isEqualTo(expected.toString());
    }

    @Test
    void aDecodedDocumentIsReadOnlyAndChangesOnlyAsANewDocument() {
        var item = Map.of("title", AttributeValue.fromS("Final"), "price", AttributeValue.fromN("2.50"));
        Doc decoded = codec().decode(item);
        assertThat(decoded.get("price")).isEqualTo(new BigDecimal("2.5"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> decoded.values().put("title", "x"))
                .isInstanceOf(UnsupportedOperationException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> decoded.values().entrySet().iterator().next().setValue("x"))
                .isInstanceOf(UnsupportedOperationException.class);
        Doc changed = decoded.with("seats", 3L).with("price", null);
        assertThat(changed.values()).containsExactly(Map.entry("title", "Final"), Map.entry("seats", 3L));
        assertThat(decoded.values()).containsExactly(Map.entry("title", "Final"), Map.entry("price", new BigDecimal("2.5")));
        // encoded again, it is the item's fields as they were
        assertThat(codec().encode(decoded)).isEqualTo(Map.of("title", AttributeValue.fromS("Final"),
                "price", AttributeValue.fromN("2.5")));
    }

    @Test
    void anEmptyItemDecodesToAnEmptyDocument() {
        Doc decoded = codec().decode(Map.of("pk", AttributeValue.fromS("TICKET#t2")));
        assertThat(decoded.values()).isEmpty();
        assertThat(decoded).isEqualTo(new Doc(Map.of()));
        assertThat(decoded.values().entrySet().iterator().hasNext()).isFalse();
    }

    @Test
    void aStoredNumberDecodesToTheCanonicalValueTheGeneralReadingGives() {
        for (String stored : List.of("0", "-0", "7", "007", "-42", "999999999999999999", "-999999999999999999",
                "1000000000000000000", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
                "12.50", "1.0", "-3.25", "1E+3", "1e3", "0.000", "123456789012345678901234567890")) {
            Object general = FieldRules.canonical(new BigDecimal(stored).stripTrailingZeros());
            assertThat(DocCodec.number(stored)).as(stored).isEqualTo(general).hasSameClassAs(general);
        }
        Doc decoded = codec().decode(Map.of("seats", AttributeValue.fromN("120"), "price", AttributeValue.fromN("12.50")));
        assertThat(decoded.values()).containsEntry("seats", 120L).containsEntry("price", new BigDecimal("12.5"));
    }
}
