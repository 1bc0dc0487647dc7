package dev.cairn.platform;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

/**
 * What the HTTP layer answers before (or instead of) a resource, sent as raw bytes (a client library would refuse to
 * send most of it): a problem+json with the standard headers wherever Cairn can reach the answer, and exactly the
 * documented bare answers where the HTTP layer answers alone. Also: metrics never take a tag from a junk path.
 */
@QuarkusTest
class HttpLayerResourceTest {

    private static final int PORT = Integer.getInteger("quarkus.http.test-port", 8081);

    record Raw(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    static Raw send(String head, String body) throws IOException {
        try (Socket socket = new Socket("localhost", PORT)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write((head + "Connection: close\r\n\r\n" + body).getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            return parse(socket.getInputStream());
        }
    }

    private static Raw parse(InputStream in) throws IOException {
        var bytes = new ByteArrayOutputStream();
        try {
            in.transferTo(bytes);
        } catch (IOException e) {
            // a reset after the answer: what was read is the answer
        }
        String text = bytes.toString(StandardCharsets.UTF_8);
        int end = text.indexOf("\r\n\r\n");
        assertThat(end).as("an HTTP answer: %s", text).isPositive();
        String[] lines = text.substring(0, end).split("\r\n");
        var headers = new LinkedHashMap<String, String>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
        return new Raw(Integer.parseInt(lines[0].split(" ")[1]), headers, text.substring(end + 4));
    }

    private static void assertProblem(Raw answer, int status, String code) {
        assertThat(answer.status()).as(answer.toString()).isEqualTo(status);
        assertThat(answer.header("Content-Type")).isEqualTo("application/problem+json");
        assertThat(answer.body()).contains("\"code\":\"" + code + "\"").contains("\"status\":" + status);
        assertThat(answer.header("X-Request-Id")).isNotBlank();
        assertThat(answer.header("X-DynamoDB-Calls")).isEqualTo("0");
        assertThat(answer.header("X-DynamoDB-Capacity")).isEqualTo("0.0");
        assertThat(answer.header("Server-Timing")).startsWith("dynamodb;dur=");
    }

    @Test
    void anUnknownOrUnsupportedMethodIsA405ThatSaysWhichMethodsThereAre() throws IOException {
        Raw unknown = send("BREW /teams/t1 HTTP/1.1\r\nHost: localhost\r\n", "");
        assertThat(unknown.status()).isEqualTo(405);
        assertThat(unknown.header("Content-Type")).isEqualTo("application/problem+json");
        assertThat(unknown.header("X-Request-Id")).isNotBlank();
        assertThat(unknown.header("Allow")).contains("GET").contains("PATCH").contains("DELETE");
        Raw options = send("OPTIONS /teams/t1 HTTP/1.1\r\nHost: localhost\r\n", "");
        assertThat(options.status()).isEqualTo(200);
        assertThat(options.header("Allow")).isEqualTo("DELETE, GET, PATCH, HEAD, OPTIONS");
        Raw declared = send("OPTIONS /books/b1/authors HTTP/1.1\r\nHost: localhost\r\n", "");
        assertThat(declared.header("Allow")).isEqualTo("GET, HEAD, OPTIONS");
        assertThat(send("OPTIONS /shelves/s1 HTTP/1.1\r\nHost: localhost\r\n", "").status()).isEqualTo(404);
        given().contentType("application/json").body("{}").put("/teams/{id}", "t1").then().statusCode(405)
                .contentType("application/problem+json").header("Allow", containsString("GET"))
                .header("Allow", not(containsString("PUT")));
    }

    @Test
    void aBodyOverTheLimitIsA413WithTheStandardHeaders() throws IOException {
        Raw declared = send("POST /workspaces HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: 2000000\r\nExpect: 100-continue\r\nX-Request-Id: big-1\r\n", "");
        assertProblem(declared, 413, "PayloadTooLarge");
        assertThat(declared.header("X-Request-Id")).isEqualTo("big-1");
    }

    /** The HTTP layer answers these before any handler runs; the document says so (info.description). */
    @Test
    void anOverlongRequestLineOrHeaderBlockGetsTheDocumentedBareAnswer() throws IOException {
        // Without a length, the body is read before any resource runs: past the limit, a problem like any other.
        String chunk = "{\"id\":\"" + "a".repeat(600_000);
        String chunked = Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n"
                + Integer.toHexString(chunk.length()) + "\r\n" + "b".repeat(chunk.length()) + "\r\n0\r\n\r\n";
        Raw cut = send("POST /workspaces HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n", chunked);
        assertProblem(cut, 413, "PayloadTooLarge");
        Raw uri = send("GET /teams/" + "a".repeat(5000) + " HTTP/1.1\r\nHost: localhost\r\n", "");
        assertThat(uri.status()).isEqualTo(414);
        assertThat(uri.body()).isEmpty();
        Raw header = send("GET /teams/t1 HTTP/1.1\r\nHost: localhost\r\nX-Padding: " + "a".repeat(25_000) + "\r\n", "");
        assertThat(header.status()).isEqualTo(431);
        assertThat(header.body()).isEmpty();
        Raw head = send("POST /teams HTTP/1.1\r\nHost: localhost\r\nContent-Length: twelve\r\n", "");
        assertThat(head.status()).isEqualTo(400);
        assertThat(head.body()).isEmpty();
        for (String escape : new String[]{"/teams/a%zz", "/teams?limit=%zz", "/teams/a%4"}) {
            Raw bad = send("GET " + escape + " HTTP/1.1\r\nHost: localhost\r\n", "");
            assertThat(bad.status()).as(escape).isEqualTo(400);
            assertThat(bad.body()).as(escape).isEmpty();
            assertThat(bad.header("X-Request-Id")).as(escape).isNull();
        }
        String documented = given().port(Management.TEST_PORT).get("/q/openapi?format=json").then().statusCode(200)
                .extract().path("info.description");
        assertThat(documented).contains("414 for a request line").contains("431 for request headers")
                .contains("400 for a request head").contains("malformed percent-escape").doesNotContain("413");
    }

    @Test
    void aDeleteAnswersWhateverTheClientAccepts() {
        String id = "accept-" + UUID.randomUUID();
        given().contentType("application/json").body("{\"id\":\"" + id + "\",\"name\":\"Accept XI\",\"country\":\"NZ\",\"ranking\":3}")
                .post("/teams").then().statusCode(201);
        given().accept("application/problem+json").delete("/teams/{id}", id).then().statusCode(204);
        given().accept("application/problem+json").delete("/teams/{id}", id).then().statusCode(404)
                .contentType("application/problem+json");
    }

    @Test
    void aNotFoundWriteNamesTheApiIdNotTheStorageKey() {
        String id = "none-" + UUID.randomUUID();
        given().delete("/teams/{id}", id).then().statusCode(404)
                .body("detail", equalTo("team " + id + " does not exist"));
        given().delete("/workspaces/{w}/projects/{p}", "ws-" + id, "p1").then().statusCode(404)
                .body("detail", not(containsString("#")));
    }

    @Test
    void brokenJsonIsMalformedEvenInsideAField() {
        for (String broken : new String[]{"{\"id\":\"a\",\"name\":\"x", "{\"id\":\"a\",\"name\":tru}", "{\"id\":\"a\",\"ranking\":1x}", "{\"id\":"}) {
            given().contentType("application/json").body(broken).post("/teams").then().statusCode(400)
                    .body("code", equalTo("MalformedRequest"));
        }
        // well-formed JSON of the wrong type or range is a validation failure that names the field
        given().contentType("application/json").body("{\"id\":\"a\",\"name\":\"x\",\"country\":\"NZ\",\"ranking\":\"high\"}")
                .post("/teams").then().statusCode(400).body("code", equalTo("ValidationFailed"))
                .body("errors[0].field", equalTo("ranking"));
        given().contentType("application/json").body("{\"id\":\"a\",\"name\":\"x\",\"country\":\"NZ\",\"ranking\":99999999999}")
                .post("/teams").then().statusCode(400).body("code", equalTo("ValidationFailed"));
    }

    @Test
    void aLimitOutOfRangeIsRefusedWhereNothingIsListedToo() {
        given().queryParam("limit", 0).get("/workspaces/{id}", "acme").then().statusCode(400).body("errors[0].field", equalTo("limit"));
        given().queryParam("limit", 101).get("/posts/{id}", "p1").then().statusCode(400).body("errors[0].field", equalTo("limit"));
    }

    @Test
    void junkPathsAddNoMetricSeries() throws IOException {
        String[] shapes = {"GET /teams/j%%zz%d HTTP/1.1", "GET /junk-%d/x HTTP/1.1", "BREW /teams/j%d HTTP/1.1",
                "PUT /teams/j%d HTTP/1.1", "GET /teams?limit=%%zz%d HTTP/1.1"};
        for (String shape : shapes) { // each kind of junk once, so its one series exists
            send(String.format(shape, 0) + "\r\nHost: localhost\r\nContent-Length: 0\r\n", "");
        }
        long before = series();
        for (int i = 1; i <= 1000; i++) {
            Raw answer = send(String.format(shapes[i % shapes.length], i) + "\r\nHost: localhost\r\nContent-Length: 0\r\n", "");
            assertThat(answer.status()).isBetween(400, 499);
        }
        assertThat(series()).isEqualTo(before);
        String metrics = Management.management().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(metrics).doesNotContain("j%zz").doesNotContain("junk-").contains("uri=\"UNKNOWN\"");
    }

    private static long series() {
        return Management.management().get("/q/metrics").then().statusCode(200).extract().asString().lines()
                .filter(line -> line.startsWith("http_server_requests_seconds_count")).count();
    }
}
