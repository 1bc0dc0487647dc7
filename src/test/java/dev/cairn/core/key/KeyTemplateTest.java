package dev.cairn.core.key;

import dev.cairn.core.CairnException;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KeyTemplateTest {

    static final KeyTemplate WS = KeyTemplate.of("WS#{workspaceId}");
    static final KeyTemplate PAIR = KeyTemplate.of("A#{first}#B#{second}");
    static final KeyTemplate ENROLL = KeyTemplate.of("ENROLL#CRS#{courseId}");
    static final KeyTemplate BAT = KeyTemplate.of("BAT#{position:n}");

    @Test
    void rendersTheSeedsReadableKeys() {
        assertThat(WS.render("acme")).isEqualTo("WS#acme");
        assertThat(ENROLL.render("math204")).isEqualTo("ENROLL#CRS#math204");
        assertThat(KeyTemplate.of("PROJ#{id}").render("2026-0042")).isEqualTo("PROJ#2026-0042");
    }

    @Test
    void preservesCase() {
        assertThat(WS.render("CASE-1")).isNotEqualTo(WS.render("case-1"));
        assertThat(WS.decode(WS.render("CASE-1"))).containsExactly("CASE-1");
    }

    @Test
    void delimiterInsideValuesCannotCollide() {
        assertThat(PAIR.render("a#", "b")).isNotEqualTo(PAIR.render("a", "#b"));
        assertThat(WS.render("acme#PROJ")).isNotEqualTo("WS#acme#PROJ");
        assertThat(WS.render("a#b")).isEqualTo("WS#a%23b");
    }

    @Test
    void roundTripsAndStaysInjectiveOverHostileValues() {
        List<String> values = List.of("", "#", "##", "%", "%23", "%25", "a#b", "a%23b", "a%b", "$", "/", "a/b", " ",
                "café", "名前", "🏏", "\u202Eltr", "a b", "A", "a", "a~", "~", "\\", "\"", "x".repeat(200));
        Set<String> keys = new HashSet<>();
        for (String first : values) {
            for (String second : values) {
                String key = PAIR.render(first, second);
                assertThat(PAIR.decode(key)).containsExactly(first, second);
                assertThat(keys.add(key)).as("collision for (%s, %s)", first, second).isTrue();
            }
        }
    }

    @Test
    void prefixForAValueNeverMatchesALongerValue() {
        KeyTemplate season = KeyTemplate.of("SEASON#{season}#MATCH#{id}");
        String prefix = season.prefix("2024");
        assertThat(prefix).isEqualTo("SEASON#2024#MATCH#");
        assertThat(season.render("2024", "m1")).startsWith(prefix);
        assertThat(season.render("2024-25", "m1")).doesNotStartWith(prefix);
        assertThat(season.render("2024#x", "m1")).doesNotStartWith(prefix);
        assertThat(ENROLL.prefix()).isEqualTo("ENROLL#CRS#");
    }

    @Test
    void decodeRejectsKeysOfAnotherShape() {
        assertThatThrownBy(() -> WS.decode("PROJ#acme")).isInstanceOf(CairnException.class);
        assertThatThrownBy(() -> WS.decode("WS#a#b")).isInstanceOf(CairnException.class);
        assertThatThrownBy(() -> WS.decode("WS#a%2")).isInstanceOf(CairnException.class);
        assertThat(WS.matches("WS#acme")).isTrue();
        assertThat(WS.matches("WS#acme#x")).isFalse();
    }

    @Test
    void numericFieldsSortInNumericOrder() {
        List<BigDecimal> numbers = List.of(new BigDecimal("-1000"), new BigDecimal("-10.5"), new BigDecimal("-10"),
                new BigDecimal("-9.99"), new BigDecimal("-1.23"), new BigDecimal("-1.2"), new BigDecimal("-0.001"),
                BigDecimal.ZERO, new BigDecimal("0.001"), new BigDecimal("1"), new BigDecimal("1.2"),
                new BigDecimal("1.23"), new BigDecimal("2"), new BigDecimal("9"), new BigDecimal("10"),
                new BigDecimal("11"), new BigDecimal("100"), new BigDecimal("1E+20"));
        List<String> keys = numbers.stream().map(BAT::render).toList();
        assertThat(keys).isSorted();
        assertThat(keys.stream().map(k -> (BigDecimal) BAT.decode(k).get(0)).toList())
                .usingElementComparator(BigDecimal::compareTo).containsExactlyElementsOf(numbers);
    }

    @Test
    void integerFieldsAcceptPlainNumbers() {
        assertThat(BAT.render(3)).isLessThan(BAT.render(11));
        assertThat(((BigDecimal) BAT.decode(BAT.render(11L)).get(0)).intValueExact()).isEqualTo(11);
    }

    @Test
    void templatesMustStartWithALiteral() {
        assertThatThrownBy(() -> KeyTemplate.of("{id}#X")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KeyTemplate.of("ws#{id}")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void keysOverDynamoDbLimitsAreBadInput() {
        String longId = "é".repeat(600); // 1,200 bytes in UTF-8
        assertThatThrownBy(() -> PrimaryKey.of("WS#a", KeyTemplate.of("PROJ#{id}").render(longId)))
                .isInstanceOfSatisfying(CairnException.class, e -> {
                    assertThat(e.error().status()).isEqualTo(400);
                    assertThat(e.error().code()).isEqualTo("ValidationFailed");
                });
        assertThat(PrimaryKey.of(WS.render(longId), "META").pk()).hasSize(603);
        assertThatThrownBy(() -> PrimaryKey.of(WS.render("x".repeat(2046)), "META")).isInstanceOf(CairnException.class);
    }
}
