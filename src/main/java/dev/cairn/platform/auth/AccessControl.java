package dev.cairn.platform.auth;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.platform.CairnConfig;
import dev.cairn.platform.auth.Caller.Role;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.json.JsonArray;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The ONE authorization point of the API. The bearer JWT is verified by smallrye-jwt (lazily: proactive
 * authentication is off, so a bad token becomes a problem+json 401 here rather than a bare 401 earlier); then:
 * safe methods need {@code cairn-reader}, writes {@code cairn-writer}, and {@link AdminOnly} routes or a
 * {@code ?cascade=transactional} write {@code cairn-admin}. Workspace routes check the {@code workspaces} claim
 * and answer an out-of-scope workspace exactly like a missing one; writes that act as a user are the caller's
 * own or an admin's ({@link Caller#requireSelf}, asked by the use case). The tenancy model as a whole is described in docs/security.md.
 */
public class AccessControl {

    /**
     * Lets the request through at once: a null Uni, which quarkus-rest takes as "carry on" without suspending the
     * request and subscribing (a Uni of null would cost both on every request).
     */
    private static final Uni<Response> PROCEED = null;
    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

    private final CairnConfig config;
    private final CurrentIdentityAssociation identities;
    private final long clockSkewSeconds;
    private final String workspacesClaim;

    public AccessControl(CairnConfig config, CurrentIdentityAssociation identities,
                         @ConfigProperty(name = "mp.jwt.verify.clock.skew", defaultValue = "60") long clockSkewSeconds) {
        this.config = config;
        this.identities = identities;
        this.clockSkewSeconds = clockSkewSeconds;
        this.workspacesClaim = config.auth().workspacesClaim();
    }

    /**
     * OPTIONS tells which methods a path has, and quarkus-rest answers it for a hand-written resource before any
     * matched filter runs: so it needs a reader's token here, before matching, like every read.
     */
    @ServerRequestFilter(preMatching = true, priority = Priorities.AUTHENTICATION)
    public Uni<Response> authorizeOptions(ContainerRequestContext request) {
        if (!"OPTIONS".equals(request.getMethod()) || !config.auth().enabled()) {
            return PROCEED;
        }
        boolean tokenPresented = request.getHeaderString("Authorization") != null;
        return identities.getDeferredIdentity()
                .onFailure(AuthenticationFailedException.class).transform(e -> unauthenticated(
                        "the bearer token was refused", true))
                .map(identity -> {
                    Caller caller = caller(identity, tokenPresented, clockSkewSeconds, workspacesClaim);
                    if (!caller.has(Role.READER)) {
                        throw new CairnException(new CairnError.Forbidden("this request needs the role "
                                + Role.READER.group(), Role.READER.group()));
                    }
                    caller.bind();
                    return null;
                });
    }

    @ServerRequestFilter(priority = Priorities.AUTHENTICATION)
    public Uni<Response> authorize(ContainerRequestContext request, ResourceInfo resource, RoutingContext routing) {
        if (resource.getResourceMethod() != null && resource.getResourceMethod().isAnnotationPresent(Public.class)) {
            return PROCEED;
        }
        DeclaredAccess.Rule declared = null;
        if (resource.getResourceClass() != null && resource.getResourceClass().isAnnotationPresent(RoutesWithin.class)) {
            // The path as Vert.x normalized it once for routing (dot segments removed, only unreserved characters
            // decoded: a %2F inside an id stays no slash) — the same string the declared resource matches when no rule
            // is kept, so the two can never disagree on which route a path is; the resource serves the very match
            // authorized here (MATCHED).
            declared = DeclaredAccess.of(request.getMethod(), routing.normalizedPath());
            if (declared == null) {
                return PROCEED; // no declared route: the resource answers 404 or 405
            }
            routing.put(DeclaredAccess.MATCHED, declared);
        }
        if (!config.auth().enabled()) {
            Caller.UNRESTRICTED.bind();
            return PROCEED;
        }
        boolean tokenPresented = request.getHeaderString("Authorization") != null;
        DeclaredAccess.Rule rule = declared;
        return identities.getDeferredIdentity()
                .onFailure(AuthenticationFailedException.class).transform(e -> unauthenticated(
                        "the bearer token was refused: it is malformed, expired or too old, not signed by a trusted "
                                + "key, from another issuer or for another audience", true))
                .map(identity -> {
                    Caller caller = caller(identity, tokenPresented, clockSkewSeconds, workspacesClaim);
                    Role needed = neededRole(request, resource, rule);
                    if (!caller.has(needed)) {
                        throw new CairnException(new CairnError.Forbidden(
                                "this request needs the role " + needed.group(), needed.group()));
                    }
                    checkScope(caller, request, resource, rule);
                    caller.bind();
                    return null;
                });
    }

    private static Caller caller(SecurityIdentity identity, boolean tokenPresented, long clockSkewSeconds,
                                 String workspacesClaim) {
        if (identity.isAnonymous() || !(identity.getPrincipal() instanceof JsonWebToken token)) {
            throw unauthenticated(tokenPresented ? "the bearer token was refused" : "a bearer token is required",
                    tokenPresented);
        }
        if (issuedInTheFuture(token.getIssuedAtTime(), Instant.now().getEpochSecond(), clockSkewSeconds)) {
            throw unauthenticated("the bearer token was refused: it is issued in the future", true);
        }
        Set<Role> roles = EnumSet.noneOf(Role.class);
        for (String group : identity.getRoles()) {
            Role role = Role.ofGroup(group);
            if (role != null) {
                roles.add(role);
            }
        }
        return Caller.of(subject(token), roles, workspaces(token.getClaim(workspacesClaim)));
    }

    /**
     * Who the caller is: {@code upn}, else {@code sub} — never {@code preferred_username}, which MicroProfile JWT's
     * {@code getName()} would take before {@code sub} and which some identity providers let users edit.
     */
    static String subject(JsonWebToken token) {
        String upn = token.getClaim("upn");
        return upn != null ? upn : token.getSubject();
    }

    /**
     * smallrye-jwt bounds a token's lifetime (exp - iat) and its age (now - iat) but accepts an iat in the future, which
     * would let a token issued "in ten years" for an hour be used from now on: beyond the clock skew it is refused.
     */
    static boolean issuedInTheFuture(long issuedAt, long now, long clockSkewSeconds) {
        return issuedAt > now + clockSkewSeconds;
    }

    /** The {@code workspaces} claim: a list of ids or {@code "*"}; missing means no workspace at all (fail closed). */
    static List<String> workspaces(Object claim) {
        var out = new ArrayList<String>();
        if (claim instanceof JsonArray array) {
            for (JsonValue value : array) {
                out.add(value instanceof JsonString s ? s.getString() : value.toString());
            }
        } else if (claim instanceof Collection<?> values) {
            values.forEach(v -> out.add(v instanceof JsonString s ? s.getString() : String.valueOf(v)));
        } else if (claim instanceof JsonString s) {
            out.addAll(commaSeparated(s.getString()));
        } else if (claim instanceof String s) {
            out.addAll(commaSeparated(s));
        }
        // a value no id can be (empty, or with control characters) names no workspace: never a mark the service uses
        out.removeIf(id -> id.isEmpty() || id.chars().anyMatch(Character::isISOControl));
        return out;
    }

    /** One string of ids, as identity providers' custom attributes hold lists: "acme, globex". */
    private static List<String> commaSeparated(String ids) {
        return java.util.Arrays.stream(ids.split(",")).map(String::strip).filter(id -> !id.isEmpty()).toList();
    }

    private static Role neededRole(ContainerRequestContext request, ResourceInfo resource, DeclaredAccess.Rule declared) {
        if (resource.getResourceMethod() != null && resource.getResourceMethod().isAnnotationPresent(AdminOnly.class)) {
            return Role.ADMIN;
        }
        Role base = declared != null ? declared.role() : SAFE_METHODS.contains(request.getMethod()) ? Role.READER : Role.WRITER;
        if (SAFE_METHODS.contains(request.getMethod())) {
            return base;
        }
        // The parameter binding finds a query parameter whatever the case of its name (?CASCADE= binds as ?cascade=):
        // so must the check of who may ask for it.
        boolean transactional = request.getUriInfo().getQueryParameters().entrySet().stream()
                .anyMatch(parameter -> parameter.getKey().equalsIgnoreCase("cascade") && parameter.getValue().contains("transactional"));
        return transactional ? Role.ADMIN : base;
    }

    private static void checkScope(Caller caller, ContainerRequestContext request, ResourceInfo resource,
                                   DeclaredAccess.Rule declared) {
        if (declared != null) {
            if (declared.tenant() != null && !caller.canSee(declared.tenant())) {
                throw new CairnException(new CairnError.NotFound(declared.missing().get() + " does not exist"));
            }
            if (declared.user() != null && !caller.subject().equals(declared.user()) && !caller.has(Role.ADMIN)) {
                throw new CairnException(new CairnError.NotFound(declared.userMissing().get() + " does not exist"));
            }
            return;
        }
        Class<?> type = resource.getResourceClass();
        WorkspaceScoped scoped = type == null ? null : type.getAnnotation(WorkspaceScoped.class);
        if (scoped == null || caller.allWorkspaces()) {
            return;
        }
        String workspace = request.getUriInfo().getPathParameters().getFirst(scoped.value());
        if (workspace != null && !caller.canSee(workspace)) {
            throw new CairnException(new CairnError.NotFound("workspace " + workspace + " does not exist"));
        }
    }

    private static CairnException unauthenticated(String detail, boolean tokenPresented) {
        return new CairnException(new CairnError.Unauthenticated(detail, tokenPresented));
    }
}
