package dev.cairn.platform;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The Kubernetes manifests as a cluster receives them: a kustomize overlay rendered by kubectl. */
public final class Manifests {

    public static final List<String> OVERLAYS = List.of("local", "aws");

    private Manifests() {
    }

    /** The rendered YAML of deploy/kubernetes/overlays/{overlay}. */
    public static String renderYaml(String overlay) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("kubectl", "kustomize", "deploy/kubernetes/overlays/" + overlay)
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("kubectl kustomize " + overlay + " failed: " + output);
        }
        return output;
    }

    /** Every object of the rendered overlay, as JSON trees. */
    public static List<JsonNode> render(String overlay) throws IOException, InterruptedException {
        var docs = new ArrayList<JsonNode>();
        ObjectMapper yaml = new YAMLMapper();
        try (var parser = new YAMLFactory().createParser(renderYaml(overlay))) {
            yaml.readValues(parser, JsonNode.class).forEachRemaining(docs::add);
        }
        return docs;
    }

    public static JsonNode find(List<JsonNode> docs, String kind, String name) {
        return docs.stream().filter(d -> kind.equals(d.path("kind").asText()) && name.equals(d.at("/metadata/name").asText()))
                .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " " + name));
    }
}
