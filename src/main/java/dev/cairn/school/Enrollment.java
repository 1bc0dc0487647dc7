package dev.cairn.school;

import jakarta.validation.constraints.Size;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.LocalDate;

/**
 * The edge between a student and a course. Edge data ({@code enrolledOn}, {@code grade}) lives on the edge, and
 * so do both sides' display fields, so neither direction's list needs a second read.
 */
public record Enrollment(
        String studentId,
        String courseId,
        LocalDate enrolledOn,
        @Size(max = 16) String grade,
        String studentName,
        String courseTitle) {

    /** The optional body of {@code PUT /students/{sid}/enrollments/{cid}}. */
    @Schema(name = "EnrollmentInput", description = "The optional body of PUT /students/{sid}/enrollments/{cid}")
    public record New(LocalDate enrolledOn, @Size(max = 16) String grade) {
    }
}
