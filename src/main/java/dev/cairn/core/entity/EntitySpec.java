package dev.cairn.core.entity;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import dev.cairn.core.TableSpec.Index;
import dev.cairn.core.TableSpec;
import dev.cairn.core.item.ItemCodec;
import dev.cairn.core.item.Timestamps;
import dev.cairn.core.key.IndexKey;
import dev.cairn.core.key.PrimaryKey;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * One entity type of the single table: its discriminator, codec, primary-key layout and optional GSI keys
 * (sparse: a key function returning null leaves the item out of that index). Prepared once per type.
 *
 * <pre>{@code
 * EntitySpec.builder("Project", CODEC)
 *     .key(p -> PrimaryKey.of(WS.render(p.workspaceId()), PROJ.render(p.id())))
 *     .index(Index.GSI1, p -> IndexKey.of(STATUS.render(p.status()), p.createdAt().toString()))
 *     .build();
 * }</pre>
 */
public final class EntitySpec<T> {

    private final String type;
    private final ItemCodec<T> codec;
    private final Function<T, PrimaryKey> keyOf;
    private final Map<Index, Function<T, IndexKey>> indexKeys;
    private final AttributeValue typeValue;
    private final boolean expires;

    private EntitySpec(String type, ItemCodec<T> codec, Function<T, PrimaryKey> keyOf,
                       Map<Index, Function<T, IndexKey>> indexKeys, boolean expires) {
        this.type = type;
        this.expires = expires;
        this.codec = codec;
        this.keyOf = keyOf;
        this.indexKeys = Map.copyOf(indexKeys);
        this.typeValue = AttributeValue.fromS(type);
    }

    public static <T> Builder<T> builder(String type, ItemCodec<T> codec) {
        return new Builder<>(type, codec);
    }

    public String type() {
        return type;
    }

    public ItemCodec<T> codec() {
        return codec;
    }

    /**
     * Whether its items may carry an expiry ({@link TableSpec#EXPIRES_AT}, epoch seconds): past it an item is gone
     * from every read and a write meets it as missing, before DynamoDB's TTL deletes it.
     */
    public boolean expires() {
        return expires;
    }

    /**
     * The value as a read of it answers once stored: the same, but where the codec stores less than it is given (an
     * expiry is stored to the second), so a write's answer equals the next read's.
     */
    public T asStored(T value) {
        return expires ? codec.decode(codec.encode(value)) : value;
    }

    /** Whether the item has expired at {@code now} (an item without an expiry never does). */
    public static boolean expired(Map<String, AttributeValue> item, Instant now) {
        AttributeValue at = item == null ? null : item.get(TableSpec.EXPIRES_AT);
        return at != null && at.n() != null && Long.parseLong(at.n()) <= now.getEpochSecond();
    }

    public PrimaryKey keyOf(T value) {
        return keyOf.apply(value);
    }

    /** The index key attribute names this type may write. */
    public Set<String> indexKeyNames() {
        var names = new HashSet<String>();
        indexKeys.keySet().forEach(index -> {
            names.add(index.pkName());
            names.add(index.skName());
        });
        return names;
    }

    public boolean isTypeOf(Map<String, AttributeValue> item) {
        return typeValue.equals(item.get(TableSpec.TYPE));
    }

    /** The complete item for a value at a version: keys, index keys, discriminator, bookkeeping, fields. */
    public Map<String, AttributeValue> toItem(T value, long version, Instant createdAt, Instant updatedAt) {
        var item = new HashMap<String, AttributeValue>(codec.encode(value));
        item.putAll(keyOf(value).toAttributes());
        indexKeys.forEach((index, keyFn) -> {
            IndexKey key = keyFn.apply(value);
            if (key != null) {
                item.put(index.pkName(), AttributeValue.fromS(key.pk()));
                item.put(index.skName(), AttributeValue.fromS(key.sk()));
            }
        });
        item.put(TableSpec.TYPE, typeValue);
        item.put(TableSpec.VERSION, AttributeValue.fromN(Long.toString(version)));
        item.put(TableSpec.CREATED_AT, AttributeValue.fromS(createdAt.toString()));
        item.put(TableSpec.UPDATED_AT, AttributeValue.fromS(updatedAt.toString()));
        return item;
    }

    public Stored<T> fromItem(Map<String, AttributeValue> item) {
        if (!isTypeOf(item)) {
            AttributeValue actual = item.get(TableSpec.TYPE);
            throw new CairnException(new CairnError.DataIntegrityError("item " + PrimaryKey.from(item)
                    + " is a " + (actual == null ? "item without type" : actual.s()) + ", not a " + type));
        }
        try {
            return new Stored<>(codec.decode(item), PrimaryKey.from(item), versionOf(item),
                    Timestamps.instant(item.get(TableSpec.CREATED_AT).s()), Timestamps.instant(item.get(TableSpec.UPDATED_AT).s()));
        } catch (CairnException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new CairnException(new CairnError.DataIntegrityError(
                    "item " + PrimaryKey.from(item) + " cannot be read as a " + type), e);
        }
    }

    /** The domain fields of a stored item, as its codec writes them (what an embedded copy of it holds). */
    public Map<String, AttributeValue> fieldsOf(Map<String, AttributeValue> item) {
        var fields = new HashMap<>(codec.encode(fromItem(item).value()));
        // a copy never carries the table's TTL attribute: it would expire the item that holds it
        fields.remove(TableSpec.EXPIRES_AT);
        return fields;
    }

        /** The version attribute of a stored item, or 0 when it has none. */
    public static long versionOf(Map<String, AttributeValue> item) {
        AttributeValue v = item == null ? null : item.get(TableSpec.VERSION);
        return v == null || v.n() == null ? 0 : Long.parseLong(v.n());
    }

    @Override
    public String toString() {
        return "EntitySpec[" + type + "]";
    }

    public static final class Builder<T> {
        private final String type;
        private final ItemCodec<T> codec;
        private Function<T, PrimaryKey> keyOf;
        private final Map<Index, Function<T, IndexKey>> indexKeys = new EnumMap<>(Index.class);
        private boolean expires;

        private Builder(String type, ItemCodec<T> codec) {
            this.type = Objects.requireNonNull(type);
            this.codec = Objects.requireNonNull(codec);
            codec.fieldNames().forEach(name -> {
                if (TableSpec.isReserved(name)) {
                    throw new IllegalArgumentException(type + " field '" + name + "' clashes with a system attribute");
                }
            });
        }

        public Builder<T> key(Function<T, PrimaryKey> keyOf) {
            this.keyOf = keyOf;
            return this;
        }

        public Builder<T> index(Index index, Function<T, IndexKey> keyOf) {
            if (index == Index.TABLE) {
                throw new IllegalArgumentException("the table key is declared with key(...)");
            }
            indexKeys.put(index, keyOf);
            return this;
        }

        /** Its items may carry an expiry (see {@link EntitySpec#expires()}). */
        public Builder<T> expiring() {
            this.expires = true;
            return this;
        }

        public EntitySpec<T> build() {
            return new EntitySpec<>(type, codec, Objects.requireNonNull(keyOf, "key"), indexKeys, expires);
        }
    }
}
