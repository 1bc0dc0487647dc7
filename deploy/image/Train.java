import dev.cairn.platform.EmbeddedDynamoDb;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The AOT cache's training run: a real start of the packaged app against DynamoDB Local, with every route of the API
 * called as a client would (all GET and POST routes, and the PATCH, PUT and DELETE ones too), then a graceful stop —
 * the JVM writes the cache at exit ({@code -XX:AOTCacheOutput}). Used by deploy/image/build-jvm-image.sh (the app in
 * a chroot of the image) and by src/main/docker/Dockerfile.jvm (the app in the image being built).
 *
 * <p>Usage:
 * <pre>
 * java -cp target/classes:&lt;DynamoDB Local's classpath&gt; Train.java [options] -- APP COMMAND... [--floor FLOOR COMMAND...]
 *     [--quarkus-rest QUARKUS-REST COMMAND...]
 *   --files HOST_DIR:APP_DIR  where the app finds the files this writes (the JWT public key, the floor's routes);
 *                             default /tmp:/tmp
 *   --log FILE                the app's output (default: inherited)
 *   --floor-log FILE          the floor's output (default: inherited)
 *   --quarkus-rest-log FILE   the quarkus-rest service's output (default: inherited)
 *   --rounds N                how many times every route is called (default 3)
 * </pre>
 * With {@code --floor}, the hand-written floor (src/bench baseline.HandWritten) is trained next, against the same
 * DynamoDB Local: {port} and {dynamodb} in its command are replaced, and it reads its routes from
 * HOST_DIR/access-patterns.json, written here from the app's /access-patterns. With {@code --quarkus-rest}, the
 * hand-written quarkus-rest service (src/bench/baseline-rest) likewise, after the floor.
 *
 * The app is started with a clean environment holding only its configuration: DynamoDB Local's address (in-process
 * here, on 127.0.0.1 and a free port), free HTTP and management ports, the table created at start, a random cursor
 * secret, and authentication ON with a key pair made for this run (tokens minted here, RS256), so the JWT path is
 * trained too.
 */
public class Train {

    static final String ISSUER = "https://cairn.training";
    static final String AUDIENCE = "cairn";

    public static void main(String[] args) throws Exception {
        try {
            run(args);
        } catch (Exception e) {
            e.printStackTrace();
            System.exit(1);
        }
        // DynamoDB Local leaves a non-daemon thread behind.
        System.exit(0);
    }

    static void run(String[] args) throws Exception {
        String hostDir = "/tmp";
        String appDir = "/tmp";
        Path log = null;
        Path floorLog = null;
        Path quarkusRestLog = null;
        int rounds = 3;
        int i = 0;
        for (; i < args.length && !args[i].equals("--"); i++) {
            switch (args[i]) {
                case "--files" -> {
                    String[] dirs = args[++i].split(":", 2);
                    hostDir = dirs[0];
                    appDir = dirs[1];
                }
                case "--log" -> log = Path.of(args[++i]);
                case "--floor-log" -> floorLog = Path.of(args[++i]);
                case "--quarkus-rest-log" -> quarkusRestLog = Path.of(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        List<String> rest = Arrays.asList(args).subList(Math.min(i + 1, args.length), args.length);
        int quarkusRestAt = rest.indexOf("--quarkus-rest");
        List<String> quarkusRestCommand = quarkusRestAt < 0 ? List.of() : rest.subList(quarkusRestAt + 1, rest.size());
        rest = quarkusRestAt < 0 ? rest : rest.subList(0, quarkusRestAt);
        int floorAt = rest.indexOf("--floor");
        List<String> command = floorAt < 0 ? rest : rest.subList(0, floorAt);
        List<String> floorCommand = floorAt < 0 ? List.of() : rest.subList(floorAt + 1, rest.size());
        if (command.isEmpty()) {
            throw new IllegalArgumentException("no app command after --");
        }

        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair keys = generator.generateKeyPair();
        Path keyFile = Path.of(hostDir, "training-jwt.pem");
        Files.writeString(keyFile, "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(keys.getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n");
        keyFile.toFile().setReadable(true, false);

        try (EmbeddedDynamoDb dynamo = EmbeddedDynamoDb.start(0, null)) {
            int http = freePort();
            int management = freePort();
            var builder = new ProcessBuilder(command);
            Map<String, String> env = builder.environment();
            env.clear();
            env.put("PATH", "/opt/java/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
            env.put("LANG", "C.UTF-8");
            env.put("QUARKUS_HTTP_PORT", String.valueOf(http));
            env.put("QUARKUS_MANAGEMENT_PORT", String.valueOf(management));
            env.put("QUARKUS_DYNAMODB_ENDPOINT_OVERRIDE", dynamo.endpoint());
            env.put("QUARKUS_DYNAMODB_AWS_REGION", "us-east-1");
            env.put("QUARKUS_DYNAMODB_AWS_CREDENTIALS_TYPE", "static");
            env.put("QUARKUS_DYNAMODB_AWS_CREDENTIALS_STATIC_PROVIDER_ACCESS_KEY_ID", "training");
            env.put("QUARKUS_DYNAMODB_AWS_CREDENTIALS_STATIC_PROVIDER_SECRET_ACCESS_KEY", "training");
            env.put("CAIRN_TABLE_CREATE", "true");
            env.put("CAIRN_DIAGNOSTICS_HEADERS", "true");
            env.put("CAIRN_CURSOR_SECRET", UUID.randomUUID().toString() + UUID.randomUUID());
            env.put("MP_JWT_VERIFY_PUBLICKEY_LOCATION", appDir + "/training-jwt.pem");
            env.put("MP_JWT_VERIFY_ISSUER", ISSUER);
            env.put("MP_JWT_VERIFY_AUDIENCES", AUDIENCE);
            builder.redirectErrorStream(true);
            if (log != null) {
                builder.redirectOutput(log.toFile());
            } else {
                builder.inheritIO();
            }
            long started = System.nanoTime();
            Process app = builder.start();
            try {
                Client client = new Client("http://127.0.0.1:" + http, "http://127.0.0.1:" + management, "Bearer " + token(keys));
                client.awaitReady(app, Duration.ofSeconds(120));
                System.out.printf("train: ready in %d ms%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
                int calls = 0;
                for (int round = 0; round < rounds; round++) {
                    calls += client.exerciseEveryRoute("r" + round + "-" + UUID.randomUUID().toString().substring(0, 6));
                }
                System.out.println("train: " + calls + " requests in " + rounds + " rounds, every route answered");
                // The routes the hand-written floor serves: the app's own Queries of three of its GET routes.
                Files.writeString(Path.of(hostDir, "access-patterns.json"), floorRoutes(client.get(200, "/access-patterns").body()));
            } finally {
                stop(app);
            }
            if (app.exitValue() != 0 && app.exitValue() != 143) {
                throw new IllegalStateException("the app exited with " + app.exitValue());
            }
            if (!floorCommand.isEmpty()) {
                trainBaseline("the floor", floorCommand, dynamo.endpoint(), Path.of(hostDir, "access-patterns.json"), floorLog, rounds);
            }
            if (!quarkusRestCommand.isEmpty()) {
                trainBaseline("the quarkus-rest service", quarkusRestCommand, dynamo.endpoint(),
                        Path.of(hostDir, "access-patterns.json"), quarkusRestLog, rounds);
            }
        }
    }

    /**
     * A hand-written baseline the same way (the floor, src/bench baseline.HandWritten, or the quarkus-rest service,
     * src/bench/baseline-rest): started ({port} and {dynamodb} in its command replaced), each of the floor's routes
     * called with the id the app lists for it, stopped.
     */
    static void trainBaseline(String name, List<String> template, String dynamodb, Path patterns, Path log, int rounds)
            throws Exception {
        int port = freePort();
        var builder = new ProcessBuilder(template.stream()
                .map(arg -> arg.replace("{port}", String.valueOf(port)).replace("{dynamodb}", dynamodb)).toList());
        builder.environment().clear();
        builder.environment().put("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
        builder.redirectErrorStream(true);
        if (log != null) {
            builder.redirectOutput(log.toFile());
        } else {
            builder.inheritIO();
        }
        Process floor = builder.start();
        try {
            String base = "http://127.0.0.1:" + port;
            Client client = new Client(base, base, "none");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (true) {
                if (!floor.isAlive()) {
                    throw new IllegalStateException(name + " exited with " + floor.exitValue());
                }
                try {
                    // Listening: any answer (the floor answers 200 here, the quarkus-rest service 404).
                    client.send("GET", base + "/ready", null, null, false);
                    break;
                } catch (IOException e) {
                    // not listening yet
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(name + " did not listen within 60 s");
                }
                Thread.sleep(50);
            }
            int calls = 0;
            for (String path : floorPaths(patterns)) {
                for (int round = 0; round < rounds * 3; round++) {
                    // The demo ids are not in the training's table: the floor answers an empty match, the quarkus-rest
                    // service a 404 — either after the route's Query.
                    int status = client.send("GET", base + path, null, null, false).statusCode();
                    if (status != 200 && status != 404) {
                        throw new IllegalStateException("GET " + path + " answered " + status + " from " + name);
                    }
                    calls++;
                }
            }
            System.out.println("train: " + name + " answered " + calls + " requests");
        } finally {
            stop(floor);
        }
    }

    /**
     * The floor's routes file ({route, exampleId, request}, as the benchmark writes it): the Query the app lists at
     * /access-patterns for each route the floor answers, with the demo id it was listed for.
     */
    static String floorRoutes(String accessPatterns) throws IOException {
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        Map<String, String> exampleIds = Map.of("GET /matches/{id}", "bgt-2025-test-1",
                "GET /workspaces/{id}/projects", "acme", "GET /courses/{cid}/students", "math204");
        var routes = json.createArrayNode();
        for (var pattern : json.readTree(accessPatterns)) {
            String exampleId = exampleIds.get(pattern.path("route").asText());
            if (exampleId != null) {
                routes.addObject().put("route", pattern.get("route").asText()).put("exampleId", exampleId)
                        .set("request", pattern.get("request"));
            }
        }
        if (routes.size() != exampleIds.size()) {
            throw new IllegalStateException("the app lists " + routes.size() + " of the floor's " + exampleIds.size() + " routes");
        }
        return routes.toPrettyString();
    }

    /** The floor's routes with their example ids, from the access-patterns file it was started with. */
    static List<String> floorPaths(Path patterns) throws IOException {
        var paths = new java.util.ArrayList<String>();
        for (var pattern : new com.fasterxml.jackson.databind.ObjectMapper().readTree(patterns.toFile())) {
            String route = pattern.get("route").asText();
            if (route.startsWith("GET ")) {
                paths.add(route.substring(4).replaceAll("\\{[^}]+}", pattern.get("exampleId").asText()));
            }
        }
        return paths;
    }

    /** SIGTERM to the JVM (the launcher's deepest descendant, or the launcher itself), then wait for the cache. */
    static void stop(Process app) throws InterruptedException {
        List<ProcessHandle> descendants = app.descendants().toList();
        if (descendants.isEmpty()) {
            app.destroy();
        } else {
            descendants.forEach(ProcessHandle::destroy);
        }
        // Writing the AOT cache at exit takes a while (a second JVM assembles it).
        if (!app.waitFor(300, TimeUnit.SECONDS)) {
            app.destroyForcibly();
            throw new IllegalStateException("the app did not stop within 300 s");
        }
    }

    static int freePort() throws IOException {
        try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** An RS256 JWT with every role and every workspace, valid for an hour. */
    static String token(KeyPair keys) throws Exception {
        long now = System.currentTimeMillis() / 1000;
        String header = "{\"alg\":\"RS256\",\"typ\":\"JWT\"}";
        String payload = "{\"iss\":\"" + ISSUER + "\",\"aud\":\"" + AUDIENCE + "\",\"sub\":\"training\",\"upn\":\"training\","
                + "\"groups\":[\"cairn-reader\",\"cairn-writer\",\"cairn-admin\"],\"workspaces\":\"*\",\"iat\":" + now
                + ",\"exp\":" + (now + 3600) + ",\"jti\":\"" + UUID.randomUUID() + "\"}";
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String input = b64.encodeToString(header.getBytes(StandardCharsets.UTF_8)) + "."
                + b64.encodeToString(payload.getBytes(StandardCharsets.UTF_8));
        Signature rsa = Signature.getInstance("SHA256withRSA");
        rsa.initSign(keys.getPrivate());
        rsa.update(input.getBytes(StandardCharsets.US_ASCII));
        return input + "." + b64.encodeToString(rsa.sign());
    }

    /** The requests: each checked for the status a client expects (a broken route fails the training). */
    static final class Client {
        final String api;
        final String management;
        final String authorization;
        final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2)).build();
        int calls;

        Client(String api, String management, String authorization) {
            this.api = api;
            this.management = management;
            this.authorization = authorization;
        }

        void awaitReady(Process app, Duration limit) throws Exception {
            long deadline = System.nanoTime() + limit.toNanos();
            while (true) {
                if (!app.isAlive()) {
                    throw new IllegalStateException("the app exited with " + app.exitValue() + " before it was ready");
                }
                try {
                    if (send("GET", management + "/q/health/ready", null, null, false).statusCode() == 200) {
                        return;
                    }
                } catch (IOException e) {
                    // not listening yet
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the app was not ready within " + limit.toSeconds() + " s");
                }
                Thread.sleep(50);
            }
        }

        int exerciseEveryRoute(String k) throws Exception {
            int before = calls;
            // Operations: probes, metrics, the contract, the access patterns.
            expect(200, "GET", management + "/q/health/ready", null, null);
            expect(200, "GET", management + "/q/health/live", null, null);
            expect(200, "GET", management + "/q/health/started", null, null);
            expect(200, "GET", management + "/q/metrics", null, null);
            expect(200, "GET", management + "/q/openapi?format=json", null, null);
            expect(200, "GET", management + "/q/openapi", null, null);
            get(200, "/access-patterns");

            // Cricket: the entities, a match embedding them, its reads, patches and cascades.
            String t1 = "t1-" + k, t2 = "t2-" + k, c1 = "c1-" + k, c2 = "c2-" + k, v = "v-" + k, p1 = "p1-" + k,
                    p2 = "p2-" + k, m = "m-" + k, squad = "sq-" + k;
            post(201, "/teams", "{\"id\":\"" + t1 + "\",\"name\":\"Australia\",\"country\":\"Australia\",\"ranking\":1}");
            post(201, "/teams", "{\"id\":\"" + t2 + "\",\"name\":\"India\",\"country\":\"India\",\"ranking\":2}");
            post(201, "/coaches", "{\"id\":\"" + c1 + "\",\"name\":\"McDonald\"}");
            post(201, "/coaches", "{\"id\":\"" + c2 + "\",\"name\":\"Gambhir\"}");
            post(201, "/venues", "{\"id\":\"" + v + "\",\"name\":\"MCG\",\"city\":\"Melbourne\"}");
            post(201, "/players", "{\"id\":\"" + p1 + "\",\"firstName\":\"Pat\",\"lastName\":\"Cummins\",\"role\":\"bowler\"}");
            post(201, "/players", "{\"id\":\"" + p2 + "\",\"firstName\":\"Virat\",\"lastName\":\"Kohli\",\"role\":\"batter\"}");
            String match = "{\"id\":\"" + m + "\",\"name\":\"Test\",\"venueId\":\"" + v + "\","
                    + "\"team1\":{\"teamId\":\"" + t1 + "\",\"coachId\":\"" + c1 + "\",\"homeTeam\":true,"
                    + "\"players\":[{\"playerId\":\"" + p1 + "\",\"battingPosition\":8,\"isCaptain\":true}]},"
                    + "\"team2\":{\"teamId\":\"" + t2 + "\",\"coachId\":\"" + c2 + "\",\"homeTeam\":false,"
                    + "\"players\":[{\"playerId\":\"" + p2 + "\",\"battingPosition\":4,\"isCaptain\":true}]}}";
            post(201, "/matches", match);
            post(409, "/matches", match);
            post(400, "/teams", "{\"id\":\"\",\"ranking\":-1}");
            get(200, "/matches/" + m);
            get(200, "/matches?limit=5");
            get(404, "/matches/none-" + k);
            get(200, "/teams/" + t1);
            get(200, "/teams/" + t1 + "/references");
            get(200, "/teams/" + t1 + "/matches");
            get(200, "/players/" + p1);
            get(200, "/players/" + p1 + "/references");
            get(200, "/players/" + p1 + "/matches");
            get(200, "/coaches/" + c1);
            get(200, "/coaches/" + c1 + "/references");
            get(200, "/venues/" + v);
            get(200, "/venues/" + v + "/references");
            get(200, "/venues/" + v + "/matches");
            send(200, "PATCH", "/matches/" + m, "application/json-patch+json",
                    "[{\"op\":\"replace\",\"path\":\"/team1/players/0/battingPosition\",\"value\":9}]");
            send(200, "PATCH", "/players/" + p1, "application/merge-patch+json", "{\"lastName\":\"Cummins AO\"}");
            send(200, "PATCH", "/teams/" + t1, "application/merge-patch+json", "{\"ranking\":3}");
            send(200, "PATCH", "/coaches/" + c1, "application/merge-patch+json", "{\"name\":\"A. McDonald\"}");
            send(200, "PATCH", "/venues/" + v, "application/merge-patch+json", "{\"city\":\"Melbourne VIC\"}");
            send(200, "PUT", "/matches/" + m, "application/json", match.replace("\"Test\"", "\"Boxing Day Test\""));
            get(200, "/cascades?limit=5");
            get(200, "/cascades?state=done");
            get(404, "/cascades/none-" + k);
            send(404, "POST", "/cascades/none-" + k + "/retry", null, null);
            post(201, "/squads/" + squad + "/selections", "{\"selectionNumber\":1,\"teamId\":\"" + t1 + "\",\"playerId\":\""
                    + p1 + "\",\"squadRole\":\"bowler\",\"isCaptain\":true}");
            post(201, "/squads/" + squad + "/selections", "{\"selectionNumber\":2,\"teamId\":\"" + t1 + "\",\"playerId\":\""
                    + p2 + "\",\"squadRole\":\"batter\",\"isCaptain\":false}");
            get(200, "/squads/" + squad + "/selections");
            get(200, "/squads/" + squad + "/selections/1");
            get(200, "/players/" + p1 + "/selections");
            send(200, "PATCH", "/squads/" + squad + "/selections/1", "application/merge-patch+json", "{\"squadRole\":\"all-rounder\"}");
            send(204, "DELETE", "/squads/" + squad + "/selections/2", null, null);

            // School: students, courses, enrollments in both directions.
            String s = "s-" + k, course = "cs-" + k;
            post(201, "/students", "{\"id\":\"" + s + "\",\"name\":\"Ada\",\"year\":2,\"major\":\"Mathematics\"}");
            post(201, "/courses", "{\"id\":\"" + course + "\",\"title\":\"Linear Algebra\",\"credits\":4,\"term\":\"2026-fall\"}");
            send(201, "PUT", "/students/" + s + "/enrollments/" + course, "application/json", "{\"grade\":\"A\"}");
            get(200, "/students/" + s);
            get(200, "/courses/" + course);
            get(200, "/courses/" + course + "/students");
            get(200, "/students/" + s + "/courses");
            get(200, "/students/" + s + "/enrollments/" + course);
            send(200, "PATCH", "/students/" + s + "/enrollments/" + course, "application/merge-patch+json", "{\"grade\":\"A+\"}");
            send(200, "PATCH", "/students/" + s, "application/merge-patch+json", "{\"year\":3}");
            send(200, "PATCH", "/courses/" + course, "application/merge-patch+json", "{\"credits\":5}");
            send(204, "DELETE", "/students/" + s + "/enrollments/" + course, null, null);

            // Social: users, posts, comments.
            String u = "u-" + k;
            post(201, "/users", "{\"id\":\"" + u + "\",\"firstName\":\"Grace\",\"lastName\":\"Hopper\"}");
            String post = lastSegment(post(201, "/users/" + u + "/posts", "{\"title\":\"Hello\",\"content\":\"First post\"}"));
            post(201, "/posts/" + post + "/comments", "{\"content\":\"Nice\",\"userId\":\"" + u + "\"}");
            get(200, "/users/" + u);
            get(200, "/users/" + u + "/posts");
            get(200, "/posts/" + post);
            get(200, "/posts/" + post + "/comments");
            send(200, "PATCH", "/users/" + u + "/posts/" + post, "application/merge-patch+json", "{\"title\":\"Hello again\"}");
            send(200, "PATCH", "/users/" + u, "application/merge-patch+json", "{\"lastName\":\"Murray Hopper\"}");

            // Workspaces: a sharded tenant, its projects, the cross-workspace status index.
            String ws = "ws-" + k;
            post(201, "/workspaces", "{\"id\":\"" + ws + "\",\"displayName\":\"Acme\",\"region\":\"eu-west-1\",\"seatLimit\":10}");
            String project = lastSegment(post(201, "/workspaces/" + ws + "/projects", "{\"title\":\"Apollo\",\"status\":\"ACTIVE\"}"));
            get(200, "/workspaces/" + ws);
            get(200, "/workspaces/" + ws + "/projects");
            get(200, "/workspaces/" + ws + "/projects/" + project);
            get(200, "/projects?status=ACTIVE&limit=5");
            send(200, "PATCH", "/workspaces/" + ws + "/projects/" + project, "application/merge-patch+json", "{\"status\":\"PAUSED\"}");
            send(200, "PATCH", "/workspaces/" + ws, "application/merge-patch+json", "{\"seatLimit\":20}");
            send(204, "DELETE", "/workspaces/" + ws + "/projects/" + project, null, null);

            // Maintenance jobs.
            String job = lastSegment(post(202, "/maintenance/reconcile", "{\"entity\":\"player\",\"id\":\"" + p1 + "\"}"));
            get(200, "/maintenance/jobs/" + job);
            get(200, "/maintenance/reconcile?limit=5");
            String backfill = lastSegment(send(202, "POST", "/maintenance/aggregates/Match/list-backfills", null, null));
            get(200, "/maintenance/jobs/" + backfill);

            // Deletes last (entities others embed need cairn-admin).
            send(204, "DELETE", "/matches/" + m, null, null);
            send(204, "DELETE", "/teams/" + t2, null, null);
            send(204, "DELETE", "/coaches/" + c2, null, null);
            send(204, "DELETE", "/players/" + p2, null, null);
            send(204, "DELETE", "/venues/" + v, null, null);
            // Without a token: 401, the problem document.
            HttpResponse<String> anonymous = send("GET", api + "/matches/" + m, null, null, false);
            if (anonymous.statusCode() != 401) {
                throw new IllegalStateException("GET without a token answered " + anonymous.statusCode());
            }
            calls++;
            return calls - before;
        }

        HttpResponse<String> get(int status, String path) throws Exception {
            return send(status, "GET", path, null, null);
        }

        HttpResponse<String> post(int status, String path, String json) throws Exception {
            return send(status, "POST", path, "application/json", json);
        }

        HttpResponse<String> send(int status, String method, String path, String contentType, String body) throws Exception {
            return expect(status, method, api + path, contentType, body);
        }

        HttpResponse<String> expect(int status, String method, String url, String contentType, String body) throws Exception {
            HttpResponse<String> response = send(method, url, contentType, body, true);
            calls++;
            if (response.statusCode() != status) {
                throw new IllegalStateException(method + " " + url + " answered " + response.statusCode() + ", expected "
                        + status + ": " + response.body());
            }
            return response;
        }

        HttpResponse<String> send(String method, String url, String contentType, String body, boolean authorized)
                throws IOException, InterruptedException {
            var request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
            if (contentType != null) {
                request.header("Content-Type", contentType);
            }
            if (authorized) {
                request.header("Authorization", authorization);
            }
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }

        static String lastSegment(HttpResponse<String> response) {
            String location = response.headers().firstValue("Location")
                    .orElseThrow(() -> new IllegalStateException("no Location: " + response.uri()));
            return location.substring(location.lastIndexOf('/') + 1);
        }
    }
}
