package dev.cairn;

import dev.cairn.core.TableSpec;
import dev.cairn.core.model.DeclaredEntity;
import dev.cairn.core.model.Doc;
import dev.cairn.declared.ModelFiles;
import dev.cairn.platform.EmbeddedDynamoDb;
import dev.cairn.platform.TestTokens;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A natural index added to a table that already holds items needs no backfill: a table made without
 * {@code loansByMemberStatus} (as a release before library.yaml declared it made it) holds a member's loans; the
 * packaged app starts on it, adds the index (one UpdateTable, as it adds any index the table lacks), and the index's
 * listing serves the loans written before the index existed — nothing rewrote them.
 */
class NaturalIndexAddedIT {

    static final String TABLE = "cairn-before-the-index";

    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void theIndexAddedToAPopulatedTableListsTheItemsAlreadyThere() throws Exception {
        try (EmbeddedDynamoDb dynamo = EmbeddedDynamoDb.start(0, null);
             DynamoDbClient client = DynamoDbClient.builder().endpointOverride(URI.create(dynamo.endpoint()))
                     .region(Region.US_EAST_1).httpClient(UrlConnectionHttpClient.create())
                     .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x"))).build()) {
            // The table as it was: the overloaded indexes only.
            client.createTable(TableSpec.createTableRequest(TABLE));
            client.waiter().waitUntilTableExists(b -> b.tableName(TABLE));
            DeclaredEntity loan = ModelFiles.plan(getClass().getClassLoader()).entity("Loan");
            Instant now = Instant.now();
            for (String[] l : List.of(new String[]{"01JLOAN000000000000000000A", "2026-12-20", "out"},
                    new String[]{"01JLOAN000000000000000000B", "2026-12-10", "out"},
                    new String[]{"01JLOAN000000000000000000C", "2026-12-15", "returned"})) {
                var item = loan.spec().toItem(new Doc(Map.of("memberId", "m-before", "loanId", l[0], "bookId", "earthsea",
                        "bookTitle", "A Wizard of Earthsea", "due", l[1], "status", l[2], "renewals", 0L)), 1, now, now);
                client.putItem(b -> b.tableName(TABLE).item(item));
            }
            assertThat(client.describeTable(b -> b.tableName(TABLE)).table().globalSecondaryIndexes())
                    .noneMatch(gsi -> gsi.indexName().equals("loansByMemberStatus"));

            int port = TableCheckBesideStartIT.freePort();
            File log = File.createTempFile("cairn-index-added", ".log");
            log.deleteOnExit();
            Process app = start(port, TableCheckBesideStartIT.freePort(), dynamo.endpoint(), log);
            try {
                String listing = "http://127.0.0.1:" + port + "/members/m-before/loans/by-status/out";
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                HttpResponse<String> answer = null;
                while (answer == null || answer.statusCode() != 200) {
                    assertThat(app.isAlive()).as(Files.readString(log.toPath())).isTrue();
                    assertThat(System.nanoTime()).as("the listing answers within 120 s").isLessThan(deadline);
                    Thread.sleep(250);
                    answer = get(listing);
                }
                assertThat(answer.body()).contains("\"due\":\"2026-12-10\"", "\"due\":\"2026-12-20\"")
                        .doesNotContain("2026-12-15");
                assertThat(answer.body().indexOf("2026-12-10")).as("soonest due first").isLessThan(answer.body().indexOf("2026-12-20"));
                assertThat(answer.headers().firstValue("X-DynamoDB-Calls")).hasValue("1");
                assertThat(Files.readString(log.toPath())).contains("adding index loansByMemberStatus to DynamoDB table " + TABLE);
                assertThat(client.describeTable(b -> b.tableName(TABLE)).table().globalSecondaryIndexes())
                        .anyMatch(gsi -> gsi.indexName().equals("loansByMemberStatus"));
                // The items are as they were written: the index took them without a write.
                assertThat(client.scan(b -> b.tableName(TABLE)).items().stream()
                        .filter(i -> i.get("pk").s().equals("MEMBER#m-before")).toList())
                        .hasSize(3).allMatch(i -> i.get("_version").n().equals("1"));
            } finally {
                app.destroy();
                app.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    HttpResponse<String> get(String url) throws InterruptedException {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                    .header("Authorization", TestTokens.admin()).GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException notListening) {
            return null;
        }
    }

    /** The packaged app (prod profile, the test key pair) on the table, creating what it lacks. */
    private static Process start(int port, int management, String endpoint, File log) throws java.io.IOException {
        var command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dquarkus.http.port=" + port, "-Dquarkus.management.port=" + management,
                "-Dcairn.cursor.secret=a-long-enough-cursor-secret", "-Dcairn.table.create=true",
                "-Dcairn.table.name=" + TABLE, "-Dquarkus.dynamodb.endpoint-override=" + endpoint,
                "-Dquarkus.dynamodb.aws.region=us-east-1", "-Dquarkus.dynamodb.aws.credentials.type=static",
                "-Dquarkus.dynamodb.aws.credentials.static-provider.access-key-id=x",
                "-Dquarkus.dynamodb.aws.credentials.static-provider.secret-access-key=x",
                "-Dmp.jwt.verify.publickey.location=" + TestTokens.PUBLIC_KEY_FILE,
                "-Dmp.jwt.verify.issuer=" + TestTokens.ISSUER, "-Dmp.jwt.verify.audiences=" + TestTokens.AUDIENCE,
                "-jar", "target/quarkus-app/quarkus-run.jar"));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start();
    }
}
