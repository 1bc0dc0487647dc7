package dev.cairn.platform;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class PatchLimitsTest {

    static final long MIB = 1024 * 1024;
    static final PatchLimits DEFAULTS = new PatchLimits(1000, MIB);

    static JsonValue json(String text) {
        return Json.createReader(new StringReader(text)).readValue();
    }

    static long bytes(JsonValue value) {
        return value.toString().getBytes(StandardCharsets.UTF_8).length;
    }

    static JsonObject doc(int fillerChars) {
        return json("{\"id\":\"m1\",\"name\":\"" + "n".repeat(fillerChars) + "\",\"tags\":[\"a\",\"b\"],\"n\":12.5}").asJsonObject();
    }

    static JsonArray copyBomb(int operations) {
        var ops = Json.createArrayBuilder();
        for (int i = 0; i < operations; i++) {
            ops.add(Json.createObjectBuilder().add("op", "copy").add("from", "").add("path", "/a" + i));
        }
        return ops.build();
    }

    static CairnError.PayloadTooLarge refusal(Runnable patch) {
        CairnException e = catchThrowableOfType(CairnException.class, patch::run);
        assertThat(e).as("the patch is refused").isNotNull();
        assertThat(e.error()).isInstanceOf(CairnError.PayloadTooLarge.class);
        return (CairnError.PayloadTooLarge) e.error();
    }

    @Test
    void aCopyBombIsRefusedAtTheOperationThatWouldPassTheCapAndNotBefore() {
        JsonObject target = doc(1000);
        JsonArray bomb = copyBomb(30);
        var refused = refusal(() -> DEFAULTS.applyJsonPatch(target, bomb));
        assertThat(refused.limitBytes()).isEqualTo(MIB);
        var matcher = Pattern.compile("operation (\\d+) \\(copy\\)").matcher(refused.detail());
        assertThat(matcher.find()).as(refused.detail()).isTrue();
        int failing = Integer.parseInt(matcher.group(1));
        // Every operation before it stays under the cap; the refused one would have passed it.
        JsonStructure before = Json.createPatch(Json.createArrayBuilder(bomb.subList(0, failing)).build()).apply(target);
        JsonStructure after = Json.createPatch(Json.createArrayBuilder(bomb.subList(0, failing + 1)).build()).apply(target);
        assertThat(bytes(before)).isLessThanOrEqualTo(MIB);
        assertThat(bytes(after)).isGreaterThan(MIB);
    }

    @Test
    void tooManyOperationsAreRefusedBeforeAnyRuns() {
        var limits = new PatchLimits(3, MIB);
        // The first operation could not even be applied: the count is checked before it runs.
        JsonArray patch = json("[{\"op\":\"remove\",\"path\":\"/nothing\"},{\"op\":\"test\",\"path\":\"/id\",\"value\":\"m1\"},"
                + "{\"op\":\"test\",\"path\":\"/id\",\"value\":\"m1\"},{\"op\":\"test\",\"path\":\"/id\",\"value\":\"m1\"}]").asJsonArray();
        var refused = refusal(() -> limits.applyJsonPatch(doc(10), patch));
        assertThat(refused.limit()).isEqualTo(3);
        assertThat(refused.detail()).contains("4 operations").contains("at most 3");
        assertThat(limits.applyJsonPatch(doc(10), Json.createArrayBuilder(patch.subList(1, 4)).build())).isEqualTo(doc(10));
    }

    @Test
    void anAddIsAllowedUpToTheCapAndRefusedPastIt() {
        JsonObject target = doc(10);
        long room = 2000 - bytes(target);
        // ,"extra":"…" adds the value, the name and its quotes, colon and comma
        int fits = (int) (room - "\"extra\":,".length() - 2);
        var limits = new PatchLimits(10, 2000);
        JsonStructure patched = limits.applyJsonPatch(target, json("[{\"op\":\"add\",\"path\":\"/extra\",\"value\":\""
                + "x".repeat(fits) + "\"}]").asJsonArray());
        assertThat(bytes(patched)).isLessThanOrEqualTo(2000);
        var refused = refusal(() -> limits.applyJsonPatch(target, json("[{\"op\":\"add\",\"path\":\"/extra\",\"value\":\""
                + "x".repeat(fits + 1) + "\"}]").asJsonArray()));
        assertThat(refused.detail()).contains("operation 0 (add)").contains("2000 bytes");
    }

    @Test
    void replacingWithValuesNoLargerNeverGrowsTheBoundSoADocumentAtTheCapCanStillBeEdited() {
        JsonObject target = doc(1900);
        var limits = new PatchLimits(1000, bytes(target));
        var ops = Json.createArrayBuilder();
        for (int i = 0; i < 500; i++) {
            ops.add(json("{\"op\":\"replace\",\"path\":\"/name\",\"value\":\"" + (char) ('a' + i % 26) + "n".repeat(1899) + "\"}"));
            ops.add(json("{\"op\":\"test\",\"path\":\"/id\",\"value\":\"m1\"}"));
        }
        JsonStructure patched = limits.applyJsonPatch(target, ops.build());
        assertThat(patched.asJsonObject().getString("name")).startsWith("f").hasSize(1900);
        refusal(() -> limits.applyJsonPatch(target, json("[{\"op\":\"replace\",\"path\":\"/name\",\"value\":\""
                + "n".repeat(1901) + "\"}]").asJsonArray()));
    }

    @Test
    void removeAndTestNeverGrowSoADocumentAlreadyPastTheCapCanStillShrink() {
        JsonObject target = doc(5000);
        var limits = new PatchLimits(10, 1000);
        JsonStructure patched = limits.applyJsonPatch(target, json("[{\"op\":\"test\",\"path\":\"/id\",\"value\":\"m1\"},"
                + "{\"op\":\"remove\",\"path\":\"/name\"}]").asJsonArray());
        assertThat(patched).isEqualTo(json("{\"id\":\"m1\",\"tags\":[\"a\",\"b\"],\"n\":12.5}"));
        assertThat(refusal(() -> limits.applyJsonPatch(target, json("[{\"op\":\"add\",\"path\":\"/x\",\"value\":1}]")
                .asJsonArray())).limitBytes()).isEqualTo(1000);
    }

    @Test
    void aMoveCountsTheMemberNameItAdds() {
        JsonObject target = doc(10);
        long size = bytes(target);
        // moving /n to /longer: the bound grows by "longer" with its colon and comma, the value itself stays
        var exact = new PatchLimits(10, size + "\"longer\":,".length());
        assertThat(exact.applyJsonPatch(target, json("[{\"op\":\"move\",\"from\":\"/n\",\"path\":\"/longer\"}]").asJsonArray())
                .asJsonObject()).containsKey("longer").doesNotContainKey("n");
        var tight = new PatchLimits(10, size + "\"longer\":,".length() - 1);
        refusal(() -> tight.applyJsonPatch(target, json("[{\"op\":\"move\",\"from\":\"/n\",\"path\":\"/longer\"}]").asJsonArray()));
    }

    @Test
    void aHugeSharedStructureIsMeasuredNoFurtherThanTheLimitAndCannotBeCopied() {
        // 40 levels of {"a": x, "b": x} sharing one child: 2^40 leaves once serialised, 41 objects in memory.
        JsonObject shared = Json.createObjectBuilder().add("leaf", 1).build();
        for (int i = 0; i < 40; i++) {
            shared = Json.createObjectBuilder().add("a", shared).add("b", shared).build();
        }
        JsonObject target = Json.createObjectBuilder().add("x", shared).build();
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            assertThat(PatchLimits.size(target, MIB)).isGreaterThan(MIB).isLessThan(MIB + 100);
            var refused = refusal(() -> DEFAULTS.applyJsonPatch(target,
                    json("[{\"op\":\"copy\",\"from\":\"/x\",\"path\":\"/y\"}]").asJsonArray()));
            assertThat(refused.detail()).contains("operation 0 (copy)");
        });
    }

    @Test
    void theMeasuredSizeIsAnUpperBoundOfTheSerialisedOneAndExactForPlainAscii() {
        JsonValue plain = json("{\"id\":\"m1\",\"list\":[1,2.5,-3e2,true,false,null,{},[]],\"o\":{\"k\":\"v w\"}}");
        assertThat(PatchLimits.size(plain, Long.MAX_VALUE)).isEqualTo(bytes(plain));
        JsonValue escaped = json("{\"q\":\"a\\\"b\\\\c\\n\\u0001\",\"é\":\"€🏏\"}");
        assertThat(PatchLimits.size(escaped, Long.MAX_VALUE)).isGreaterThanOrEqualTo(bytes(escaped));
    }

    @Test
    void anOrdinaryPatchIsAppliedAsJsonPatchWouldApplyIt() {
        JsonObject target = doc(10);
        JsonArray patch = json("[{\"op\":\"replace\",\"path\":\"/name\",\"value\":\"new\"},{\"op\":\"add\",\"path\":\"/tags/-\",\"value\":\"c\"},"
                + "{\"op\":\"copy\",\"from\":\"/tags/0\",\"path\":\"/tags/0\"},{\"op\":\"move\",\"from\":\"/n\",\"path\":\"/m\"},"
                + "{\"op\":\"test\",\"path\":\"/id\",\"value\":\"m1\"},{\"op\":\"remove\",\"path\":\"/tags/1\"}]").asJsonArray();
        assertThat(DEFAULTS.applyJsonPatch(target, patch)).isEqualTo(Json.createPatch(patch).apply(target));
    }

    @Test
    void anOperationThatCannotBeAppliedIsAMalformedRequest() {
        for (String patch : new String[]{"[{\"op\":\"copy\",\"from\":\"/missing\",\"path\":\"/x\"}]", "[{\"op\":\"add\",\"path\":\"/x\"}]",
                "[{\"op\":\"test\",\"path\":\"/id\",\"value\":\"other\"}]", "[42]", "[{\"op\":\"explode\",\"path\":\"/id\"}]"}) {
            assertThatThrownBy(() -> DEFAULTS.applyJsonPatch(doc(10), json(patch).asJsonArray())).as(patch)
                    .isInstanceOfSatisfying(CairnException.class,
                            e -> assertThat(e.error()).isInstanceOf(CairnError.MalformedRequest.class));
        }
    }

    @Test
    void aMergePatchIsRefusedWhenItsResultPassesTheCapUnlessItShrinksTheDocument() {
        var limits = new PatchLimits(10, 2000);
        JsonObject target = doc(10);
        JsonValue grown = Json.createMergePatch(json("{\"name\":\"" + "x".repeat(2000) + "\"}")).apply(target);
        assertThat(refusal(() -> limits.checkMerged(target, grown)).limitBytes()).isEqualTo(2000);
        JsonValue small = Json.createMergePatch(json("{\"name\":\"short\"}")).apply(target);
        assertThat(limits.checkMerged(target, small)).isSameAs(small);
        JsonObject oversized = doc(5000);
        JsonValue shrunk = Json.createMergePatch(json("{\"name\":\"" + "x".repeat(4000) + "\"}")).apply(oversized);
        assertThat(limits.checkMerged(oversized, shrunk)).isSameAs(shrunk);
    }

    static JsonObject withList(int elements) {
        var list = Json.createArrayBuilder();
        for (int i = 0; i < elements; i++) {
            list.add(i % 10);
        }
        return Json.createObjectBuilder().add("id", "m1").add("list", list).build();
    }

    static JsonArray moves(int operations, String from, String to) {
        var ops = Json.createArrayBuilder();
        for (int i = 0; i < operations; i++) {
            ops.add(Json.createObjectBuilder().add("op", "move").add("from", from).add("path", to));
        }
        return ops.build();
    }

    @Test
    void movesAtTheHeadOfAHugeListAreRefusedByTheWorkBudgetAtTheFirstOperationThatWouldPassIt() {
        // 999 moves from the head of a 240,000-element list: each shifts the whole list, twice.
        JsonObject target = withList(240_000);
        var refused = refusal(() -> DEFAULTS.applyJsonPatch(target, moves(999, "/list/0", "/list/-")));
        assertThat(refused.limitWork()).isEqualTo(PatchLimits.DEFAULT_MAX_WORK);
        assertThat(refused.detail()).contains("operation 0 (move)");
        // A list of 100,000 edited where it costs little: every move at the tail is applied.
        JsonObject shorter = withList(100_000);
        JsonStructure patched = DEFAULTS.applyJsonPatch(shorter, moves(999, "/list/99998", "/list/-"));
        assertThat(patched).isEqualTo(Json.createPatch(moves(999, "/list/99998", "/list/-")).apply(shorter));
    }

    @Test
    void theWorkOfAPatchIsWhatItShiftsCopiesAndComparesNotTheSizeOfTheDocumentTimesItsOperations() {
        JsonObject target = withList(1000);
        // 100 moves from the head of a 1000-element list: 1,000 elements shifted per move (a unit per 16), all
        // within 50,000.
        var limits = new PatchLimits(1000, MIB, 50_000);
        JsonStructure patched = limits.applyJsonPatch(target, moves(100, "/list/0", "/list/-"));
        assertThat(patched).isEqualTo(Json.createPatch(moves(100, "/list/0", "/list/-")).apply(target));
        // With a budget of 5,000 the same patch is refused part way, at the move that would pass it.
        var refused = refusal(() -> new PatchLimits(1000, MIB, 5_000).applyJsonPatch(target, moves(100, "/list/0", "/list/-")));
        var matcher = Pattern.compile("operation (\\d+) \\(move\\)").matcher(refused.detail());
        assertThat(matcher.find()).as(refused.detail()).isTrue();
        assertThat(Integer.parseInt(matcher.group(1))).isBetween(50, 80);
    }

    @Test
    void aTestComparesNumbersByValueAsRfc6902Says() {
        JsonObject target = json("{\"n\":1.0,\"list\":[1,{\"a\":2.50}]}").asJsonObject();
        assertThat(DEFAULTS.applyJsonPatch(target, json("[{\"op\":\"test\",\"path\":\"/n\",\"value\":1},"
                + "{\"op\":\"test\",\"path\":\"/list\",\"value\":[1.0,{\"a\":2.5}]}]").asJsonArray())).isEqualTo(target);
        assertThatThrownBy(() -> DEFAULTS.applyJsonPatch(target, json("[{\"op\":\"test\",\"path\":\"/list\",\"value\":[1]}]")
                .asJsonArray())).isInstanceOfSatisfying(CairnException.class,
                e -> assertThat(e.error()).isInstanceOf(CairnError.MalformedRequest.class));
    }

    @Test
    void pointersFollowRfc6901() {
        JsonObject target = json("{\"a/b\":{\"m~n\":1},\"list\":[0,1]}").asJsonObject();
        JsonStructure patched = DEFAULTS.applyJsonPatch(target, json("[{\"op\":\"replace\",\"path\":\"/a~1b/m~0n\",\"value\":2},"
                + "{\"op\":\"move\",\"from\":\"/a~1b\",\"path\":\"/c\"},{\"op\":\"add\",\"path\":\"/list/2\",\"value\":2}]").asJsonArray());
        assertThat(patched).isEqualTo(json("{\"list\":[0,1,2],\"c\":{\"m~n\":2}}"));
        for (String bad : new String[]{"[{\"op\":\"add\",\"path\":\"/list/01\",\"value\":9}]",
                "[{\"op\":\"add\",\"path\":\"/list/3\",\"value\":9}]", "[{\"op\":\"remove\",\"path\":\"/list/-\"}]",
                "[{\"op\":\"add\",\"path\":\"a\",\"value\":9}]", "[{\"op\":\"add\",\"path\":\"/a~2\",\"value\":9}]",
                "[{\"op\":\"move\",\"from\":\"/a~1b\",\"path\":\"/a~1b/x\"}]", "[{\"op\":\"remove\",\"path\":\"\"}]",
                "[{\"op\":\"replace\",\"path\":\"/nothing\",\"value\":1}]"}) {
            assertThatThrownBy(() -> DEFAULTS.applyJsonPatch(target, json(bad).asJsonArray())).as(bad)
                    .isInstanceOfSatisfying(CairnException.class,
                            e -> assertThat(e.error()).isInstanceOf(CairnError.MalformedRequest.class));
        }
    }
}
