package dev.cairn.platform;

import dev.cairn.jobs.CascadeJobResource;
import dev.cairn.declared.DeclaredRoutes;
import dev.cairn.declared.ModelFiles;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;

/** OpenAPI, Swagger UI, metrics and request ids: what operators rely on. */
@QuarkusTest
class OperationsResourceTest {

    static final List<Class<?>> RESOURCES = List.of(AccessPatternResource.class, CascadeJobResource.class);

    @Test
    void theOpenApiDocumentHasEveryResourceRouteAndTheProblemSchema() {
        JsonPath doc = Management.management().queryParam("format", "json").get("/q/openapi").then().statusCode(200).extract().jsonPath();
        Map<String, Map<String, Object>> paths = doc.getMap("paths");
        List<String> routes = routes();
        assertThat(routes).hasSizeGreaterThan(40);
        for (String route : routes) {
            String method = route.substring(0, route.indexOf(' '));
            String path = route.substring(route.indexOf(' ') + 1);
            assertThat(paths).as(route).containsKey(path);
            assertThat(paths.get(path)).as(route).containsKey(method.toLowerCase());
        }
        assertThat(doc.getList("components.schemas.Problem.properties.code.enum", String.class))
                .contains("NotFound", "ValidationFailed", "VersionConflict", "RefNotFound", "AggregateTransactionOverflow",
                        "CascadeTooLarge", "ServiceUnavailable");
        assertThat(doc.getString("paths.'/matches/{id}'.get.responses.'200'.headers.'X-DynamoDB-Calls'.$ref"))
                .isEqualTo("#/components/headers/X-DynamoDB-Calls");
        assertThat(doc.getString("components.headers.'X-DynamoDB-Calls'.description")).isNotBlank();
        assertThat(doc.getString("paths.'/matches/{id}'.get.responses.'404'.$ref")).isEqualTo("#/components/responses/NotFound");
        assertThat(doc.getString("components.responses.NotFound.content.'application/problem+json'.schema.$ref"))
                .endsWith("/Problem");
        assertThat(doc.getList("paths.'/matches/{id}'.patch.parameters.name", String.class)).contains("If-Match");
        for (String cascading : List.of("/players/{id}", "/teams/{id}", "/coaches/{id}", "/venues/{id}", "/courses/{cid}",
                "/students/{sid}")) {
            assertThat(doc.getString("paths.'" + cascading + "'.patch.responses.'202'.headers.Location.description"))
                    .as(cascading).isNotBlank();
            assertThat(doc.getString("paths.'" + cascading + "'.patch.responses.'200'.description")).as(cascading).isNotBlank();
        }
        assertThat(doc.getMap("paths.'/matches/{id}'.patch.responses")).doesNotContainKey("202");
        assertThat(doc.getString("components.securitySchemes.bearer.scheme")).isEqualTo("bearer");
        assertThat(doc.getString("components.securitySchemes.bearer.bearerFormat")).isEqualTo("JWT");
        assertThat(doc.getList("security")).isNotEmpty();
        assertThat(doc.getString("paths.'/workspaces/{id}'.get.responses.'401'.$ref")).isEqualTo("#/components/responses/Unauthorized");
        assertThat(doc.getString("components.responses.Unauthorized.content.'application/problem+json'.schema.$ref"))
                .endsWith("/Problem");
        Management.management().get("/q/swagger-ui/").then().statusCode(200);
    }

    @Test
    void healthMetricsAndApiDocumentsAreNotOnThePublicPort() {
        for (String path : List.of("/q/health/ready", "/q/health/live", "/q/metrics", "/q/openapi", "/q/swagger-ui/")) {
            given().redirects().follow(false).get(path).then().statusCode(404);
        }
        Management.management().get("/q/health/live").then().statusCode(200);
    }

    @Test
    void metricsCountDynamoDbCallsByOperationAndOutcomeWithoutIds() {
        String id = "metrics-" + java.util.UUID.randomUUID();
        given().get("/workspaces/{id}", id).then().statusCode(404);
        String metrics = Management.management().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(metrics).contains("cairn_dynamodb_calls_seconds_count{operation=\"GetItem\",outcome=\"success\"")
                .contains("cairn_dynamodb_capacity_units")
                .contains("http_server_requests_seconds_count")
                .doesNotContain(id);
    }

    @Test
    void everyAnswerCarriesARequestIdAndASaneOneIsKept() {
        given().get("/access-patterns").then().header("X-Request-Id", matchesPattern("[0-9a-f-]{36}"));
        given().header("X-Request-Id", "abc-123").get("/access-patterns").then().header("X-Request-Id", equalTo("abc-123"));
        given().header("X-Request-Id", "bad id\twith controls").get("/no-such-route").then().statusCode(404)
                .header("X-Request-Id", not(containsString("bad")));
    }

    /**
     * Every route declared by the resource classes and by the model files, as "METHOD /path" with path parameters as
     * in OpenAPI.
     */
    static List<String> routes() {
        var routes = new ArrayList<String>();
        new DeclaredRoutes(ModelFiles.plan(Thread.currentThread().getContextClassLoader())).all()
                .forEach(route -> routes.add(route.method() + " " + route.template()));
        for (Class<?> resource : RESOURCES) {
            String base = resource.getAnnotation(Path.class).value();
            for (Method method : resource.getDeclaredMethods()) {
                String verb = verb(method);
                if (verb == null) {
                    continue;
                }
                Path sub = method.getAnnotation(Path.class);
                String path = join(base, sub == null ? "" : sub.value());
                routes.add(verb + " " + path);
            }
        }
        return routes;
    }

    private static String join(String base, String sub) {
        String path = ("/" + base + "/" + sub).replaceAll("/+", "/");
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    private static String verb(Method method) {
        if (method.isAnnotationPresent(GET.class)) return "GET";
        if (method.isAnnotationPresent(POST.class)) return "POST";
        if (method.isAnnotationPresent(PUT.class)) return "PUT";
        if (method.isAnnotationPresent(PATCH.class)) return "PATCH";
        if (method.isAnnotationPresent(DELETE.class)) return "DELETE";
        return null;
    }
}
