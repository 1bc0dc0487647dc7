package dev.cairn.core.model;

import dev.cairn.core.TableSpec;
import dev.cairn.core.item.ItemCodec;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The item codec of a declared entity: each field as the attribute of its kind (strings, dates, instants and enums
 * as S, numbers as N, booleans as BOOL, objects as M, lists as L), absent when null — the same attributes a
 * hand-written {@link dev.cairn.core.item.RecordCodec} writes for the same fields.
 */
public final class DocCodec implements ItemCodec<Doc> {

    private final List<FieldModel> fields;
    private final Set<String> names;
    private final NamedValues.Names layout;
    /** The fields by their place in the layout: a decode walks an array, not a list's iterator. */
    private final FieldModel[] laidOut;
    /** Where the expiry field's value is in the layout; -1: none. */
    private final int ttlAt;
    /** The expiry field ({@code ttl}), stored as the table's TTL attribute in epoch seconds; null: none. */
    private final String ttl;

    public DocCodec(List<FieldModel> fields) {
        this(fields, null);
    }

    public DocCodec(List<FieldModel> fields, String ttl) {
        this.ttl = ttl;
        this.fields = List.copyOf(fields);
        var n = new LinkedHashSet<String>();
        fields.forEach(f -> n.add(f.name()));
        this.names = java.util.Collections.unmodifiableSet(n);
        this.layout = NamedValues.Names.of(this.fields.stream().map(FieldModel::name).toList());
        this.laidOut = this.fields.toArray(FieldModel[]::new);
        this.ttlAt = ttl == null ? -1 : layout.at(ttl);
    }

    @Override
    public Map<String, AttributeValue> encode(Doc value) {
        var item = encodeObject(fields, value.values());
        if (ttl != null) {
            // DynamoDB's TTL reads epoch seconds in a number attribute: the API's RFC 3339 instant, to the second
            AttributeValue expiry = item.remove(ttl);
            if (expiry != null) {
                item.put(TableSpec.EXPIRES_AT, AttributeValue.fromN(Long.toString(Instant.parse(expiry.s()).getEpochSecond())));
            }
        }
        return item;
    }

    @Override
    public Doc decode(Map<String, AttributeValue> attributes) {
        Object[] values = new Object[laidOut.length];
        for (int i = 0; i < values.length; i++) {
            FieldModel field = laidOut[i];
            AttributeValue value = attributes.get(field.name());
            if (value != null && !Boolean.TRUE.equals(value.nul())) {
                values[i] = decode(field, value);
            }
        }
        if (ttlAt >= 0) {
            // stored as the table's TTL attribute in epoch seconds; shown in its declared place as an RFC 3339 instant
            AttributeValue expiry = attributes.get(TableSpec.EXPIRES_AT);
            if (expiry != null && expiry.n() != null) {
                values[ttlAt] = Instant.ofEpochSecond(Long.parseLong(expiry.n())).toString();
            }
        }
        return Doc.laid(layout, values);
    }

    /** The expiry field, or null when the entity declares none. */
    public String ttl() {
        return ttl;
    }

    @Override
    public Set<String> fieldNames() {
        return names;
    }

    private static Map<String, AttributeValue> encodeObject(List<FieldModel> fields, Map<String, Object> values) {
        var item = new LinkedHashMap<String, AttributeValue>(capacity(fields.size()));
        for (FieldModel field : fields) {
            Object value = values.get(field.name());
            if (value != null) {
                item.put(field.name(), encode(field, value));
            }
        }
        return item;
    }

    @SuppressWarnings("unchecked")
    private static AttributeValue encode(FieldModel field, Object value) {
        return switch (field.kind()) {
            case INTEGER, NUMBER -> AttributeValue.fromN(value instanceof BigDecimal d ? d.toPlainString() : value.toString());
            case BOOLEAN -> AttributeValue.fromBool((Boolean) value);
            case OBJECT -> AttributeValue.fromM(encodeObject(field.fields(), (Map<String, Object>) value));
            case LIST -> {
                var out = new ArrayList<AttributeValue>();
                ((List<Object>) value).forEach(element -> out.add(encode(field.items(), element)));
                yield AttributeValue.fromL(out);
            }
            default -> AttributeValue.fromS(value.toString());
        };
    }

    private static LinkedHashMap<String, Object> decodeObject(List<FieldModel> fields, Map<String, AttributeValue> attributes) {
        var out = new LinkedHashMap<String, Object>(capacity(fields.size()));
        for (FieldModel field : fields) {
            AttributeValue value = attributes.get(field.name());
            if (value != null && !Boolean.TRUE.equals(value.nul())) {
                out.put(field.name(), decode(field, value));
            }
        }
        return out;
    }

    /** A map's initial capacity for this many entries, so filling it never resizes. */
    static int capacity(int entries) {
        return entries * 4 / 3 + 1;
    }

    /**
     * A stored number in {@link FieldRules}' canonical form. A plain integer of at most 18 digits (every count, limit
     * and version) is read as a long without a {@link BigDecimal}: the same value the general path gives.
     */
    static Object number(String text) {
        int start = text.startsWith("-") ? 1 : 0;
        boolean plain = text.length() > start && text.length() - start <= 18;
        for (int i = start; plain && i < text.length(); i++) {
            plain = text.charAt(i) >= '0' && text.charAt(i) <= '9';
        }
        return plain ? Long.valueOf(Long.parseLong(text)) : FieldRules.canonical(new BigDecimal(text).stripTrailingZeros());
    }

    private static Object decode(FieldModel field, AttributeValue value) {
        return switch (field.kind()) {
            case INTEGER, NUMBER -> number(value.n());
            case BOOLEAN -> value.bool();
            case OBJECT -> decodeObject(field.fields(), value.m());
            case LIST -> {
                var out = new ArrayList<Object>();
                value.l().forEach(element -> out.add(decode(field.items(), element)));
                yield out;
            }
            default -> value.s();
        };
    }
}
