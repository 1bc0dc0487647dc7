package dev.cairn.platform.auth;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import io.smallrye.common.vertx.ContextLocals;
import io.smallrye.common.vertx.VertxContext;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Who is calling: subject, roles and workspace scope. {@code workspaces == null} means every workspace (scope
 * {@code *}, or authentication turned off). It lives in the request's Vert.x duplicated context, like the call ledger.
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

    public boolean canSee(String workspaceId) {
        return workspaces == null || workspaces.contains(workspaceId);
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

    /** The caller of the current request; {@link #UNRESTRICTED} when none was bound (authentication off). */
    public static Caller current() {
        return VertxContext.isOnDuplicatedContext() ? ContextLocals.<Caller>get(KEY).orElse(UNRESTRICTED) : UNRESTRICTED;
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
