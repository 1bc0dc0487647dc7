package dev.cairn.platform;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Instants in answers: Instant.toString's text, written by Cairn's serializer in the app's own mapper. */
@QuarkusTest
class JsonInstantsTest {

    @Inject
    ObjectMapper mapper;

    record Stamped(String id, Instant createdAt, Instant updatedAt) {
    }

    record Formatted(@JsonFormat(shape = JsonFormat.Shape.NUMBER) Instant at) {
    }

    @Test
    void theAppsMapperWritesInstantsWithCairnsSerializerAndTheJdksText() throws Exception {
        assertThat(mapper.getSerializerProviderInstance().findValueSerializer(Instant.class))
                .isInstanceOf(JsonInstants.Text.class);
        for (Instant at : List.of(Instant.parse("2026-11-25T18:02:15.985123456Z"), Instant.parse("2026-11-25T18:02:15Z"),
                Instant.parse("2026-11-25T18:02:15.100Z"), Instant.parse("+10000-01-01T00:00:00Z"))) {
            assertThat(mapper.writeValueAsString(new Stamped("a", at, at)))
                    .isEqualTo("{\"id\":\"a\",\"createdAt\":\"" + at + "\",\"updatedAt\":\"" + at + "\"}");
            assertThat(mapper.writeValueAsString(Map.of("at", at))).isEqualTo("{\"at\":\"" + at + "\"}");
        }
    }

    @Test
    void whereTheJavaTimeModuleWouldWriteSomethingElseItStillDoes() throws Exception {
        Instant at = Instant.parse("2026-11-25T18:02:15.985Z");
        assertThat(mapper.writeValueAsString(new Formatted(at))).isEqualTo("{\"at\":1795629735.985000000}");
        assertThat(mapper.copy().enable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).writeValueAsString(Map.of("at", at)))
                .isEqualTo("{\"at\":1795629735.985000000}");
    }
}
