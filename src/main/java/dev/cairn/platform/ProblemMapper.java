package dev.cairn.platform;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.store.SdkErrors;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.Path;
import jakarta.ws.rs.NotAcceptableException;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The ONE place failures become RFC 9457 {@code application/problem+json} answers with a stable {@code code}.
 * Client errors say what was wrong; server errors say nothing internal (no stack trace, class or SDK message).
 */
public class ProblemMapper {

    public static final String PROBLEM_JSON = "application/problem+json";
    private static final Logger LOG = Logger.getLogger(ProblemMapper.class);

    @ServerExceptionMapper
    public Response cairn(CairnException e, UriInfo uri) {
        if (e.current() != null) {
            // a conflict shown with the item as it is now: its representation and, as on a GET, its version
            Response plain = problem(e.error(), uri, e.getCause());
            @SuppressWarnings("unchecked")
            var body = new LinkedHashMap<>((Map<String, Object>) plain.getEntity());
            body.put("current", e.current().body());
            return Response.fromResponse(plain).entity(body).header("ETag", "\"" + e.current().version() + "\"").build();
        }
        return problem(e.error(), uri, e.getCause());
    }

    @ServerExceptionMapper
    public Response constraintViolation(ConstraintViolationException e, UriInfo uri) {
        List<CairnError.FieldError> errors = e.getConstraintViolations().stream()
                .map(v -> new CairnError.FieldError(fieldName(v), v.getMessage()))
                .sorted(Comparator.comparing(CairnError.FieldError::field))
                .toList();
        String detail = errors.stream().map(f -> f.field() + ": " + f.message()).collect(Collectors.joining("; "));
        return problem(new CairnError.ValidationFailed(detail, errors), uri);
    }

    @ServerExceptionMapper
    public Response unreadableJson(JsonProcessingException e, UriInfo uri) {
        if (brokenJson(e)) {
            // Jackson wraps a syntax error met inside a field with that field's path; it is still broken JSON.
            return problem(new CairnError.MalformedRequest("the request body is not valid JSON"), uri);
        }
        if (e instanceof UnrecognizedPropertyException unknown) {
            String field = path(unknown);
            return problem(CairnError.ValidationFailed.of(field, "unknown field"), uri);
        }
        if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            return problem(CairnError.ValidationFailed.of(path(mapping), "has the wrong type or format"), uri);
        }
        return problem(new CairnError.MalformedRequest("the request body is not valid JSON"), uri);
    }

    /** quarkus-rest-jackson maps this subtype itself; a mapper for the exact type takes precedence. */
    @ServerExceptionMapper
    public Response mismatchedJson(MismatchedInputException e, UriInfo uri) {
        return unreadableJson(e, uri);
    }

    @ServerExceptionMapper
    public Response patchRejected(MergePatcher.PatchRejected e, UriInfo uri) {
        return unreadableJson((JsonProcessingException) e.getCause(), uri);
    }

    @ServerExceptionMapper
    public Response webApplication(WebApplicationException e, UriInfo uri) {
        if (e.getCause() instanceof JsonProcessingException json) {
            return unreadableJson(json, uri);
        }
        CairnError error;
        if (e instanceof NotFoundException && AllowedMethods.of(uri.getRequestUri().getRawPath()) == null) {
            error = new CairnError.NotFound("no resource at " + uri.getPath());
        } else if (e instanceof NotFoundException || e instanceof NotAllowedException) {
            // A path that has routes, asked with a method none of them has (quarkus-rest may say 404 when another
            // route's template matches the path too).
            // RFC 9110: a 405 says which methods the resource has.
            String allow = e.getResponse().getHeaderString(HttpHeaders.ALLOW);
            if (allow == null || allow.isBlank()) {
                allow = AllowedMethods.of(uri.getRequestUri().getRawPath());
            }
            Response refused = problem(new CairnError.MethodNotAllowed("this method is not allowed on " + uri.getPath()), uri);
            return allow == null || allow.isBlank() ? refused
                    : Response.fromResponse(refused).header(HttpHeaders.ALLOW, allow).build();
        } else if (e instanceof NotSupportedException) {
            error = new CairnError.UnsupportedMediaType("the request's Content-Type is not supported here");
        } else if (e instanceof NotAcceptableException) {
            error = new CairnError.NotAcceptable("no acceptable representation");
        } else if (e.getResponse().getStatus() == 413) {
            error = new CairnError.PayloadTooLarge("the request body is too large");
        } else if (e.getResponse().getStatus() < 500) {
            error = new CairnError.MalformedRequest("the request could not be read");
        } else {
            return problem(new CairnError.InternalError("the request failed"), uri, e);
        }
        return problem(error, uri);
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e, UriInfo uri) {
        if (e.getCause() instanceof CairnException cause) {
            return cairn(cause, uri);
        }
        return problem(new CairnError.InternalError("the request failed unexpectedly"), uri, e);
    }

    public static Response problem(CairnError error, UriInfo uri) {
        return problem(error, uri, null);
    }

    /** The problem answer, and ONE log line per failed request: its path, status and code (no bodies). */
    static Response problem(CairnError error, UriInfo uri, Throwable cause) {
        String path = uri == null ? "-" : uri.getPath();
        if (error instanceof CairnError.ServiceUnavailable) {
            // A passing state, named by its fixed detail (throttling, no answer in time, unreachable, failed): no stack
            // trace, so that an outage met by many requests costs a line each, not a trace each.
            LOG.warnf("request failed: path=%s status=%d code=%s detail=%s", path, error.status(), error.code(), error.detail());
        } else if (error.status() == 503) {
            LOG.warnf("request failed: path=%s status=%d code=%s", path, error.status(), error.code());
        } else if (error.status() >= 500 && SdkErrors.answeredError(cause).isPresent()) {
            // DynamoDB's own answer, logged with its message where it was translated: the trace adds nothing
            LOG.errorf("request failed: path=%s status=%d code=%s", path, error.status(), error.code());
        } else if (error.status() >= 500) {
            LOG.errorf(cause, "request failed: path=%s status=%d code=%s", path, error.status(), error.code());
        } else {
            LOG.infof("request rejected: path=%s status=%d code=%s", path, error.status(), error.code());
        }
        Response.ResponseBuilder response = Response.status(error.status()).type(PROBLEM_JSON)
                .entity(body(error, uri == null ? null : uri.getPath()));
        if (error instanceof CairnError.ServiceUnavailable unavailable) {
            response.header("Retry-After", unavailable.retryAfterSeconds());
        } else if (error instanceof CairnError.Unauthenticated unauthenticated) {
            // RFC 6750: say which scheme to use, and that a presented token was refused.
            response.header("WWW-Authenticate", unauthenticated.tokenPresented()
                    ? "Bearer error=\"invalid_token\"" : "Bearer");
        } else if (error instanceof CairnError.AggregateBusy busy) {
            response.header("Retry-After", Math.max(1, busy.retryAfterSeconds()));
        } else if (error instanceof CairnError.RateLimited limited) {
            response.header("Retry-After", Math.max(1, limited.retryAfterSeconds()));
        }
        return response.build();
    }

    /** The RFC 9457 members of a problem answer. */
    static Map<String, Object> body(CairnError error, String instance) {
        var body = new LinkedHashMap<String, Object>();
        body.put("type", "urn:cairn:problem:" + error.code());
        body.put("title", error.title());
        body.put("status", error.status());
        body.put("detail", error.detail());
        if (instance != null) {
            body.put("instance", instance);
        }
        body.put("code", error.code());
        body.putAll(error.extensions());
        return body;
    }

    /** Logs a request the HTTP layer refused before any resource saw it, like every other failed request. */
    static void logRejected(String path, CairnError error) {
        LOG.infof("request rejected: path=%s status=%d code=%s", path, error.status(), error.code());
    }

    private static String fieldName(ConstraintViolation<?> violation) {
        // Drop the method and parameter nodes ("create.arg0.team1.players[0].name" -> "team1.players[0].name").
        String parameter = null;
        var path = new StringBuilder();
        for (Path.Node node : violation.getPropertyPath()) {
            switch (node.getKind()) {
                case PROPERTY, CONTAINER_ELEMENT -> {
                    if (node.isInIterable() && !path.isEmpty()) {
                        path.append('[').append(node.getIndex() != null ? node.getIndex() : node.getKey()).append(']');
                    }
                    if (node.getName() != null && !node.getName().startsWith("<")) {
                        path.append(path.isEmpty() ? "" : ".").append(node.getName());
                    }
                }
                case PARAMETER -> parameter = node.getName();
                default -> {
                }
            }
        }
        return !path.isEmpty() ? path.toString() : parameter == null ? "request" : parameter;
    }

    private static boolean brokenJson(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            // a number too large for its field is well-formed JSON of the wrong range, not a syntax error
            if (t instanceof StreamReadException && !(t instanceof InputCoercionException)) {
                return true;
            }
        }
        return false;
    }

    private static String path(JsonMappingException e) {
        String path = e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
        return path.isEmpty() ? "request" : path;
    }

}
