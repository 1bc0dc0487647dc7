package dev.cairn.platform;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

/** Lists of the other domains: a page that holds exactly the rest of the list has no next; one short of it has. */
@QuarkusTest
class ExactLastPageResourceTest {

    static void created(String path, String body, Object... params) {
        given().contentType(ContentType.JSON).body(body).post(path, params).then().statusCode(201);
    }

    @Test
    void rosterCoursesPostsAndCommentsEndExactly() {
        String k = UUID.randomUUID().toString().substring(0, 8);
        String course = "crs-" + k;
        created("/courses", "{\"id\":\"" + course + "\",\"title\":\"Algebra\",\"credits\":5,\"term\":\"t\"}");
        String student = "stu-" + k;
        created("/students", "{\"id\":\"" + student + "\",\"name\":\"Ada\",\"year\":1,\"major\":\"CS\"}");
        for (int i = 0; i < 3; i++) {
            String other = "stu" + i + "-" + k;
            created("/students", "{\"id\":\"" + other + "\",\"name\":\"S" + i + "\",\"year\":1,\"major\":\"CS\"}");
            given().contentType(ContentType.JSON).body("{}").put("/students/{s}/enrollments/{c}", other, course).then().statusCode(201);
            String otherCourse = "crs" + i + "-" + k;
            created("/courses", "{\"id\":\"" + otherCourse + "\",\"title\":\"C" + i + "\",\"credits\":5,\"term\":\"t\"}");
            given().contentType(ContentType.JSON).body("{}").put("/students/{s}/enrollments/{c}", student, otherCourse).then().statusCode(201);
        }
        given().queryParam("limit", 3).get("/courses/{c}/students", course).then().statusCode(200)
                .header("X-DynamoDB-Calls", "1").body("items", hasSize(3)).body("next", nullValue());
        given().queryParam("limit", 2).get("/courses/{c}/students", course).then().body("next", notNullValue());
        given().queryParam("limit", 3).get("/students/{s}/courses", student).then().statusCode(200)
                .header("X-DynamoDB-Calls", "1").body("items", hasSize(3)).body("next", nullValue());

        String user = "user-" + k;
        created("/users", "{\"id\":\"" + user + "\",\"firstName\":\"A\",\"lastName\":\"B\"}");
        String post = given().contentType(ContentType.JSON).body("{\"title\":\"T\",\"content\":\"C\"}")
                .post("/users/{u}/posts", user).then().statusCode(201).extract().path("postId");
        created("/users/{u}/posts", "{\"title\":\"T2\",\"content\":\"C\"}", user);
        for (int i = 0; i < 2; i++) {
            created("/posts/{p}/comments", "{\"userId\":\"" + user + "\",\"content\":\"c" + i + "\"}", post);
        }
        given().queryParam("limit", 2).get("/users/{u}/posts", user).then().statusCode(200)
                .header("X-DynamoDB-Calls", "1").body("items", hasSize(2)).body("next", nullValue());
        given().queryParam("limit", 2).get("/posts/{p}/comments", post).then().statusCode(200)
                .header("X-DynamoDB-Calls", "1").body("items", hasSize(2)).body("next", nullValue());
        given().queryParam("include", "comments").queryParam("limit", 2).get("/posts/{p}", post).then().statusCode(200)
                .header("X-DynamoDB-Calls", "1").body("comments.items", hasSize(2)).body("comments.next", nullValue());
    }
}
