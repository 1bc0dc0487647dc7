package dev.cairn.platform.limits;

import dev.cairn.platform.auth.Caller;
import dev.cairn.store.CallLedger;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * The ONE place the per-caller write and read limits are enforced, once the caller is known. It runs after
 * {@code AccessControl} (priority AUTHENTICATION), which binds the caller, so an unauthenticated or forbidden request
 * is refused as such and costs its subject nothing. A write takes one token; a read (GET, HEAD, or an operation marked
 * {@link Reads}) reserves read capacity, its DynamoDB calls charge what they consume as they answer, and the reserve's rest goes back when the
 * request ends, however it ends (the client gone included).
 */
public class LimitFilter {

    private final CallerLimits limits;

    public LimitFilter(CallerLimits limits) {
        this.limits = limits;
    }

    @ServerRequestFilter(priority = Priorities.AUTHORIZATION)
    public void limit(ContainerRequestContext request, RoutingContext routing, ResourceInfo resource) {
        Caller caller = limits.enabled() ? Caller.bound().orElse(null) : null;
        if (caller == null) {
            // limits off, or no caller: a public route, or a path nothing serves (answered 404/405, no call made)
            return;
        }
        String method = request.getMethod();
        boolean reads = resource.getResourceMethod() != null && resource.getResourceMethod().isAnnotationPresent(Reads.class);
        if ("GET".equals(method) || "HEAD".equals(method) || reads) {
            var charge = limits.admitRead(caller.subject());
            CallLedger ledger = CallLedger.current();
            if (ledger != null) {
                ledger.payer(charge);
            }
            routing.addEndHandler(ended -> charge.close());
        } else if (!"OPTIONS".equals(method)) {
            limits.admitWrite(caller.subject());
        }
    }
}
