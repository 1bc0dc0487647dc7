package dev.cairn.core.query;

import dev.cairn.core.CairnException;
import dev.cairn.core.expr.SortCondition;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

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

    @Test
    void aCursorRevealsNothingOfTheKeyEvenToOneWhoInflatesIt() throws Exception {
        String cursor = codec.encode(acme.binding(), lastKey);
        byte[] raw = Base64.getUrlDecoder().decode(cursor);
        assertThat(new String(raw, StandardCharsets.ISO_8859_1)).doesNotContain("WS#", "acme", "PROJ");
        var inflater = new Inflater(true);
        inflater.setInput(raw);
        byte[] out = new byte[4096];
        try {
            int n = inflater.inflate(out);
            assertThat(new String(out, 0, n, StandardCharsets.ISO_8859_1)).doesNotContain("acme");
        } catch (DataFormatException expected) {
            // ciphertext is not a deflate stream: nothing to read either
        } finally {
            inflater.end();
        }
    }

    @Test
    void theSameKeyGivesADifferentCursorEachTime() {
        assertThat(codec.encode(acme.binding(), lastKey)).isNotEqualTo(codec.encode(acme.binding(), lastKey));
    }

    @Test
    void aRotationStillOpensCursorsOfThePreviousSecretAndSealsWithTheNewOne() {
        var old = new CursorCodec("the-old-secret-of-enough-length");
        var rotated = new CursorCodec("the-new-secret-of-enough-length", List.of("the-old-secret-of-enough-length"));
        String before = old.encode(acme.binding(), lastKey);
        assertThat(rotated.decode(acme.binding(), before)).isEqualTo(lastKey);
        String after = rotated.encode(acme.binding(), lastKey);
        assertInvalid(() -> old.decode(acme.binding(), after));
        assertThat(new CursorCodec("the-new-secret-of-enough-length").decode(acme.binding(), after)).isEqualTo(lastKey);
        assertInvalid(() -> rotated.decode(globex.binding(), before));
    }

    @Test
    void aCursorSealedWhenEveryKeyWasDeflatedStillOpens() {
        // sealed by the codec of 2026-11-26 (d92849a), which deflated every key: lastKey, under this test's secret
        // and acme's binding
        String sealedBefore = "uwk4vY5VJm4qadxlO3nufuf_MoEm-oiAxQckVJTKO9hC6z1fxkWLiW_JHshTkv773Rlw560fjtsyCMY";
        assertThat(codec.decode(acme.binding(), sealedBefore)).isEqualTo(lastKey);
    }

    @Test
    void aQuerysBindingReadsTheSameInEveryProcess() {
        // Both maps sorted: a map's own iteration order (Map.copyOf's) may differ between two replicas' JVMs, and a
        // cursor sealed under one order does not open under another.
        assertThat(acme.binding()).isEqualTo("TABLE|#n0 = :v0 AND begins_with(#n1, :v1)|null|true|{#n0=pk, #n1=sk}"
                + "|{:v0=AttributeValue(S=WS#acme), :v1=AttributeValue(S=PROJ#)}");
    }

    @Test
    void aLongKeyIsDeflatedAndAShortOneIsNot() {
        var fanOut = new java.util.HashMap<String, AttributeValue>();
        for (int shard = 0; shard < 8; shard++) {
            fanOut.put("k" + shard, AttributeValue.fromS("WS#acme#SHARD#" + shard + "#PROJ#1795683608649358-jbc0z"));
        }
        String shortCursor = codec.encode(acme.binding(), lastKey);
        String longCursor = codec.encode(acme.binding(), fanOut);
        assertThat(codec.decode(acme.binding(), longCursor)).isEqualTo(fanOut);
        // nonce (12) + marker (1) + the key as written (1 + 4 strings with 2-byte lengths) + tag (16), in base64url
        int shortPayload = 1 + 1 + (2 + 2) + (2 + 7) + (2 + 2) + (2 + 9);
        assertThat(Base64.getUrlDecoder().decode(shortCursor)).hasSize(12 + shortPayload + 16);
        // 8 keys of about 50 characters: well under half of that once deflated
        assertThat(Base64.getUrlDecoder().decode(longCursor).length).isLessThan(12 + 16 + 8 * 55 / 2);
    }

    @Test
    void whatTheDeflaterWritesForAKeyNeverStartsWithTheUncompressedMarker() {
        var random = new java.util.Random(7);
        for (int i = 0; i < 2_000; i++) {
            var key = new java.util.HashMap<String, AttributeValue>();
            int attributes = 1 + random.nextInt(4);
            for (int a = 0; a < attributes; a++) {
                var value = new StringBuilder();
                int length = 20 + random.nextInt(280);
                for (int c = 0; c < length; c++) {
                    value.append((char) (random.nextBoolean() ? 32 + random.nextInt(95) : 0x100 + random.nextInt(0x2000)));
                }
                key.put("k" + a, AttributeValue.fromS(value.toString()));
            }
            assertThat(codec.decode(acme.binding(), codec.encode(acme.binding(), key))).isEqualTo(key);
        }
    }

    private static void assertInvalid(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(CairnException.class,
                e -> assertThat(e.error().code()).isEqualTo("InvalidCursor"));
    }
}
