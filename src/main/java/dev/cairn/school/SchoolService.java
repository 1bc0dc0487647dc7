package dev.cairn.school;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.entity.DeleteMark;
import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.entity.Stored;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.query.Page;
import dev.cairn.core.write.TransactionPlan;
import dev.cairn.core.write.WriteAction;
import dev.cairn.service.CascadeService.Mode;
import dev.cairn.service.CascadeService.Patched;
import dev.cairn.service.CascadeService;
import dev.cairn.service.EntityService;
import dev.cairn.store.EntityStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.cairn.school.SchoolModel.COURSE;
import static dev.cairn.school.SchoolModel.ENROLLMENT;
import static dev.cairn.school.SchoolModel.STUDENT;

/** Seed 001's use cases: students and courses linked by enrollment edges, each direction one Query. */
@ApplicationScoped
public class SchoolService {

    @Inject EntityStore store;
    @Inject EntityService entities;
    @Inject CascadeService cascades;

    Uni<Stored<Student>> create(Student student) {
        return store.create(STUDENT, student);
    }

    Uni<Stored<Course>> create(Course course) {
        return store.create(COURSE, course);
    }

    Uni<Stored<Student>> student(String sid) {
        return entities.find(STUDENT, SchoolModel.studentKey(sid), "student " + sid);
    }

    Uni<Stored<Course>> course(String cid) {
        return entities.find(COURSE, SchoolModel.courseKey(cid), "course " + cid);
    }

    /**
     * ONE BatchGetItem reads both sides (their display fields go on the edge), then ONE transaction re-checks that
     * both still exist at the versions read (so the copied names are current) and puts the edge only if it is
     * absent; a side that changed meanwhile makes it run again.
     */
    Uni<Stored<Enrollment>> enroll(String sid, String cid, Enrollment.New details) {
        PrimaryKey studentKey = SchoolModel.studentKey(sid);
        PrimaryKey courseKey = SchoolModel.courseKey(cid);
        return entities.againOnCollision(store.batchGet(List.of(studentKey, courseKey), true).chain(found -> {
            Instant read = store.now();
            Stored<Student> student = decode(STUDENT, found.get(0), "student " + sid, read);
            Stored<Course> course = decode(COURSE, found.get(1), "course " + cid, read);
            LocalDate enrolledOn = details.enrolledOn() != null ? details.enrolledOn() : LocalDate.now(ZoneOffset.UTC);
            var edge = new Enrollment(sid, cid, enrolledOn, details.grade(), student.value().name(), course.value().title());
            var now = store.now();
            var plan = TransactionPlan.of(List.of(
                    WriteAction.copiedSource(STUDENT.type(), sid, studentKey, student.version(), read),
                    WriteAction.copiedSource(COURSE.type(), cid, courseKey, course.version(), read),
                    WriteAction.create(ENROLLMENT, edge, now, SchoolModel.copyVersions(student.version(), course.version()))));
            return store.transact(plan).replaceWith(new Stored<>(edge, ENROLLMENT.keyOf(edge), 1, now, now));
        }));
    }

    Uni<Stored<Enrollment>> enrollment(String sid, String cid) {
        return entities.find(ENROLLMENT, SchoolModel.enrollmentKey(sid, cid), notEnrolled(sid, cid));
    }

    /** Grade and date only: the ids and the copied names belong to the edge's ends. */
    Uni<Stored<Enrollment>> patchEnrollment(String sid, String cid, String patch, Long ifMatch) {
        return entities.mergePatch(ENROLLMENT, SchoolModel.enrollmentKey(sid, cid), Enrollment.class, patch, ifMatch,
                Set.of("studentId", "courseId", "studentName", "courseTitle"), notEnrolled(sid, cid));
    }

    Uni<Void> unenroll(String sid, String cid, Long ifMatch) {
        return store.delete(ENROLLMENT, SchoolModel.enrollmentKey(sid, cid), true, ifMatch, notEnrolled(sid, cid))
                .onFailure(e -> CairnException.is(e, CairnError.NotFound.class))
                .transform(e -> EntityService.notFound(notEnrolled(sid, cid)))
                .replaceWithVoid();
    }

    /** The student's courses: 1 Query of the student's partition (strongly consistent). */
    Uni<Page<Enrollment>> coursesOf(String sid, int limit, String cursor) {
        return store.page(ENROLLMENT, SchoolModel.coursesOf(sid, limit), cursor).map(page -> page.map(Stored::value));
    }

    /** The course's roster: 1 Query of gsi1 (eventually consistent). */
    Uni<Page<Enrollment>> rosterOf(String cid, int limit, String cursor) {
        return store.page(ENROLLMENT, SchoolModel.rosterOf(cid, limit), cursor).map(page -> page.map(Stored::value));
    }

    /** Renames reach every enrollment edge: the course's through gsi1, the student's in its partition. */
    Uni<Patched<Course>> patchCourse(String cid, String patch, Long ifMatch, Mode mode) {
        var target = new CascadeService.Target<>(COURSE, Course.class, cid, SchoolModel.COURSE_CASCADE);
        return cascades.patch(target, patch, ifMatch, mode, "course " + cid);
    }

    Uni<Patched<Student>> patchStudent(String sid, String patch, Long ifMatch, Mode mode) {
        var target = new CascadeService.Target<>(STUDENT, Student.class, sid, SchoolModel.STUDENT_CASCADE);
        return cascades.patch(target, patch, ifMatch, mode, "student " + sid);
    }

    private static String notEnrolled(String sid, String cid) {
        return "enrollment of student " + sid + " in course " + cid;
    }

    /** A side that is absent, or held by its delete, is not found. */
    private static <T> Stored<T> decode(EntitySpec<T> spec, Map<String, AttributeValue> item, String what, Instant now) {
        if (item == null || DeleteMark.live(item, now)) {
            throw EntityService.notFound(what);
        }
        return spec.fromItem(item);
    }
}
