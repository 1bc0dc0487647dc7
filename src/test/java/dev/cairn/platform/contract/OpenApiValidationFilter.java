package dev.cairn.platform.contract;

import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A RestAssured filter that checks every exchange of the API port against the served OpenAPI document and fails
 * the test that caused a disagreement. The management port, the console (a page, not part of the contract) and the
 * test-only routes are not checked.
 */
public final class OpenApiValidationFilter implements Filter {

    /**
     * Exchanges checked so far in this JVM. Each restart of the application under test loads this class again, so
     * the count lives in the JVM's system properties (one AtomicLong, a bootstrap class, shared by every copy) and is
     * written once at exit to target/openapi/checked-exchanges.txt (surefire may no longer relay stdout by then).
     */
    static final java.util.concurrent.atomic.AtomicLong CHECKED = (java.util.concurrent.atomic.AtomicLong)
            System.getProperties().computeIfAbsent("openapi-contract.checked", key -> {
                var counter = new java.util.concurrent.atomic.AtomicLong();
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try {
                        java.nio.file.Files.createDirectories(java.nio.file.Path.of("target/openapi"));
                        java.nio.file.Files.writeString(java.nio.file.Path.of("target/openapi/checked-exchanges.txt"),
                                counter.get() + " exchanges checked against the served OpenAPI document\n");
                    } catch (java.io.IOException e) {
                        System.err.println("OpenAPI contract: " + counter.get() + " exchanges checked");
                    }
                }));
                return counter;
            });

    private final OpenApiContract contract;
    private final int managementPort;

    public OpenApiValidationFilter(OpenApiContract contract, int managementPort) {
        this.contract = contract;
        this.managementPort = managementPort;
    }

    @Override
    public Response filter(FilterableRequestSpecification request, FilterableResponseSpecification responseSpec,
                           FilterContext context) {
        Response response = context.next(request, responseSpec);
        URI uri;
        try {
            uri = URI.create(request.getURI()).normalize(); // as the server resolves dot segments
        } catch (IllegalArgumentException e) {
            return response; // RestAssured sent what java.net.URI cannot parse; nothing to match it against
        }
        if (uri.getPort() == managementPort || uri.getRawPath() == null || uri.getRawPath().startsWith("/q/")
                || uri.getRawPath().startsWith("/console") || uri.getRawPath().startsWith("/test-support/")) {
            return response;
        }
        var headers = new LinkedHashMap<String, String>();
        request.getHeaders().forEach(h -> headers.put(h.getName(), h.getValue()));
        var answerHeaders = new LinkedHashMap<String, List<String>>();
        response.getHeaders().forEach(h -> answerHeaders.computeIfAbsent(h.getName(), k -> new ArrayList<>()).add(h.getValue()));
        Object body = request.getBody();
        var exchange = new OpenApiContract.Request(request.getMethod(), uri.getRawPath(), query(uri.getRawQuery()), headers,
                request.getContentType(), body == null ? null : body instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : body.toString());
        var answer = new OpenApiContract.Answer(response.getStatusCode(), response.getContentType(), answerHeaders, response.asString());
        var verdict = contract.check(exchange, answer);
        CHECKED.incrementAndGet();
        if (!verdict.answer().isEmpty()) {
            throw new AssertionError("The answer to " + request.getMethod() + " " + uri.getRawPath()
                    + " disagrees with the OpenAPI document:\n  " + String.join("\n  ", verdict.answer())
                    + (verdict.request().isEmpty() ? "" : "\n(the request itself: " + String.join("; ", verdict.request()) + ")"));
        }
        return response;
    }

    private static Map<String, List<String>> query(String raw) {
        var out = new LinkedHashMap<String, List<String>>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            out.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
        return out;
    }
}
