package dev.cairn.platform;

import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/** Following a maintenance job the way a client does: from the Location of its 202 to the job as it ended. */
public final class MaintenanceJobs {

    private MaintenanceJobs() {
    }

    /** The job at the started answer's Location (its path is {@code /maintenance/jobs/<id>}), polled until done. */
    public static Map<String, Object> followed(ExtractableResponse<Response> started) throws InterruptedException {
        String job = java.net.URI.create(started.header("Location")).getPath();
        assertThat(job).isEqualTo("/maintenance/jobs/" + started.path("id"));
        Instant until = Instant.now().plus(Duration.ofSeconds(60));
        while (true) {
            Map<String, Object> now = given().get(job).then().statusCode(200).extract().path("");
            if ("done".equals(now.get("state"))) {
                return now;
            }
            assertThat(Instant.now()).as("the job " + job + " ends").isBefore(until);
            Thread.sleep(50);
        }
    }
}
