package dev.cairn.core.query;

import dev.cairn.core.CairnException;
import dev.cairn.core.expr.SortCondition;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Base64;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CursorCodecTest {

    final CursorCodec codec = new CursorCodec("a-test-secret-of-enough-length");
    final QuerySpec acme = QuerySpec.table("WS#acme").sort(SortCondition.beginsWith("PROJ#")).descending().build();
    final QuerySpec globex = QuerySpec.table("WS#globex").sort(SortCondition.beginsWith("PROJ#")).descending().build();
    final Map<String, AttributeValue> lastKey = Map.of("pk", AttributeValue.fromS("WS#acme"),
            "sk", AttributeValue.fromS("PROJ#0042"));

    @Test
    void roundTripsTheLastEvaluatedKeyOpaquely() {
        String cursor = codec.encode(acme.binding(), lastKey);
        assertThat(cursor).doesNotContain("acme").matches("[A-Za-z0-9_-]+");
        assertThat(codec.decode(acme.binding(), cursor)).isEqualTo(lastKey);
    }

    @Test
    void pageSizeIsNotPartOfTheBinding() {
        String cursor = codec.encode(acme.withLimit(10).binding(), lastKey);
        assertThat(codec.decode(acme.withLimit(50).binding(), cursor)).isEqualTo(lastKey);
    }

    @Test
    void tamperedCursorIsRejected() {
        String cursor = codec.encode(acme.binding(), lastKey);
        byte[] raw = Base64.getUrlDecoder().decode(cursor);
        raw[5] ^= 1;
        String tampered = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        assertInvalid(() -> codec.decode(acme.binding(), tampered));
        assertInvalid(() -> codec.decode(acme.binding(), "not a cursor!"));
        assertInvalid(() -> codec.decode(acme.binding(), ""));
        assertInvalid(() -> codec.decode(acme.binding(), cursor.substring(0, cursor.length() - 2)));
    }

    @Test
    void cursorReplayedAgainstAnotherPartitionIsRejected() {
        String cursor = codec.encode(acme.binding(), lastKey);
        assertInvalid(() -> codec.decode(globex.binding(), cursor));
    }

    @Test
    void cursorOfAnotherSecretIsRejected() {
        String cursor = new CursorCodec("another-secret-of-enough-length").encode(acme.binding(), lastKey);
        assertInvalid(() -> codec.decode(acme.binding(), cursor));
    }

    private static void assertInvalid(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(CairnException.class,
                e -> assertThat(e.error().code()).isEqualTo("InvalidCursor"));
    }
}
