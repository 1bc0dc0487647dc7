package dev.cairn.social;

import dev.cairn.platform.Pages;
import dev.cairn.core.query.QuerySpec;
import dev.cairn.store.EntityStore;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

@QuarkusTest
class SocialResourceTest {

    @Inject
    EntityStore store;

    static String unique() {
        return "u-" + UUID.randomUUID();
    }

    static void user(String id) {
        given().contentType(ContentType.JSON)
                .body("{\"id\":\"" + id + "\",\"firstName\":\"Ada\",\"lastName\":\"Lovelace\"}")
                .post("/users").then().statusCode(201);
    }

    static String post(String userId, String title) {
        return given().contentType(ContentType.JSON).body("{\"title\":\"" + title + "\",\"content\":\"Hello\"}")
                .post("/users/{id}/posts", userId).then().statusCode(201).extract().path("postId");
    }

    static String comment(String postId, String userId, String content) {
        return given().contentType(ContentType.JSON)
                .body("{\"userId\":\"" + userId + "\",\"content\":\"" + content + "\"}")
                .post("/posts/{p}/comments", postId).then().statusCode(201).extract().path("commentId");
    }

    @Test
    void usersAreCreatedReadAndPatched() {
        String id = unique();
        given().contentType(ContentType.JSON)
                .body("{\"id\":\"" + id + "\",\"firstName\":\"Ada\",\"lastName\":\"Lovelace\",\"profilePicture\":\"https://example.org/a.png\"}")
                .post("/users").then().statusCode(201).header("X-DynamoDB-Calls", "1");
        given().contentType(ContentType.JSON).body("{\"id\":\"" + id + "\",\"firstName\":\"B\",\"lastName\":\"C\"}")
                .post("/users").then().statusCode(409);
        given().get("/users/{id}", id).then().statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("firstName", equalTo("Ada")).body("profilePicture", equalTo("https://example.org/a.png"));
        given().contentType("application/merge-patch+json").body("{\"lastName\":\"King\",\"profilePicture\":null}")
                .patch("/users/{id}", id).then().statusCode(200)
                .body("lastName", equalTo("King")).body("profilePicture", nullValue()).header("ETag", "\"2\"");
        given().get("/users/{id}", id).then().body("lastName", equalTo("King")).body("profilePicture", nullValue());
        given().get("/users/{id}", unique()).then().statusCode(404);
        given().contentType(ContentType.JSON).body("{\"id\":\"x\",\"firstName\":\"\"}").post("/users").then().statusCode(400);
    }

    @Test
    void postsAreTimeOrderedAndListedNewestFirstInOneQuery() {
        String uid = unique();
        user(uid);
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            created.add(post(uid, "post " + i));
        }
        assertThat(created).isSorted();
        List<String> listed = new ArrayList<>();
        for (Response page : Pages.walk(() -> given().queryParam("limit", 2), r -> r.get("/users/{id}/posts", uid))) {
            page.then().header("X-DynamoDB-Calls", "1");
            listed.addAll(page.path("items.postId"));
        }
        Collections.reverse(created);
        assertThat(listed).containsExactlyElementsOf(created);
        given().get("/posts/{p}", created.get(0)).then().statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("userId", equalTo(uid)).body("title", equalTo("post 4")).body("createdAt", notNullValue());
    }

    @Test
    void postsOfUnknownUsersAre404AndWriteNothing() {
        String ghost = unique();
        given().contentType(ContentType.JSON).body("{\"title\":\"t\",\"content\":\"c\"}")
                .post("/users/{id}/posts", ghost).then().statusCode(404).header("X-DynamoDB-Calls", "1")
                .body("code", equalTo("NotFound"));
        given().get("/users/{id}/posts", ghost).then().statusCode(200).body("items", hasSize(0));
    }

    @Test
    void onlyTheAuthorsPathPatchesAPost() {
        String author = unique();
        String other = unique();
        user(author);
        user(other);
        String postId = post(author, "Draft");
        given().contentType("application/merge-patch+json").body("{\"title\":\"Final\"}")
                .patch("/users/{u}/posts/{p}", other, postId).then().statusCode(404);
        given().contentType("application/merge-patch+json").body("{\"title\":\"Final\"}")
                .patch("/users/{u}/posts/{p}", author, postId).then().statusCode(200)
                .body("title", equalTo("Final")).body("content", equalTo("Hello"));
        given().contentType("application/merge-patch+json").body("{\"userId\":\"" + other + "\"}")
                .patch("/users/{u}/posts/{p}", author, postId).then().statusCode(400);
        given().get("/posts/{p}", postId).then().body("title", equalTo("Final")).body("userId", equalTo(author));
        given().contentType("application/merge-patch+json").body("{\"title\":\"x\"}")
                .patch("/users/{u}/posts/{p}", author, unique()).then().statusCode(404);
    }

    @Test
    void commentsAreCheckedInOneTransactionAndListedOldestFirst() {
        String author = unique();
        String reader = unique();
        user(author);
        user(reader);
        String postId = post(author, "Talk");
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String commentId = given().contentType(ContentType.JSON)
                    .body("{\"userId\":\"" + reader + "\",\"content\":\"c" + i + "\"}")
                    .post("/posts/{p}/comments", postId).then().statusCode(201).header("X-DynamoDB-Calls", "1")
                    .header("Location", containsString("/posts/" + postId + "/comments/"))
                    .extract().path("commentId");
            created.add(commentId);
        }
        List<String> listed = new ArrayList<>();
        for (Response page : Pages.walk(() -> given().queryParam("limit", 2), r -> r.get("/posts/{p}/comments", postId))) {
            page.then().header("X-DynamoDB-Calls", "1");
            listed.addAll(page.path("items.commentId"));
        }
        assertThat(listed).containsExactlyElementsOf(created);

        given().queryParam("include", "comments").queryParam("limit", 3).get("/posts/{p}", postId).then()
                .statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("title", equalTo("Talk")).body("comments.items", hasSize(3))
                .body("comments.items[0].content", equalTo("c0")).body("comments.next", notNullValue());
    }

    @Test
    void aCommentOnAMissingPostOrByAMissingUserIs404AndCreatesNoItem() {
        String author = unique();
        user(author);
        String postId = post(author, "Quiet");
        String missingPost = "p-" + UUID.randomUUID();
        given().contentType(ContentType.JSON).body("{\"userId\":\"" + author + "\",\"content\":\"hi\"}")
                .post("/posts/{p}/comments", missingPost).then().statusCode(404).header("X-DynamoDB-Calls", "1")
                .body("detail", containsString("post"));
        // an author in the body that names nobody is the request's fault: 422 RefNotFound naming the field
        given().contentType(ContentType.JSON).body("{\"userId\":\"" + unique() + "\",\"content\":\"hi\"}")
                .post("/posts/{p}/comments", postId).then().statusCode(422).body("code", equalTo("RefNotFound"))
                .body("field", equalTo("userId")).body("detail", containsString("user"));
        assertThat(partition("POST#" + missingPost)).isEmpty();
        assertThat(partition("POST#" + postId)).hasSize(1);
        given().get("/posts/{p}/comments", missingPost).then().statusCode(404);
        given().get("/posts/{p}/comments", postId).then().statusCode(200).body("items", hasSize(0));
    }

    private List<?> partition(String pk) {
        return store.queryAll(QuerySpec.table(pk).consistent().build()).await().atMost(Duration.ofSeconds(10));
    }
}
