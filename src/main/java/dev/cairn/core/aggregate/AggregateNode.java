package dev.cairn.core.aggregate;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * One item type of an aggregate graph: its discriminator ({@code entityType}), the sort-key label of its items,
 * the scalar fields it stores (edge attributes), inline refs (embedded in its own item) and child edges:
 * {@code one} (a member item), {@code many} (one item per element, keyed by an element identity) and
 * {@code sub} (a reusable sub-aggregate bound with discriminator values: its own transaction group).
 * A node may itself be a copy of a referenced entity ({@link #refMember}): its whole value is the ref.
 */
public final class AggregateNode {

    public enum EdgeKind { ONE, MANY, SUB }

    /**
     * A child edge; {@code discriminator} only for SUB; {@code optional} only for ONE: the member may be absent (its
     * input and view value null, no item stored).
     */
    public record Edge(String field, EdgeKind kind, AggregateNode node, Map<String, Object> discriminator,
                       boolean optional) {
    }

    final String entityType;
    final String label;
    final List<String> fields;
    final Map<String, RefSpec<?>> refs;
    final RefSpec<?> self;
    final List<Edge> edges;
    final String keyField;

    private AggregateNode(Builder builder) {
        this.entityType = builder.entityType;
        this.label = builder.label;
        this.fields = List.copyOf(builder.fields);
        // in declaration order, the same in every JVM (Map.copyOf's is not): the refs become a Query's projection
        this.refs = Collections.unmodifiableMap(new LinkedHashMap<>(builder.refs));
        this.self = builder.self;
        this.edges = List.copyOf(builder.edges);
        this.keyField = builder.keyField;
        var indexes = new ArrayList<>(refs.values().stream().map(RefSpec::index).toList());
        if (self != null) {
            indexes.add(self.index());
        }
        if (indexes.stream().distinct().count() < indexes.size()) {
            throw new IllegalArgumentException(entityType + ": two refs of one item cannot share a ref index");
        }
    }

    public static Builder builder(String entityType, String label) {
        return new Builder(entityType, label);
    }

    /** A member item that is a copy of a referenced entity (input: {@code <field>Id}). */
    public static AggregateNode refMember(String entityType, String label, RefSpec<?> ref) {
        var builder = new Builder(entityType, label);
        builder.self = ref;
        return builder.build();
    }

    public String entityType() {
        return entityType;
    }

    public List<Edge> edges() {
        return edges;
    }

    public String label() {
        return label;
    }

    public List<String> fields() {
        return fields;
    }

    /** The inline refs (embedded in this node's item), in declaration order. */
    public Map<String, RefSpec<?>> refs() {
        return refs;
    }

    /** The ref this node is a copy of; null for a node with fields of its own. */
    public RefSpec<?> copyOf() {
        return self;
    }

    public String keyField() {
        return keyField;
    }

    /** This node and every node below it, each once per place in the graph. */
    void forEachNode(Consumer<AggregateNode> action) {
        action.accept(this);
        edges.forEach(edge -> edge.node().forEachNode(action));
    }

    private boolean holdsSub() {
        return edges.stream().anyMatch(edge -> edge.kind() == EdgeKind.SUB || edge.node().holdsSub());
    }

    public static final class Builder {
        private final String entityType;
        private final String label;
        private final List<String> fields = new ArrayList<>();
        private final Map<String, RefSpec<?>> refs = new LinkedHashMap<>();
        private RefSpec<?> self;
        private final List<Edge> edges = new ArrayList<>();
        private String keyField;

        private Builder(String entityType, String label) {
            if (!label.matches("[A-Z][A-Z0-9_]*")) {
                throw new IllegalArgumentException("label must be an upper-case word: " + label);
            }
            this.entityType = Objects.requireNonNull(entityType);
            this.label = label;
        }

        /** A scalar field stored on this node's item. */
        public Builder field(String name) {
            fields.add(name);
            return this;
        }

        /** An inline ref: the referenced entity is embedded in this node's item (input: {@code <name>Id}). */
        public Builder ref(String name, RefSpec<?> ref) {
            refs.put(name, ref);
            return this;
        }

        public Builder one(String name, AggregateNode node) {
            edges.add(new Edge(name, EdgeKind.ONE, node, Map.of(), false));
            return this;
        }

        /** A member that may be absent: no item when its value (or, for a copy member, its id) is null. */
        public Builder optionalOne(String name, AggregateNode node) {
            edges.add(new Edge(name, EdgeKind.ONE, node, Map.of(), true));
            return this;
        }

        /** A list; elements are identified by {@code node}'s key field (see {@link #keyedBy}). */
        public Builder many(String name, AggregateNode node) {
            if (node.keyField == null) {
                throw new IllegalArgumentException("the elements of '" + name + "' need a key field");
            }
            if (node.holdsSub()) {
                // A transaction group per list element would be named by its position, which moves on every reorder.
                throw new IllegalArgumentException("the elements of '" + name + "' cannot hold a sub-aggregate");
            }
            edges.add(new Edge(name, EdgeKind.MANY, node, Map.of(), false));
            return this;
        }

        /** A sub-aggregate bound with discriminator values: stored on its items, used to route them back. */
        public Builder sub(String name, AggregateNode node, Map<String, Object> discriminator) {
            if (discriminator.isEmpty()) {
                throw new IllegalArgumentException("a bound sub-aggregate needs discriminator values");
            }
            edges.add(new Edge(name, EdgeKind.SUB, node, new LinkedHashMap<>(discriminator), false));
            return this;
        }

        /** The field (a scalar or a ref) that identifies an element of a {@code many} edge. */
        public Builder keyedBy(String field) {
            this.keyField = field;
            return this;
        }

        public AggregateNode build() {
            return new AggregateNode(this);
        }
    }
}
