package dev.cairn.platform;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import org.junit.jupiter.api.Test;
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
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Renders both kustomize overlays with kubectl and checks them as a cluster would (every object in Kubernetes' own
 * object model, no unknown field), against the application's configuration, and against production policies.
 */
class KubernetesManifestsTest {

    static final ObjectMapper MODEL = new ObjectMapper();

    @ParameterizedTest
    @ValueSource(strings = {"local", "aws"})
    void everyRenderedObjectIsAKubernetesObjectWithNoUnknownField(String overlay) throws Exception {
        List<JsonNode> docs = Manifests.render(overlay);
        assertThat(docs).hasSizeGreaterThanOrEqualTo(6);
        for (JsonNode doc : docs) {
            String what = doc.path("kind").asText() + " " + doc.at("/metadata/name").asText();
            KubernetesResource resource = MODEL.treeToValue(doc, KubernetesResource.class);
            assertThat(resource).as("%s has a known apiVersion and kind", what).isNotInstanceOf(GenericKubernetesResource.class);
            assertThat(unknownFields(resource, what)).as("fields Kubernetes does not know").isEmpty();
        }
    }

    @Test
    void theModelCheckCatchesAMisspelledFieldAndAWrongType() throws Exception {
        JsonNode deployment = Manifests.find(Manifests.render("local"), "Deployment", "cairn");
        var misspelled = deployment.deepCopy();
        ((ObjectNode) misspelled.at("/spec/template/spec/containers/0")).set("readinesProbe", MODEL.createObjectNode());
        assertThat(unknownFields(MODEL.treeToValue(misspelled, KubernetesResource.class), "Deployment cairn"))
                .containsExactly("Deployment cairn.spec.template.spec.containers[0].readinesProbe");
        var wrongType = deployment.deepCopy();
        ((ObjectNode) wrongType.at("/spec/template/spec")).put("terminationGracePeriodSeconds", "soon");
        assertThatThrownBy(() -> MODEL.treeToValue(wrongType, KubernetesResource.class)).isInstanceOf(JacksonException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "aws"})
    void productionPoliciesHold(String overlay) throws Exception {
        List<HasMetadata> objects = objects(overlay);
        List<Deployment> deployments = all(objects, Deployment.class);
        for (Deployment deployment : deployments) {
            String name = deployment.getMetadata().getName();
            var pod = deployment.getSpec().getTemplate().getSpec();
            assertThat(pod.getSecurityContext().getRunAsNonRoot()).as("%s runs as non-root", name).isTrue();
            for (Container container : pod.getContainers()) {
                String image = container.getImage();
                assertThat(image).as("%s: a pinned tag, never latest", name).matches("[^:]+:[^:]+").doesNotEndWith(":latest");
                var resources = container.getResources();
                assertThat(resources.getRequests()).as("%s requests cpu and memory", name).containsKeys("cpu", "memory");
                assertThat(resources.getLimits()).as("%s limits memory", name).containsKey("memory");
                assertThat(resources.getRequests().get("memory").getNumericalAmount())
                        .isLessThanOrEqualTo(resources.getLimits().get("memory").getNumericalAmount());
                assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).as(name).isFalse();
                assertThat(container.getSecurityContext().getCapabilities().getDrop()).as(name).contains("ALL");
                for (var env : container.getEnv()) {
                    assertThat(env.getValue() == null || !secretLooking(env.getName()))
                            .as("%s: %s comes from a Secret, not a literal", name, env.getName()).isTrue();
                }
            }
        }
        Deployment cairn = one(deployments, "cairn");
        Container app = cairn.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(app.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(cairn.getSpec().getReplicas()).as("the autoscaler owns the replica count").isNull();

        HorizontalPodAutoscaler hpa = one(all(objects, HorizontalPodAutoscaler.class), "cairn");
        assertThat(hpa.getSpec().getScaleTargetRef().getKind()).isEqualTo("Deployment");
        assertThat(hpa.getSpec().getScaleTargetRef().getName()).isEqualTo("cairn");
        assertThat(hpa.getSpec().getMinReplicas()).isBetween(1, hpa.getSpec().getMaxReplicas());

        PodDisruptionBudget pdb = one(all(objects, PodDisruptionBudget.class), "cairn");
        var podLabels = cairn.getSpec().getTemplate().getMetadata().getLabels();
        assertThat(podLabels).containsAllEntriesOf(pdb.getSpec().getSelector().getMatchLabels());
        boolean drainable = pdb.getSpec().getMaxUnavailable() != null
                ? pdb.getSpec().getMaxUnavailable().getIntVal() >= 1
                : pdb.getSpec().getMinAvailable().getIntVal() < hpa.getSpec().getMinReplicas();
        assertThat(drainable).as("the disruption budget lets a node drain at the autoscaler's minimum").isTrue();

        for (Service service : all(objects, Service.class)) {
            Deployment backend = deployments.stream()
                    .filter(d -> d.getSpec().getTemplate().getMetadata().getLabels().entrySet()
                            .containsAll(service.getSpec().getSelector().entrySet()))
                    .findFirst().orElseThrow(() -> new AssertionError("no pods for Service " + service.getMetadata().getName()));
            var portNames = backend.getSpec().getTemplate().getSpec().getContainers().stream()
                    .flatMap(c -> c.getPorts().stream()).map(ContainerPort::getName).toList();
            for (var port : service.getSpec().getPorts()) {
                assertThat(portNames).as("Service %s targets a named container port", service.getMetadata().getName())
                        .contains(port.getTargetPort().getStrVal());
            }
        }
        for (ConfigMap config : all(objects, ConfigMap.class)) {
            assertThat(config.getData().keySet()).as("nothing secret in ConfigMap %s", config.getMetadata().getName())
                    .noneMatch(KubernetesManifestsTest::secretLooking);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "aws"})
    void onlyTheMonitoringNamespaceReachesTheManagementPortAndAnyoneTheApi(String overlay) throws Exception {
        List<HasMetadata> objects = objects(overlay);
        var podLabels = one(all(objects, Deployment.class), "cairn").getSpec().getTemplate().getMetadata().getLabels();
        NetworkPolicy policy = all(objects, NetworkPolicy.class).stream()
                .filter(p -> podLabels.entrySet().containsAll(p.getSpec().getPodSelector().getMatchLabels().entrySet()))
                .findFirst().orElseThrow(() -> new AssertionError("no NetworkPolicy selects Cairn's pods"));
        assertThat(policy.getSpec().getPodSelector().getMatchLabels()).as("selects Cairn's pods, not every pod").isNotEmpty();
        assertThat(policy.getSpec().getPolicyTypes()).contains("Ingress");

        List<NetworkPolicyIngressRule> management = policy.getSpec().getIngress().stream()
                .filter(rule -> allowsPort(rule, "management", 9000)).toList();
        assertThat(management).as("a rule lets the management port in").isNotEmpty();
        for (NetworkPolicyIngressRule rule : management) {
            assertThat(rule.getFrom()).as("the management port is never open to all").isNotEmpty();
            for (NetworkPolicyPeer peer : rule.getFrom()) {
                assertThat(peer.getIpBlock()).isNull();
                assertThat(peer.getNamespaceSelector()).as("only from a namespace selected by label").isNotNull();
                assertThat(peer.getNamespaceSelector().getMatchLabels())
                        .containsExactlyEntriesOf(Map.of("kubernetes.io/metadata.name", "monitoring"));
            }
        }
        assertThat(policy.getSpec().getIngress()).as("the API port is open to every client")
                .anyMatch(rule -> allowsPort(rule, "http", 8080) && (rule.getFrom() == null || rule.getFrom().isEmpty()));
        if (overlay.equals("local")) {
            NetworkPolicy dynamo = one(all(objects, NetworkPolicy.class), "dynamodb-local");
            var dynamoPods = one(all(objects, Deployment.class), "dynamodb-local").getSpec().getTemplate().getMetadata().getLabels();
            assertThat(dynamoPods).containsAllEntriesOf(dynamo.getSpec().getPodSelector().getMatchLabels());
            assertThat(dynamo.getSpec().getIngress()).singleElement().satisfies(rule -> assertThat(rule.getFrom())
                    .singleElement().satisfies(peer -> {
                        assertThat(peer.getNamespaceSelector()).isNull();
                        assertThat(podLabels).as("DynamoDB Local is reached by Cairn's pods only")
                                .containsAllEntriesOf(peer.getPodSelector().getMatchLabels());
                        assertThat(peer.getPodSelector().getMatchLabels()).containsKey("app.kubernetes.io/component");
                    }));
        }
    }

    /** Whether a rule lets this container port in: no ports listed means every port; a port is named or numbered. */
    static boolean allowsPort(NetworkPolicyIngressRule rule, String name, int number) {
        return rule.getPorts() == null || rule.getPorts().isEmpty() || rule.getPorts().stream().anyMatch(p ->
                p.getPort() == null || name.equals(p.getPort().getStrVal()) || Integer.valueOf(number).equals(p.getPort().getIntVal()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "aws"})
    void noKubernetesApiTokenIsMountedIntoCairnsPods(String overlay) throws Exception {
        List<HasMetadata> objects = objects(overlay);
        assertThat(one(all(objects, ServiceAccount.class), "cairn").getAutomountServiceAccountToken()).isFalse();
        var pod = one(all(objects, Deployment.class), "cairn").getSpec().getTemplate().getSpec();
        assertThat(pod.getServiceAccountName()).isEqualTo("cairn");
        assertThat(pod.getAutomountServiceAccountToken()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "aws"})
    void noSecretValueIsCommittedButDynamoDbLocalsDummyCredentials(String overlay) throws Exception {
        List<JsonNode> docs = Manifests.render(overlay);
        for (JsonNode secret : docs.stream().filter(d -> d.path("kind").asText().equals("Secret")).toList()) {
            assertThat(overlay + "/" + secret.at("/metadata/name").asText()).isEqualTo("local/cairn-dynamodb-credentials");
            assertThat(secret.path("stringData").isMissingNode()).isTrue();
            secret.path("data").fields().forEachRemaining(entry -> assertThat(new String(
                    java.util.Base64.getDecoder().decode(entry.getValue().asText()), StandardCharsets.UTF_8))
                    .as("%s is DynamoDB Local's dummy", entry.getKey()).isEqualTo("local"));
        }
        // The cursor secret is referenced, never rendered: each cluster creates it with a value of its own.
        JsonNode container = find(docs, "Deployment", "cairn").at("/spec/template/spec/containers/0");
        assertThat(container.toString()).contains("\"cairn-secrets\"");
        assertThat(docs).noneMatch(d -> d.path("kind").asText().equals("Secret") && d.at("/metadata/name").asText().equals("cairn-secrets"));
    }

    static List<HasMetadata> objects(String overlay) throws Exception {
        var objects = new ArrayList<HasMetadata>();
        for (JsonNode doc : Manifests.render(overlay)) {
            objects.add((HasMetadata) MODEL.treeToValue(doc, KubernetesResource.class));
        }
        return objects;
    }

    static boolean secretLooking(String name) {
        return name.toUpperCase(Locale.ROOT).matches(".*(SECRET|PASSWORD|PRIVATE|TOKEN).*");
    }

    static <T extends HasMetadata> List<T> all(List<HasMetadata> objects, Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    static <T extends HasMetadata> T one(List<T> objects, String name) {
        return objects.stream().filter(o -> o.getMetadata().getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + name));
    }

    /**
     * Paths of fields the model did not recognise: Kubernetes' model keeps them aside in additionalProperties
     * (where a cluster's strict field validation rejects them), so the whole object tree is walked for any.
     */
    static List<String> unknownFields(Object object, String path) throws ReflectiveOperationException {
        var found = new ArrayList<String>();
        collectUnknown(object, path, found);
        return found;
    }

    private static void collectUnknown(Object object, String path, List<String> found) throws ReflectiveOperationException {
        if (object instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                collectUnknown(list.get(i), path + "[" + i + "]", found);
            }
            return;
        }
        if (object instanceof Map<?, ?> map) {
            for (var entry : map.entrySet()) {
                collectUnknown(entry.getValue(), path + "[" + entry.getKey() + "]", found);
            }
            return;
        }
        if (object == null || !object.getClass().getName().startsWith("io.fabric8.kubernetes.api.model")) {
            return;
        }
        for (Method getter : object.getClass().getMethods()) {
            if (getter.getParameterCount() != 0 || !getter.getName().startsWith("get") || getter.getName().equals("getClass")) {
                continue;
            }
            Object value = getter.invoke(object);
            if (getter.getName().equals("getAdditionalProperties")) {
                ((Map<?, ?>) value).keySet().forEach(key -> found.add(path + "." + key));
            } else {
                String field = Character.toLowerCase(getter.getName().charAt(3)) + getter.getName().substring(4);
                collectUnknown(value, path + "." + field, found);
            }
        }
    }

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
        assertThat(config.at("/data/MP_JWT_VERIFY_AUDIENCES").asText()).as("tokens for other services refused").isNotEmpty();
        assertThat(config.at("/data").has("CAIRN_AUTH_ENABLED")).as("no overlay turns authentication off").isFalse();
        assertThat(config.at("/data/CAIRN_DIAGNOSTICS_HEADERS").asText()).as("capacity headers off in production")
                .isEqualTo("false");
        assertThat(find(docs, "ServiceAccount", "cairn").at("/metadata/annotations").has("eks.amazonaws.com/role-arn")).isTrue();
        assertThat(find(docs, "HorizontalPodAutoscaler", "cairn")).isNotNull();
        assertThat(find(docs, "PodDisruptionBudget", "cairn")).isNotNull();
        if (overlay.equals("local")) {
            assertThat(config.at("/data/QUARKUS_DYNAMODB_ENDPOINT_OVERRIDE").asText()).isEqualTo("http://dynamodb-local:8000");
            assertThat(find(docs, "Service", "dynamodb-local").at("/spec/ports/0/port").asInt()).isEqualTo(8000);
            assertThat(mintedTokenClaims().path("aud").asText()).as("deploy/auth/mint-token.sh mints for the local overlay")
                    .isEqualTo(config.at("/data/MP_JWT_VERIFY_AUDIENCES").asText());
        } else {
            assertThat(config.at("/data").has("QUARKUS_DYNAMODB_ENDPOINT_OVERRIDE")).isFalse();
            assertThat(config.at("/data/CAIRN_TABLE_CREATE").asText()).isEqualTo("false");
            // Cognito's tokens carry roles and tenants under its own claim names
            assertThat(config.at("/data/SMALLRYE_JWT_PATH_GROUPS").asText()).isEqualTo("\"cognito:groups\"");
            assertThat(config.at("/data/CAIRN_AUTH_WORKSPACES_CLAIM").asText()).isEqualTo("custom:workspaces");
        }
    }

    /** The claims of a token minted by deploy/auth/mint-token.sh with its defaults. */
    static JsonNode mintedTokenClaims() throws IOException, InterruptedException {
        Process process = new ProcessBuilder("bash", "deploy/auth/mint-token.sh", "-k", "src/test/resources/auth/test-private-key.pem",
                "-i", "https://cairn.local", "-g", "cairn-reader", "-w", "*").redirectErrorStream(true).start();
        String token = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(token).isZero();
        return MODEL.readTree(java.util.Base64.getUrlDecoder().decode(token.split("\\.")[1]));
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
