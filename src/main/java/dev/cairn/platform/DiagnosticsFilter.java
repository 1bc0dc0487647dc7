package dev.cairn.platform;

import dev.cairn.store.CallLedger;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import org.jboss.logging.MDC;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Opens a {@link CallLedger} for every request and reports it on the response: {@code X-DynamoDB-Calls} (API
 * requests sent, retries included), {@code X-DynamoDB-Capacity} (consumed capacity units) and a
 * {@code Server-Timing} entry, so a user can confirm that an access pattern costs exactly one read.
 */
public class DiagnosticsFilter {

    public static final String CALLS = "X-DynamoDB-Calls";
    public static final String CAPACITY = "X-DynamoDB-Capacity";
    private static final String LEDGER = CallLedger.class.getName();

    private final boolean enabled;

    public DiagnosticsFilter(CairnConfig config) {
        this.enabled = config.diagnostics().headers();
    }

    public static final String REQUEST_ID = "X-Request-Id";
    private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    /** Opens the ledger and the request id: the caller's {@code X-Request-Id} when it is sane, else a new one. */
    @ServerRequestFilter(preMatching = true)
    public void open(ContainerRequestContext request) {
        request.setProperty(LEDGER, CallLedger.start());
        String given = request.getHeaderString(REQUEST_ID);
        String id = given != null && SAFE_ID.matcher(given).matches() ? given : UUID.randomUUID().toString();
        request.setProperty(REQUEST_ID, id);
        MDC.put("requestId", id);
    }

    @ServerResponseFilter
    public void report(ContainerRequestContext request, ContainerResponseContext response) {
        if (request.getProperty(REQUEST_ID) instanceof String id) {
            response.getHeaders().putSingle(REQUEST_ID, id);
        }
        if (!enabled || !(request.getProperty(LEDGER) instanceof CallLedger ledger)) {
            return;
        }
        // Concatenation, not String.format: the formatter was 2 % of the app's CPU on the listing routes (profile).
        String capacity = oneDecimal(ledger.capacity());
        response.getHeaders().putSingle(CALLS, Integer.toString(ledger.calls()));
        response.getHeaders().putSingle(CAPACITY, capacity);
        response.getHeaders().add("Server-Timing", "dynamodb;dur=" + oneDecimal(ledger.millis()) + ";desc=\""
                + ledger.calls() + (ledger.calls() == 1 ? " call, " : " calls, ") + capacity + " capacity units\"");
    }

    /**
     * A non-negative number to the nearest tenth, as {@code %.1f} writes it (next to an exact half, where binary
     * fractions may tip either way, the two can differ by the last digit).
     */
    static String oneDecimal(double value) {
        long tenths = Math.round(value * 10);
        return tenths / 10 + "." + tenths % 10;
    }
}
