package dev.cairn;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.client.ApiClient;
import dev.cairn.client.ApiException;
import dev.cairn.client.ApiResponse;
import dev.cairn.client.api.CascadesApi;
import dev.cairn.client.api.CricketApi;
import dev.cairn.client.api.SchoolApi;
import dev.cairn.client.api.WorkspacesApi;
import dev.cairn.client.model.CascadeReport;
import dev.cairn.client.model.Coach;
import dev.cairn.client.model.Course;
import dev.cairn.client.model.EnrollmentInput;
import dev.cairn.client.model.JsonPatchInner;
import dev.cairn.client.model.Match;
import dev.cairn.client.model.MatchInput;
import dev.cairn.client.model.Player;
import dev.cairn.client.model.PlayerMergePatch;
import dev.cairn.client.model.PlayerSheetInput;
import dev.cairn.client.model.Problem;
import dev.cairn.client.model.ProjectInput;
import dev.cairn.client.model.Project;
import dev.cairn.client.model.Role;
import dev.cairn.client.model.Student;
import dev.cairn.client.model.Team;
import dev.cairn.client.model.TeamSheetInput;
import dev.cairn.client.model.Venue;
import dev.cairn.client.model.WorkspaceInput;
import dev.cairn.client.model.WorkspaceMergePatch;
import dev.cairn.platform.TestTokens;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The packaged app (prod profile) driven by a Java client that openapi-generator made from the committed contract,
 * unedited: if the document said anything the service does not do, these calls would fail to compile, to send, or to
 * read the answer (a field the document does not describe fails too). Errors are read as the document's
 * {@code Problem}.
 */
@QuarkusIntegrationTest
class GeneratedClientIT {

    /** Strict: a field the document does not describe fails the call that received it. */
    private static final ObjectMapper JSON = ApiClient.createDefaultObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);

    private final ApiClient client = new ApiClient()
            .setObjectMapper(JSON)
            .setPort(Integer.getInteger("quarkus.http.test-port", 8081))
            .setRequestInterceptor(request -> request.header("Authorization", TestTokens.admin()));
    private final CricketApi cricket = new CricketApi(client);
    private final WorkspacesApi workspaces = new WorkspacesApi(client);
    private final SchoolApi school = new SchoolApi(client);
    private final CascadesApi cascades = new CascadesApi(client);

    @Test
    void workspaceAndProjectsPageByPageWithAMergePatchUnderIfMatch() throws Exception {
        String ws = unique("ws");
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
        assertThat(header(patched, "ETag")).isEqualTo("\"2\"");
        Problem stale = problem(() -> workspaces.patchWorkspace(ws, new WorkspaceMergePatch().displayName("Late"), "\"1\""), 412);
        assertThat(stale.getCode()).isEqualTo(Problem.CodeEnum.VERSION_CONFLICT);
    }

    @Test
    void enrollmentIsSeenFromTheCourse() throws Exception {
        String s = unique("stu");
        String c = unique("crs");
        school.createStudent(new Student().id(s).name("Ada").year(1).major("CS"));
        school.createCourse(new Course().id(c).title("Algebra").credits(5).term("t"));
        var enrolled = school.enrollStudentWithHttpInfo(c, s, new EnrollmentInput().grade("A"));
        assertThat(enrolled.getStatusCode()).isEqualTo(201);
        assertThat(enrolled.getData().getGrade()).isEqualTo("A");
        assertThat(school.listCourseStudents(c, null, null).getItems()).singleElement()
                .satisfies(e -> assertThat(e.getStudentName()).isEqualTo("Ada"));
        assertThat(problem(() -> school.enrollStudent(c, s, null), 409).getStatus()).isEqualTo(409);
    }

    @Test
    void aMatchIsCreatedPatchedReadWithItsETagAndFollowsAPlayersCascade() throws Exception {
        String run = unique("gc");
        var players = new ArrayList<String>();
        for (int i = 0; i < 4; i++) {
            String id = run + "-p" + i;
            cricket.createPlayer(new Player().id(id).firstName("First" + i).lastName("Last" + i).role(Role.BATTER));
            players.add(id);
        }
        cricket.createTeam(new Team().id(run + "-t1").name("Home").country("AU").ranking(1));
        cricket.createTeam(new Team().id(run + "-t2").name("Away").country("IN").ranking(2));
        cricket.createCoach(new Coach().id(run + "-c").name("Coach"));
        cricket.createVenue(new Venue().id(run + "-v").name("MCG").city("Melbourne"));
        String matchId = run + "-m";
        var input = new MatchInput().id(matchId).name("Home vs Away").venueId(run + "-v")
                .team1(sheet(run + "-t1", run + "-c", true, players.subList(0, 2)))
                .team2(sheet(run + "-t2", run + "-c", false, players.subList(2, 4)));
        var created = cricket.createMatchWithHttpInfo(input);
        assertThat(created.getStatusCode()).isEqualTo(201);
        assertThat(created.getData().getTeam1().getPlayers()).hasSize(2);

        var read = cricket.getMatchWithHttpInfo(matchId);
        assertThat(header(read, "ETag")).isEqualTo("\"1\"");
        assertThat(read.getData().getVenue().getCity()).isEqualTo("Melbourne");

        var rename = List.of(new JsonPatchInner().op(JsonPatchInner.OpEnum.REPLACE).path("/name").value("Boxing Day Test"));
        var patched = cricket.patchMatchWithHttpInfo(matchId, rename, "\"1\"");
        assertThat(patched.getData().getName()).isEqualTo("Boxing Day Test");
        assertThat(header(patched, "ETag")).isEqualTo("\"2\"");
        assertThat(problem(() -> cricket.patchMatch(matchId, rename, "\"1\""), 412).getCode())
                .isEqualTo(Problem.CodeEnum.VERSION_CONFLICT);

        CascadeReport report = cricket.patchPlayer(players.get(0), new PlayerMergePatch().lastName("Renamed"), "eventual", null);
        assertThat(report.getMatched()).isGreaterThanOrEqualTo(1);
        if (report.getJob() != null) {
            waitUntilDone(report.getJob());
        }
        Match after = cricket.getMatch(matchId);
        assertThat(after.getTeam1().getPlayers().get(0).getPlayer().getLastName()).isEqualTo("Renamed");
    }

    @Test
    void errorsAreProblemsWithTheirCodes() throws Exception {
        String run = unique("gce");
        assertThat(problem(() -> cricket.getTeam(run + "-none"), 404).getCode()).isEqualTo(Problem.CodeEnum.NOT_FOUND);
        cricket.createTeam(new Team().id(run + "-t").name("T").country("NZ").ranking(3));
        assertThat(problem(() -> cricket.createTeam(new Team().id(run + "-t").name("T").country("NZ").ranking(3)), 409)
                .getCode()).isEqualTo(Problem.CodeEnum.CONFLICT);
        cricket.createTeam(new Team().id(run + "-t2").name("U").country("AU").ranking(4));
        cricket.createCoach(new Coach().id(run + "-c").name("C"));
        cricket.createPlayer(new Player().id(run + "-p1").firstName("A").lastName("B").role(Role.BOWLER));
        cricket.createPlayer(new Player().id(run + "-p2").firstName("C").lastName("D").role(Role.BATTER));
        var ghostVenue = new MatchInput().id(run + "-m").name("Ghost").venueId(run + "-no-venue")
                .team1(sheet(run + "-t", run + "-c", true, List.of(run + "-p1")))
                .team2(sheet(run + "-t2", run + "-c", false, List.of(run + "-p2")));
        Problem refNotFound = problem(() -> cricket.createMatch(ghostVenue), 422);
        assertThat(refNotFound.getCode()).isEqualTo(Problem.CodeEnum.REF_NOT_FOUND);
        Problem invalid = problem(() -> cricket.createTeam(new Team().id(run + "-bad").name("").country("NZ").ranking(3)), 400);
        assertThat(invalid.getCode()).isEqualTo(Problem.CodeEnum.VALIDATION_FAILED);
        assertThat(invalid.getErrors()).anySatisfy(e -> assertThat(e.getField()).isEqualTo("name"));
    }

    private static TeamSheetInput sheet(String team, String coach, boolean home, List<String> players) {
        var sheet = new TeamSheetInput().teamId(team).coachId(coach).homeTeam(home).players(new ArrayList<>());
        for (int i = 0; i < players.size(); i++) {
            sheet.addPlayersItem(new PlayerSheetInput().playerId(players.get(i)).battingPosition(i + 1).isCaptain(i == 0));
        }
        return sheet;
    }

    private void waitUntilDone(String job) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!"done".equals(cascades.getCascadeJob(job).getState().getValue())) {
            assertThat(System.nanoTime()).as("cascade job " + job + " done within 30 s").isLessThan(deadline);
            Thread.sleep(100);
        }
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
