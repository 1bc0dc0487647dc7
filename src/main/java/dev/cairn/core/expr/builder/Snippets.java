package dev.cairn.core.expr.builder;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * One request as ready-to-run code: an AWS CLI v2 command, a Java program (AWS SDK v2, the async client Cairn itself
 * uses) and a JavaScript module (AWS SDK v3). Each is made from the request in its DynamoDB JSON form, so the
 * builder's requests and every access pattern's read the same way. {@code endpoint} names the region and, for
 * DynamoDB Local, the endpoint the snippets talk to; credentials come from the usual places (environment, profile).
 */
public record Snippets(String cli, String java, String javascript) {

    /** Where the snippets send their request: a region and an endpoint URL, each null for the SDK's default. */
    public record Endpoint(String region, String url) {
        public static final Endpoint DEFAULT = new Endpoint(null, null);
    }

    private static final Pattern SHELL_SAFE = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");
    private static final Pattern JS_IDENTIFIER = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*");

    public static Snippets of(Operation operation, Map<String, Object> request, Endpoint endpoint) {
        return new Snippets(cli(operation, request, endpoint), java(operation, request, endpoint),
                javascript(operation, request, endpoint));
    }

    // --- AWS CLI v2 ------------------------------------------------------------------------------------------------

    static String cli(Operation operation, Map<String, Object> request, Endpoint endpoint) {
        var lines = new ArrayList<String>();
        lines.add("aws dynamodb " + operation.cli());
        request.forEach((name, value) -> {
            String option = kebab(name);
            if (value instanceof Boolean b) {
                lines.add("--" + (b ? "" : "no-") + option);
            } else if (value instanceof Number n) {
                lines.add("--" + option + " " + n);
            } else if (value instanceof String s) {
                lines.add("--" + option + " " + shell(s));
            } else {
                lines.add("--" + option + " " + shell(DynamoJson.write(value)));
            }
        });
        if (endpoint.region() != null) {
            lines.add("--region " + shell(endpoint.region()));
        }
        if (endpoint.url() != null) {
            lines.add("--endpoint-url " + shell(endpoint.url()));
        }
        return String.join(" \\\n    ", lines);
    }

    /** {@code KeyConditionExpression} → {@code key-condition-expression}. */
    static String kebab(String name) {
        return name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    /** A POSIX shell word: as it is when it is plain, else single-quoted. */
    static String shell(String text) {
        return SHELL_SAFE.matcher(text).matches() ? text : "'" + text.replace("'", "'\\''") + "'";
    }

    // --- Java, AWS SDK v2 ----------------------------------------------------------------------------------------

    static String java(Operation operation, Map<String, Object> request, Endpoint endpoint) {
        var imports = new TreeSet<String>();
        String op = operation.wire();
        String method = Character.toLowerCase(op.charAt(0)) + op.substring(1);
        imports.add("java.util.concurrent.CompletableFuture");
        imports.add("software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient");
        imports.add("software.amazon.awssdk.services.dynamodb.model." + op + "Request");
        imports.add("software.amazon.awssdk.services.dynamodb.model." + op + "Response");
        var body = new StringBuilder();
        request.forEach((name, value) -> body.append("\n                .")
                .append(Character.toLowerCase(name.charAt(0))).append(name.substring(1))
                .append('(').append(javaValue(value, imports)).append(')'));
        String client;
        if (endpoint.region() == null && endpoint.url() == null) {
            client = "DynamoDbAsyncClient.create()";
        } else {
            var c = new StringBuilder("DynamoDbAsyncClient.builder()");
            if (endpoint.region() != null) {
                imports.add("software.amazon.awssdk.regions.Region");
                c.append("\n                .region(Region.of(").append(javaString(endpoint.region())).append("))");
            }
            if (endpoint.url() != null) {
                imports.add("java.net.URI");
                c.append("\n                .endpointOverride(URI.create(").append(javaString(endpoint.url())).append("))");
            }
            client = c.append("\n                .build()").toString();
        }
        String print = switch (operation) {
            case QUERY, SCAN -> "response.items().forEach(System.out::println);";
            case GET_ITEM -> "System.out.println(response.item());";
            case UPDATE_ITEM -> "System.out.println(response.attributes());";
        };
        var out = new StringBuilder();
        imports.forEach(i -> out.append("import ").append(i).append(";\n"));
        String type = "Cairn" + op;
        return out.append("\n/** Needs the AWS SDK for Java v2 (software.amazon.awssdk:dynamodb) on the class path: java -cp <its jars> ")
                .append(type).append(".java */\n")
                .append("public class ").append(type).append(" {\n\n")
                .append("    public static void main(String[] args) {\n")
                .append("        try (DynamoDbAsyncClient dynamo = ").append(client).append(") {\n")
                .append("            ").append(op).append("Response response = send(dynamo).join();\n")
                .append("            ").append(print).append('\n')
                .append("        }\n    }\n\n")
                .append("    static CompletableFuture<").append(op).append("Response> send(DynamoDbAsyncClient dynamo) {\n")
                .append("        ").append(op).append("Request request = ").append(op).append("Request.builder()")
                .append(body).append("\n                .build();\n")
                .append("        return dynamo.").append(method).append("(request);\n")
                .append("    }\n}\n").toString();
    }

    @SuppressWarnings("unchecked")
    private static String javaValue(Object value, TreeSet<String> imports) {
        if (value instanceof String s) {
            return javaString(s);
        }
        if (value instanceof Boolean || value instanceof Number) {
            return value.toString();
        }
        var map = (Map<String, Object>) value;
        var entries = new ArrayList<String>();
        map.forEach((k, v) -> entries.add(javaString(k) + ", " + (v instanceof String s ? javaString(s) : javaAttribute(v, imports))));
        return javaMap(entries, imports);
    }

    private static String javaMap(List<String> entries, TreeSet<String> imports) {
        imports.add("java.util.Map");
        if (entries.size() <= 10) {
            return "Map.of(" + String.join(", ", entries) + ")";
        }
        return "Map.ofEntries(" + String.join(", ", entries.stream().map(e -> "Map.entry(" + e + ")").toList()) + ")";
    }

    @SuppressWarnings("unchecked")
    private static String javaAttribute(Object typed, TreeSet<String> imports) {
        imports.add("software.amazon.awssdk.services.dynamodb.model.AttributeValue");
        var entry = ((Map<String, Object>) typed).entrySet().iterator().next();
        Object v = entry.getValue();
        return switch (entry.getKey()) {
            case "S" -> "AttributeValue.fromS(" + javaString((String) v) + ")";
            case "N" -> "AttributeValue.fromN(" + javaString(String.valueOf(v)) + ")";
            case "B" -> "AttributeValue.fromB(" + javaBytes((String) v, imports) + ")";
            case "BOOL" -> "AttributeValue.fromBool(" + v + ")";
            case "NULL" -> "AttributeValue.fromNul(true)";
            case "L" -> {
                imports.add("java.util.List");
                yield "AttributeValue.fromL(List.of(" + String.join(", ",
                        ((List<Object>) v).stream().map(m -> javaAttribute(m, imports)).toList()) + "))";
            }
            case "M" -> {
                var entries = new ArrayList<String>();
                ((Map<String, Object>) v).forEach((k, m) -> entries.add(javaString(k) + ", " + javaAttribute(m, imports)));
                yield "AttributeValue.fromM(" + javaMap(entries, imports) + ")";
            }
            case "SS", "NS" -> {
                imports.add("java.util.List");
                yield "AttributeValue.from" + entry.getKey().charAt(0) + "s(List.of(" + String.join(", ",
                        ((List<Object>) v).stream().map(m -> javaString(String.valueOf(m))).toList()) + "))";
            }
            case "BS" -> {
                imports.add("java.util.List");
                yield "AttributeValue.fromBs(List.of(" + String.join(", ",
                        ((List<Object>) v).stream().map(m -> javaBytes((String) m, imports)).toList()) + "))";
            }
            default -> throw new IllegalArgumentException("not a DynamoDB type: " + entry.getKey());
        };
    }

    private static String javaBytes(String base64, TreeSet<String> imports) {
        imports.add("java.util.Base64");
        imports.add("software.amazon.awssdk.core.SdkBytes");
        return "SdkBytes.fromByteArray(Base64.getDecoder().decode(" + javaString(base64) + "))";
    }

    /** A Java string literal: quotes, backslashes and control characters escaped. */
    static String javaString(String text) {
        var out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029') {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    // --- JavaScript, AWS SDK v3 ----------------------------------------------------------------------------------

    static String javascript(Operation operation, Map<String, Object> request, Endpoint endpoint) {
        String command = operation.wire() + "Command";
        var config = new ArrayList<String>();
        if (endpoint.region() != null) {
            config.add("region: " + DynamoJson.write(endpoint.region()));
        }
        if (endpoint.url() != null) {
            config.add("endpoint: " + DynamoJson.write(endpoint.url()));
        }
        var members = new StringBuilder();
        request.forEach((name, value) -> members.append("  ").append(jsKey(name)).append(": ")
                .append(jsValue(value)).append(",\n"));
        String result = switch (operation) {
            case QUERY, SCAN -> "response.Items";
            case GET_ITEM -> "response.Item";
            case UPDATE_ITEM -> "response.Attributes";
        };
        return "// Node.js 20 or later: npm install @aws-sdk/client-dynamodb, save as " + operation.cli()
                + ".mjs, run: node " + operation.cli() + ".mjs\n"
                + "import { DynamoDBClient, " + command + " } from \"@aws-sdk/client-dynamodb\";\n\n"
                + "const client = new DynamoDBClient({" + (config.isEmpty() ? "" : " " + String.join(", ", config) + " ") + "});\n"
                + "const response = await client.send(new " + command + "({\n" + members + "}));\n"
                + "console.log(JSON.stringify(" + result + ", null, 2));\n";
    }

    @SuppressWarnings("unchecked")
    private static String jsValue(Object value) {
        if (value instanceof String s) {
            return DynamoJson.write(s);
        }
        if (value instanceof Boolean || value instanceof Number) {
            return value.toString();
        }
        var entries = new ArrayList<String>();
        ((Map<String, Object>) value).forEach((k, v) -> entries.add(jsKey(k) + ": "
                + (v instanceof String s ? DynamoJson.write(s) : jsAttribute(v))));
        return "{ " + String.join(", ", entries) + " }";
    }

    @SuppressWarnings("unchecked")
    private static String jsAttribute(Object typed) {
        var entry = ((Map<String, Object>) typed).entrySet().iterator().next();
        Object v = entry.getValue();
        String inner = switch (entry.getKey()) {
            case "B" -> jsBytes((String) v);
            case "L" -> "[" + String.join(", ", ((List<Object>) v).stream().map(Snippets::jsAttribute).toList()) + "]";
            case "M" -> {
                var entries = new ArrayList<String>();
                ((Map<String, Object>) v).forEach((k, m) -> entries.add(jsKey(k) + ": " + jsAttribute(m)));
                yield "{ " + String.join(", ", entries) + " }";
            }
            case "BS" -> "[" + String.join(", ", ((List<Object>) v).stream().map(b -> jsBytes((String) b)).toList()) + "]";
            case "NS" -> DynamoJson.write(((List<Object>) v).stream().map(String::valueOf).toList());
            case "N" -> DynamoJson.write(String.valueOf(v));
            default -> DynamoJson.write(v);
        };
        return "{ " + entry.getKey() + ": " + inner + " }";
    }

    private static String jsBytes(String base64) {
        return "Buffer.from(" + DynamoJson.write(base64) + ", \"base64\")";
    }

    private static String jsKey(String key) {
        return JS_IDENTIFIER.matcher(key).matches() ? key : DynamoJson.write(key);
    }
}
