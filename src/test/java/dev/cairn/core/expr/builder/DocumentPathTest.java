package dev.cairn.core.expr.builder;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DocumentPathTest {

    @Test
    void namesAndListIndexesBecomeAPathOfPlaceholders() {
        DocumentPath path = DocumentPath.parse("scores[2][0].value");
        assertThat(path.segments()).containsExactly("scores", 2, 0, "value");
        assertThat(path.render(n -> "#" + n)).isEqualTo("#scores[2][0].#value");
        assertThat(path.attribute()).isEqualTo("scores");
        assertThat(path.lastName()).isEqualTo("value");
        assertThat(DocumentPath.parse("first name").render(n -> "#x")).isEqualTo("#x");
    }

    @Test
    void overlappingPathsAreThoseOneInsideTheOther() {
        assertThat(DocumentPath.parse("a.b").overlaps(DocumentPath.parse("a"))).isTrue();
        assertThat(DocumentPath.parse("a[0]").overlaps(DocumentPath.parse("a[0].c"))).isTrue();
        assertThat(DocumentPath.parse("a[0]").overlaps(DocumentPath.parse("a[1]"))).isFalse();
        assertThat(DocumentPath.parse("ab").overlaps(DocumentPath.parse("a"))).isFalse();
    }

    @Test
    void malformedPathsAreRefused() {
        for (String bad : List.of("", " ", "a..b", ".a", "a.", "[0]", "a[x]", "a[0", "a]", "a[]")) {
            assertThatThrownBy(() -> DocumentPath.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
