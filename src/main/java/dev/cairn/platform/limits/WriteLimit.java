package dev.cairn.platform.limits;

import dev.cairn.platform.auth.Caller;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.util.Set;

/**
 * The ONE place the write rate is enforced: every request with a method that is not safe, once the caller is
 * known. It runs after {@code AccessControl} (priority AUTHENTICATION), which binds the caller, so an
 * unauthenticated or forbidden request is refused as such and costs its subject nothing.
 */
public class WriteLimit {

    private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS");

    private final CallerLimits limits;

    public WriteLimit(CallerLimits limits) {
        this.limits = limits;
    }

    @ServerRequestFilter(priority = Priorities.AUTHORIZATION)
    public void limit(ContainerRequestContext request) {
        if (limits.enabled() && !SAFE.contains(request.getMethod())) {
            limits.admitWrite(Caller.current().subject());
        }
    }
}
