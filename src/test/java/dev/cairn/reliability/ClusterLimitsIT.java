package dev.cairn.reliability;

import dev.cairn.platform.EmbeddedDynamoDb;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;

import static dev.cairn.Eventually.within;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two replicas on one table share a caller's limits out between them: a caller whose writes are spread over both gets
 * the configured burst in all, not once per replica; a replica that stops hands its share back.
 */
class ClusterLimitsIT {

    static final int BURST = 20;
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    final String k = UUID.randomUUID().toString().substring(0, 8);
    EmbeddedDynamoDb dynamo;
    PackagedApp first;
    PackagedApp second;

    @BeforeEach
    void start() throws Exception {
        dynamo = EmbeddedDynamoDb.start(0, null);
        // a burst of 20 writes, refilled so slowly that the test sees only the burst
        var limits = List.of("-Dcairn.limits.enabled=true", "-Dcairn.limits.write-burst=" + BURST,
                "-Dcairn.limits.writes-per-second=0.01", "-Dcairn.limits.cluster.heartbeat=1s");
        first = PackagedApp.start(dynamo.endpoint(), limits);
        second = PackagedApp.start(dynamo.endpoint(), limits);
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
    void aCallerSpreadOverTwoReplicasGetsTheBurstOnceAndAStoppedReplicaHandsItsShareBack() throws Exception {
        within(Duration.ofSeconds(15), () -> {
            assertThat(alive(first)).isEqualTo(2);
            assertThat(alive(second)).isEqualTo(2);
        });
        int admitted = 0;
        int refused = 0;
        for (int i = 0; i < 2 * BURST; i++) {
            PackagedApp replica = i % 2 == 0 ? first : second;
            var answer = http.send(HttpRequest.newBuilder(URI.create(replica.base() + "/players"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                            "{\"id\":\"cl" + i + "-" + k + "\",\"firstName\":\"A\",\"lastName\":\"B\",\"role\":\"bowler\"}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() == 201) {
                admitted++;
            } else {
                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(429);
                refused++;
            }
        }
        // each replica takes its half: 10 writes each, 20 in all (not 20 each)
        assertThat(admitted).as("writes admitted across both replicas").isEqualTo(BURST);
        assertThat(refused).isEqualTo(BURST);

        second.stop();
        second = null;
        within(Duration.ofSeconds(10), () -> assertThat(alive(first)).isEqualTo(1));
    }

    int alive(PackagedApp replica) {
        String metrics;
        try {
            metrics = http.send(HttpRequest.newBuilder(URI.create(replica.management() + "/q/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (Exception e) {
            throw new AssertionError("the metrics of " + replica.management(), e);
        }
        var gauge = Pattern.compile("(?m)^cairn_replicas_alive(\\{[^}]*})? (\\S+)$").matcher(metrics);
        assertThat(gauge.find()).as("cairn_replicas_alive in\n%s", metrics).isTrue();
        return (int) Double.parseDouble(gauge.group(2));
    }
}
