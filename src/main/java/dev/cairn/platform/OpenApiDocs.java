package dev.cairn.platform;

import dev.cairn.core.CairnError;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.security.SecurityScheme;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.headers.Header;
import org.eclipse.microprofile.openapi.models.media.Schema;

import java.util.Arrays;
import java.util.List;

/**
 * Completes the generated OpenAPI document with what every route shares: the problem+json error schema and its
 * {@code code} values, the diagnostic headers, and {@code ETag} on answers (registered as {@code mp.openapi.filter}).
 */
public class OpenApiDocs implements OASFilter {

    private static final String PROBLEM = "Problem";
    private static final String BEARER = "bearer";

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getComponents() == null) {
            openAPI.setComponents(OASFactory.createComponents());
        }
        openAPI.getComponents().addSchema(PROBLEM, problemSchema());
        // Every API route takes a bearer JWT when authentication is on (roles: cairn-reader/-writer/-admin).
        openAPI.getComponents().addSecurityScheme(BEARER, OASFactory.createSecurityScheme()
                .type(SecurityScheme.Type.HTTP).scheme("bearer").bearerFormat("JWT")
                .description("RS256 JWT; roles from the groups claim, workspace scope from the workspaces claim"));
        openAPI.addSecurityRequirement(OASFactory.createSecurityRequirement().addScheme(BEARER));
        if (openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            return;
        }
        openAPI.getPaths().getPathItems().forEach((path, item) -> {
            if (path.startsWith("/q/")) {
                return;
            }
            item.getOperations().values().forEach(OpenApiDocs::acceptsCascade);
            item.getOperations().values().forEach(OpenApiDocs::document);
        });
    }

    /** A PATCH that cascades answers 202 with the job's location when the job outlasts cairn.jobs.answer-within. */
    private static void acceptsCascade(Operation operation) {
        boolean cascades = operation.getParameters() != null
                && operation.getParameters().stream().anyMatch(p -> "cascade".equals(p.getName()));
        if (!cascades || operation.getResponses() == null || operation.getResponses().getAPIResponse("200") == null) {
            return;
        }
        var ok = operation.getResponses().getAPIResponse("200");
        ok.description("The entity is updated and its cascade has ended: the job's report and the entity");
        operation.getResponses().addAPIResponse("202", OASFactory.createAPIResponse()
                .description("The entity is updated; its cascade job goes on (eventual mode): the report so far")
                .content(ok.getContent())
                .addHeader("Location", header("The cascade job: GET /cascades/{id}", Schema.SchemaType.STRING)));
    }

    private static void document(Operation operation) {
        if (operation.getResponses() == null) {
            operation.setResponses(OASFactory.createAPIResponses());
        }
        operation.getResponses().getAPIResponses().forEach((status, response) -> {
            if (status.startsWith("2")) {
                response.addHeader("X-DynamoDB-Calls", header("DynamoDB API requests made to answer (retries included)", Schema.SchemaType.INTEGER));
                response.addHeader("X-DynamoDB-Capacity", header("Consumed capacity units", Schema.SchemaType.NUMBER));
                response.addHeader("ETag", header("The item's or aggregate's version, for If-Match", Schema.SchemaType.STRING));
            }
        });
        operation.getResponses().addAPIResponse("401", problem("No bearer token, or a refused one (WWW-Authenticate: Bearer)"));
        operation.getResponses().addAPIResponse("403", problem("The token lacks the role this route needs"));
        operation.getResponses().addAPIResponse("default", OASFactory.createAPIResponse()
                .description("An RFC 9457 problem: 4xx for bad input, 404, 409, 412, 422; 503 with Retry-After")
                .content(OASFactory.createContent().addMediaType(ProblemMapper.PROBLEM_JSON,
                        OASFactory.createMediaType().schema(OASFactory.createSchema().ref(PROBLEM)))));
    }

    private static org.eclipse.microprofile.openapi.models.responses.APIResponse problem(String description) {
        return OASFactory.createAPIResponse().description(description)
                .content(OASFactory.createContent().addMediaType(ProblemMapper.PROBLEM_JSON,
                        OASFactory.createMediaType().schema(OASFactory.createSchema().ref(PROBLEM))));
    }

    private static Header header(String description, Schema.SchemaType type) {
        return OASFactory.createHeader().description(description).schema(OASFactory.createSchema().addType(type));
    }

    static List<String> codes() {
        return Arrays.stream(CairnError.class.getPermittedSubclasses()).map(Class::getSimpleName)
                .filter(name -> !name.equals("FieldError") && !name.equals("ActionFailure")).sorted().toList();
    }

    private static Schema problemSchema() {
        Schema string = OASFactory.createSchema().addType(Schema.SchemaType.STRING);
        return OASFactory.createSchema().addType(Schema.SchemaType.OBJECT)
                .description("RFC 9457 problem details with Cairn's stable code")
                .addProperty("type", string)
                .addProperty("title", string)
                .addProperty("status", OASFactory.createSchema().addType(Schema.SchemaType.INTEGER))
                .addProperty("detail", string)
                .addProperty("instance", string)
                .addProperty("code", OASFactory.createSchema().addType(Schema.SchemaType.STRING)
                        .enumeration(List.copyOf(codes())))
                .addProperty("errors", OASFactory.createSchema().addType(Schema.SchemaType.ARRAY)
                        .items(OASFactory.createSchema().addType(Schema.SchemaType.OBJECT)
                                .addProperty("field", string).addProperty("message", string)))
                .required(List.of("type", "title", "status", "code"));
    }
}
