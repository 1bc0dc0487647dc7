package dev.cairn.core.expr.builder;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OperandTest {

    static AttributeValue value(String type, String text) {
        return Operand.of(type, text).attributeValue();
    }

    @Test
    void everyTypeIsReadFromItsText() {
        assertThat(value("S", "a#b:c")).isEqualTo(AttributeValue.fromS("a#b:c"));
        assertThat(value("N", " -12.50 ")).isEqualTo(AttributeValue.fromN("-12.50"));
        assertThat(value("B", "aGk=")).isEqualTo(AttributeValue.fromB(SdkBytes.fromUtf8String("hi")));
        assertThat(value("BOOL", "TRUE")).isEqualTo(AttributeValue.fromBool(true));
        assertThat(value("NULL", "")).isEqualTo(AttributeValue.fromNul(true));
        assertThat(value("L", "[\"a\", 1, true, null, [2], {\"k\": 1.50}]")).isEqualTo(AttributeValue.fromL(List.of(
                AttributeValue.fromS("a"), AttributeValue.fromN("1"), AttributeValue.fromBool(true), AttributeValue.fromNul(true),
                AttributeValue.fromL(List.of(AttributeValue.fromN("2"))), AttributeValue.fromM(Map.of("k", AttributeValue.fromN("1.5"))))));
        assertThat(value("M", "{\"city\": \"Oslo\"}")).isEqualTo(AttributeValue.fromM(Map.of("city", AttributeValue.fromS("Oslo"))));
        assertThat(value("SS", "[\"a\", \"b\"]")).isEqualTo(AttributeValue.fromSs(List.of("a", "b")));
        assertThat(value("NS", "[1, \"2.5\"]")).isEqualTo(AttributeValue.fromNs(List.of("1", "2.5")));
        assertThat(value("BS", "[\"aGk=\"]")).isEqualTo(AttributeValue.fromBs(List.of(SdkBytes.fromUtf8String("hi"))));
    }

    @Test
    void badTextSaysWhatIsWrong() {
        assertThatThrownBy(() -> value("N", "12abc")).hasMessage("not a number: '12abc'");
        assertThatThrownBy(() -> value("N", "1" + "0".repeat(38) + "1")).hasMessageContaining("38 significant digits");
        assertThatThrownBy(() -> value("N", "1E+126")).hasMessageContaining("9.99E+125");
        assertThatThrownBy(() -> value("B", "not base64!")).hasMessageContaining("base64");
        assertThatThrownBy(() -> value("BOOL", "yes")).hasMessageContaining("true or false");
        assertThatThrownBy(() -> value("L", "{}")).hasMessageContaining("JSON array");
        assertThatThrownBy(() -> value("M", "[1")).hasMessageStartingWith("not JSON");
        assertThatThrownBy(() -> value("SS", "[]")).hasMessageContaining("non-empty");
        assertThatThrownBy(() -> value("NS", "[1, 1.0]")).hasMessageContaining("twice");
        assertThatThrownBy(() -> value("SS", "[1]")).hasMessageContaining("strings only");
        assertThatThrownBy(() -> value("X", "1")).hasMessageContaining("S, N, B");
    }

    @Test
    void aValueShowsAsTheTextThatReadsBackToIt() {
        for (AttributeValue v : List.of(AttributeValue.fromS("x"), AttributeValue.fromN("1.5"), AttributeValue.fromBool(false),
                AttributeValue.fromB(SdkBytes.fromUtf8String("hi")), AttributeValue.fromSs(List.of("a", "b")),
                AttributeValue.fromNs(List.of("1", "2")), AttributeValue.fromNul(true),
                AttributeValue.fromL(List.of(AttributeValue.fromS("a"), AttributeValue.fromM(Map.of("n", AttributeValue.fromN("3"))))))) {
            Operand operand = Operand.of(v, null);
            assertThat(operand.attributeValue()).as(operand.toString()).isEqualTo(v);
        }
    }
}
