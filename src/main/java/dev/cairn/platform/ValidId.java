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
@Pattern(regexp = ValidId.PATTERN)
@ReportAsSingleViolation
@Constraint(validatedBy = {})
@Documented
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT, ElementType.TYPE_USE})
@Retention(RetentionPolicy.RUNTIME)
public @interface ValidId {

    /** No control characters (C0, DEL, C1): they would make keys and logs ambiguous. */
    String NO_CONTROL_CHARACTERS = "^[^\\x00-\\x1F\\x7F-\\x9F]*$";

    /**
     * Not blank, as the document states it (unanchored ECMA-262): some character above U+0020. Blank means what
     * {@link String#trim()} removes — the rule of Bean Validation's {@code @NotBlank} and of every check here — not
     * ECMA-262's {@code \S}, which also counts no-break and other Unicode spaces as blank, nor Java's.
     */
    String NOT_BLANK = "[^\\x00-\\x20]";

    /**
     * Every id, as an anchored ECMA-262 pattern the document gives: 1 to 128 characters, not blank ({@link #NOT_BLANK}),
     * no control characters, and not {@code .} or {@code ..}, which no URL can name (a path's dot segments are resolved).
     */
    String PATTERN = "^(?!\\.{1,2}$)(?![\\x00-\\x20]*$)[^\\x00-\\x1F\\x7F-\\x9F]{1,128}$";

    /** What a body id that breaks the rules is told (a declared model's ids are told the same). */
    String MESSAGE = "must be 1 to 128 characters without control characters, not . or ..";

    String message() default MESSAGE;

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
