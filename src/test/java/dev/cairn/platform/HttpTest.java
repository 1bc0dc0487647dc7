package dev.cairn.platform;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Query parameters as the document types them: an integer is plain ASCII decimal, nothing else that parses as one. */
class HttpTest {

    @Test
    void aLimitIsPlainDecimalFrom1To100And20WhenAbsent() {
        assertThat(Http.limit(null)).isEqualTo(20);
        assertThat(Http.limit("1")).isEqualTo(1);
        assertThat(Http.limit("42")).isEqualTo(42);
        assertThat(Http.limit("100")).isEqualTo(100);
    }

    @Test
    void aLimitWithASignALeadingZeroNonAsciiDigitsOrNoDigitsIsRefusedNamingTheField() {
        for (String value : new String[]{"+5", "05", "007", "-0", "\uFF15", "\u0665", "5\u0660", " 5", "5 ", "5.0", "1e1",
                "0x5", "", "0", "101", "2147483648", "99999999999999999999"}) {
            assertThatThrownBy(() -> Http.limit(value)).as("limit [%s]", value).isInstanceOfSatisfying(CairnException.class,
                    e -> assertThat(e.error()).isInstanceOfSatisfying(CairnError.ValidationFailed.class,
                            failed -> assertThat(failed.errors()).singleElement().satisfies(error -> {
                                assertThat(error.field()).isEqualTo("limit");
                                assertThat(error.message()).isEqualTo("must be a whole number from 1 to 100");
                            })));
        }
    }

    @Test
    void aWholeNumberParameterTakesItsOwnRange() {
        assertThat(Http.wholeNumber("selectionNumber", "10000", 1, 10_000)).isEqualTo(10_000);
        assertThatThrownBy(() -> Http.wholeNumber("selectionNumber", "01", 1, 10_000)).isInstanceOf(CairnException.class)
                .hasMessageContaining("selectionNumber");
        assertThatThrownBy(() -> Http.wholeNumber("selectionNumber", "10001", 1, 10_000)).isInstanceOf(CairnException.class);
        // the whole int range: ten digits up to 2147483647, nothing past it
        assertThat(Http.wholeNumber("version", "2147483647", 1, Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
        assertThatThrownBy(() -> Http.wholeNumber("version", "2147483648", 1, Integer.MAX_VALUE))
                .isInstanceOf(CairnException.class);
        assertThatThrownBy(() -> Http.wholeNumber("version", "99999999999", 1, Integer.MAX_VALUE))
                .isInstanceOf(CairnException.class);
    }

    @Test
    void anIdThatIsADotSegmentBlankTooLongOrHasControlCharactersIsRefusedAndTheDocumentsPatternSaysTheSame() {
        Pattern idPattern = Pattern.compile(ValidId.PATTERN, Pattern.UNIX_LINES); // as Bean Validation is told to
        for (String id : List.of(".", "..", "", " ", "\t", "  ", "x".repeat(129), "a\u0001b", "a\u0085",
                "\u2003", "\u3000", "\u2028\u2029", "\ud800", "a\udc00", "\udbff\u0041")) {
            assertThatThrownBy(() -> Http.id("id", id)).as("id [%s]", id).isInstanceOf(CairnException.class);
            assertThat(idPattern.matcher(id).matches()).as("the id pattern on [%s]", id).isFalse();
        }
        // Blank is what String.isBlank() says (Bean Validation's @NotBlank): the no-break spaces are characters like
        // any other, for the app and for the document's pattern alike (ECMA-262's \S would disagree, so it uses none);
        // $ is the end of the input, as in ECMA-262, also before a line separator.
        for (String id : List.of("...", ".a", "a.", "a..b", "x", "x".repeat(128), "é🏏", "a b", " x ", "\u00a0", "\u2007",
                "\ufeff", ".\u2028", "\ud83c\udfcf")) {
            assertThat(Http.id("id", id)).isEqualTo(id);
            assertThat(idPattern.matcher(id).matches()).as("the id pattern on [%s]", id).isTrue();
        }
        assertThatThrownBy(() -> Http.id("postId", "..")).hasMessageContaining("postId: must not be . or ..");
    }
}
