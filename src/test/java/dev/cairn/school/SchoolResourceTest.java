package dev.cairn.school;

import dev.cairn.platform.Pages;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.store.EntityStore;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

@QuarkusTest
class SchoolResourceTest {

    @Inject
    EntityStore store;

    static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID();
    }

    static void student(String id, String name) {
        given().contentType(ContentType.JSON)
                .body("{\"id\":\"" + id + "\",\"name\":\"" + name + "\",\"year\":2,\"major\":\"Maths\"}")
                .post("/students").then().statusCode(201);
    }

    static void course(String id, String title) {
        given().contentType(ContentType.JSON)
                .body("{\"id\":\"" + id + "\",\"title\":\"" + title + "\",\"credits\":6,\"term\":\"2026-autumn\"}")
                .post("/courses").then().statusCode(201);
    }

    @Test
    void studentsAndCoursesAreCreatedOnceAndReadInOneCall() {
        String sid = unique("stu");
        String cid = unique("crs");
        given().contentType(ContentType.JSON).body("{\"id\":\"" + sid + "\",\"name\":\"Ada\",\"year\":1,\"major\":\"CS\"}")
                .post("/students").then().statusCode(201).header("X-DynamoDB-Calls", "1").body("name", equalTo("Ada"));
        given().contentType(ContentType.JSON).body("{\"id\":\"" + sid + "\",\"name\":\"Eve\",\"year\":1,\"major\":\"CS\"}")
                .post("/students").then().statusCode(409).body("code", equalTo("Conflict"));
        given().get("/students/{id}", sid).then().statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("name", equalTo("Ada")).body("year", equalTo(1));
        course(cid, "Linear Algebra");
        given().contentType(ContentType.JSON).body("{\"id\":\"" + cid + "\",\"title\":\"X\",\"credits\":1,\"term\":\"t\"}")
                .post("/courses").then().statusCode(409);
        given().get("/courses/{id}", cid).then().statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("title", equalTo("Linear Algebra")).body("credits", equalTo(6));
        given().get("/students/{id}", unique("nobody")).then().statusCode(404).body("code", equalTo("NotFound"));
        given().get("/courses/{id}", unique("nothing")).then().statusCode(404);
        given().contentType(ContentType.JSON).body("{\"id\":\"c\",\"title\":\"\",\"credits\":-1}")
                .post("/courses").then().statusCode(400)
                .body("errors.field", hasItem("title")).body("errors.field", hasItem("credits"))
                .body("errors.field", hasItem("term"));
    }

    @Test
    void enrollingCostsTwoCallsCarriesDisplayFieldsAndTwiceIsAConflict() {
        String sid = unique("stu");
        String cid = unique("crs");
        student(sid, "Grace");
        course(cid, "Compilers");
        given().contentType(ContentType.JSON).body("{\"enrolledOn\":\"2026-09-01\",\"grade\":\"A\"}")
                .put("/students/{s}/enrollments/{c}", sid, cid).then().statusCode(201)
                .header("X-DynamoDB-Calls", "2").header("ETag", "\"1\"")
                .body("studentId", equalTo(sid)).body("courseId", equalTo(cid))
                .body("enrolledOn", equalTo("2026-09-01")).body("grade", equalTo("A"))
                .body("studentName", equalTo("Grace")).body("courseTitle", equalTo("Compilers"));
        given().contentType(ContentType.JSON).body("{}")
                .put("/students/{s}/enrollments/{c}", sid, cid).then().statusCode(409).body("code", equalTo("Conflict"));
        given().get("/students/{s}/enrollments/{c}", sid, cid).then().statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("grade", equalTo("A"));
    }

    @Test
    void enrollingWithoutABodyDefaultsTheDateToToday() {
        String sid = unique("stu");
        String cid = unique("crs");
        student(sid, "Linus");
        course(cid, "Kernels");
        given().contentType(ContentType.JSON).put("/students/{s}/enrollments/{c}", sid, cid).then().statusCode(201)
                .body("enrolledOn", equalTo(LocalDate.now(ZoneOffset.UTC).toString())).body("grade", nullValue());
    }

    @Test
    void enrollingAnUnknownStudentOrCourseIs404AndWritesNothing() {
        String sid = unique("stu");
        String cid = unique("crs");
        student(sid, "Alan");
        given().contentType(ContentType.JSON).body("{}")
                .put("/students/{s}/enrollments/{c}", sid, cid).then().statusCode(404)
                .contentType("application/problem+json").body("detail", equalTo("course " + cid + " does not exist"));
        given().contentType(ContentType.JSON).body("{}")
                .put("/students/{s}/enrollments/{c}", unique("ghost"), cid).then().statusCode(404);
        var items = store.queryAll(QuerySpec.table("STU#" + sid).consistent().build())
                .await().atMost(Duration.ofSeconds(10));
        assertThat(items).hasSize(1);
        given().get("/students/{s}/courses", sid).then().statusCode(200).body("items", hasSize(0));
    }

    @Test
    void bothDirectionsAreOneQueryEachWithTheOtherSidesDisplayField() {
        String cid = unique("crs");
        course(cid, "Databases");
        List<String> students = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String sid = unique("stu" + i);
            students.add(sid);
            student(sid, "Student " + i);
            given().contentType(ContentType.JSON).body("{\"grade\":\"B\"}")
                    .put("/students/{s}/enrollments/{c}", sid, cid).then().statusCode(201);
        }
        String other = unique("crs");
        course(other, "Networks");
        given().contentType(ContentType.JSON).put("/students/{s}/enrollments/{c}", students.get(0), other).then().statusCode(201);

        given().get("/students/{s}/courses", students.get(0)).then().statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("items", hasSize(2)).body("items.courseTitle", hasItem("Databases"))
                .body("items.courseTitle", hasItem("Networks")).body("next", nullValue());

        List<String> roster = new ArrayList<>();
        List<Response> rosterPages = Pages.walk(() -> given().queryParam("limit", 2), r -> r.get("/courses/{c}/students", cid));
        for (Response page : rosterPages) {
            page.then().header("X-DynamoDB-Calls", "1");
            roster.addAll(page.path("items.studentId"));
            assertThat(page.<List<String>>path("items.studentName")).allMatch(n -> n.startsWith("Student "));
            assertThat(page.<List<String>>path("items.courseId")).allMatch(cid::equals);
        }
        assertThat(roster).containsExactlyInAnyOrderElementsOf(students);
        assertThat(rosterPages).hasSize(3);
    }

    @Test
    void gradesArePatchedAndEnrollmentsDeleted() {
        String sid = unique("stu");
        String cid = unique("crs");
        student(sid, "Barbara");
        course(cid, "Distributed Systems");
        given().contentType(ContentType.JSON).body("{}").put("/students/{s}/enrollments/{c}", sid, cid).then().statusCode(201);
        given().contentType("application/merge-patch+json").body("{\"grade\":\"A+\"}")
                .patch("/students/{s}/enrollments/{c}", sid, cid).then().statusCode(200)
                .body("grade", equalTo("A+")).body("courseTitle", equalTo("Distributed Systems")).header("ETag", "\"2\"");
        given().contentType("application/merge-patch+json").body("{\"courseTitle\":\"Forged\"}")
                .patch("/students/{s}/enrollments/{c}", sid, cid).then().statusCode(400)
                .body("errors[0].field", equalTo("courseTitle"));
        given().contentType("application/merge-patch+json").body("{\"grade\":\"" + "x".repeat(20) + "\"}")
                .patch("/students/{s}/enrollments/{c}", sid, cid).then().statusCode(400);
        given().delete("/students/{s}/enrollments/{c}", sid, cid).then().statusCode(204).header("X-DynamoDB-Calls", "1");
        given().get("/students/{s}/enrollments/{c}", sid, cid).then().statusCode(404);
        given().delete("/students/{s}/enrollments/{c}", sid, cid).then().statusCode(404)
                .body("detail", equalTo("enrollment of student " + sid + " in course " + cid + " does not exist"));
        given().contentType("application/merge-patch+json").body("{\"grade\":\"C\"}")
                .patch("/students/{s}/enrollments/{c}", sid, cid).then().statusCode(404);
    }

    @Test
    void renamingACourseOrAStudentReachesEveryEnrollmentEdge() {
        String cid = unique("crs");
        String other = unique("crs");
        String sid = unique("stu");
        course(cid, "Algebra");
        course(other, "Geometry");
        student(sid, "Emmy");
        List<String> roster = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String s = unique("stu" + i);
            student(s, "Student " + i);
            roster.add(s);
            given().contentType(ContentType.JSON).put("/students/{s}/enrollments/{c}", s, cid).then().statusCode(201);
        }
        given().contentType(ContentType.JSON).put("/students/{s}/enrollments/{c}", sid, cid).then().statusCode(201);
        given().contentType(ContentType.JSON).put("/students/{s}/enrollments/{c}", sid, other).then().statusCode(201);

        given().contentType("application/merge-patch+json").body("{\"title\":\"Abstract Algebra\"}")
                .patch("/courses/{c}", cid).then().statusCode(200)
                .body("matched", equalTo(4)).body("updated", equalTo(4)).body("entity.title", equalTo("Abstract Algebra"));
        given().get("/courses/{c}/students", cid).then().body("items.courseTitle",
                org.hamcrest.Matchers.everyItem(equalTo("Abstract Algebra")));
        given().contentType("application/merge-patch+json").body("{\"name\":\"Emmy Noether\"}")
                .patch("/students/{s}", sid).then().statusCode(200).body("updated", equalTo(2));
        given().get("/students/{s}/courses", sid).then().body("items.studentName",
                org.hamcrest.Matchers.everyItem(equalTo("Emmy Noether")))
                .body("items.courseTitle", hasItem("Geometry")).body("items.courseTitle", hasItem("Abstract Algebra"));
        given().get("/students/{s}/enrollments/{c}", roster.get(0), cid).then().body("studentName", equalTo("Student 0"))
                .body("courseTitle", equalTo("Abstract Algebra"));
    }
}
