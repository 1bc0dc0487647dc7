package dev.cairn.core.expr.builder;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a read request in its DynamoDB JSON form (an access pattern's) back into what the builder composes, so the
 * pattern opens in the builder as it is sent: its key condition, filter and projection, its placeholders kept
 * ({@code #n0} stays {@code #n0}). The builder compares an attribute (or its {@code size}) with values; an
 * expression comparing two attributes is refused with a message.
 */
public final class ExpressionParser {

    private static final Pattern TOKEN = Pattern.compile(
            "\\s*(#[A-Za-z0-9_]+|:[A-Za-z0-9_]+|<>|<=|>=|[=<>(),.\\[\\]]|[A-Za-z_][A-Za-z0-9_]*|[0-9]+)");
    private static final List<String> COMPARATORS = List.of("=", "<>", "<", "<=", ">", ">=");

    private final List<String> tokens;
    private final Map<String, String> names;
    private final Map<String, Object> values;
    private final Map<String, String> aliases;
    private int position;

    private ExpressionParser(String expression, Map<String, String> names, Map<String, Object> values,
                             Map<String, String> aliases) {
        this.tokens = tokenize(expression);
        this.names = names;
        this.values = values;
        this.aliases = aliases;
    }

    /** The spec of a Query, Scan or GetItem request; IllegalArgumentException when it cannot be composed in the builder. */
    @SuppressWarnings("unchecked")
    public static BuilderSpec spec(String operation, Map<String, Object> request) {
        Operation op = Operation.named(operation);
        if (op == null || !op.isRead()) {
            throw new IllegalArgumentException("the builder opens Query, Scan and GetItem requests, not " + operation);
        }
        var names = (Map<String, String>) request.getOrDefault("ExpressionAttributeNames", Map.of());
        var values = (Map<String, Object>) request.getOrDefault("ExpressionAttributeValues", Map.of());
        var aliases = new LinkedHashMap<String, String>();
        List<Clause> key = new ArrayList<>();
        if (op == Operation.GET_ITEM) {
            ((Map<String, Object>) request.get("Key")).forEach((attribute, typed) ->
                    key.add(Clause.test(attribute, "=", Operand.of(DynamoJson.from(typed), null))));
        } else if (request.get("KeyConditionExpression") != null) {
            Clause condition = new ExpressionParser((String) request.get("KeyConditionExpression"), names, values, aliases).whole();
            key.addAll("and".equals(condition.op()) ? condition.clauses() : List.of(condition));
        }
        Clause filter = request.get("FilterExpression") == null ? null
                : new ExpressionParser((String) request.get("FilterExpression"), names, values, aliases).whole();
        List<String> projection = request.get("ProjectionExpression") == null ? List.of()
                : new ExpressionParser((String) request.get("ProjectionExpression"), names, values, aliases).paths();
        Object limit = request.get("Limit");
        return new BuilderSpec(op.wire(), (String) request.get("IndexName"), key, filter, projection,
                Boolean.FALSE.equals(request.get("ScanIndexForward")), limit == null ? null : ((Number) limit).intValue(),
                Boolean.TRUE.equals(request.get("ConsistentRead")), null, null, aliases);
    }

    private static List<String> tokenize(String expression) {
        var out = new ArrayList<String>();
        Matcher m = TOKEN.matcher(expression);
        int at = 0;
        while (at < expression.length()) {
            if (expression.substring(at).isBlank()) {
                break;
            }
            if (!m.find(at) || m.start() != at) {
                throw new IllegalArgumentException("cannot read '" + expression.substring(at) + "' in: " + expression);
            }
            out.add(m.group(1));
            at = m.end();
        }
        return out;
    }

    private Clause whole() {
        Clause clause = or();
        if (position < tokens.size()) {
            throw new IllegalArgumentException("unexpected '" + tokens.get(position) + "'");
        }
        return clause;
    }

    private List<String> paths() {
        var out = new ArrayList<String>();
        out.add(path());
        while (accept(",")) {
            out.add(path());
        }
        return out;
    }

    private Clause or() {
        var parts = new ArrayList<Clause>(List.of(and()));
        while (acceptKeyword("OR")) {
            parts.add(and());
        }
        return parts.size() == 1 ? parts.get(0) : Clause.or(parts.toArray(Clause[]::new));
    }

    private Clause and() {
        var parts = new ArrayList<Clause>(List.of(not()));
        while (acceptKeyword("AND")) {
            parts.add(not());
        }
        return parts.size() == 1 ? parts.get(0) : Clause.and(parts.toArray(Clause[]::new));
    }

    private Clause not() {
        return acceptKeyword("NOT") ? Clause.not(not()) : primary();
    }

    private Clause primary() {
        if (accept("(")) {
            Clause inner = or();
            expect(")");
            return inner;
        }
        String word = peek().toLowerCase(Locale.ROOT);
        if (Clause.FUNCTIONS.contains(word) && "(".equals(peekAt(1))) {
            position++;
            expect("(");
            String path = path();
            var operands = new ArrayList<Operand>();
            while (accept(",")) {
                operands.add(value());
            }
            expect(")");
            return new Clause(word, path, operands, false, List.of());
        }
        boolean size = false;
        String path;
        if (word.equals("size") && "(".equals(peekAt(1))) {
            position += 2;
            path = path();
            expect(")");
            size = true;
        } else {
            path = path();
        }
        String op = next();
        if (COMPARATORS.contains(op)) {
            return new Clause(op, path, List.of(value()), size, List.of());
        }
        if (op.equalsIgnoreCase("BETWEEN")) {
            Operand low = value();
            if (!acceptKeyword("AND")) {
                throw new IllegalArgumentException("BETWEEN without its AND");
            }
            return new Clause("between", path, List.of(low, value()), size, List.of());
        }
        if (op.equalsIgnoreCase("IN")) {
            expect("(");
            var operands = new ArrayList<Operand>(List.of(value()));
            while (accept(",")) {
                operands.add(value());
            }
            expect(")");
            return new Clause("in", path, operands, size, List.of());
        }
        throw new IllegalArgumentException("unexpected '" + op + "' after " + path);
    }

    private String path() {
        var out = new StringBuilder(name());
        while (true) {
            if (accept(".")) {
                out.append('.').append(name());
            } else if (accept("[")) {
                out.append('[').append(next()).append(']');
                expect("]");
            } else {
                return out.toString();
            }
        }
    }

    private String name() {
        String token = next();
        if (token.startsWith(":")) {
            throw new IllegalArgumentException("the builder compares an attribute with values: " + token + " stands where an attribute should");
        }
        if (!token.startsWith("#")) {
            return token;
        }
        String name = names.get(token);
        if (name == null) {
            throw new IllegalArgumentException(token + " is not in ExpressionAttributeNames");
        }
        if (name.contains(".") || name.contains("[")) {
            throw new IllegalArgumentException("the builder writes paths with dots and brackets: the name '" + name + "' has one");
        }
        aliases.putIfAbsent(name, token.substring(1));
        return name;
    }

    private Operand value() {
        String token = next();
        if (!token.startsWith(":")) {
            throw new IllegalArgumentException("the builder compares an attribute with values: '" + token + "' is not a :value");
        }
        Object typed = values.get(token);
        if (typed == null) {
            throw new IllegalArgumentException(token + " is not in ExpressionAttributeValues");
        }
        AttributeValue value = DynamoJson.from(typed);
        return Operand.of(value, token.substring(1));
    }

    private String peek() {
        return position < tokens.size() ? tokens.get(position) : "";
    }

    private String peekAt(int ahead) {
        return position + ahead < tokens.size() ? tokens.get(position + ahead) : "";
    }

    private String next() {
        if (position >= tokens.size()) {
            throw new IllegalArgumentException("the expression ends too early");
        }
        return tokens.get(position++);
    }

    private boolean accept(String token) {
        if (peek().equals(token)) {
            position++;
            return true;
        }
        return false;
    }

    private boolean acceptKeyword(String keyword) {
        if (peek().equalsIgnoreCase(keyword)) {
            position++;
            return true;
        }
        return false;
    }

    private void expect(String token) {
        if (!accept(token)) {
            throw new IllegalArgumentException("expected '" + token + "' at '" + peek() + "'");
        }
    }
}
