package dev.cairn.school;

import dev.cairn.core.query.Page;
import dev.cairn.platform.OpenApiDocs;
import dev.cairn.platform.ApiSchemas;
import dev.cairn.platform.Http;
import dev.cairn.platform.Responses;
import dev.cairn.service.CascadeService.Mode;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.extensions.Extension;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.RestResponse;

import java.util.Map;

/** Seed 001 over HTTP: students and courses linked by enrollment edges ({@link SchoolService}). */
@Tag(name = "School", description = "Students and courses: a many-to-many relation as edge items and an inverted index")
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public class SchoolResource {

    private final SchoolService school;

    public SchoolResource(SchoolService school) {
        this.school = school;
    }

    @POST
    @Path("students")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "createStudent", summary = "Create a student")
    public Uni<RestResponse<Student>> createStudent(@Valid @NotNull Student student, @Context UriInfo uri) {
        return school.create(student).map(stored -> Responses.created(uri, student.id(), stored, student));
    }

    @GET
    @Path("students/{sid}")
    @Operation(operationId = "getStudent", summary = "Read a student")
    public Uni<RestResponse<Student>> student(@RestPath String sid) {
        return school.student(Http.id("sid", sid)).map(stored -> Responses.ok(stored, stored.value()));
    }

    @POST
    @Path("courses")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "createCourse", summary = "Create a course")
    public Uni<RestResponse<Course>> createCourse(@Valid @NotNull Course course, @Context UriInfo uri) {
        return school.create(course).map(stored -> Responses.created(uri, course.id(), stored, course));
    }

    @GET
    @Path("courses/{cid}")
    @Operation(operationId = "getCourse", summary = "Read a course")
    public Uni<RestResponse<Course>> course(@RestPath String cid) {
        return school.course(Http.id("cid", cid)).map(stored -> Responses.ok(stored, stored.value()));
    }

    /**
     * Enrolls a student: ONE BatchGetItem reads both sides (their display fields go on the edge), then ONE
     * transaction re-checks that both still exist and puts the edge only if it is absent.
     */
    @PUT
    @Path("students/{sid}/enrollments/{cid}")
    @Consumes(MediaType.APPLICATION_JSON)
    @APIResponse(responseCode = "201", description = "Enrolled", content = @Content(schema = @Schema(implementation = Enrollment.class)))
    @RequestBody(required = false, content = @Content(schema = @Schema(implementation = Enrollment.New.class)))
    @Operation(operationId = "enrollStudent", summary = "Enroll a student in a course: the edge item, created only if absent")
    public Uni<RestResponse<Enrollment>> enroll(@RestPath String sid, @RestPath String cid,
                                                @Valid Enrollment.New body, @Context UriInfo uri) {
        Enrollment.New details = body == null ? new Enrollment.New(null, null) : body;
        return school.enroll(Http.id("sid", sid), Http.id("cid", cid), details)
                .map(stored -> Responses.created(uri.getAbsolutePath(), stored, stored.value()));
    }

    @GET
    @Path("students/{sid}/enrollments/{cid}")
    @Operation(operationId = "getEnrollment", summary = "Read one enrollment")
    public Uni<RestResponse<Enrollment>> enrollment(@RestPath String sid, @RestPath String cid) {
        return school.enrollment(Http.id("sid", sid), Http.id("cid", cid)).map(stored -> Responses.ok(stored, stored.value()));
    }

    @PATCH
    @Path("students/{sid}/enrollments/{cid}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Enrollment.class)))
    @Extension(name = OpenApiDocs.IMMUTABLE, value = "studentId,courseId,studentName,courseTitle")
    @Operation(operationId = "patchEnrollment", summary = "Change an enrollment (grade, date)")
    public Uni<RestResponse<Enrollment>> patchEnrollment(@RestPath String sid, @RestPath String cid,
                                                         @RestHeader("If-Match") String ifMatch, String patch) {
        return school.patchEnrollment(Http.id("sid", sid), Http.id("cid", cid), patch, Http.ifMatch(ifMatch)).map(stored -> Responses.ok(stored, stored.value()));
    }

    @DELETE
    @Path("students/{sid}/enrollments/{cid}")
    // 204 has no body: whatever the client accepts, it can take that (errors are problem+json anyway)
    @Produces(MediaType.WILDCARD)
    @Operation(operationId = "unenrollStudent", summary = "Remove an enrollment")
    public Uni<RestResponse<Void>> unenroll(@RestPath String sid, @RestPath String cid,
                                            @RestHeader("If-Match") String ifMatch) {
        return school.unenroll(Http.id("sid", sid), Http.id("cid", cid), Http.ifMatch(ifMatch))
                .map(deleted -> Responses.noContent());
    }

    @GET
    @Path("students/{sid}/courses")
    @Operation(operationId = "listStudentCourses", summary = "A student's courses (the edges in the student's partition)")
    public Uni<Page<Enrollment>> coursesOf(@RestPath String sid, @RestQuery String limit, @RestQuery String cursor) {
        return school.coursesOf(Http.id("sid", sid), Http.limit(limit), cursor);
    }

    @GET
    @Path("courses/{cid}/students")
    @Operation(operationId = "listCourseStudents", summary = "A course's roster (the same edges through the inverted index)")
    public Uni<Page<Enrollment>> rosterOf(@RestPath String cid, @RestQuery String limit, @RestQuery String cursor) {
        return school.rosterOf(Http.id("cid", cid), Http.limit(limit), cursor);
    }

    @PATCH
    @Path("courses/{cid}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    @APIResponse(responseCode = "200", description = "OK", content = @Content(schema = @Schema(implementation = ApiSchemas.CascadeReport.class)))
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Course.class)))
    @Extension(name = OpenApiDocs.IMMUTABLE, value = "id")
    @Operation(operationId = "patchCourse", summary = "Change a course; its copies on enrollments follow (cascade)")
    public Uni<RestResponse<Map<String, Object>>> patchCourse(@RestPath String cid, @RestQuery String cascade,
                                                @RestHeader("If-Match") String ifMatch, String patch) {
        return school.patchCourse(Http.id("cid", cid), patch, Http.ifMatch(ifMatch), Mode.of(cascade))
                .map(patched -> Responses.cascaded(patched.stored(), patched.body(), patched.runningJob()));
    }

    @PATCH
    @Path("students/{sid}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    @APIResponse(responseCode = "200", description = "OK", content = @Content(schema = @Schema(implementation = ApiSchemas.CascadeReport.class)))
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Student.class)))
    @Extension(name = OpenApiDocs.IMMUTABLE, value = "id")
    @Operation(operationId = "patchStudent", summary = "Change a student; their copies on enrollments follow (cascade)")
    public Uni<RestResponse<Map<String, Object>>> patchStudent(@RestPath String sid, @RestQuery String cascade,
                                                 @RestHeader("If-Match") String ifMatch, String patch) {
        return school.patchStudent(Http.id("sid", sid), patch, Http.ifMatch(ifMatch), Mode.of(cascade))
                .map(patched -> Responses.cascaded(patched.stored(), patched.body(), patched.runningJob()));
    }
}
