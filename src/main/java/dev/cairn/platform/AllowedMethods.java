package dev.cairn.platform;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The methods each path has, for the {@code Allow} header of a 405 (RFC 9110): read from the OpenAPI document built
 * with the application (it lists every operation), since quarkus-rest's own 405 does not say.
 */
public final class AllowedMethods {

    private static final String DOCUMENT = "META-INF/quarkus-generated-openapi-doc.JSON";
    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch", "head", "options");
    private static volatile List<Route> routes;
    private static volatile Function<String, Set<String>> declared = path -> Set.of();

    /** A documented path: its pattern, its methods, and how many of its segments are literal. */
    private record Route(Pattern path, Set<String> methods, int literals) {
    }

    private AllowedMethods() {
    }

    /** The Allow value for {@code path} ("GET, PATCH, DELETE"), or null when no documented path matches. */
    public static String of(String path) {
        // Of the documented paths that match, the most literal one is the path's, as JAX-RS matches: /books/deleted
        // is the deleted books' listing, not the book "deleted".
        // (paths that tie all count, as the router counts them)
        int best = -1;
        Set<String> methods = new TreeSet<>();
        for (Route route : routes()) {
            if (route.literals() >= best && route.path().matcher(path).matches()) {
                if (route.literals() > best) {
                    best = route.literals();
                    methods.clear();
                }
                methods.addAll(route.methods());
            }
        }
        if (best >= 0) {
            return String.join(", ", methods);
        }
        Set<String> declaredMethods = declared.apply(path);
        return declaredMethods.isEmpty() ? null : String.join(", ", new TreeSet<>(declaredMethods));
    }

    /**
     * Whether a declared route (model files) serves this method on this path (HEAD as GET; OPTIONS wherever any
     * method is declared: it tells which, so it is asked with a token like a read).
     */
    public static boolean declares(String method, String path) {
        Set<String> methods = declared.apply(path);
        return "OPTIONS".equals(method) ? !methods.isEmpty() : methods.contains("HEAD".equals(method) ? "GET" : method);
    }

    /** The methods of the declared routes (model files), which the document built with the application does not list. */
    public static void declared(Function<String, Set<String>> methodsOnPath) {
        declared = methodsOnPath;
    }

    private static List<Route> routes() {
        if (routes == null) {
            routes = load();
        }
        return routes;
    }

    private static List<Route> load() {
        var out = new ArrayList<Route>();
        try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(DOCUMENT)) {
            if (in == null) {
                return out;
            }
            JsonNode paths = new ObjectMapper().readTree(in).path("paths");
            paths.fields().forEachRemaining(entry -> {
                var methods = new TreeSet<String>();
                entry.getValue().fieldNames().forEachRemaining(name -> {
                    if (METHODS.contains(name)) {
                        methods.add(name.toUpperCase(Locale.ROOT));
                    }
                });
                String regex = Pattern.quote(entry.getKey()).replaceAll("\\{[^}]+}", "\\\\E[^/]+\\\\Q");
                int literals = (int) java.util.Arrays.stream(entry.getKey().split("/"))
                        .filter(segment -> !segment.isEmpty() && !segment.startsWith("{")).count();
                out.add(new Route(Pattern.compile(regex + "/?"), methods, literals));
            });
        } catch (Exception e) {
            // no Allow header rather than no answer
        }
        return out;
    }
}
