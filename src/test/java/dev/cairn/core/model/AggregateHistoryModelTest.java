package dev.cairn.core.model;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code history} on an aggregate: read with its versions' routes, refused beside an expiry or with a bad window. */
class AggregateHistoryModelTest {

    @Test
    void historyOnAnAggregateIsReadAndRefusedBesideAnExpiry() {
        String yaml = AggregateLabelsTest.order("HEAD").replace("    label: HEAD\n", "    label: HEAD\n    history: { keep: 4 }\n");
        var order = ModelReader.read("models/shop.yaml", yaml).aggregates().get(0);
        assertThat(order.history().keep()).isEqualTo(4);
        assertThat(order.servesVersions()).isTrue();
        assertThat(order.versionsPath()).isEqualTo("/orders/{id}/versions");
        assertThat(ModelReader.read("models/shop.yaml", AggregateLabelsTest.order("HEAD")).aggregates().get(0).history())
                .isNull();
        String expiring = yaml.replace("      id: id\n", "      id: id\n      until: { type: instant, required: true }\n")
                .replace("    history: { keep: 4 }\n", "    history: { keep: 4 }\n    ttl: until\n");
        assertThat(ModelReaderTest.failure(expiring).getMessage())
                .contains("aggregates.Order.history: an aggregate that expires (ttl) keeps no history");
        assertThat(ModelReaderTest.failure(yaml.replace("{ keep: 4 }", "{ keep: 0 }")).getMessage())
                .contains("aggregates.Order.history.keep: keep is a whole number of versions from 1 to 1000, not 0");
    }
}
