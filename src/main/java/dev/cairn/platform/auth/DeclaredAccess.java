package dev.cairn.platform.auth;

import dev.cairn.platform.auth.Caller.Role;

import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * What a declared route (a model file's) needs of its caller, as the declared domains say it: the role, and — when its
 * path names a tenant — the tenant, answered as missing to a caller outside it. {@link AccessControl} asks here for
 * every request to the declared domains' resource, and keeps the matched route for it ({@link #MATCHED}), so the path
 * is matched once.
 */
public final class DeclaredAccess {

    /** The request property holding the {@link Rule} of a declared route (its {@code match} for the resource). */
    public static final String MATCHED = DeclaredAccess.class.getName();

    /**
     * {@code role} the caller needs; {@code tenant} the tenant (workspace) id the path names, or null; {@code missing}
     * what a 404 calls that tenant ("workspace acme"); {@code match} the matched route, opaque here; {@code user} the
     * user whose own (private) data the path names — only that user or an admin passes, anyone else meets it as
     * missing, {@code userMissing} naming it. The names are made only for a 404 (every request of a declared route
     * has a rule; few are refused).
     */
    public record Rule(Role role, String tenant, Supplier<String> missing, Object match, String user,
                       Supplier<String> userMissing) {

        public Rule(Role role, String tenant, Supplier<String> missing, Object match) {
            this(role, tenant, missing, match, null, null);
        }
    }

    private static volatile BiFunction<String, String, Rule> rules = (method, path) -> null;

    private DeclaredAccess() {
    }

    /** Set by the declared domains once their routes are known. */
    public static void rules(BiFunction<String, String, Rule> declared) {
        rules = declared;
    }

    /**
     * The rule of this method on this path (as the HTTP server normalized it for routing: dot segments removed, only
     * unreserved characters decoded); null when no declared route serves it.
     */
    public static Rule of(String method, String path) {
        return rules.apply(method, path);
    }
}
