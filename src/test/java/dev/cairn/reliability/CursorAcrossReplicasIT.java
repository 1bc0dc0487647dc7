package dev.cairn.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.platform.EmbeddedDynamoDb;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Behind a load balancer a client's next page may reach another replica than its first: a cursor one process sealed
 * opens in any other with the same secret. (Each JVM orders an immutable map its own way; a cursor is bound to its
 * query's text, so that text must not depend on the process.)
 */
class CursorAcrossReplicasIT {

    static final ObjectMapper JSON = new ObjectMapper();
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    final String k = UUID.randomUUID().toString().substring(0, 8);
    EmbeddedDynamoDb dynamo;
    PackagedApp first;
    PackagedApp second;

    @BeforeEach
    void start() throws Exception {
        dynamo = EmbeddedDynamoDb.start(0, null);
        first = PackagedApp.start(dynamo.endpoint(), List.of());
        second = PackagedApp.start(dynamo.endpoint(), List.of());
    }

    @AfterEach
    void stop() throws Exception {
        if (second != null) {
            second.stop();
        }
        if (first != null) {
            first.stop();
        }
        dynamo.close();
    }

    @Test
    void everyPageOfAListingOpensOnTheReplicaThatDidNotSealItsCursor() throws Exception {
        var everyProject = new HashSet<String>();
        for (int shards : new int[]{1, 4}) {
            String workspace = "w" + shards + "-" + k;
            send(first, "POST", "/workspaces", "{\"id\":\"" + workspace + "\",\"displayName\":\"W\",\"region\":\"eu-west-1\","
                    + "\"seatLimit\":5,\"shards\":" + shards + "}", 201);
            var created = new HashSet<String>();
            for (int i = 0; i < 23; i++) {
                created.add(send(first, "POST", "/workspaces/" + workspace + "/projects",
                        "{\"title\":\"P" + i + "\",\"status\":\"ACTIVE\",\"createdBy\":\"it\"}", 201).get("id").asText());
            }
            everyProject.addAll(created);
            List<String> listed = walk("/workspaces/" + workspace + "/projects?limit=5");
            assertThat(listed).as("%d shard(s): every project once, across both replicas, in 5 pages", shards)
                    .hasSize(23).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(created);
        }
        // the status index's listing: a filter-free fan-out over its shards, whose cursor holds index keys too
        assertThat(walk("/projects?status=ACTIVE&limit=5")).as("every active project once, across both replicas")
                .doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(everyProject);
    }

    /** Every page of a listing, the pages alternating between the replicas: each cursor opened by the one that did not seal it. */
    List<String> walk(String listing) throws Exception {
        var listed = new ArrayList<String>();
        String next = null;
        int page = 0;
        do {
            PackagedApp replica = page % 2 == 0 ? first : second;
            String path = listing + (next == null ? "" : "&cursor=" + URLEncoder.encode(next, StandardCharsets.UTF_8));
            JsonNode body = send(replica, "GET", path, null, 200);
            body.get("items").forEach(item -> listed.add(item.get("id").asText()));
            next = body.get("next").isNull() ? null : body.get("next").asText();
            page++;
        } while (next != null && page < 40);
        assertThat(next).as("%s ends within 40 pages", listing).isNull();
        return listed;
    }

    JsonNode send(PackagedApp app, String method, String path, String json, int expected) throws Exception {
        var request = HttpRequest.newBuilder(URI.create(app.base() + path)).timeout(Duration.ofSeconds(10))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("%s %s: %s", method, path, response.body()).isEqualTo(expected);
        return JSON.readTree(response.body());
    }
}
