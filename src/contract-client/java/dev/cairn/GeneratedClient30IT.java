package dev.cairn;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.client30.ApiClient;
import dev.cairn.client30.ApiException;
import dev.cairn.client30.ApiResponse;
import dev.cairn.client30.api.CricketApi;
import dev.cairn.client30.api.WorkspacesApi;
import dev.cairn.client30.model.Problem;
import dev.cairn.client30.model.ProjectInput;
import dev.cairn.client30.model.Project;
import dev.cairn.client30.model.Team;
import dev.cairn.client30.model.TeamMergePatch;
import dev.cairn.client30.model.WorkspaceInput;
import dev.cairn.client30.model.WorkspaceMergePatch;
import dev.cairn.platform.TestTokens;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.UUID;
import java.util.concurrent.Callable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The packaged app driven by a Java client that openapi-generator 7.10 made, unedited, from the committed OpenAPI
 * 3.0 rendition (src/test/openapi/openapi-3.0.json): the part of {@link GeneratedClientIT} that shows whether an older
 * generator's client works — creates (7.10 made the 3.1 document's closed objects maps that sent {@code {}}), pages
 * followed by cursor, a merge patch under {@code If-Match} and its 412, and errors read as the document's
 * {@code Problem}.
 */
@QuarkusIntegrationTest
class GeneratedClient30IT {

    /** Strict: a field the document does not describe fails the call that received it (7.10 hides its factory). */
    private static final ObjectMapper JSON = new ApiClient().getObjectMapper().copy()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);

    private final ApiClient client = new ApiClient()
            .setObjectMapper(JSON)
            .setPort(Integer.getInteger("quarkus.http.test-port", 8081))
            .setRequestInterceptor(request -> request.header("Authorization", TestTokens.admin()));
    private final CricketApi cricket = new CricketApi(client);
    private final WorkspacesApi workspaces = new WorkspacesApi(client);

    @Test
    void workspaceAndProjectsPageByPageWithAMergePatchUnderIfMatch() throws Exception {
        String ws = unique("ws30");
        ApiResponse<?> created = workspaces.createWorkspaceWithHttpInfo(new WorkspaceInput().id(ws).displayName("Acme")
                .region("eu-west-1").seatLimit(5));
        assertThat(created.getStatusCode()).isEqualTo(201);
        assertThat(header(created, "Location")).endsWith("/workspaces/" + ws);
        for (int i = 0; i < 5; i++) {
            workspaces.createProject(ws, new ProjectInput().title("P" + i).status(ProjectInput.StatusEnum.ACTIVE).createdBy("ann"));
        }
        var titles = new ArrayList<String>();
        String cursor = null;
        int pages = 0;
        do {
            var page = workspaces.listWorkspaceProjects(ws, cursor, 2);
            page.getItems().stream().map(Project::getTitle).forEach(titles::add);
            cursor = page.getNext();
            pages++;
        } while (cursor != null);
        assertThat(titles).containsExactly("P4", "P3", "P2", "P1", "P0");
        assertThat(pages).isEqualTo(3);

        var patched = workspaces.patchWorkspaceWithHttpInfo(ws, new WorkspaceMergePatch().displayName("Acme Ltd"), "\"1\"");
        assertThat(patched.getData().getDisplayName()).isEqualTo("Acme Ltd");
        assertThat(patched.getData().getSeatLimit()).isEqualTo(5);
        assertThat(header(patched, "ETag")).isEqualTo("\"2\"");
        Problem stale = problem(() -> workspaces.patchWorkspace(ws, new WorkspaceMergePatch().displayName("Late"), "\"1\""), 412);
        assertThat(stale.getCode()).isEqualTo(Problem.CodeEnum.VERSION_CONFLICT);
    }

    @Test
    void aTeamIsCreatedReadWithItsETagAndPatched() throws Exception {
        String id = unique("t30");
        var created = cricket.createTeamWithHttpInfo(new Team().id(id).name("Home").country("AU").ranking(1));
        assertThat(created.getStatusCode()).isEqualTo(201);
        assertThat(created.getData().getName()).isEqualTo("Home");
        var read = cricket.getTeamWithHttpInfo(id);
        assertThat(header(read, "ETag")).isEqualTo("\"1\"");
        assertThat(read.getData().getCountry()).isEqualTo("AU");
        var patched = cricket.patchTeamWithHttpInfo(id, new TeamMergePatch().ranking(2), null, "\"1\"");
        assertThat(patched.getStatusCode()).isIn(200, 202);
        assertThat(cricket.getTeam(id).getRanking()).isEqualTo(2);
    }

    @Test
    void errorsAreProblemsWithTheirCodes() throws Exception {
        String run = unique("gce30");
        assertThat(problem(() -> cricket.getTeam(run + "-none"), 404).getCode()).isEqualTo(Problem.CodeEnum.NOT_FOUND);
        cricket.createTeam(new Team().id(run + "-t").name("T").country("NZ").ranking(3));
        assertThat(problem(() -> cricket.createTeam(new Team().id(run + "-t").name("T").country("NZ").ranking(3)), 409)
                .getCode()).isEqualTo(Problem.CodeEnum.CONFLICT);
        Problem invalid = problem(() -> cricket.createTeam(new Team().id(run + "-bad").name("").country("NZ").ranking(3)), 400);
        assertThat(invalid.getCode()).isEqualTo(Problem.CodeEnum.VALIDATION_FAILED);
        assertThat(invalid.getErrors()).anySatisfy(e -> assertThat(e.getField()).isEqualTo("name"));
    }

    private static Problem problem(Callable<?> call, int status) throws Exception {
        ApiException failure = catchThrowableOfType(ApiException.class, call::call);
        assertThat(failure).as("a problem answer").isNotNull();
        assertThat(failure.getCode()).isEqualTo(status);
        assertThat(failure.getResponseHeaders().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        Problem problem = JSON.readValue(failure.getResponseBody(), Problem.class);
        assertThat(problem.getStatus()).isEqualTo(status);
        return problem;
    }

    private static String header(ApiResponse<?> response, String name) {
        return response.getHeaders().entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                .map(e -> e.getValue().get(0)).findFirst().orElse(null);
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
