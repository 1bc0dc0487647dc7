package dev.cairn.school;

import dev.cairn.core.cascade.CascadeSpec;
import dev.cairn.core.key.KeyTemplate;
import dev.cairn.core.query.AccessPattern;
import dev.cairn.platform.AccessPatterns;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Map;

@ApplicationScoped
public class SchoolAccessPatterns implements AccessPatterns {

    @Override
    public List<AccessPattern> accessPatterns(String table) {
        return List.of(
                AccessPattern.getItem("Student profile", "GET /students/{sid}", table, SchoolModel.studentKey("a91")),
                AccessPattern.getItem("Course metadata", "GET /courses/{cid}", table, SchoolModel.courseKey("math204")),
                AccessPattern.getItem("One enrollment", "GET /students/{sid}/enrollments/{cid}", table,
                        SchoolModel.enrollmentKey("a91", "math204")),
                AccessPattern.query("A student's courses", "GET /students/{sid}/courses", table, SchoolModel.coursesOf("a91", 20)),
                AccessPattern.query("A course's roster (inverted index)", "GET /courses/{cid}/students", table,
                        SchoolModel.rosterOf("math204", 20)));
    }

    @Override
    public Map<String, KeyTemplate> partitions() {
        return Map.of("student", SchoolModel.STU, "course", SchoolModel.CRS);
    }

    @Override
    public List<CascadeSpec> cascades() {
        return List.of(SchoolModel.COURSE_CASCADE, SchoolModel.STUDENT_CASCADE);
    }
}
