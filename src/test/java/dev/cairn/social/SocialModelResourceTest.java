package dev.cairn.social;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;

/** What the social model file declares beyond the seed's routes: owners, timestamps, includes, readable Locations. */
@QuarkusTest
class SocialModelResourceTest {

    static String user() {
        String id = "sm-" + UUID.randomUUID();
        given().contentType(ContentType.JSON).body("{\"id\":\"" + id + "\",\"firstName\":\"Ada\",\"lastName\":\"King\"}")
                .post("/users").then().statusCode(201);
        return id;
    }

    @Test
    void aPostIsReadWhereItsLocationPointsAndItsTimestampsFollowItsChanges() throws Exception {
        String uid = user();
        Response created = given().contentType(ContentType.JSON).body("{\"title\":\"T\",\"content\":\"C\"}")
                .post("/users/{u}/posts", uid);
        created.then().statusCode(201);
        String postId = created.path("postId");
        assertThat(created.header("Location")).endsWith("/posts/" + postId);
        Instant createdAt = Instant.parse(created.path("createdAt"));
        assertThat(created.<String>path("updatedAt")).isEqualTo(created.path("createdAt"));

        given().get(created.header("Location")).then().statusCode(200).body("userId", equalTo(uid))
                .body("createdAt", equalTo(created.path("createdAt"))).body("$", not(hasKey("comments")));
        Thread.sleep(5);
        Response patched = given().contentType("application/merge-patch+json").body("{\"title\":\"T2\"}")
                .patch("/users/{u}/posts/{p}", uid, postId);
        patched.then().statusCode(200).body("createdAt", equalTo(created.path("createdAt")));
        assertThat(Instant.parse(patched.path("updatedAt"))).isAfter(createdAt);

        // Timestamps are the store's: a patch cannot set them, and a create cannot name the owner.
        given().contentType("application/merge-patch+json").body("{\"createdAt\":\"2001-01-01T00:00:00Z\"}")
                .patch("/users/{u}/posts/{p}", uid, postId).then().statusCode(400).body("errors[0].field", equalTo("createdAt"));
        given().contentType(ContentType.JSON).body("{\"title\":\"T\",\"content\":\"C\",\"userId\":\"someone\"}")
                .post("/users/{u}/posts", uid).then().statusCode(400).body("errors[0].field", equalTo("userId"));
        given().get("/posts/{p}", postId).then().body("title", equalTo("T2")).body("createdAt", equalTo(created.path("createdAt")));
    }

    @Test
    void anotherUsersPathAnswers404BeforeAnyVersionIsCompared() {
        String author = user();
        String other = user();
        String postId = given().contentType(ContentType.JSON).body("{\"title\":\"T\",\"content\":\"C\"}")
                .post("/users/{u}/posts", author).then().statusCode(201).extract().path("postId");
        given().contentType("application/merge-patch+json").header("If-Match", "\"99\"").body("{\"title\":\"x\"}")
                .patch("/users/{u}/posts/{p}", other, postId).then().statusCode(404)
                .body("detail", equalTo("post " + postId + " of user " + other + " does not exist"));
        given().contentType("application/merge-patch+json").header("If-Match", "\"99\"").body("{\"title\":\"x\"}")
                .patch("/users/{u}/posts/{p}", author, postId).then().statusCode(412);
        given().get("/posts/{p}", postId).then().body("title", equalTo("T")).header("ETag", "\"1\"");
    }

    @Test
    void aCommentIsReadWhereItsLocationPointsWithItsCreationTimeOnly() {
        String uid = user();
        String postId = given().contentType(ContentType.JSON).body("{\"title\":\"T\",\"content\":\"C\"}")
                .post("/users/{u}/posts", uid).then().statusCode(201).extract().path("postId");
        Response comment = given().contentType(ContentType.JSON).body("{\"userId\":\"" + uid + "\",\"content\":\"hi\"}")
                .post("/posts/{p}/comments", postId);
        comment.then().statusCode(201).body("$", not(hasKey("updatedAt")));
        given().get(comment.header("Location")).then().statusCode(200).header("X-DynamoDB-Calls", "1")
                .body("content", equalTo("hi")).body("userId", equalTo(uid))
                .body("createdAt", equalTo(comment.path("createdAt"))).body("$", not(hasKey("updatedAt")));
    }

    @Test
    void includeAndLimitAreCheckedOnAPostRead() {
        given().queryParam("include", "likes").get("/posts/{p}", "p-" + UUID.randomUUID()).then().statusCode(400)
                .body("errors[0].field", equalTo("include"));
        // An empty include names no child either: the document's enum has only "comments".
        given().queryParam("include", "").get("/posts/{p}", "p-" + UUID.randomUUID()).then().statusCode(400)
                .contentType("application/problem+json").body("errors[0].field", equalTo("include"));
        given().queryParam("limit", 0).get("/posts/{p}", "p-" + UUID.randomUUID()).then().statusCode(400)
                .body("errors[0].field", equalTo("limit"));
        given().queryParam("include", "comments").get("/posts/{p}", "p-" + UUID.randomUUID()).then().statusCode(404)
                .header("X-DynamoDB-Calls", "1");
    }

    @Test
    void twoChangesOfOneVersionEndInOneSuccessAndOneFailedPrecondition() throws Exception {
        String uid = user();
        var pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            for (int round = 1; round <= 8; round++) {
                String etag = "\"" + round + "\"";
                var barrier = new java.util.concurrent.CyclicBarrier(2);
                java.util.function.Supplier<Integer> patch = () -> {
                    try {
                        barrier.await();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    return given().contentType("application/merge-patch+json").header("If-Match", etag)
                            .body("{\"lastName\":\"" + UUID.randomUUID() + "\"}").patch("/users/{id}", uid).statusCode();
                };
                var first = java.util.concurrent.CompletableFuture.supplyAsync(patch, pool);
                var second = java.util.concurrent.CompletableFuture.supplyAsync(patch, pool);
                assertThat(java.util.List.of(first.get(), second.get())).as("round %d", round).containsExactlyInAnyOrder(200, 412);
            }
        } finally {
            pool.shutdownNow();
        }
        given().get("/users/{id}", uid).then().header("ETag", "\"9\"");
    }
}
