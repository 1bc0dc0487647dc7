package dev.cairn.core.key;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;

/**
 * Escaping of values inside {@code #}-delimited keys. Only the delimiter and the escape character are
 * escaped ({@code #} → {@code %23}, {@code %} → {@code %25}), so keys stay readable, case is preserved, and
 * an escaped value never contains a raw delimiter: splitting a key on {@code #} recovers its segments.
 */
public final class KeyCodec {

    public static final char DELIMITER = '#';
    static final char ESCAPE = '%';

    private KeyCodec() {
    }

    public static String escape(String value) {
        if (value.indexOf(DELIMITER) < 0 && value.indexOf(ESCAPE) < 0) {
            return value;
        }
        var out = new StringBuilder(value.length() + 8);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case DELIMITER -> out.append("%23");
                case ESCAPE -> out.append("%25");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    public static String unescape(String segment) {
        if (segment.indexOf(ESCAPE) < 0) {
            return segment;
        }
        var out = new StringBuilder(segment.length());
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c != ESCAPE) {
                out.append(c);
                continue;
            }
            String code = i + 2 < segment.length() ? segment.substring(i + 1, i + 3) : "";
            switch (code) {
                case "23" -> out.append(DELIMITER);
                case "25" -> out.append(ESCAPE);
                default -> throw new CairnException(new CairnError.MalformedRequest(
                        "malformed escape in key segment '" + segment + "'"));
            }
            i += 2;
        }
        return out.toString();
    }
}
