package dev.cairn.platform.auth;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import io.smallrye.common.vertx.ContextLocals;
import io.smallrye.common.vertx.VertxContext;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Who is calling: subject, roles and workspace scope. {@code workspaces == null} means every workspace (scope
 * {@code *}, or authentication turned off). It lives in the request's Vert.x duplicated context, like the call ledger;
 * {@link AccessControl} binds one for every request it lets through, and where none is bound nothing is allowed.
 */
public record Caller(String subject, Set<Role> roles, SortedSet<String> workspaces) {

    private static final String KEY = Caller.class.getName();

    /** Everything allowed: authentication is off (dev, test, or explicitly configured). */
    public static final Caller UNRESTRICTED = new Caller("anonymous", Set.of(Role.ADMIN), null);

    public Caller {
        roles = Set.copyOf(roles);
        workspaces = workspaces == null ? null : new TreeSet<>(workspaces);
    }

    public static Caller of(String subject, Set<Role> roles, Collection<String> workspaces) {
        return new Caller(subject, roles, workspaces == null || workspaces.contains("*") ? null : new TreeSet<>(workspaces));
    }

    public boolean allWorkspaces() {
        return workspaces == null;
    }

    /** Refuses (403, naming the role) a caller without {@code needed}: {@code what} is reserved to it. */
    public void require(Role needed, String what) {
        if (!has(needed)) {
            throw new CairnException(new CairnError.Forbidden(what + " needs the role " + needed.group(), needed.group()));
        }
    }

    /** Refuses (403) a caller scoped to some workspaces: {@code what} reads or writes across every tenant. */
    public void requireAllWorkspaces(String what) {
        if (!allWorkspaces()) {
            throw new CairnException(new CairnError.Forbidden(what + " spans every tenant: it needs a token scoped to "
                    + "every workspace", null));
        }
    }

    public boolean canSee(String workspaceId) {
        return workspaces == null || workspaces.contains(workspaceId);
    }

    /**
     * A caller acts only as itself: a user id a write acts for (a path's user, a created user's id) must be the
     * caller's subject, unless the caller is an admin (moderation, imports).
     */
    public void requireSelf(String field, String userId) {
        if (!subject.equals(userId) && !has(Role.ADMIN)) {
            throw new CairnException(new CairnError.Forbidden(field + ": you may act only as yourself (" + subject
                    + "), not as " + userId, Role.ADMIN.group()));
        }
    }

    /** The author a write records: the caller's subject when the body names none, else one {@link #requireSelf} allows. */
    public String author(String field, String requested) {
        if (requested == null) {
            return subject;
        }
        requireSelf(field, requested);
        return requested;
    }

    /** Creating a workspace outside the scope is refused whether or not it exists (so nothing leaks). */
    public void requireCreatable(String workspaceId) {
        if (!canSee(workspaceId)) {
            throw new CairnException(new CairnError.Forbidden("workspace " + workspaceId
                    + " is outside the workspaces of your token", null));
        }
    }

    /** The caller's workspaces in a stable order; only meaningful when {@link #allWorkspaces()} is false. */
    public List<String> workspaceList() {
        return workspaces == null ? List.of() : List.copyOf(workspaces);
    }

    public boolean has(Role needed) {
        return roles.stream().anyMatch(role -> role.covers(needed));
    }

    void bind() {
        if (VertxContext.isOnDuplicatedContext()) {
            ContextLocals.put(KEY, this);
        }
    }

    /** The caller of the current request; none bound means no access at all (fail closed), never an admin. */
    public static Caller current() {
        return (VertxContext.isOnDuplicatedContext() ? ContextLocals.<Caller>get(KEY) : Optional.<Caller>empty())
                .orElseThrow(() -> new CairnException(new CairnError.Unauthenticated("no caller is known for this request", false)));
    }

    /** The caller bound to the current request, if any (a public route's or an undeclared path's has none). */
    public static Optional<Caller> bound() {
        return VertxContext.isOnDuplicatedContext() ? ContextLocals.<Caller>get(KEY) : Optional.empty();
    }

    /** Roles from the token's {@code groups} claim; each covers the ones below it. */
    public enum Role {
        READER("cairn-reader"), WRITER("cairn-writer"), ADMIN("cairn-admin");

        private final String group;

        Role(String group) {
            this.group = group;
        }

        public String group() {
            return group;
        }

        boolean covers(Role needed) {
            return ordinal() >= needed.ordinal();
        }

        static Role ofGroup(String group) {
            for (Role role : values()) {
                if (role.group.equals(group)) {
                    return role;
                }
            }
            return null;
        }
    }
}
