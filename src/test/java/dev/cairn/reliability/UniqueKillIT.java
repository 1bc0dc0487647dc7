package dev.cairn.reliability;

import dev.cairn.platform.EmbeddedDynamoDb;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Unique values survive a SIGKILL at any instant of their writes: the packaged app, behind a proxy that makes every
 * DynamoDB answer late, runs creates, e-mail changes by merge patch and by PUT, colliding creates, soft deletes and
 * restores (each one transaction, the e-mail released and taken again) of members with unique e-mails at once, and is killed while they are in flight. Read
 * straight from the table afterwards, every member holds the sentinel of its e-mail and every sentinel is held by a
 * member with that e-mail — no orphan that would lock a value out for ever, no member whose value another could take.
 * A fresh process then creates a member with every e-mail used: exactly the free ones are taken.
 * <p>
 * Books others copy from keep a unique ISBN (library.yaml): their renames run through their cascade (eventual and
 * transactional), the ISBN moving in the book's own transaction, beside creates that collide with the ISBN given up;
 * after the kill books and ISBN sentinels are one to one too.
 * <p>
 * Loans keep history (library.yaml): renewals and deletes of loans run beside the members' writes, and after the kill
 * every version of every loan below its live one has its snapshot, and a deleted loan's last version is there marked
 * with its deleter — each snapshot is in its write's own transaction, so no write is ever kept without it.
 */
class UniqueKillIT {

    static final int MEMBERS = 16;
    static final String SENTINEL = "UNIQUE#Member#email#*#";
    static final String ISBN_SENTINEL = "UNIQUE#Book#isbn#*#";
    static final int BOOKS = 4;

    final String k = UUID.randomUUID().toString().substring(0, 8);
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    final ExecutorService pool = Executors.newFixedThreadPool(32, r -> {
        Thread t = new Thread(r, "unique-kill-client");
        t.setDaemon(true);
        return t;
    });
    EmbeddedDynamoDb dynamo;
    FaultProxy proxy;
    DynamoDbAsyncClient direct;
    final List<PackagedApp> apps = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        dynamo = EmbeddedDynamoDb.start(0, null);
        proxy = new FaultProxy(dynamo.port());
        direct = DynamoDbAsyncClient.builder().endpointOverride(URI.create("http://127.0.0.1:" + dynamo.port()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"))).build();
    }

    @AfterEach
    void stop() throws Exception {
        pool.shutdownNow();
        for (PackagedApp app : apps) {
            app.stop();
        }
        direct.close();
        proxy.close();
        dynamo.close();
    }

    PackagedApp startApp() throws Exception {
        PackagedApp app = PackagedApp.start(proxy.endpoint(), List.of("-Dquarkus.dynamodb.api-call-timeout=30S",
                "-Dquarkus.dynamodb.api-call-attempt-timeout=15S"));
        apps.add(app);
        return app;
    }

    /** The loan's id a create answered with (its body), or fails the test. */
    String createLoan(PackagedApp app, String member, String book) throws Exception {
        var request = HttpRequest.newBuilder(URI.create(app.base() + "/members/" + member + "/loans"))
                .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"bookId\":\"" + book + "\",\"due\":\"2026-12-24\"}")).build();
        var answer = http.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(201);
        var id = java.util.regex.Pattern.compile("\"loanId\":\"([^\"]+)\"").matcher(answer.body());
        assertThat(id.find()).isTrue();
        return id.group(1);
    }

    int send(PackagedApp app, String method, String path, String contentType, String body) {
        try {
            var request = HttpRequest.newBuilder(URI.create(app.base() + path)).timeout(Duration.ofSeconds(60))
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
            if (contentType != null) {
                request.header("Content-Type", contentType);
            }
            return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1; // the process was killed under it
        }
    }

    static String member(String id, String email) {
        return "{\"memberId\":\"" + id + "\",\"name\":\"M\",\"email\":\"" + email + "\",\"address\":{\"city\":\"Leeds\"}}";
    }

    /** An ISBN-13 of this test's fresh table: a generation and a book. */
    static String isbn(int generation, int book) {
        return String.format("978%05d%05d", generation, book);
    }

    String email(String name, int i) {
        return name + i + "-" + k + "@example.org";
    }

    @Test
    void membersAndTheirEmailSentinelsStayOneToOneWhenTheProcessIsKilledAmidTheirWrites() throws Exception {
        PackagedApp first = startApp();
        Set<String> used = new LinkedHashSet<>();
        for (int i = 0; i < MEMBERS; i++) {
            assertThat(send(first, "POST", "/members", "application/json", member("m" + i + "-" + k, email("a", i))))
                    .isEqualTo(201);
            used.add(email("a", i));
        }
        // members deleted (softly: library.yaml) before the faults, to be restored amid them
        for (int i = 0; i < MEMBERS / 4; i++) {
            String id = "r" + i + "-" + k;
            assertThat(send(first, "POST", "/members", "application/json", member(id, email("r", i)))).isEqualTo(201);
            assertThat(send(first, "DELETE", "/members/" + id, null, null)).isEqualTo(204);
            used.add(email("r", i));
        }
        // a loan for each member whose write below is not its delete (a member with a loan is not deleted), renewed once;
        // the loans copy the first book's title, so its renames cascade
        String book = "kb0-" + k;
        for (int i = 0; i < BOOKS; i++) {
            assertThat(send(first, "POST", "/books", "application/json", "{\"bookId\":\"kb" + i + "-" + k
                    + "\",\"title\":\"K\",\"isbn\":\"" + isbn(1, i) + "\"}")).isEqualTo(201);
        }
        var loans = new HashMap<String, String>();   // loan id -> member id
        for (int i = 0; i < MEMBERS; i++) {
            if (i % 4 != 2) {
                String member = "m" + i + "-" + k;
                String loan = createLoan(first, member, book);
                assertThat(send(first, "PATCH", "/members/" + member + "/loans/" + loan, "application/merge-patch+json",
                        "{\"due\":\"2027-01-01\"}")).isEqualTo(200);
                loans.put(loan, member);
            }
        }

        // Every DynamoDB answer late, so each write's steps (a transaction, a mark and a delete) are far apart in time.
        proxy.inject(FaultProxy.Fault.DELAY, 300);
        var inFlight = new ArrayList<CompletableFuture<Integer>>();
        for (int i = 0; i < MEMBERS; i++) {
            String id = "m" + i + "-" + k;
            int n = i;
            used.addAll(List.of(email("b", i), email("c", i), email("d", i)));
            inFlight.add(CompletableFuture.supplyAsync(() -> switch (n % 4) {
                case 0 -> send(first, "PATCH", "/members/" + id, "application/merge-patch+json",
                        "{\"email\":\"" + email("b", n) + "\"}");
                case 1 -> send(first, "PUT", "/members/" + id, "application/json", member(id, email("c", n)));
                case 2 -> send(first, "DELETE", "/members/" + id, null, null);   // a soft delete: one transaction
                default -> send(first, "POST", "/members", "application/json", member("n" + n + "-" + k, email("d", n)));
            }, pool));
            // a create that collides with a value held now, or about to be released by the write above
            inFlight.add(CompletableFuture.supplyAsync(() -> send(first, "POST", "/members", "application/json",
                    member("x" + n + "-" + k, email("a", n))), pool));
        }
        for (int i = 0; i < MEMBERS / 4; i++) {
            String id = "r" + i + "-" + k;
            inFlight.add(CompletableFuture.supplyAsync(() -> send(first, "POST", "/members/" + id + "/restore",
                    "application/json", null), pool));
        }
        for (int i = 0; i < BOOKS; i++) {
            int b = i;
            // a rename with a new ISBN through the cascade (both modes), and a create taking the ISBN it gives up
            inFlight.add(CompletableFuture.supplyAsync(() -> send(first, "PATCH", "/books/kb" + b + "-" + k
                    + "?cascade=" + (b % 2 == 0 ? "eventual" : "transactional"), "application/merge-patch+json",
                    "{\"title\":\"K" + b + "\",\"isbn\":\"" + isbn(2, b) + "\"}"), pool));
            inFlight.add(CompletableFuture.supplyAsync(() -> send(first, "POST", "/books", "application/json",
                    "{\"bookId\":\"kx" + b + "-" + k + "\",\"title\":\"X\",\"isbn\":\"" + isbn(1, b) + "\"}"), pool));
        }
        int n = 0;
        for (var loan : loans.entrySet()) {
            String path = "/members/" + loan.getValue() + "/loans/" + loan.getKey();
            int which = n++;
            // two renewals racing each other (each a version and its snapshot), or a delete (the last one, marked)
            inFlight.add(CompletableFuture.supplyAsync(() -> which % 3 == 2 ? send(first, "DELETE", path, null, null)
                    : send(first, "PATCH", path, "application/merge-patch+json", "{\"due\":\"2027-02-0" + (1 + which % 9) + "\"}"), pool));
            inFlight.add(CompletableFuture.supplyAsync(() -> send(first, "PATCH", path, "application/merge-patch+json",
                    "{\"renewals\":" + (1 + which % 3) + "}"), pool));
        }
        // killed as the first write answers: the others are still at their steps (a delete needs three late answers)
        CompletableFuture.anyOf(inFlight.toArray(CompletableFuture[]::new)).join();
        first.kill();
        proxy.clear();
        var statuses = inFlight.stream().map(CompletableFuture::join).toList();
        // the kill fell amid the writes: some had answered, some were cut off (-1: no answer)
        assertThat(statuses).as("answers when the process was killed").contains(-1).anyMatch(status -> status > 0);

        assertOneToOne("after the SIGKILL");
        assertBooksAndIsbnsOneToOne("after the SIGKILL");
        assertEveryVersionHasItsSnapshot(loans.keySet());

        // A fresh process: every value with no sentinel can be taken, every value with one cannot.
        PackagedApp second = startApp();
        Map<String, String> holders = sentinels();
        var answers = new HashMap<String, Integer>();
        for (String email : used) {
            answers.put(email, send(second, "POST", "/members", "application/json",
                    member("after-" + Math.abs(email.hashCode()) + "-" + k, email)));
        }
        for (String email : used) {
            assertThat(answers.get(email)).as("a create with %s, %s", email,
                    holders.containsKey(email) ? "held by " + holders.get(email) : "free").isEqualTo(holders.containsKey(email) ? 409 : 201);
        }
        assertOneToOne("after the fresh process took the free values");
    }

    /** Members' e-mails and the sentinels of the table, read straight from it: each held by exactly its own member. */
    void assertOneToOne(String when) {
        Map<String, String> emails = new HashMap<>(); // member pk -> e-mail
        Map<String, String> holders = sentinels();    // e-mail -> holder's pk
        Set<String> tombstones = new LinkedHashSet<>(); // member pks kept deleted
        for (var item : scan()) {
            String pk = item.get("pk").s();
            if (pk.startsWith("MEMBER#") && item.get("sk").s().equals("PROFILE") && pk.endsWith("-" + k)) {
                emails.put(pk, item.get("email").s());
            }
            if (pk.startsWith("~DELETED#MEMBER#") && pk.endsWith("-" + k)) {
                tombstones.add(pk.substring("~DELETED#".length()));
            }
        }
        emails.forEach((pk, email) -> assertThat(holders.get(email)).as("%s: the sentinel of %s's %s", when, pk, email)
                .isEqualTo(pk));
        holders.forEach((email, pk) -> assertThat(emails.get(pk)).as("%s: the member holding %s", when, email)
                .isEqualTo(email));
        // a soft delete or a restore is one transaction: a member is live or deleted, never both
        tombstones.forEach(pk -> assertThat(emails).as("%s: %s both live and deleted", when, pk).doesNotContainKey(pk));
    }

    /** Books' ISBNs and the ISBN sentinels, read straight from the table: each held by exactly its own book. */
    void assertBooksAndIsbnsOneToOne(String when) {
        Map<String, String> isbns = new HashMap<>();   // book pk -> ISBN
        Map<String, String> holders = new HashMap<>(); // ISBN -> holder's pk
        for (var item : scan()) {
            String pk = item.get("pk").s();
            if (pk.startsWith("BOOK#") && item.get("sk").s().equals("BOOK") && item.containsKey("isbn")) {
                isbns.put(pk, item.get("isbn").s());
            }
            if (pk.startsWith(ISBN_SENTINEL)) {
                holders.put(pk.substring(ISBN_SENTINEL.length()), item.get("_ownerPk").s());
            }
        }
        assertThat(isbns).as("%s: the books", when).hasSizeGreaterThanOrEqualTo(BOOKS);
        isbns.forEach((pk, isbn) -> assertThat(holders.get(isbn)).as("%s: the sentinel of %s's ISBN %s", when, pk, isbn)
                .isEqualTo(pk));
        holders.forEach((isbn, pk) -> assertThat(isbns.get(pk)).as("%s: the book holding ISBN %s", when, isbn)
                .isEqualTo(isbn));
    }

    /**
     * Read straight from the table: a live loan at version v has the snapshots of versions 1 to v-1, all of them (the
     * library keeps 20, and no loan here reaches that); a deleted loan has the snapshots of every version it had, its
     * last one marked with who deleted it.
     */
    void assertEveryVersionHasItsSnapshot(Set<String> loans) {
        var live = new HashMap<String, Long>();
        var snapshots = new HashMap<String, List<Long>>();
        var deleted = new HashMap<String, Long>();
        for (var item : scan()) {
            String sk = item.get("sk").s();
            if (item.get("pk").s().startsWith("~DELETED#")) {
                continue; // a soft-deleted loan's tombstone, not the loan
            }
            for (String loan : loans) {
                if (sk.equals("LOAN#" + loan)) {
                    live.put(loan, Long.parseLong(item.get("_version").n()));
                } else if (sk.startsWith("~VERSION#LOAN#" + loan + "#")) {
                    long version = Long.parseLong(item.get("_version").n());
                    snapshots.computeIfAbsent(loan, l -> new ArrayList<>()).add(version);
                    if (item.containsKey("_deletedBy")) {
                        deleted.put(loan, version);
                    }
                }
            }
        }
        for (String loan : loans) {
            var kept = snapshots.getOrDefault(loan, List.of()).stream().sorted().toList();
            if (live.containsKey(loan)) {
                long version = live.get(loan);
                assertThat(kept).as("the snapshots of loan %s, live at version %d", loan, version)
                        .isEqualTo(java.util.stream.LongStream.range(1, version).boxed().toList());
                assertThat(deleted).as("a live loan is not marked deleted").doesNotContainKey(loan);
            } else {
                assertThat(deleted).as("deleted loan %s: its last version is kept, marked", loan).containsKey(loan);
                assertThat(kept).as("the snapshots of deleted loan %s", loan)
                        .isEqualTo(java.util.stream.LongStream.rangeClosed(1, deleted.get(loan)).boxed().toList());
            }
        }
    }

    Map<String, String> sentinels() {
        var holders = new HashMap<String, String>();
        for (var item : scan()) {
            String pk = item.get("pk").s();
            if (pk.startsWith(SENTINEL) && pk.endsWith("-" + k + "@example.org")) {
                holders.put(pk.substring(SENTINEL.length()), item.get("_ownerPk").s());
            }
        }
        return holders;
    }

    List<Map<String, AttributeValue>> scan() {
        String table = direct.listTables().join().tableNames().get(0);
        var items = new ArrayList<Map<String, AttributeValue>>();
        Map<String, AttributeValue> start = null;
        do {
            var page = direct.scan(ScanRequest.builder().tableName(table).consistentRead(true).exclusiveStartKey(start).build()).join();
            items.addAll(page.items());
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return items;
    }
}
