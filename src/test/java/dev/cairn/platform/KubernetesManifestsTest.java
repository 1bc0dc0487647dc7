package dev.cairn.platform;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Renders both kustomize overlays with kubectl and checks them against the application's configuration. */
class KubernetesManifestsTest {

    @ParameterizedTest
    @ValueSource(strings = {"local", "aws"})
    void overlayRendersAndMatchesTheApplication(String overlay) throws Exception {
        List<JsonNode> docs = Manifests.render(overlay);
        JsonNode deployment = find(docs, "Deployment", "cairn");
        JsonNode container = deployment.at("/spec/template/spec/containers/0");
        assertThat(container.at("/ports/0/containerPort").asInt()).isEqualTo(8080);
        assertThat(container.at("/ports/1/name").asText()).isEqualTo("management");
        assertThat(container.at("/ports/1/containerPort").asInt()).isEqualTo(9000);
        for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
            assertThat(container.at("/" + probe + "/httpGet/port").asText()).as(probe).isEqualTo("management");
        }
        assertThat(deployment.at("/spec/template/metadata/annotations/prometheus.io~1port").asText()).isEqualTo("9000");
        assertThat(container.at("/startupProbe/httpGet/path").asText()).isEqualTo("/q/health/started");
        assertThat(container.at("/livenessProbe/httpGet/path").asText()).isEqualTo("/q/health/live");
        assertThat(container.at("/readinessProbe/httpGet/path").asText()).isEqualTo("/q/health/ready");
        assertThat(container.at("/securityContext/readOnlyRootFilesystem").asBoolean()).isTrue();
        assertThat(container.at("/securityContext/allowPrivilegeEscalation").asBoolean()).isFalse();
        assertThat(container.at("/securityContext/capabilities/drop/0").asText()).isEqualTo("ALL");
        assertThat(deployment.at("/spec/template/spec/securityContext/runAsNonRoot").asBoolean()).isTrue();
        assertThat(deployment.at("/spec/template/metadata/annotations/prometheus.io~1path").asText()).isEqualTo("/q/metrics");
        assertThat(container.at("/resources/limits/memory").asText()).isNotEmpty();

        JsonNode secretEnv = null;
        for (JsonNode env : container.at("/env")) {
            if (env.get("name").asText().equals("CAIRN_CURSOR_SECRET")) {
                secretEnv = env;
            }
        }
        assertThat(secretEnv).as("the cursor secret comes from a Secret").isNotNull();
        assertThat(secretEnv.at("/valueFrom/secretKeyRef/name").asText()).isEqualTo("cairn-secrets");

        JsonNode config = find(docs, "ConfigMap", "cairn-config");
        Set<String> known = knownEnvNames();
        config.get("data").fieldNames().forEachRemaining(name -> {
            assertThat(known).as("ConfigMap key %s maps to a configuration property", name).contains(name);
            assertThat(name).as("no cursor secret in a ConfigMap").doesNotContain("CURSOR");
        });
        assertThat(find(docs, "Service", "cairn").at("/spec/ports/0/targetPort").asText()).isEqualTo("http");
        assertThat(find(docs, "Service", "cairn").at("/spec/ports").size()).as("management stays off the Service").isEqualTo(1);
        assertThat(config.at("/data/MP_JWT_VERIFY_PUBLICKEY_LOCATION").asText()).as("authentication configured").isNotEmpty();
        assertThat(config.at("/data/MP_JWT_VERIFY_ISSUER").asText()).isNotEmpty();
        assertThat(config.at("/data").has("CAIRN_AUTH_ENABLED")).as("no overlay turns authentication off").isFalse();
        assertThat(find(docs, "ServiceAccount", "cairn").at("/metadata/annotations").has("eks.amazonaws.com/role-arn")).isTrue();
        assertThat(find(docs, "HorizontalPodAutoscaler", "cairn")).isNotNull();
        assertThat(find(docs, "PodDisruptionBudget", "cairn")).isNotNull();
        if (overlay.equals("local")) {
            assertThat(config.at("/data/QUARKUS_DYNAMODB_ENDPOINT_OVERRIDE").asText()).isEqualTo("http://dynamodb-local:8000");
            assertThat(find(docs, "Service", "dynamodb-local").at("/spec/ports/0/port").asInt()).isEqualTo(8000);
            assertThat(find(docs, "Secret", "cairn-secrets").at("/data").has("cursor-secret")).isTrue();
        } else {
            assertThat(config.at("/data").has("QUARKUS_DYNAMODB_ENDPOINT_OVERRIDE")).isFalse();
            assertThat(config.at("/data/CAIRN_TABLE_CREATE").asText()).isEqualTo("false");
        }
    }

    /** Env names of every cairn.* property (from the config mapping) and every key set in application.properties. */
    static Set<String> knownEnvNames() throws IOException {
        var properties = new HashSet<String>();
        collect(CairnConfig.class, "cairn", properties);
        for (String line : Files.readAllLines(Path.of("src/main/resources/application.properties"))) {
            if (!line.isBlank() && !line.startsWith("#") && line.contains("=")) {
                String key = line.substring(0, line.indexOf('=')).trim();
                properties.add(key.startsWith("%") ? key.substring(key.indexOf('.') + 1) : key);
            }
        }
        properties.add("quarkus.dynamodb.endpoint-override");
        var env = new HashSet<String>();
        properties.forEach(p -> env.add(p.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT)));
        return env;
    }

    private static void collect(Class<?> type, String prefix, Set<String> out) {
        for (Method method : type.getDeclaredMethods()) {
            String name = prefix + "." + method.getName().replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
            if (method.getReturnType().isInterface() && method.getReturnType().getEnclosingClass() == CairnConfig.class) {
                collect(method.getReturnType(), name, out);
            } else {
                out.add(name);
            }
        }
    }

    private static JsonNode find(List<JsonNode> docs, String kind, String name) {
        return Manifests.find(docs, kind, name);
    }
}
