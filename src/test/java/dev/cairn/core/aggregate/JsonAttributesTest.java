package dev.cairn.core.aggregate;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class JsonAttributesTest {

    @Test
    void numbersComeBackAsLongWhenIntegralAndBigDecimalOtherwise() {
        assertThat(JsonAttributes.fromAttribute(AttributeValue.fromN("42"))).isEqualTo(42L);
        assertThat(JsonAttributes.fromAttribute(AttributeValue.fromN("-7"))).isEqualTo(-7L);
        assertThat(JsonAttributes.fromAttribute(AttributeValue.fromN("1E+2"))).isEqualTo(100L);
        assertThat(JsonAttributes.fromAttribute(AttributeValue.fromN("12345678901234567890"))).isEqualTo(new BigDecimal("12345678901234567890"));
        assertThat(JsonAttributes.fromAttribute(AttributeValue.fromN("1.5"))).isEqualTo(new BigDecimal("1.5"));
    }

    @Test
    void jsonLikeValuesRoundTrip() {
        Map<String, Object> value = Map.of("s", "x", "n", 3L, "b", true, "l", List.of("a", 1L), "m", Map.of("k", "v"));
        assertThat(JsonAttributes.fromAttribute(JsonAttributes.toAttribute(value))).isEqualTo(value);
        assertThat(JsonAttributes.normalize(Map.of("n", 3))).isEqualTo(Map.of("n", 3L));
    }
}
