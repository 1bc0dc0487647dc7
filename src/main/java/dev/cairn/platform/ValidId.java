package dev.cairn.platform;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import jakarta.validation.ReportAsSingleViolation;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An id in a body: non-blank, at most 128 characters, no control characters, not {@code .} or {@code ..}; case and
 * symbols are kept.
 */
@NotBlank
@Size(min = 1, max = Http.MAX_ID_LENGTH)
@Pattern(regexp = ValidId.PATTERN, flags = Pattern.Flag.UNIX_LINES)
@ReportAsSingleViolation
@Constraint(validatedBy = {})
@Documented
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT, ElementType.TYPE_USE})
@Retention(RetentionPolicy.RUNTIME)
public @interface ValidId {

    /** No control characters (C0, DEL, C1): they would make keys and logs ambiguous. */
    String NO_CONTROL_CHARACTERS = "^[^\\x00-\\x1F\\x7F-\\x9F]*$";

    /** The characters {@link Character#isWhitespace} is true for, as a character class's content. */
    String WHITE_SPACE = "\\x09-\\x0D\\x1C-\\x20\\u1680\\u2000-\\u2006\\u2008-\\u200A\\u2028\\u2029\\u205F\\u3000";

    /**
     * Not blank, as the document states it (unanchored ECMA-262): some character that is not white space as Java counts
     * it ({@link Character#isWhitespace}) — the rule of Bean Validation's {@code @NotBlank} ({@link String#isBlank})
     * and of every check here; not ECMA-262's {@code \S}, which also counts the no-break spaces as blank.
     */
    String NOT_BLANK = "[^" + WHITE_SPACE + "]";

    /**
     * Every id, as an anchored ECMA-262 pattern the document gives: 1 to 128 characters, not blank ({@link #NOT_BLANK}),
     * no control characters, no half of a surrogate pair on its own (not text: it cannot be written as UTF-8, and
     * every lone one would read back as the same replacement character), and not {@code .} or {@code ..}, which no
     * URL can name (a path's dot segments are resolved). Java checks it with {@code UNIX_LINES}, so that {@code $}
     * means the end of the input as in ECMA-262 (not also "before a final line separator").
     */
    String PATTERN = "^(?!\\.{1,2}$)(?![" + WHITE_SPACE + "]*$)"
            + "(?:[^\\x00-\\x1F\\x7F-\\x9F\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]){1,128}$";

    /** What a body id that breaks the rules is told (a declared model's ids are told the same). */
    String MESSAGE = "must be 1 to 128 characters without control characters, not . or ..";

    String message() default MESSAGE;

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
