package dev.cairn.reliability;

import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

import java.time.Duration;
import java.util.Map;
import java.util.TreeSet;

/** A full dump of the table (a test-only Scan), to prove a rejected write changed nothing. */
final class TableDump {

    private static final int PAGE = 500;
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private TableDump() {
    }

    static TreeSet<String> of(DynamoDbAsyncClient client) {
        var items = new TreeSet<String>();
        Map<String, AttributeValue> start = null;
        do {
            // Pages of a bounded size, each with a timeout of its own: late in the suite the table holds thousands of
            // items, and a 1 MB page on a busy machine outlasted the test client's 3 s call timeout.
            ScanResponse page = client.scan(ScanRequest.builder().tableName("cairn").consistentRead(true)
                    .limit(PAGE).exclusiveStartKey(start)
                    .overrideConfiguration(o -> o.apiCallTimeout(CALL_TIMEOUT).apiCallAttemptTimeout(CALL_TIMEOUT))
                    .build()).join();
            page.items().forEach(item -> items.add(new java.util.TreeMap<>(item).toString()));
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return items;
    }

    /**
     * A dump once the table has stopped changing: background work of earlier tests (a cascade's settle pass a
     * moment after its PATCH, a job's retry) must not read as a change made by the requests a test checks.
     */
    static TreeSet<String> quiet(DynamoDbAsyncClient client) {
        var last = of(client);
        for (int round = 0; round < 20; round++) {
            try {
                Thread.sleep(1_500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            var now = of(client);
            if (now.equals(last)) {
                return now;
            }
            last = now;
        }
        throw new AssertionError("the table did not stop changing within 30 s");
    }
}
