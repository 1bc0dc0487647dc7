package dev.cairn.core.expr.builder;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnError.FieldError;
import dev.cairn.core.CairnException;
import dev.cairn.core.expr.builder.TableShape.Target;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns what the user composed ({@link BuilderSpec}) into a request ({@link BuiltRequest}): every name becomes a
 * {@code #name} placeholder and every value a {@code :value} placeholder — nothing typed is ever part of the
 * expression text —, and everything DynamoDB would refuse is refused first, each problem named by the field where it
 * was typed ({@code key[0].op}, {@code filter.clauses[1].values[0]}, …): a range condition on a partition key, an
 * unknown index, a {@code begins_with} on a number, a value that is not of its key's type, overlapping update paths.
 */
public final class ExpressionBuilder {

    /** The most items one page of a builder read evaluates. */
    public static final int MAX_LIMIT = 100;
    /** DynamoDB's limit on the length of one expression. */
    public static final int MAX_EXPRESSION_BYTES = 4096;
    /** DynamoDB's limit on the operands of one IN. */
    public static final int MAX_IN_VALUES = 100;

    private static final Pattern ALIAS = Pattern.compile("[A-Za-z0-9_]{1,64}");
    private static final List<String> SORT_KEY_OPS = List.of("=", "<", "<=", ">", ">=", "between", "begins_with");
    private static final List<String> SET_FUNCTIONS = Arrays.asList(null, "if_not_exists", "list_append", "list_prepend", "plus", "minus");

    private ExpressionBuilder() {
    }

    /** The request, or a {@link CairnError.ValidationFailed} naming every field that is wrong. */
    public static BuiltRequest build(BuilderSpec spec, TableShape shape) {
        return new Run(spec, shape).build();
    }

    private static final class Run {
        private final BuilderSpec spec;
        private final TableShape shape;
        private final List<FieldError> errors = new ArrayList<>();
        private final List<FieldError> warnings = new ArrayList<>();
        private final Aliases aliases;
        private final Map<String, AttributeValue> partition = new LinkedHashMap<>();
        private final Map<String, List<String>> valueFields = new LinkedHashMap<>();

        Run(BuilderSpec spec, TableShape shape) {
            this.spec = spec;
            this.shape = shape;
            this.aliases = new Aliases(explicitNames(), explicitValueAliases());
        }

        BuiltRequest build() {
            Operation operation = Operation.named(spec.operation());
            if (operation == null) {
                error("operation", "choose Query, Scan, GetItem or UpdateItem");
                throw failure();
            }
            Target target = target(operation);
            if (target == null) {
                throw failure();
            }
            String keyCondition = null;
            Map<String, AttributeValue> key = null;
            if (operation == Operation.QUERY) {
                keyCondition = keyCondition(target);
            } else if (operation == Operation.SCAN) {
                if (!spec.key().isEmpty()) {
                    error("key", "a Scan reads every item and takes no key condition: test the keys in the filter, or run a Query");
                }
            } else {
                key = itemKey(operation);
            }
            String filter = null;
            String condition = null;
            String update = null;
            if (operation == Operation.QUERY || operation == Operation.SCAN) {
                filter = clause(spec.filter(), "filter", operation == Operation.QUERY ? target : null);
            } else if (spec.filter() != null) {
                error("filter", operation.wire() + " works on one item by its key: it has no filter"
                        + (operation == Operation.UPDATE_ITEM ? " (a condition guards a write)" : ""));
            }
            if (operation == Operation.UPDATE_ITEM) {
                condition = clause(spec.condition(), "condition", null);
                update = update();
            } else {
                if (spec.condition() != null) {
                    error("condition", "a condition guards a write; a read narrows its items with the filter");
                }
                if (!spec.update().isEmpty()) {
                    error("update", "an update expression belongs to an UpdateItem");
                }
            }
            String projection = projection(operation);
            Integer limit = limit(operation);
            if (spec.descending() && operation != Operation.QUERY) {
                error("descending", "only a Query reads in an order (its sort key's)");
            }
            if (spec.consistent() && (target.indexName() != null || operation == Operation.UPDATE_ITEM)) {
                error("consistent", target.indexName() != null
                        ? "a global secondary index is read eventually consistent only" : "a write has no read consistency");
            }
            size("key", keyCondition);
            size("filter", filter);
            size("condition", condition);
            size("update", update);
            size("projection", projection);
            if (!errors.isEmpty()) {
                throw failure();
            }
            var reserved = new LinkedHashSet<String>();
            aliases.names.values().stream().filter(ReservedWords::isReserved).forEach(reserved::add);
            return new BuiltRequest(operation, shape.table(), target.indexName(), keyCondition, filter, condition, update,
                    projection, aliases.names, aliases.values, key, spec.descending(), limit, spec.consistent(),
                    key != null ? key : partition, valueFields, List.copyOf(reserved), warnings);
        }

        private CairnException failure() {
            String detail = errors.get(0).field() + ": " + errors.get(0).message()
                    + (errors.size() > 1 ? " (and " + (errors.size() - 1) + " more)" : "");
            return new CairnException(new CairnError.ValidationFailed(detail, errors));
        }

        private void error(String field, String message) {
            errors.add(new FieldError(field, message));
        }

        private Target target(Operation operation) {
            String index = spec.index();
            if (index == null || index.isBlank() || index.equals(TableShape.TABLE)) {
                return shape.base();
            }
            Target target = shape.targets().get(index);
            if (target == null) {
                error("index", "unknown index '" + index + "': the table " + shape.table() + " has "
                        + String.join(", ", shape.targets().keySet().stream().filter(t -> !t.equals(TableShape.TABLE)).toList()));
                return null;
            }
            if (operation == Operation.GET_ITEM || operation == Operation.UPDATE_ITEM) {
                error("index", operation.wire() + " reads or writes one item by the table's own key: choose the table");
                return null;
            }
            return target;
        }

        // --- keys ------------------------------------------------------------------------------------------------

        private String keyCondition(Target target) {
            if (spec.key().isEmpty()) {
                error("key", "a Query needs its partition key: " + String.join(" and ", target.partition()) + " = a value");
                return null;
            }
            var parts = new ArrayList<String>();
            var tested = new LinkedHashMap<String, String>();
            for (int i = 0; i < spec.key().size(); i++) {
                Clause test = spec.key().get(i);
                String f = "key[" + i + "]";
                DocumentPath path = keyPath(test, f, target);
                if (path == null) {
                    continue;
                }
                String attribute = path.attribute();
                if (tested.containsKey(attribute)) {
                    error(f + ".path", attribute + " is tested twice: a key condition tests each key attribute once");
                    continue;
                }
                boolean partition = target.partition().contains(attribute);
                if (partition && !"=".equals(test.op())) {
                    tested.put(attribute, test.op());
                    error(f + ".op", attribute + " is the partition key of " + target.name() + ": it takes = only"
                            + (target.sort().isEmpty() ? "" : " (a range goes on the sort key, " + String.join(", ", target.sort()) + ")"));
                    continue;
                }
                if (!partition && !SORT_KEY_OPS.contains(test.op())) {
                    error(f + ".op", "'" + test.op() + "' is not a key condition: a sort key takes =, <, <=, >, >=, between "
                            + "or begins_with; other tests belong in the filter");
                    continue;
                }
                tested.put(attribute, test.op());
                String rendered = keyTest(test, f, attribute, partition);
                if (rendered != null) {
                    parts.add(rendered);
                }
            }
            for (String attribute : target.partition()) {
                if (!tested.containsKey(attribute)) {
                    error("key", "the partition key " + attribute + " of " + target.name() + " needs a value (" + attribute + " = …)");
                }
            }
            // Several sort attributes (an index may have up to four) are tested left to right: = on all but the last.
            List<String> sort = target.sort();
            int used = (int) sort.stream().filter(tested::containsKey).count();
            for (int i = 0; i < sort.size(); i++) {
                boolean isUsed = tested.containsKey(sort.get(i));
                if (isUsed && i >= used) {
                    error("key", "the sort key attributes of " + target.name() + " are tested left to right: "
                            + String.join(", ", sort.subList(0, i)) + " first");
                } else if (isUsed && i < used - 1 && !"=".equals(tested.get(sort.get(i)))) {
                    error("key", sort.get(i) + " is followed by another sort key attribute: it takes = only");
                }
            }
            return parts.isEmpty() ? null : String.join(" AND ", parts);
        }

        private DocumentPath keyPath(Clause test, String f, Target target) {
            if (test == null || test.op() == null) {
                error(f + ".op", "choose an operator");
                return null;
            }
            if (test.grouping()) {
                error(f + ".op", "a key condition is a list of tests joined by AND: OR and NOT belong in the filter");
                return null;
            }
            if (test.size()) {
                error(f + ".op", "size() is not allowed in a key condition");
                return null;
            }
            DocumentPath path = path(test.path(), f + ".path");
            if (path == null) {
                return null;
            }
            if (!path.isAttribute() || !target.isKey(path.attribute())) {
                error(f + ".path", "'" + path + "' is not a key of " + target.name() + " (its keys: "
                        + String.join(", ", target.keys()) + "): test it in the filter");
                return null;
            }
            return path;
        }

        private String keyTest(Clause test, String f, String attribute, boolean partitionKey) {
            AttributeType keyType = shape.keyTypes().get(attribute);
            List<AttributeValue> values = operands(test, f, "between".equals(test.op()) ? 2 : 1);
            if (values == null) {
                return null;
            }
            boolean ok = true;
            for (int j = 0; j < values.size(); j++) {
                AttributeType type = AttributeType.of(values.get(j));
                if (keyType != null && type != keyType) {
                    error(f + ".values[" + j + "]", attribute + " is a " + describe(keyType) + " key (" + keyType
                            + "): its value must be " + keyType + ", not " + type);
                    ok = false;
                } else if (isEmpty(values.get(j))) {
                    error(f + ".values[" + j + "]", "a key value cannot be empty");
                    ok = false;
                }
            }
            if ("begins_with".equals(test.op()) && keyType == AttributeType.N) {
                error(f + ".op", "begins_with works on strings and binaries: " + attribute + " is a number key (N)");
                return null;
            }
            if (!ok || !ordered(test, f, values)) {
                return null;
            }
            if (partitionKey) {
                partition.put(attribute, values.get(0));
            }
            return render(test, f, aliases.name(attribute), values, attribute);
        }

        private Map<String, AttributeValue> itemKey(Operation operation) {
            Target table = shape.base();
            var key = new LinkedHashMap<String, AttributeValue>();
            for (int i = 0; i < spec.key().size(); i++) {
                Clause test = spec.key().get(i);
                String f = "key[" + i + "]";
                DocumentPath path = keyPath(test, f, table);
                if (path == null) {
                    continue;
                }
                if (!"=".equals(test.op())) {
                    error(f + ".op", operation.wire() + " names one item: each key attribute takes = only");
                    continue;
                }
                if (key.containsKey(path.attribute())) {
                    error(f + ".path", path.attribute() + " is given twice");
                    continue;
                }
                List<AttributeValue> values = operands(test, f, 1);
                if (values == null) {
                    continue;
                }
                AttributeType keyType = shape.keyTypes().get(path.attribute());
                AttributeType type = AttributeType.of(values.get(0));
                if (keyType != null && type != keyType) {
                    error(f + ".values[0]", path.attribute() + " is a " + describe(keyType) + " key (" + keyType
                            + "): its value must be " + keyType + ", not " + type);
                } else if (isEmpty(values.get(0))) {
                    error(f + ".values[0]", "a key value cannot be empty");
                } else {
                    key.put(path.attribute(), values.get(0));
                }
            }
            for (String attribute : table.keys()) {
                if (spec.key().stream().noneMatch(t -> t != null && t.path() != null && attribute.equals(t.path().trim()))) {
                    error("key", operation.wire() + " names one item by its whole key: " + attribute + " needs a value");
                }
            }
            return key;
        }

        // --- filters and conditions ------------------------------------------------------------------------------

        /** {@code keyed}: the target of a Query, whose key attributes a filter may not test. */
        private String clause(Clause clause, String f, Target keyed) {
            if (clause == null) {
                return null;
            }
            if (clause.op() == null) {
                error(f + ".op", "choose a test");
                return null;
            }
            return switch (clause.op()) {
                case "and", "or" -> {
                    if (clause.clauses().isEmpty()) {
                        error(f, "an empty " + clause.op().toUpperCase() + " group: add a test to it or remove it");
                        yield null;
                    }
                    var parts = new ArrayList<String>();
                    for (int i = 0; i < clause.clauses().size(); i++) {
                        Clause child = clause.clauses().get(i);
                        String rendered = clause(child, f + ".clauses[" + i + "]", keyed);
                        if (rendered != null) {
                            // A group inside another kind of group keeps its parentheses: AND binds tighter than OR.
                            boolean group = child.op() != null && (child.op().equals("and") || child.op().equals("or"))
                                    && child.clauses().size() > 1 && !child.op().equals(clause.op());
                            parts.add(group ? "(" + rendered + ")" : rendered);
                        }
                    }
                    yield parts.size() == clause.clauses().size() ? String.join(" " + clause.op().toUpperCase() + " ", parts) : null;
                }
                case "not" -> {
                    if (clause.clauses().size() != 1) {
                        error(f, "NOT takes exactly one test or group");
                        yield null;
                    }
                    Clause child = clause.clauses().get(0);
                    String rendered = clause(child, f + ".clauses[0]", keyed);
                    yield rendered == null ? null : child.function() ? "NOT " + rendered : "NOT (" + rendered + ")";
                }
                default -> test(clause, f, keyed);
            };
        }

        private String test(Clause test, String f, Target keyed) {
            boolean comparison = Clause.COMPARISONS.contains(test.op()) || "between".equals(test.op()) || "in".equals(test.op());
            if (!comparison && !test.function()) {
                error(f + ".op", "unknown test '" + test.op() + "': use =, <>, <, <=, >, >=, between, in, "
                        + String.join(", ", Clause.FUNCTIONS) + ", or an and / or / not group");
                return null;
            }
            DocumentPath path = path(test.path(), f + ".path");
            if (path == null) {
                return null;
            }
            if (keyed != null && path.isAttribute() && keyed.isKey(path.attribute())) {
                error(f + ".path", path.attribute() + " is a key of this Query (" + keyed.name() + "): test it in the key"
                        + " condition; a filter may test any other attribute");
                return null;
            }
            if (test.size() && !comparison) {
                error(f + ".op", "size() is compared with a number: " + test.op() + " does not take it");
                return null;
            }
            AttributeType declared = path.isAttribute() ? shape.typeOf(path.attribute()) : null;
            String where = declared == null ? "" : " (" + declaredBy(path.attribute()) + ")";
            if ("begins_with".equals(test.op()) && declared != null && declared != AttributeType.S && declared != AttributeType.B) {
                error(f + ".op", "begins_with works on strings and binaries: " + path + " is " + describe(declared)
                        + " (" + declared + ")" + where);
                return null;
            }
            int arity = switch (test.op()) {
                case "between" -> 2;
                case "in" -> -1;
                case "attribute_exists", "attribute_not_exists" -> 0;
                default -> 1;
            };
            List<AttributeValue> values = operands(test, f, arity);
            if (values == null) {
                return null;
            }
            switch (test.op()) {
                case "begins_with" -> {
                    AttributeType type = AttributeType.of(values.get(0));
                    if (type != AttributeType.S && type != AttributeType.B) {
                        error(f + ".values[0]", "begins_with takes a string or binary prefix, not " + describe(type) + " (" + type + ")");
                        return null;
                    }
                    if (isEmpty(values.get(0))) {
                        error(f + ".values[0]", "begins_with needs a prefix of at least one character");
                        return null;
                    }
                }
                case "attribute_type" -> {
                    AttributeValue type = values.get(0);
                    if (type.s() == null || AttributeType.named(type.s()) == null) {
                        error(f + ".values[0]", "attribute_type takes a type's name as an S value: S, SS, N, NS, B, BS, BOOL, NULL, L or M");
                        return null;
                    }
                }
                case "contains" -> {
                    if (declared != null && !declared.isSet() && declared != AttributeType.S && declared != AttributeType.L
                            && declared != AttributeType.B) {
                        warnings.add(new FieldError(f + ".op", path + " is " + describe(declared) + " (" + declared + ")" + where
                                + ": contains only matches strings, sets and lists"));
                    }
                }
                default -> {
                    for (int j = 0; j < values.size(); j++) {
                        AttributeType type = AttributeType.of(values.get(j));
                        if (test.size() && type != AttributeType.N) {
                            error(f + ".values[" + j + "]", "size() is a number: compare it with an N value, not " + type);
                            return null;
                        }
                        if (!test.size() && declared != null && type != declared) {
                            warnings.add(new FieldError(f + ".values[" + j + "]", path + " is " + describe(declared) + " ("
                                    + declared + ")" + where + ": a " + type + " value never equals it"));
                        }
                    }
                    if (!ordered(test, f, values)) {
                        return null;
                    }
                }
            }
            String lhs = path.render(aliases::name);
            return render(test, f, test.size() ? "size(" + lhs + ")" : lhs, values, path.lastName());
        }

        /** Ranges compare strings, numbers or binaries of one type, low to high. */
        private boolean ordered(Clause test, String f, List<AttributeValue> values) {
            if (!"between".equals(test.op()) && !List.of("<", "<=", ">", ">=").contains(test.op())) {
                return true;
            }
            for (int j = 0; j < values.size(); j++) {
                AttributeType type = AttributeType.of(values.get(j));
                if (!type.ordered()) {
                    error(f + ".values[" + j + "]", test.op() + " compares strings, numbers or binaries, not " + describe(type) + " (" + type + ")");
                    return false;
                }
            }
            if ("between".equals(test.op())) {
                AttributeValue low = values.get(0);
                AttributeValue high = values.get(1);
                if (AttributeType.of(low) != AttributeType.of(high)) {
                    error(f + ".values[1]", "BETWEEN compares two values of one type: " + AttributeType.of(low) + " and " + AttributeType.of(high));
                    return false;
                }
                if (compare(low, high) > 0) {
                    error(f + ".values[1]", "BETWEEN needs its lower bound first: " + Operand.textOf(low) + " is above " + Operand.textOf(high));
                    return false;
                }
            }
            return true;
        }

        private String render(Clause test, String f, String lhs, List<AttributeValue> values, String base) {
            var placeholders = new ArrayList<String>();
            for (int j = 0; j < values.size(); j++) {
                String placeholder = value(test.values().get(j), values.get(j), base, f + ".values[" + j + "]");
                if (placeholder == null) {
                    return null;
                }
                placeholders.add(placeholder);
            }
            return switch (test.op()) {
                case "between" -> lhs + " BETWEEN " + placeholders.get(0) + " AND " + placeholders.get(1);
                case "in" -> lhs + " IN (" + String.join(", ", placeholders) + ")";
                case "attribute_exists", "attribute_not_exists" -> test.op() + "(" + lhs + ")";
                case "attribute_type", "begins_with", "contains" -> test.op() + "(" + lhs + ", " + placeholders.get(0) + ")";
                default -> lhs + " " + test.op() + " " + placeholders.get(0);
            };
        }

        /** The values of a test, checked one by one; null when any is wrong. {@code arity} -1: one to a hundred. */
        private List<AttributeValue> operands(Clause test, String f, int arity) {
            int count = test.values().size();
            if (arity >= 0 && count != arity) {
                error(f + ".values", test.op() + " takes " + (arity == 0 ? "no value" : arity == 1 ? "one value" : arity + " values")
                        + ", not " + count);
                return null;
            }
            if (arity < 0 && (count < 1 || count > MAX_IN_VALUES)) {
                error(f + ".values", "IN takes one to " + MAX_IN_VALUES + " values, not " + count);
                return null;
            }
            var out = new ArrayList<AttributeValue>();
            boolean ok = true;
            for (int j = 0; j < count; j++) {
                AttributeValue value = operand(test.values().get(j), f + ".values[" + j + "]");
                ok &= value != null;
                out.add(value);
            }
            return ok ? out : null;
        }

        private AttributeValue operand(Operand operand, String f) {
            if (operand == null) {
                error(f, "a value is required");
                return null;
            }
            try {
                return operand.attributeValue();
            } catch (IllegalArgumentException e) {
                error(f, e.getMessage());
                return null;
            }
        }

        private String value(Operand operand, AttributeValue value, String base, String f) {
            if (operand.alias() != null && !operand.alias().isBlank() && !ALIAS.matcher(operand.alias()).matches()) {
                error(f + ".alias", "a placeholder is letters, digits and _ (at most 64), as in :p or :status_1");
                return null;
            }
            try {
                String placeholder = aliases.value(value, operand.alias() == null || operand.alias().isBlank() ? null : operand.alias(), base);
                valueFields.computeIfAbsent(placeholder, p -> new ArrayList<>()).add(f);
                return placeholder;
            } catch (IllegalArgumentException e) {
                error(f + ".alias", e.getMessage());
                return null;
            }
        }

        // --- updates ---------------------------------------------------------------------------------------------

        private String update() {
            var clauses = new LinkedHashMap<String, List<String>>();
            for (String action : List.of("SET", "REMOVE", "ADD", "DELETE")) {
                clauses.put(action, new ArrayList<>());
            }
            var paths = new ArrayList<DocumentPath>();
            for (int i = 0; i < spec.update().size(); i++) {
                UpdateAction action = spec.update().get(i);
                String f = "update[" + i + "]";
                paths.add(null);
                if (action == null || action.action() == null || !clauses.containsKey(action.action())) {
                    error(f + ".action", "an update action is SET, REMOVE, ADD or DELETE");
                    continue;
                }
                DocumentPath path = path(action.path(), f + ".path");
                if (path == null) {
                    continue;
                }
                if (shape.base().isKey(path.attribute())) {
                    error(f + ".path", path.attribute() + " is part of the item's key: an update cannot change it");
                    continue;
                }
                boolean clash = false;
                for (int j = 0; j < i && !clash; j++) {
                    if (paths.get(j) != null && paths.get(j).overlaps(path)) {
                        error(f + ".path", "'" + path + "' overlaps update[" + j + "] ('" + paths.get(j)
                                + "'): DynamoDB refuses two actions on one path");
                        clash = true;
                    }
                }
                if (clash) {
                    continue;
                }
                paths.set(i, path);
                String rendered = action(action, f, path);
                if (rendered != null) {
                    clauses.get(action.action()).add(rendered);
                }
            }
            var out = new ArrayList<String>();
            clauses.forEach((action, parts) -> {
                if (!parts.isEmpty()) {
                    out.add(action + " " + String.join(", ", parts));
                }
            });
            return out.isEmpty() ? null : String.join(" ", out);
        }

        private String action(UpdateAction action, String f, DocumentPath path) {
            String verb = action.action();
            if (verb.equals("REMOVE")) {
                if (action.value() != null || action.function() != null) {
                    error(f + ".value", "REMOVE takes no value");
                    return null;
                }
                return path.render(aliases::name);
            }
            if (!verb.equals("SET") && action.function() != null) {
                error(f + ".function", action.function() + " belongs to SET");
                return null;
            }
            if (verb.equals("SET") && !SET_FUNCTIONS.contains(action.function())) {
                error(f + ".function", "SET takes a value, or if_not_exists, list_append, list_prepend, plus or minus");
                return null;
            }
            if (action.value() == null) {
                error(f + ".value", verb + " needs a value");
                return null;
            }
            AttributeValue value = operand(action.value(), f + ".value");
            if (value == null) {
                return null;
            }
            AttributeType type = AttributeType.of(value);
            AttributeType declared = path.isAttribute() ? shape.typeOf(path.attribute()) : null;
            switch (verb) {
                case "ADD" -> {
                    if (type != AttributeType.N && !type.isSet()) {
                        error(f + ".value", "ADD adds a number (N) or set members (SS, NS, BS), not " + type);
                        return null;
                    }
                }
                case "DELETE" -> {
                    if (!type.isSet()) {
                        error(f + ".value", "DELETE removes members of a set: its value is an SS, NS or BS, not " + type);
                        return null;
                    }
                }
                default -> {
                    String function = action.function();
                    if (function != null && function.startsWith("list_") && type != AttributeType.L) {
                        error(f + ".value", "list_append joins lists: its value is an L, not " + type);
                        return null;
                    }
                    if (("plus".equals(function) || "minus".equals(function)) && type != AttributeType.N) {
                        error(f + ".value", "+ and - take a number (N), not " + type);
                        return null;
                    }
                    if (declared != null && function == null && type != declared) {
                        warnings.add(new FieldError(f + ".value", path + " is " + describe(declared) + " (" + declared + ") ("
                                + declaredBy(path.attribute()) + "): this sets a " + type));
                    }
                }
            }
            if ((verb.equals("ADD") || verb.equals("DELETE")) && !path.isAttribute()) {
                error(f + ".path", verb + " works on top-level attributes only");
                return null;
            }
            String target = path.render(aliases::name);
            String placeholder = value(action.value(), value, path.lastName(), f + ".value");
            if (placeholder == null) {
                return null;
            }
            if (!verb.equals("SET")) {
                return target + " " + placeholder;
            }
            return target + " = " + switch (action.function() == null ? "" : action.function()) {
                case "if_not_exists" -> "if_not_exists(" + target + ", " + placeholder + ")";
                case "list_append" -> "list_append(" + target + ", " + placeholder + ")";
                case "list_prepend" -> "list_append(" + placeholder + ", " + target + ")";
                case "plus" -> target + " + " + placeholder;
                case "minus" -> target + " - " + placeholder;
                default -> placeholder;
            };
        }

        // --- the rest --------------------------------------------------------------------------------------------

        private String projection(Operation operation) {
            if (spec.projection().isEmpty()) {
                return null;
            }
            if (operation == Operation.UPDATE_ITEM) {
                error("projection", "an UpdateItem answers with the whole new item (ReturnValues ALL_NEW): it has no projection");
                return null;
            }
            var parts = new ArrayList<String>();
            for (int i = 0; i < spec.projection().size(); i++) {
                DocumentPath path = path(spec.projection().get(i), "projection[" + i + "]");
                if (path != null) {
                    parts.add(path.render(aliases::name));
                }
            }
            return String.join(", ", parts);
        }

        private Integer limit(Operation operation) {
            if (operation == Operation.QUERY || operation == Operation.SCAN) {
                if (spec.limit() == null || spec.limit() < 1 || spec.limit() > MAX_LIMIT) {
                    error("limit", "a limit from 1 to " + MAX_LIMIT + " is required: the console reads one page at a time");
                    return null;
                }
                return spec.limit();
            }
            if (spec.limit() != null) {
                error("limit", operation.wire() + " reads or writes one item: it has no limit");
            }
            return null;
        }

        private void size(String field, String expression) {
            if (expression != null && expression.getBytes(StandardCharsets.UTF_8).length > MAX_EXPRESSION_BYTES) {
                error(field, "DynamoDB takes expressions of at most " + MAX_EXPRESSION_BYTES + " bytes");
            }
        }

        private DocumentPath path(String text, String f) {
            try {
                return DocumentPath.parse(text == null ? null : text.trim());
            } catch (IllegalArgumentException e) {
                error(f, e.getMessage());
                return null;
            }
        }

        private String declaredBy(String attribute) {
            TableShape.Declared declared = shape.attributes().get(attribute);
            if (declared == null) {
                return "a key of the table";
            }
            List<String> entities = declared.entities();
            return "in the models: " + String.join(", ", entities.size() > 3 ? entities.subList(0, 3) : entities)
                    + (entities.size() > 3 ? ", …" : "");
        }

        private Map<String, String> explicitNames() {
            var out = new LinkedHashMap<String, String>();
            var owner = new HashMap<String, String>();
            spec.names().forEach((attribute, alias) -> {
                if (alias == null || alias.isBlank()) {
                    return;
                }
                String a = alias.startsWith("#") ? alias.substring(1) : alias;
                if (!ALIAS.matcher(a).matches()) {
                    error("names." + attribute, "a placeholder is letters, digits and _ (at most 64), as in #er or #status");
                } else if (owner.containsKey(a)) {
                    error("names." + attribute, "#" + a + " already stands for " + owner.get(a));
                } else {
                    owner.put(a, attribute);
                    out.put(attribute, a);
                }
            });
            return out;
        }

        private Set<String> explicitValueAliases() {
            var out = new HashSet<String>();
            var clauses = new ArrayList<Clause>(spec.key());
            clauses.add(spec.filter());
            clauses.add(spec.condition());
            while (!clauses.isEmpty()) {
                Clause c = clauses.remove(clauses.size() - 1);
                if (c != null) {
                    c.values().stream().filter(o -> o != null && o.alias() != null).forEach(o -> out.add(o.alias()));
                    clauses.addAll(c.clauses());
                }
            }
            spec.update().stream().filter(a -> a != null && a.value() != null && a.value().alias() != null)
                    .forEach(a -> out.add(a.value().alias()));
            return out;
        }
    }

    /**
     * The placeholders of one request: a name keeps one {@code #alias} wherever it appears (the user's, or one made
     * from the name itself); a value gets a {@code :alias} of its own (the user's, or one made from the name it is
     * compared with), unless the user gives two equal values the same one.
     */
    static final class Aliases {
        private final Map<String, String> explicitNames;
        private final Set<String> explicitValues;
        private final Map<String, String> placeholderOf = new HashMap<>();
        final Map<String, String> names = new LinkedHashMap<>();
        final Map<String, AttributeValue> values = new LinkedHashMap<>();

        Aliases(Map<String, String> explicitNames, Set<String> explicitValues) {
            this.explicitNames = explicitNames;
            this.explicitValues = explicitValues;
        }

        String name(String attribute) {
            return placeholderOf.computeIfAbsent(attribute, a -> {
                String alias = explicitNames.get(a);
                if (alias == null) {
                    alias = free(sanitized(a), candidate -> names.containsKey("#" + candidate)
                            || explicitNames.containsValue(candidate));
                }
                names.put("#" + alias, a);
                return "#" + alias;
            });
        }

        String value(AttributeValue value, String explicit, String base) {
            if (explicit != null) {
                String placeholder = ":" + (explicit.startsWith(":") ? explicit.substring(1) : explicit);
                AttributeValue existing = values.get(placeholder);
                if (existing != null && !existing.equals(value)) {
                    throw new IllegalArgumentException(placeholder + " already stands for another value ("
                            + Operand.textOf(existing) + ")");
                }
                values.put(placeholder, value);
                return placeholder;
            }
            String alias = free(sanitized(base), candidate -> values.containsKey(":" + candidate)
                    || explicitValues.contains(candidate));
            values.put(":" + alias, value);
            return ":" + alias;
        }

        /** The name's letters, digits and underscores ({@code first name} → {@code first_name}). */
        static String sanitized(String name) {
            String s = name.replaceAll("[^A-Za-z0-9_]+", "_").replaceAll("^_+|_+$", "");
            s = s.isEmpty() ? "a" : s;
            return s.length() > 48 ? s.substring(0, 48) : s;
        }

        private static String free(String base, java.util.function.Predicate<String> taken) {
            if (!taken.test(base)) {
                return base;
            }
            for (int n = 2; ; n++) {
                if (!taken.test(base + n)) {
                    return base + n;
                }
            }
        }
    }

    static String describe(AttributeType type) {
        return switch (type) {
            case S -> "a string";
            case N -> "a number";
            case B -> "a binary";
            case BOOL -> "a boolean";
            case NULL -> "a null";
            case L -> "a list";
            case M -> "a map";
            case SS -> "a string set";
            case NS -> "a number set";
            case BS -> "a binary set";
        };
    }

    private static boolean isEmpty(AttributeValue value) {
        return value.s() != null && value.s().isEmpty() || value.b() != null && value.b().asByteArrayUnsafe().length == 0;
    }

    /** DynamoDB's order: strings and binaries by their bytes, numbers by value. */
    static int compare(AttributeValue a, AttributeValue b) {
        return switch (AttributeType.of(a)) {
            case N -> new BigDecimal(a.n()).compareTo(new BigDecimal(b.n()));
            case S -> Arrays.compareUnsigned(a.s().getBytes(StandardCharsets.UTF_8), b.s().getBytes(StandardCharsets.UTF_8));
            case B -> Arrays.compareUnsigned(a.b().asByteArrayUnsafe(), b.b().asByteArrayUnsafe());
            default -> 0;
        };
    }
}
