package dev.cairn.platform;

import dev.cairn.store.CallLedger;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import org.jboss.logging.MDC;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * Opens a {@link CallLedger} for every request and reports it on the response: {@code X-DynamoDB-Calls} (API
 * requests sent, retries included), {@code X-DynamoDB-Capacity} (consumed capacity units) and a
 * {@code Server-Timing} entry, so a user can confirm that an access pattern costs exactly one read. A 404 reports no
 * capacity: what a read consumed would tell a missing item from one hidden from the caller (another tenant's).
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
        String id = requestId(request.getHeaderString(REQUEST_ID));
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
        response.getHeaders().putSingle(CALLS, Integer.toString(ledger.calls()));
        if (response.getStatus() == 404) {
            // what the read consumed would tell a missing item from one the caller may not see (another tenant's)
            response.getHeaders().add(SERVER_TIMING, serverTiming(ledger.calls(), -1, ledger.millis()));
            return;
        }
        response.getHeaders().putSingle(CAPACITY, oneDecimal(ledger.capacity()));
        response.getHeaders().add(SERVER_TIMING, serverTiming(ledger.calls(), ledger.capacity(), ledger.millis()));
    }

    public static final String SERVER_TIMING = "Server-Timing";

    /** The caller's {@code X-Request-Id} when it is sane, else a new one. */
    public static String requestId(String given) {
        return given != null && SAFE_ID.matcher(given).matches() ? given : newRequestId();
    }

    /**
     * A random (version 4) UUID, as {@link UUID#randomUUID} makes, from the thread's own generator: an id to follow a
     * request by, not a secret, so it need not take the shared SecureRandom's lock on every request.
     */
    static String newRequestId() {
        var random = ThreadLocalRandom.current();
        long high = (random.nextLong() & ~0xF000L) | 0x4000L;
        long low = (random.nextLong() & ~(0xC000L << 48)) | (0x8000L << 48);
        return new UUID(high, low).toString();
    }

    /**
     * The headers of an answer given before any resource ran (the HTTP layer's own refusals): the request id, and
     * the diagnostics of a request that made no DynamoDB call, so every answer carries the same headers.
     */
    public static java.util.Map<String, String> unservedHeaders(String requestId, boolean diagnostics, int status) {
        var headers = new java.util.LinkedHashMap<String, String>();
        headers.put(REQUEST_ID, requestId);
        headers.putAll(AnswerHeaders.FIXED);
        if (diagnostics) {
            headers.put(CALLS, "0");
            if (status != 404) {
                headers.put(CAPACITY, oneDecimal(0));
            }
            headers.put(SERVER_TIMING, serverTiming(0, status == 404 ? -1 : 0, 0));
        }
        return headers;
    }

    // Concatenation, not String.format: the formatter was 2 % of the app's CPU on the listing routes (profile).
    // A negative capacity is none reported (a 404's).
    private static String serverTiming(int calls, double capacity, double millis) {
        return "dynamodb;dur=" + oneDecimal(millis) + ";desc=\"" + calls + (calls == 1 ? " call" : " calls")
                + (capacity < 0 ? "" : ", " + oneDecimal(capacity) + " capacity units") + "\"";
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
