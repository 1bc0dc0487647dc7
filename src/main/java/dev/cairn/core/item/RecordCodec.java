package dev.cairn.core.item;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.TableSpec;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * An explicit record codec declared in a few lines: one line per field (name, accessor, kind) and a constructor
 * call reading the fields back. No reflection, so it is prepared once and is native-image friendly. Null fields
 * are omitted from the item and read back as null.
 *
 * <pre>{@code
 * RecordCodec.<Venue>builder()
 *     .string("id", Venue::id).string("name", Venue::name).string("city", Venue::city)
 *     .build(f -> new Venue(f.string("id"), f.string("name"), f.string("city")));
 * }</pre>
 */
public final class RecordCodec<T> implements ItemCodec<T> {

    private record FieldSpec<T>(String name, Function<T, AttributeValue> encoder) {
    }

    private final List<FieldSpec<T>> fields;
    private final Function<Fields, T> constructor;
    private final Set<String> names;

    private RecordCodec(List<FieldSpec<T>> fields, Function<Fields, T> constructor) {
        this.fields = List.copyOf(fields);
        this.constructor = constructor;
        var n = new LinkedHashSet<String>();
        fields.forEach(f -> n.add(f.name()));
        this.names = Collections.unmodifiableSet(n);
    }

    public static <T> Builder<T> builder() {
        return new Builder<>();
    }

    @Override
    public Map<String, AttributeValue> encode(T value) {
        var item = new LinkedHashMap<String, AttributeValue>(fields.size() * 2);
        for (FieldSpec<T> field : fields) {
            AttributeValue encoded = field.encoder().apply(value);
            if (encoded != null) {
                item.put(field.name(), encoded);
            }
        }
        return item;
    }

    @Override
    public T decode(Map<String, AttributeValue> attributes) {
        return constructor.apply(new Fields(attributes));
    }

    @Override
    public Set<String> fieldNames() {
        return names;
    }

    public static final class Builder<T> {
        private final List<FieldSpec<T>> fields = new ArrayList<>();

        public Builder<T> string(String name, Function<T, String> accessor) {
            return field(name, accessor, AttributeValue::fromS);
        }

        public Builder<T> number(String name, Function<T, ? extends Number> accessor) {
            return field(name, accessor, n -> AttributeValue.fromN(numberText(n)));
        }

        public Builder<T> bool(String name, Function<T, Boolean> accessor) {
            return field(name, accessor, AttributeValue::fromBool);
        }

        public Builder<T> instant(String name, Function<T, Instant> accessor) {
            return field(name, accessor, i -> AttributeValue.fromS(i.toString()));
        }

        public Builder<T> date(String name, Function<T, LocalDate> accessor) {
            return field(name, accessor, d -> AttributeValue.fromS(d.toString()));
        }

        public Builder<T> strings(String name, Function<T, List<String>> accessor) {
            return field(name, accessor, list -> AttributeValue.fromL(list.stream().map(AttributeValue::fromS).toList()));
        }

        /** An embedded record, stored as a map attribute. */
        public <N> Builder<T> nested(String name, Function<T, N> accessor, ItemCodec<N> codec) {
            return field(name, accessor, n -> AttributeValue.fromM(codec.encode(n)));
        }

        /** A list of embedded records, stored as a list of map attributes. */
        public <N> Builder<T> nestedList(String name, Function<T, List<N>> accessor, ItemCodec<N> codec) {
            return field(name, accessor, list -> AttributeValue.fromL(
                    list.stream().map(n -> AttributeValue.fromM(codec.encode(n))).toList()));
        }

        public <V> Builder<T> field(String name, Function<T, V> accessor, Function<V, AttributeValue> encoder) {
            if (TableSpec.isReserved(name)) {
                throw new IllegalArgumentException("field name '" + name + "' is reserved for system attributes");
            }
            if (fields.stream().anyMatch(f -> f.name().equals(name))) {
                throw new IllegalArgumentException("field '" + name + "' declared twice");
            }
            fields.add(new FieldSpec<>(name, value -> {
                V v = accessor.apply(value);
                return v == null ? null : encoder.apply(v);
            }));
            return this;
        }

        public RecordCodec<T> build(Function<Fields, T> constructor) {
            return new RecordCodec<>(fields, constructor);
        }
    }

    private static String numberText(Number n) {
        return n instanceof BigDecimal d ? d.toPlainString() : n.toString();
    }

    /** Typed read access to an item's attributes while decoding; absent attributes read as null. */
    public static final class Fields {
        private final Map<String, AttributeValue> attributes;

        Fields(Map<String, AttributeValue> attributes) {
            this.attributes = attributes;
        }

        public String string(String name) {
            AttributeValue v = attributes.get(name);
            return v == null ? null : require(name, v.s());
        }

        public Integer integer(String name) {
            BigDecimal d = decimal(name);
            return d == null ? null : d.intValueExact();
        }

        public Long longValue(String name) {
            BigDecimal d = decimal(name);
            return d == null ? null : d.longValueExact();
        }

        public BigDecimal decimal(String name) {
            AttributeValue v = attributes.get(name);
            return v == null ? null : new BigDecimal(require(name, v.n()));
        }

        public Boolean bool(String name) {
            AttributeValue v = attributes.get(name);
            return v == null ? null : require(name, v.bool());
        }

        public Instant instant(String name) {
            String s = string(name);
            return s == null ? null : Timestamps.instant(s);
        }

        public LocalDate date(String name) {
            String s = string(name);
            return s == null ? null : Timestamps.date(s);
        }

        public List<String> strings(String name) {
            AttributeValue v = attributes.get(name);
            return v == null ? null : v.l().stream().map(AttributeValue::s).toList();
        }

        public <N> N nested(String name, ItemCodec<N> codec) {
            AttributeValue v = attributes.get(name);
            return v == null ? null : codec.decode(require(name, v.m()));
        }

        public <N> List<N> nestedList(String name, ItemCodec<N> codec) {
            AttributeValue v = attributes.get(name);
            return v == null ? null : v.l().stream().map(e -> codec.decode(e.m())).toList();
        }

        private static <V> V require(String name, V value) {
            if (value == null) {
                throw new CairnException(new CairnError.DataIntegrityError("attribute '" + name + "' has an unexpected type"));
            }
            return value;
        }
    }
}
