package dev.cairn.platform.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.fail;

/**
 * Runs the builder's snippets as a user would: the AWS CLI v2 command in bash (Debian's awscli), the Java program
 * compiled against the test class path's AWS SDK, the JavaScript module in Node.js with {@code @aws-sdk/client-dynamodb}
 * installed from the npm registry into {@code target/}. A missing tool fails the test with what to install; nothing is
 * skipped.
 */
final class SnippetTools {

    /** The AWS SDK for JavaScript the snippets are run with (installed by the test into target/js-snippets). */
    static final String JS_SDK = "@aws-sdk/client-dynamodb@3.1162.0";

    static final ObjectMapper JSON = new ObjectMapper();
    private static final Path WORK = Path.of("target", "snippets");
    private static final AtomicInteger RUNS = new AtomicInteger();
    private static String aws;
    private static boolean jsReady;

    private SnippetTools() {
    }

    /** The environment of a snippet: DynamoDB Local's credentials, no pager, no user configuration. */
    static Map<String, String> environment() {
        return Map.of("AWS_ACCESS_KEY_ID", "local", "AWS_SECRET_ACCESS_KEY", "local", "AWS_PAGER", "",
                "AWS_CONFIG_FILE", WORK.resolve("no-aws-config").toAbsolutePath().toString(),
                "AWS_SHARED_CREDENTIALS_FILE", WORK.resolve("no-aws-credentials").toAbsolutePath().toString());
    }

    // --- the AWS CLI ---------------------------------------------------------------------------------------------

    /** The first {@code aws} on the PATH that is version 2 (a pip-installed v1 may come first). */
    static synchronized String awsCliV2() {
        if (aws != null) {
            return aws;
        }
        var seen = new ArrayList<String>();
        for (String dir : System.getenv("PATH").split(File.pathSeparator)) {
            File candidate = new File(dir, "aws");
            if (candidate.canExecute()) {
                String version = run(List.of(candidate.getPath(), "--version"), Map.of(), null).trim();
                seen.add(candidate + ": " + version);
                if (version.startsWith("aws-cli/2.")) {
                    aws = candidate.getPath();
                    return aws;
                }
            }
        }
        return fail("the AWS CLI v2 is not on the PATH (found: " + seen + "): install Debian's awscli (.ci/run does)");
    }

    /** Runs the command as bash would, with the v2 CLI first on the PATH; its JSON answer. */
    static JsonNode cli(String command) {
        String dir = new File(awsCliV2()).getParent();
        var env = new java.util.HashMap<>(environment());
        env.put("PATH", dir + File.pathSeparator + System.getenv("PATH"));
        return parse(run(List.of("bash", "-c", command), env, null));
    }

    // --- Java ----------------------------------------------------------------------------------------------------

    /** Compiles the program against the test class path and loads it; a compile error fails with javac's words. */
    static Class<?> compile(String source) {
        String name = source.substring(source.indexOf("public class ") + 13, source.indexOf(" {", source.indexOf("public class ")));
        try {
            Path dir = Files.createDirectories(WORK.resolve("java-" + RUNS.incrementAndGet()));
            Path file = dir.resolve(name + ".java");
            Files.writeString(file, source);
            JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            if (javac == null) {
                fail("no Java compiler in this JDK");
            }
            var errors = new ByteArrayOutputStream();
            int status = javac.run(null, errors, errors, "-classpath", System.getProperty("java.class.path"),
                    "-d", dir.toString(), "-proc:none", file.toString());
            if (status != 0) {
                fail("the Java snippet does not compile:\n" + errors.toString(StandardCharsets.UTF_8) + "\n" + source);
            }
            var loader = new URLClassLoader(new URL[]{dir.toUri().toURL()}, Thread.currentThread().getContextClassLoader());
            return loader.loadClass(name);
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    static void main(Class<?> program) {
        try {
            Method main = program.getMethod("main", String[].class);
            main.invoke(null, (Object) new String[0]);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("the Java snippet's main failed", e.getCause() != null ? e.getCause() : e);
        }
    }

    /** Calls the program's {@code send(client)} and waits for DynamoDB's answer. */
    static Object send(Class<?> program, Object client) {
        try {
            Method send = program.getDeclaredMethod("send", software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient.class);
            send.setAccessible(true);
            return ((java.util.concurrent.CompletableFuture<?>) send.invoke(null, client)).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("the Java snippet's send failed", e);
        }
    }

    // --- JavaScript ----------------------------------------------------------------------------------------------

    /** Runs the module in Node.js, next to the SDK installed in target/; its JSON answer. */
    static JsonNode javascript(String module) {
        Path dir = jsDirectory();
        Path file = dir.resolve("snippet-" + RUNS.incrementAndGet() + ".mjs");
        try {
            Files.writeString(file, module);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return parse(run(List.of(executable("node"), file.toAbsolutePath().toString()), environment(), dir));
    }

    private static synchronized Path jsDirectory() {
        Path dir = WORK.resolve("js").toAbsolutePath();
        if (jsReady) {
            return dir;
        }
        String version = JS_SDK.substring(JS_SDK.lastIndexOf('@') + 1);
        Path installed = dir.resolve("node_modules/@aws-sdk/client-dynamodb/package.json");
        try {
            Files.createDirectories(dir);
            if (!Files.exists(installed) || !JSON.readTree(installed.toFile()).path("version").asText().equals(version)) {
                Files.writeString(dir.resolve("package.json"), "{\"name\": \"cairn-snippets\", \"private\": true}\n");
                run(List.of(executable("npm"), "install", "--no-audit", "--no-fund", "--loglevel=error", JS_SDK),
                        Map.of(), dir);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        jsReady = true;
        return dir;
    }

    // --- processes and answers -----------------------------------------------------------------------------------

    static String executable(String name) {
        for (String dir : System.getenv("PATH").split(File.pathSeparator)) {
            File candidate = new File(dir, name);
            if (candidate.canExecute()) {
                return candidate.getPath();
            }
        }
        return fail(name + " is not on the PATH: the snippet tests need Node.js 20 or later and npm");
    }

    /** The command's standard output; a non-zero exit fails with its standard error. */
    static String run(List<String> command, Map<String, String> env, Path dir) {
        Result result = attempt(command, env, dir);
        if (result.status() != 0) {
            fail(String.join(" ", command) + " exited with " + result.status() + ":\n" + result.err() + "\n" + result.out());
        }
        return result.out();
    }

    record Result(int status, String out, String err) {
    }

    static Result attempt(List<String> command, Map<String, String> env, Path dir) {
        try {
            Files.createDirectories(WORK);
            Path out = Files.createTempFile(WORK.toAbsolutePath(), "out", ".txt");
            Path err = Files.createTempFile(WORK.toAbsolutePath(), "err", ".txt");
            var builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            builder.environment().putAll(env);
            if (dir != null) {
                builder.directory(dir.toFile());
            }
            Process process = builder.start();
            if (!process.waitFor(180, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail(String.join(" ", command) + " did not finish within 180 s");
            }
            return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    /**
     * Items as comparable DynamoDB JSON: members in any order, set members sorted, binaries as base64 (Node.js
     * prints a Uint8Array as an object of its bytes).
     */
    static JsonNode normalized(JsonNode node) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            return JsonNodeFactory.instance.arrayNode();
        }
        if (node.isArray()) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            node.forEach(member -> out.add(normalized(member)));
            return out;
        }
        if (!node.isObject()) {
            return node;
        }
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        node.fields().forEachRemaining(e -> {
            String key = e.getKey();
            JsonNode value = e.getValue();
            if (node.size() == 1 && key.equals("B")) {
                out.put(key, binary(value));
            } else if (node.size() == 1 && List.of("SS", "NS", "BS").contains(key)) {
                List<String> members = new ArrayList<>();
                value.forEach(m -> members.add(key.equals("BS") ? binary(m) : m.asText()));
                members.sort(null);
                ArrayNode sorted = out.putArray(key);
                members.forEach(sorted::add);
            } else {
                out.set(key, normalized(value));
            }
        });
        return out;
    }

    private static String binary(JsonNode value) {
        if (value.isTextual()) {
            return value.asText();
        }
        var bytes = StreamSupport.stream(value.spliterator(), false).mapToInt(JsonNode::asInt).toArray();
        byte[] raw = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            raw[i] = (byte) bytes[i];
        }
        return Base64.getEncoder().encodeToString(raw);
    }
}
