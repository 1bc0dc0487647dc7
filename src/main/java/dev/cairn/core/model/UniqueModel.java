package dev.cairn.core.model;

import dev.cairn.core.key.PrimaryKey;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A declared unique value ({@code unique: { email: { fields: [email], scope: tenantId, case: insensitive } }}): no two
 * items of the entity hold the same values of {@code fields} within one value of {@code scope}. Kept by a sentinel
 * item of its own key — {@code UNIQUE#<Entity>#<constraint>#<scope>#<values>} / {@code UNIQUE} — written in the same
 * transaction as the item. An item that lacks one of the fields holds no value (like SQL's NULL); an item without a
 * scope value is in a scope of its own. {@code caseInsensitive}: text is compared after {@link #fold} (NFKC, case folded)
 * (the sentinel's key only; the item keeps the value as given). {@code softDelete}: whether a soft-deleted item
 * keeps its value taken or releases it (applies once soft delete is declared).
 */
public record UniqueModel(String name, List<String> fields, List<String> scope, boolean caseInsensitive,
                          SoftDelete softDelete, int line) {

    public enum SoftDelete { KEEP, RELEASE }

    /** The sentinel's sort key; its {@code _type}. */
    public static final String SENTINEL_SK = "UNIQUE";
    public static final String SENTINEL_TYPE = "_Unique";
    public static final String PREFIX = "UNIQUE#";

    /**
     * What stands for a missing scope value, and what starts a hashed part: both begin with '%', which an escaped value
     * never holds but as "%25" or "%23", so neither can be the key of a value as given.
     */
    static final String NO_SCOPE = "%-";
    static final String HASHED = "%sha256:";

    /** Past this many bytes the values part of the key is its SHA-256 (a partition key holds at most 2048 bytes). */
    static final int MAX_VALUE_BYTES = 1024;

    public UniqueModel {
        fields = List.copyOf(fields);
        scope = List.copyOf(scope);
    }

    /** The fields a violation names: the constrained ones, then the scope's. */
    public List<String> allFields() {
        var out = new ArrayList<>(fields);
        out.addAll(scope);
        return out;
    }

    /** The sentinel key this document takes; empty when it lacks one of the constrained fields. */
    public Optional<PrimaryKey> sentinel(String entity, Map<String, Object> values) {
        var parts = new ArrayList<String>();
        for (String field : fields) {
            Object value = values.get(field);
            if (value == null) {
                return Optional.empty();
            }
            parts.add(escape(normalise(value)));
        }
        var scopes = new ArrayList<String>();
        for (String field : scope) {
            Object value = values.get(field);
            // scope values are ids: compared exactly, never folded
            scopes.add(value == null ? NO_SCOPE : escape(canonical(value)));
        }
        String joined = String.join("#", parts);
        if (joined.getBytes(StandardCharsets.UTF_8).length > MAX_VALUE_BYTES) {
            joined = HASHED + sha256(joined);
        }
        String scopeText = scopes.isEmpty() ? "*" : String.join("#", scopes);
        if (scopeText.getBytes(StandardCharsets.UTF_8).length > MAX_VALUE_BYTES / 2) {
            scopeText = HASHED + sha256(scopeText);
        }
        return Optional.of(PrimaryKey.of(PREFIX + entity + "#" + name + "#" + scopeText + "#" + joined, SENTINEL_SK));
    }

    /** The value as the sentinel keys it: text folded under the case-insensitive rule, numbers in canonical form. */
    public String normalise(Object value) {
        String text = canonical(value);
        return caseInsensitive && value instanceof String ? fold(text) : text;
    }

    /**
     * The case-insensitive key of a text: NFKC (compatibility forms: fullwidth letters, ligatures, the Kelvin sign),
     * without format characters (zero-width spaces, soft hyphens: invisible, so never a difference a reader sees) and
     * the white space around it, then upper- and lower-cased, which folds what lower-casing alone keeps apart ("ß" and
     * "SS", a final "ς" and "σ").
     */
    static String fold(String text) {
        String compatible = Normalizer.normalize(text, Normalizer.Form.NFKC).replaceAll("\\p{Cf}", "").strip();
        return Normalizer.normalize(compatible.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT), Normalizer.Form.NFKC);
    }

    private static String canonical(Object value) {
        if (value instanceof BigDecimal number) {
            return number.stripTrailingZeros().toPlainString();
        }
        return String.valueOf(value);
    }

    /** '#' separates the parts: escaped (and '%' with it) so "a#b","c" and "a","b#c" never share a key. */
    private static String escape(String text) {
        return text.replace("%", "%25").replace("#", "%23");
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** What the contract says of it: "email is unique (case-insensitive)", "title is unique per workspaceId". */
    public String describe() {
        String what = String.join(" + ", fields) + (fields.size() > 1 ? " are unique together" : " is unique");
        if (!scope.isEmpty()) {
            what += " per " + String.join(" + ", scope);
        }
        return what + (caseInsensitive ? " (case-insensitive)" : " (exact)") + " [constraint " + name + "]";
    }
}
