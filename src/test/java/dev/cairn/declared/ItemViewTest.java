package dev.cairn.declared;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ItemViewTest {

    final List<String> names = List.of("id", "title", "status", "createdAt");
    final ItemView view = new ItemView(names, new Object[] {"p1", "Skates", null, "2026-11-28T00:00:00Z"});

    @Test
    void itIsTheMapOfItsNamesAndValuesInOrderAbsentOnesNull() {
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
    void jacksonWritesItAsItWritesTheSameLinkedHashMap() throws Exception {
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
}
