package dev.cairn.school;

import dev.cairn.platform.DemoData;
import dev.cairn.store.EntityStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.LocalDate;

/** Seed 001's example: students a91 and b30, courses math204 and cs101, and their enrollments. */
@ApplicationScoped
public class SchoolDemoData implements DemoData {

    private final EntityStore store;

    public SchoolDemoData(EntityStore store) {
        this.store = store;
    }

    @Override
    public Uni<Void> seed() {
        var a91 = new Student("a91", "Ada Quinn", 2, "Mathematics");
        var b30 = new Student("b30", "Ben Ortiz", 1, "Computer Science");
        var math = new Course("math204", "Linear Algebra", 6, "2026-autumn");
        var cs = new Course("cs101", "Introduction to Programming", 5, "2026-autumn");
        return store.create(SchoolModel.STUDENT, a91)
                .chain(() -> store.create(SchoolModel.STUDENT, b30))
                .chain(() -> store.create(SchoolModel.COURSE, math))
                .chain(() -> store.create(SchoolModel.COURSE, cs))
                .chain(() -> enroll(a91, math, "A"))
                .chain(() -> enroll(a91, cs, null))
                .chain(() -> enroll(b30, math, "B+"))
                .replaceWithVoid();
    }

    private Uni<?> enroll(Student student, Course course, String grade) {
        return store.create(SchoolModel.ENROLLMENT, new Enrollment(student.id(), course.id(),
                LocalDate.of(2026, 9, 1), grade, student.name(), course.title()), SchoolModel.copyVersions(1, 1));
    }
}
