package dev.cairn.bench;

import com.fasterxml.jackson.databind.JsonNode;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code social} scenario: the social routes of this build beside the same routes of the other build
 * ({@code -Dbench.other}), in the same interleaved rounds as {@link SchoolBuilds} — made to compare the social domain
 * served from its model file with the hand-written Java it replaced. Routes: a post read, a post with its first
 * comments (one Query), a user's posts (one Query of gsi1) and a comment create (one transaction of two checks and
 * the put). Both builds serve one DynamoDB Local table and read the same items; each build writes its own comments.
 */
final class SocialBuilds {

    static final String SCENARIO = "social";
    static final int POSTS = 30;
    static final int COMMENTS = 30;

    private final CairnBench bench;
    private final SchoolBuilds builds;

    SocialBuilds(CairnBench bench) {
        this.bench = bench;
        this.builds = new SchoolBuilds(bench);
    }

    void run() throws Exception {
        if (bench.other == null) {
            throw new IllegalStateException("the social scenario compares two builds: give -Dbench.other=<checkout>/target/quarkus-app");
        }
        bench.post("/users", "{\"id\":\"bench-author\",\"firstName\":\"Bench\",\"lastName\":\"Author\"}");
        var posts = new ArrayList<String>();
        for (int i = 0; i < POSTS; i++) {
            var created = builds.send(builds.post(bench.app, "/users/bench-author/posts",
                    "{\"title\":\"Post " + i + "\",\"content\":\"Some content of post " + i + "\"}"), 201);
            posts.add(CairnBench.JSON.readTree(created.body()).path("postId").asText());
        }
        String postId = posts.get(0);
        SchoolBuilds.parallel(COMMENTS, i -> builds.send(builds.post(bench.app, "/posts/" + postId + "/comments",
                "{\"userId\":\"bench-author\",\"content\":\"Comment " + i + "\"}"), 201));

        // Both builds must answer the same documents before anything is measured.
        List<String> reads = List.of("/posts/" + postId, "/posts/" + postId + "?include=comments",
                "/users/bench-author/posts", "/posts/" + postId + "/comments");
        for (String path : reads) {
            // Cursors are sealed with a fresh nonce each time: equal pages have different `next` texts.
            JsonNode mine = withoutCursors(CairnBench.JSON.readTree(builds.body(bench.app, path)));
            JsonNode theirs = withoutCursors(CairnBench.JSON.readTree(builds.body(bench.other, path)));
            if (!mine.equals(theirs)) {
                bench.report.append("\n**GET ").append(path).append(" answers differ**: this build ").append(mine)
                        .append(", the other build ").append(theirs).append(".\n");
            }
        }

        builds.compare(SCENARIO, "GET /posts/{postId}", "post read (GetItem)", (target, tag) -> w -> bench.sendMetered(
                HttpRequest.newBuilder(URI.create(target.base() + "/posts/" + postId)).GET().build(), 200));
        builds.compare(SCENARIO, "GET /posts/{postId}?include=comments", "post with its first 20 comments (1 Query)",
                (target, tag) -> w -> bench.sendMetered(HttpRequest.newBuilder(
                        URI.create(target.base() + "/posts/" + postId + "?include=comments")).GET().build(), 200));
        builds.compare(SCENARIO, "GET /users/{uid}/posts", "a user's posts, 20 of 30 (1 Query of gsi1)",
                (target, tag) -> w -> bench.sendMetered(HttpRequest.newBuilder(
                        URI.create(target.base() + "/users/bench-author/posts")).GET().build(), 200));
        builds.compare(SCENARIO, "POST /posts/{postId}/comments", "comment create (TransactWriteItems: post and user checks, the put)",
                (target, tag) -> w -> bench.sendMetered(builds.post(target, "/posts/" + posts.get(1 + w % (POSTS - 1)) + "/comments",
                        "{\"userId\":\"bench-author\",\"content\":\"From " + tag + "\"}"), 201));
    }

    private static JsonNode withoutCursors(JsonNode node) {
        if (node instanceof com.fasterxml.jackson.databind.node.ObjectNode object) {
            object.remove("next");
            object.forEach(SocialBuilds::withoutCursors);
        }
        return node;
    }
}
