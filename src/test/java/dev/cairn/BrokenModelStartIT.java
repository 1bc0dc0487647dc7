package dev.cairn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.platform.DynamoDbLocalTestResource;
import dev.cairn.platform.EmbeddedDynamoDb;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged app (prod profile, its JSON log) with a broken model file on its class path, beside a DynamoDB that
 * answers: the start fails with one ERROR record naming the file, the line and the field, and nothing else that
 * looks like a problem. The criterion, over the whole output: exactly one ERROR record; no WARN record; no record
 * carrying an exception; no line of a stack trace, and no exception's name anywhere (so neither a DynamoDB call cut
 * off by the shutdown nor Quarkus reporting the same failure again); the one plain line Quarkus prints last says the
 * start failed.
 */
class BrokenModelStartIT {

    /** An entity field of an unknown type, on line 10. */
    private static final String BROKEN = """
            domain: Broken
            description: "A model with one mistake"

            entities:
              Shelf:
                key: { pk: "SHELF#{shelfId}", sk: SHELF }
                path: /shelves/{shelfId}
                fields:
                  shelfId: id
                  label: { type: text }
            """;

    @Test
    void aBrokenModelFileStopsTheStartWithOneErrorNamingItsFileLineAndFieldAndNothingElse() throws Exception {
        Path classes = Files.createTempDirectory("cairn-broken-model");
        Files.createDirectories(classes.resolve("models"));
        Files.writeString(classes.resolve("models/broken.yaml"), BROKEN);
        String external = DynamoDbLocalTestResource.external();
        EmbeddedDynamoDb dynamoDb = external == null ? EmbeddedDynamoDb.start(0, null) : null;
        String output;
        try {
            output = startAndFail(classes, external != null ? external : dynamoDb.endpoint());
        } finally {
            if (dynamoDb != null) {
                dynamoDb.close();
            }
        }

        var json = new ObjectMapper();
        var records = new ArrayList<JsonNode>();
        var plain = new ArrayList<String>();
        for (String line : output.split("\n")) {
            if (line.startsWith("{")) {
                records.add(json.readTree(line));
            } else if (!line.isBlank()) {
                plain.add(line);
            }
        }
        assertThat(records.stream().filter(r -> r.path("level").asText().equals("ERROR")))
                .as(output).singleElement().satisfies(error -> {
                    assertThat(error.path("loggerName").asText()).isEqualTo("dev.cairn.declared.DeclaredModels");
                    assertThat(error.path("message").asText()).startsWith("a model file cannot be served: "
                            + "models/broken.yaml:10: entities.Shelf.fields.label.type: unknown type 'text'");
                });
        assertThat(records).as(output).noneMatch(r -> r.path("level").asText().equals("WARN"))
                .noneMatch(r -> r.has("exception"));
        assertThat(output).as(output).doesNotContain("\tat ").doesNotContain("Caused by").doesNotContain("Exception");
        assertThat(plain).as(output).last().isEqualTo(
                "Cairn did not start: a model file cannot be served (the ERROR above says which and why)");
    }

    /** The packaged app with the directory first on its class path, against the endpoint; its whole output. */
    private static String startAndFail(Path classes, String endpoint) throws Exception {
        Path jar = Path.of("target/quarkus-app/quarkus-run.jar");
        assertThat(jar).exists();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        File log = File.createTempFile("cairn-broken-model", ".log");
        log.deleteOnExit();
        var command = new ArrayList<>(List.of(java, "-Dquarkus.http.port=0", "-Dquarkus.management.port=0"));
        DynamoDbLocalTestResource.config(endpoint).forEach((key, value) -> {
            if (!key.equals("quarkus.management.port")) {
                command.add("-D" + key + "=" + value);
            }
        });
        command.addAll(List.of("-cp", classes + File.pathSeparator + jar, "io.quarkus.bootstrap.runner.QuarkusEntryPoint"));
        var process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start();
        boolean exited = process.waitFor(60, TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly();
        }
        String output = Files.readString(log.toPath());
        assertThat(exited).as("the app exits instead of serving: " + output).isTrue();
        assertThat(process.exitValue()).as(output).isNotZero();
        return output;
    }
}
