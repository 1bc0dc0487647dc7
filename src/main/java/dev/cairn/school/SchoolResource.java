package dev.cairn.school;

import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import dev.cairn.platform.ApiSchemas;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.entity.Stored;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.query.Page;
import dev.cairn.core.write.TransactionPlan;
import dev.cairn.core.write.WriteAction;
import dev.cairn.core.write.WriteAction.Expectation;
import dev.cairn.platform.Cascades;
import dev.cairn.platform.EntityResources;
import dev.cairn.platform.Http;
import dev.cairn.platform.Responses;
import dev.cairn.store.EntityStore;
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
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.RestResponse;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.cairn.school.SchoolModel.COURSE;
import static dev.cairn.school.SchoolModel.ENROLLMENT;
import static dev.cairn.school.SchoolModel.STUDENT;

/** Seed 001: students and courses linked by enrollment edges, each direction one Query. */
@Tag(name = "School", description = "Students and courses: a many-to-many relation as edge items and an inverted index")
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public class SchoolResource {

    private final EntityStore store;
    private final EntityResources entities;
    private final Cascades cascades;

    public SchoolResource(EntityStore store, EntityResources entities, Cascades cascades) {
        this.store = store;
        this.entities = entities;
        this.cascades = cascades;
    }

    @POST
    @Path("students")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "createStudent", summary = "Create a student")
    public Uni<RestResponse<Student>> createStudent(@Valid @NotNull Student student, @Context UriInfo uri) {
        return store.create(STUDENT, student).map(stored -> Responses.created(uri, student.id(), stored, student));
    }

    @GET
    @Path("students/{sid}")
    @Operation(operationId = "getStudent", summary = "Read a student")
    public Uni<RestResponse<Student>> student(@RestPath String sid) {
        return entities.find(STUDENT, SchoolModel.studentKey(Http.id("sid", sid)), "student " + sid)
                .map(stored -> Responses.ok(stored, stored.value()));
    }

    @POST
    @Path("courses")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "createCourse", summary = "Create a course")
    public Uni<RestResponse<Course>> createCourse(@Valid @NotNull Course course, @Context UriInfo uri) {
        return store.create(COURSE, course).map(stored -> Responses.created(uri, course.id(), stored, course));
    }

    @GET
    @Path("courses/{cid}")
    @Operation(operationId = "getCourse", summary = "Read a course")
    public Uni<RestResponse<Course>> course(@RestPath String cid) {
        return entities.find(COURSE, SchoolModel.courseKey(Http.id("cid", cid)), "course " + cid)
                .map(stored -> Responses.ok(stored, stored.value()));
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
        PrimaryKey studentKey = SchoolModel.studentKey(Http.id("sid", sid));
        PrimaryKey courseKey = SchoolModel.courseKey(Http.id("cid", cid));
        Enrollment.New details = body == null ? new Enrollment.New(null, null) : body;
        return store.batchGet(List.of(studentKey, courseKey), true)
                .chain(found -> {
                    Stored<Student> student = decode(STUDENT, found.get(0), "student " + sid);
                    Stored<Course> course = decode(COURSE, found.get(1), "course " + cid);
                    LocalDate enrolledOn = details.enrolledOn() != null ? details.enrolledOn() : LocalDate.now(ZoneOffset.UTC);
                    var edge = new Enrollment(sid, cid, enrolledOn, details.grade(), student.value().name(),
                            course.value().title());
                    var now = store.now();
                    var plan = TransactionPlan.of(List.of(
                            WriteAction.check("student", studentKey, Expectation.present(null)),
                            WriteAction.check("course", courseKey, Expectation.present(null)),
                            WriteAction.create(ENROLLMENT, edge, now, SchoolModel.copyVersions(student.version(), course.version()))));
                    var stored = new Stored<>(edge, ENROLLMENT.keyOf(edge), 1, now, now);
                    return store.transact(plan).map(done -> Responses.created(uri.getAbsolutePath(), stored, edge));
                });
    }

    @GET
    @Path("students/{sid}/enrollments/{cid}")
    @Operation(operationId = "getEnrollment", summary = "Read one enrollment")
    public Uni<RestResponse<Enrollment>> enrollment(@RestPath String sid, @RestPath String cid) {
        return entities.find(ENROLLMENT, enrollmentKey(sid, cid), notEnrolled(sid, cid))
                .map(stored -> Responses.ok(stored, stored.value()));
    }

    @PATCH
    @Path("students/{sid}/enrollments/{cid}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Enrollment.class)))
    @Operation(operationId = "patchEnrollment", summary = "Change an enrollment (grade, date)")
    public Uni<RestResponse<Enrollment>> patchEnrollment(@RestPath String sid, @RestPath String cid,
                                                         @RestHeader("If-Match") String ifMatch, String patch) {
        return entities.mergePatch(ENROLLMENT, enrollmentKey(sid, cid), Enrollment.class, patch, Http.ifMatch(ifMatch),
                        Set.of("studentId", "courseId", "studentName", "courseTitle"), notEnrolled(sid, cid))
                .map(stored -> Responses.ok(stored, stored.value()));
    }

    @DELETE
    @Path("students/{sid}/enrollments/{cid}")
    @Operation(operationId = "unenrollStudent", summary = "Remove an enrollment")
    public Uni<RestResponse<Void>> unenroll(@RestPath String sid, @RestPath String cid,
                                            @RestHeader("If-Match") String ifMatch) {
        return store.delete(ENROLLMENT, enrollmentKey(sid, cid), true, Http.ifMatch(ifMatch))
                .onFailure(SchoolResource::isNotFound).transform(e -> new CairnException(
                        new CairnError.NotFound(notEnrolled(sid, cid) + " does not exist")))
                .map(deleted -> Responses.noContent());
    }

    /** The student's courses: 1 Query of the student's partition (strongly consistent). */
    @GET
    @Path("students/{sid}/courses")
    @Operation(operationId = "listStudentCourses", summary = "A student's courses (the edges in the student's partition)")
    public Uni<Page<Enrollment>> coursesOf(@RestPath String sid, @RestQuery String limit, @RestQuery String cursor) {
        return store.page(ENROLLMENT, SchoolModel.coursesOf(Http.id("sid", sid), Http.limit(limit)), cursor)
                .map(page -> page.map(Stored::value));
    }

    /** The course's roster: 1 Query of gsi1 (eventually consistent). */
    @GET
    @Path("courses/{cid}/students")
    @Operation(operationId = "listCourseStudents", summary = "A course's roster (the same edges through the inverted index)")
    public Uni<Page<Enrollment>> rosterOf(@RestPath String cid, @RestQuery String limit, @RestQuery String cursor) {
        return store.page(ENROLLMENT, SchoolModel.rosterOf(Http.id("cid", cid), Http.limit(limit)), cursor)
                .map(page -> page.map(Stored::value));
    }

    private static PrimaryKey enrollmentKey(String sid, String cid) {
        return SchoolModel.enrollmentKey(Http.id("sid", sid), Http.id("cid", cid));
    }

    private static String notEnrolled(String sid, String cid) {
        return "enrollment of student " + sid + " in course " + cid;
    }

    private static boolean isNotFound(Throwable e) {
        return CairnException.is(e, CairnError.NotFound.class);
    }

    private static <T> Stored<T> decode(dev.cairn.core.entity.EntitySpec<T> spec,
                                        Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> item,
                                        String what) {
        if (item == null) {
            throw EntityResources.notFound(what);
        }
        return spec.fromItem(item);
    }

    /** Renames reach every enrollment edge: the course's through gsi1, the student's in its partition. */
    @PATCH
    @Path("courses/{cid}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    @APIResponse(responseCode = "200", description = "OK", content = @Content(schema = @Schema(implementation = ApiSchemas.CascadeReport.class)))
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Course.class)))
    @Operation(operationId = "patchCourse", summary = "Change a course; its copies on enrollments follow (cascade)")
    public Uni<RestResponse<Map<String, Object>>> patchCourse(@RestPath String cid, @RestQuery String cascade,
                                                @RestHeader("If-Match") String ifMatch, String patch) {
        var target = new Cascades.Target<>(COURSE, Course.class, Http.id("cid", cid), SchoolModel.COURSE_CASCADE);
        return cascades.patch(target, patch, Http.ifMatch(ifMatch), Cascades.mode(cascade), "course " + cid);
    }

    @PATCH
    @Path("students/{sid}")
    @Consumes({Http.MERGE_PATCH_JSON, MediaType.APPLICATION_JSON})
    @APIResponse(responseCode = "200", description = "OK", content = @Content(schema = @Schema(implementation = ApiSchemas.CascadeReport.class)))
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = Student.class)))
    @Operation(operationId = "patchStudent", summary = "Change a student; their copies on enrollments follow (cascade)")
    public Uni<RestResponse<Map<String, Object>>> patchStudent(@RestPath String sid, @RestQuery String cascade,
                                                 @RestHeader("If-Match") String ifMatch, String patch) {
        var target = new Cascades.Target<>(STUDENT, Student.class, Http.id("sid", sid), SchoolModel.STUDENT_CASCADE);
        return cascades.patch(target, patch, Http.ifMatch(ifMatch), Cascades.mode(cascade), "student " + sid);
    }
}
