package dev.cairn.platform;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.entity.Stored;
import dev.cairn.core.model.FieldRules;
import org.jboss.resteasy.reactive.server.core.CurrentRequestManager;
import org.jboss.resteasy.reactive.server.core.ResteasyReactiveRequestContext;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Small HTTP conventions shared by every resource: ids in paths, paging parameters, ETags. */
public final class Http {

    public static final int MAX_ID_LENGTH = 128;
    public static final int DEFAULT_LIMIT = 20;
    public static final int MAX_LIMIT = 100;
    public static final String MERGE_PATCH_JSON = "application/merge-patch+json";

    private static final Pattern CANONICAL_WHOLE_NUMBER = Pattern.compile("0|[1-9][0-9]{0,9}");
    private static final Pattern ENTITY_TAG = Pattern.compile("^(?:W/)?\"(\\d{1,18})\"$");

    private Http() {
    }

    /**
     * A path id: non-blank, at most 128 characters, no control characters, not {@code .} or {@code ..} (case and
     * symbols are kept as-is), as {@link ValidId#PATTERN}.
     */
    public static String id(String field, String value) {
        if (value == null || value.isBlank()) {
            throw invalid(field, "must not be empty or blank");
        }
        if (value.length() > MAX_ID_LENGTH) {
            throw invalid(field, "must have at most " + MAX_ID_LENGTH + " characters");
        }
        if (value.chars().anyMatch(Character::isISOControl)) {
            throw invalid(field, "must not contain control characters");
        }
        if (FieldRules.hasLoneSurrogate(value)) {
            throw invalid(field, "must be text (half of a surrogate pair on its own is not)");
        }
        if (value.equals(".") || value.equals("..")) {
            throw invalid(field, "must not be . or .. (no URL can name it)");
        }
        return value;
    }

    /** The {@code limit} query parameter: 1–100, 20 when absent. */
    public static int limit(String value) {
        if (value == null && !sentEmpty("limit")) {
            return DEFAULT_LIMIT;
        }
        return wholeNumber("limit", value, 1, MAX_LIMIT);
    }

    /**
     * An integer parameter from {@code min} to {@code max}, written as its schema's integers are: ASCII digits, no
     * sign, no leading zero ({@link Integer#parseInt} would also take {@code +5}, {@code 05} and other scripts' digits).
     */
    public static int wholeNumber(String field, String value, int min, int max) {
        // At most 10 digits always fits a long; a longer number is out of every int range.
        if (value != null && CANONICAL_WHOLE_NUMBER.matcher(value).matches()) {
            long number = Long.parseLong(value);
            if (number >= min && number <= max) {
                return (int) number;
            }
        }
        throw invalid(field, "must be a whole number from " + min + " to " + max);
    }

    /**
     * Whether the current request sent this query parameter with an empty value ({@code ?include=}): quarkus-rest
     * hands such a value to a method as null, like a parameter not sent at all, but a typed parameter (an integer,
     * one of some names) has no empty value, so the method refuses it. False outside a request.
     */
    public static boolean sentEmpty(String name) {
        ResteasyReactiveRequestContext request = CurrentRequestManager.get();
        return request != null && "".equals(request.serverRequest().getQueryParam(name));
    }

    /** The version an {@code If-Match} header expects; null when absent or {@code *}. */
    public static Long ifMatch(String header) {
        if (header == null || header.isBlank() || header.trim().equals("*")) {
            return null;
        }
        Matcher matcher = ENTITY_TAG.matcher(header.trim());
        if (!matcher.matches()) {
            throw new CairnException(new CairnError.MalformedRequest(
                    "If-Match must be one entity tag as sent in ETag, e.g. \"3\""));
        }
        return Long.parseLong(matcher.group(1));
    }

    /** A stale If-Match is a 412 VersionConflict; no If-Match ({@code null}) accepts any version. */
    public static void requireVersion(String what, Long ifMatch, long actual) {
        if (ifMatch != null && ifMatch != actual) {
            throw new CairnException(new CairnError.VersionConflict(
                    what + " is at version " + actual + ", not " + ifMatch, ifMatch, actual, true));
        }
    }

    public static String etag(Stored<?> stored) {
        return "\"" + stored.version() + "\"";
    }

    public static CairnException invalid(String field, String message) {
        return new CairnException(CairnError.ValidationFailed.of(field, message));
    }
}
