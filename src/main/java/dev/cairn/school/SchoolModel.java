package dev.cairn.school;

import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.aggregate.CopyVersions;
import dev.cairn.core.cascade.CascadePlanner;
import dev.cairn.core.cascade.CascadeSpec;
import dev.cairn.core.cascade.CopyRule;
import dev.cairn.core.entity.EntitySpec;
import dev.cairn.core.expr.SortCondition;
import dev.cairn.core.item.RecordCodec;
import dev.cairn.core.key.IndexKey;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.query.QuerySpec;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;

/**
 * Seed 001, many-to-many: {@code STU#<sid>}/{@code PROFILE}, {@code CRS#<cid>}/{@code METADATA}, and one edge
 * {@code STU#<sid>}/{@code ENROLL#CRS#<cid>} per enrollment whose gsi1 key ({@code CRS#<cid>} /
 * {@code STU#<sid>}) inverts it, so both directions are one Query.
 */
public final class SchoolModel {

    static final KeyTemplate STU = KeyTemplate.of("STU#{studentId}");
    static final KeyTemplate CRS = KeyTemplate.of("CRS#{courseId}");
    static final KeyTemplate ENROLL = KeyTemplate.of("ENROLL#CRS#{courseId}");

    static final EntitySpec<Student> STUDENT = EntitySpec.builder("Student", RecordCodec.<Student>builder()
                    .string("id", Student::id).string("name", Student::name).number("year", Student::year)
                    .string("major", Student::major)
                    .build(f -> new Student(f.string("id"), f.string("name"), f.integer("year"), f.string("major"))))
            .key(s -> studentKey(s.id()))
            .build();

    static final EntitySpec<Course> COURSE = EntitySpec.builder("Course", RecordCodec.<Course>builder()
                    .string("id", Course::id).string("title", Course::title).number("credits", Course::credits)
                    .string("term", Course::term)
                    .build(f -> new Course(f.string("id"), f.string("title"), f.integer("credits"), f.string("term"))))
            .key(c -> courseKey(c.id()))
            .build();

    static final EntitySpec<Enrollment> ENROLLMENT = EntitySpec.builder("Enrollment", RecordCodec.<Enrollment>builder()
                    .string("studentId", Enrollment::studentId).string("courseId", Enrollment::courseId)
                    .date("enrolledOn", Enrollment::enrolledOn)
                    .string("grade", Enrollment::grade)
                    .string("studentName", Enrollment::studentName).string("courseTitle", Enrollment::courseTitle)
                    .build(f -> new Enrollment(f.string("studentId"), f.string("courseId"),
                            f.date("enrolledOn"),
                            f.string("grade"), f.string("studentName"), f.string("courseTitle"))))
            .key(e -> enrollmentKey(e.studentId(), e.courseId()))
            .index(Index.GSI1, e -> IndexKey.of(CRS.render(e.courseId()), STU.render(e.studentId())))
            .build();

    /** Enrollment edges copy the course's title and the student's name (display fields, kept in sync). */
    static final CascadePlanner COURSE_TITLE_COPIES = new CascadePlanner(
            Map.of("courseTitle", CopyRule.field("title", "courseId")), List.of());
    static final CascadePlanner STUDENT_NAME_COPIES = new CascadePlanner(
            Map.of("studentName", CopyRule.field("name", "studentId")), List.of());
    /** A course's edges through gsi1 (its roster); a student's in its own partition. */
    static final CascadeSpec COURSE_CASCADE = new CascadeSpec(COURSE.type(), SchoolModel::courseKey,
            cid -> List.of(rosterOf(cid, 100)), COURSE_TITLE_COPIES, COURSE::fieldsOf);
    static final CascadeSpec STUDENT_CASCADE = new CascadeSpec(STUDENT.type(), SchoolModel::studentKey,
            sid -> List.of(coursesOf(sid, 100)), STUDENT_NAME_COPIES, STUDENT::fieldsOf);

    private SchoolModel() {
    }

    /** The {@code _refv} of an edge: which source version its display fields were copied from. */
    static Map<String, AttributeValue> copyVersions(long studentVersion, long courseVersion) {
        return Map.of(CopyVersions.ATTRIBUTE, CopyVersions.of(Map.of(
                "studentName", Map.entry(STUDENT.type(), studentVersion),
                "courseTitle", Map.entry(COURSE.type(), courseVersion))));
    }

    static PrimaryKey studentKey(String studentId) {
        return PrimaryKey.of(STU.render(studentId), "PROFILE");
    }

    static PrimaryKey courseKey(String courseId) {
        return PrimaryKey.of(CRS.render(courseId), "METADATA");
    }

    static PrimaryKey enrollmentKey(String studentId, String courseId) {
        return PrimaryKey.of(STU.render(studentId), ENROLL.render(courseId));
    }

    /** A student's enrollments: one strongly consistent Query of the student's partition. */
    static QuerySpec coursesOf(String studentId, int limit) {
        return QuerySpec.table(STU.render(studentId)).sort(SortCondition.beginsWith(ENROLL.prefix()))
                .limit(limit).consistent().build();
    }

    /** A course's roster: one Query of the inverted index (eventually consistent, as every GSI read). */
    static QuerySpec rosterOf(String courseId, int limit) {
        return QuerySpec.on(Index.GSI1, CRS.render(courseId)).sort(SortCondition.beginsWith(STU.prefix()))
                .limit(limit).build();
    }
}
