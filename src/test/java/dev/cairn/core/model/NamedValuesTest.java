package dev.cairn.core.model;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Names shared by many maps and one array of values: the same map, in every way, as a LinkedHashMap of them. */
class NamedValuesTest {

    final List<String> names = List.of("id", "title", "status", "createdAt");
    final NamedValues.Names shared = NamedValues.Names.of(names);
    /** As an answer shows an item: every name, null where absent. */
    final NamedValues view = NamedValues.all(shared, new Object[] {"p1", "Skates", null, "2026-11-28T00:00:00Z"});

    @Test
    void allIsTheMapOfItsNamesAndValuesInOrderAbsentOnesNull() {
        var expected = new LinkedHashMap<String, Object>();
        expected.put("id", "p1");
        expected.put("title", "Skates");
        expected.put("status", null);
        expected.put("createdAt", "2026-11-28T00:00:00Z");
        assertThat(view).isEqualTo(expected).containsExactly(expected.entrySet().toArray(java.util.Map.Entry[]::new));
        assertThat(view.keySet()).containsExactlyElementsOf(names);
        assertThat(view.get("title")).isEqualTo("Skates");
        assertThat(view.get("status")).isNull();
        assertThat(view.containsKey("status")).isTrue();
        assertThat(view.get("missing")).isNull();
        assertThat(view.containsKey("missing")).isFalse();
        assertThat(view.hashCode()).isEqualTo(expected.hashCode());
    }

    @Test
    void jacksonWritesAllAsItWritesTheSameLinkedHashMap() throws Exception {
        var mapper = new ObjectMapper();
        var same = new LinkedHashMap<String, Object>();
        for (int i = 0; i < names.size(); i++) {
            same.put(names.get(i), Arrays.asList("p1", "Skates", null, "2026-11-28T00:00:00Z").get(i));
        }
        assertThat(mapper.writeValueAsString(view)).isEqualTo(mapper.writeValueAsString(same))
                .isEqualTo("{\"id\":\"p1\",\"title\":\"Skates\",\"status\":null,\"createdAt\":\"2026-11-28T00:00:00Z\"}");
    }

    @Test
    void itIsReadOnly() {
        assertThatThrownBy(() -> view.put("title", "x")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> view.entrySet().iterator().next().setValue("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(view.get("title")).isEqualTo("Skates");
    }

    @Test
    void presentLeavesTheAbsentNamesOutOfEveryView() {
        var present = NamedValues.present(shared, new Object[] {"p1", null, "ACTIVE", null});
        var expected = new LinkedHashMap<String, Object>();
        expected.put("id", "p1");
        expected.put("status", "ACTIVE");
        assertThat(present).isEqualTo(expected).hasSameHashCodeAs(expected).hasSize(2)
                .containsExactly(expected.entrySet().toArray(java.util.Map.Entry[]::new));
        assertThat(expected).isEqualTo(present);
        assertThat(present.containsKey("title")).isFalse();
        assertThat(present.get("title")).isNull();
        assertThat(present.get(null)).isNull();
        assertThat(present.containsKey(null)).isFalse();
        var seen = new java.util.ArrayList<String>();
        present.forEach((name, value) -> seen.add(name + "=" + value));
        assertThat(seen).containsExactly("id=p1", "status=ACTIVE");
        assertThat(NamedValues.present(shared, new Object[4])).isEmpty();
        assertThatThrownBy(() -> NamedValues.present(shared, new Object[3])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NamedValues.Names.of(List.of("a", "b", "a"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the name a twice");
    }
}
