package dev.cairn.core.item;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.time.LocalDate;

import static org.assertj.core.api.Assertions.assertThat;

class RecordCodecTest {

    record Event(String id, Instant at, LocalDate on) {
    }

    static final RecordCodec<Event> CODEC = RecordCodec.<Event>builder()
            .string("id", Event::id).instant("at", Event::at).date("on", Event::on)
            .build(f -> new Event(f.string("id"), f.instant("at"), f.date("on")));

    @Test
    void instantsAndDatesAreStoredAsTheirIsoTextAndReadBackAndAbsentOnesStayAbsent() {
        var event = new Event("e1", Instant.parse("2026-11-23T22:54:39.120Z"), LocalDate.parse("2026-02-28"));
        var item = CODEC.encode(event);
        assertThat(item).containsEntry("at", AttributeValue.fromS("2026-11-23T22:54:39.120Z"))
                .containsEntry("on", AttributeValue.fromS("2026-02-28"));
        assertThat(CODEC.decode(item)).isEqualTo(event);

        var bare = CODEC.encode(new Event("e2", null, null));
        assertThat(bare).containsOnlyKeys("id");
        assertThat(CODEC.decode(bare)).isEqualTo(new Event("e2", null, null));
    }
}
