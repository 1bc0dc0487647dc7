package dev.cairn.cricket;

import dev.cairn.core.expr.Update;
import dev.cairn.core.key.PrimaryKey;
import dev.cairn.core.write.WriteAction;
import dev.cairn.platform.TestTokens;
import dev.cairn.platform.auth.AuthEnabledProfile;
import dev.cairn.store.EntityStore;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.builder.RequestSpecBuilder;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

/**
 * Which copies a cascade failed to write, and why, is operators' business wherever a job's report is shown: the
 * writer following its 202 sees the counts, the admin also the keys.
 */
@QuarkusTest
@TestProfile(FailedKeysResourceTest.AuthAndQuickRetryProfile.class)
class FailedKeysResourceTest {

    public static class AuthAndQuickRetryProfile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            var config = new HashMap<>(new AuthEnabledProfile().getConfigOverrides());
            config.putAll(new JobRetryProfile().getConfigOverrides());
            return config;
        }
    }

    @Inject
    EntityStore store;

    @Test
    void aWriterSeesHowManyCopiesFailedAndOnlyAnAdminSeesWhich() {
        String admin = TestTokens.admin();
        RestAssured.requestSpecification = new RequestSpecBuilder().addHeader("Authorization", admin).build();
        CricketFixtures f;
        String match;
        try {
            f = CricketFixtures.create(2);
            match = f.matchId();
            given().contentType(ContentType.JSON).body(f.matchJson(match, 1, 1)).post("/matches").then().statusCode(201);
        } finally {
            RestAssured.requestSpecification = null;
        }
        // the match's root held by another replica's write: the copy of the player cannot be written
        var root = PrimaryKey.of("MATCH#" + match, "MATCH");
        store.write(WriteAction.updateItem(root, Update.create()
                .set("_txn", AttributeValue.fromS("someone-else")).set("_txnOp", AttributeValue.fromS("update"))
                .set("_lease", AttributeValue.fromS("someone-else"))
                .set("_leaseUntil", AttributeValue.fromN(Long.toString(Instant.now().plusSeconds(600).toEpochMilli()))),
                WriteAction.Expectation.present(null), "Match")).await().atMost(Duration.ofSeconds(10));

        String writer = TestTokens.bearer("writer-" + f.suffix, List.of("*"), "cairn-writer");
        String job = given().header("Authorization", writer).contentType("application/merge-patch+json")
                .body("{\"firstName\":\"Hidden\"}").patch("/players/{id}", f.players.get(0))
                .then().statusCode(202).body("failed", equalTo(1)).body("failedKeys", empty()).extract().path("job");
        given().header("Authorization", writer).get("/cascades/{id}", job).then().statusCode(200)
                .body("failed", equalTo(1)).body("failedKeys", empty());
        given().header("Authorization", admin).get("/cascades/{id}", job).then().statusCode(200)
                .body("failed", equalTo(1)).body("failedKeys", hasSize(1))
                .body("failedKeys[0].reason", equalTo("AggregateBusy"));
    }
}
