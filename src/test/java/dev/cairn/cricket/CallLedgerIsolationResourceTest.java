package dev.cairn.cricket;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every request's X-DynamoDB-Calls counts its own calls and no other's, however many requests share the event loops
 * and the SDK's connections: match writes (3 calls) and reads (1 call) all at once. The timeouts are generous here so
 * that a loaded machine cannot make the SDK retry (a retry is a real attempt, and counted): a count off by one can
 * then only be a call put in another request's ledger.
 */
@QuarkusTest
@TestProfile(CallLedgerIsolationResourceTest.NoRetries.class)
class CallLedgerIsolationResourceTest {

    public static class NoRetries implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.dynamodb.api-call-timeout", "60S", "quarkus.dynamodb.api-call-attempt-timeout", "60S");
        }
    }

    private static final int CLIENTS = 12;
    private static final int ROUNDS = 10;

    @Test
    void concurrentRequestsEachReportExactlyTheirOwnCalls() throws Exception {
        var f = CricketFixtures.create(6);
        var wrong = new ConcurrentLinkedQueue<String>();
        var answered = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        var start = new CountDownLatch(1);
        try {
            List<Future<?>> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                clients.add(pool.submit(() -> {
                    start.await();
                    for (int round = 0; round < ROUNDS; round++) {
                        String id = f.matchId();
                        // refs (BatchGetItem) beside "the partition is empty" (Query), then ONE transaction
                        check(wrong, answered, "POST /matches " + id,
                                given().contentType(ContentType.JSON).body(f.matchJson(id, 3, 3)).post("/matches"), 201, "3");
                        check(wrong, answered, "GET /matches/" + id, given().get("/matches/{id}", id), 200, "1");
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> client : clients) {
                client.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(wrong).isEmpty();
        assertThat(answered).hasValue(2 * CLIENTS * ROUNDS);
    }

    private static void check(ConcurrentLinkedQueue<String> wrong, AtomicInteger answered, String request,
                              Response response, int status, String calls) {
        answered.incrementAndGet();
        String counted = response.header("X-DynamoDB-Calls");
        if (response.statusCode() != status || !calls.equals(counted)) {
            wrong.add(request + ": " + response.statusCode() + " with X-DynamoDB-Calls " + counted + " (expected "
                    + status + " with " + calls + ")");
        }
    }
}
