package dev.cairn.core.query;

import dev.cairn.core.CairnError;
import dev.cairn.core.CairnException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Opaque pagination cursors: the LastEvaluatedKey (string key attributes), deflated when long and sealed with AES-256-GCM
 * under a key derived from the cursor secret, with the query binding as associated data; base64url of
 * {@code nonce ‖ ciphertext ‖ tag}. The key DynamoDB returns is the last item it READ, which on a filtered
 * Query may belong to someone the caller cannot see: encryption keeps it unreadable, and the tag makes a
 * tampered cursor, or one replayed against another query or partition, a 400 — never a read of something else.
 * Rotation: cursors are sealed with the current secret and opened with it or any previous one.
 */
public final class CursorCodec {

    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final int MAX_CURSOR_CHARS = 8192;
    /**
     * Keys this long or longer are deflated. A shorter one (a single partition's key) is sealed as it is, behind a
     * zero byte: deflating it saved a few bytes and cost a reset of the deflater's 64 KB tables, about 2 % of a
     * listing request's CPU. What the deflater writes for a cursor's key never starts with a zero byte (one final
     * block), so cursors sealed before are told apart and still open.
     */
    private static final int DEFLATE_FROM = 256;
    private static final byte UNCOMPRESSED = 0;
    /** The fewest characters a cursor secret may have (the current one and every previous one). */
    public static final int MIN_SECRET_LENGTH = 16;
    public static final String SECRET_TOO_SHORT = "must have at least " + MIN_SECRET_LENGTH + " characters";
    private static final byte[] KEY_PURPOSE = "cairn cursor encryption v1".getBytes(StandardCharsets.UTF_8);

    /**
     * One AES-GCM cipher per thread, initialised afresh for every cursor (a new nonce each time): looking a cipher up
     * by its transformation on every cursor showed in the listing routes' profile.
     */
    private static final ThreadLocal<Cipher> CIPHERS = ThreadLocal.withInitial(() -> {
        try {
            return Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    });

    /** Deflaters and inflaters kept for reuse: a new deflater allocates and clears about 256 KB of native memory. */
    private static final Pool<Deflater> DEFLATERS = new Pool<>(() -> new Deflater(Deflater.BEST_COMPRESSION, true),
            Deflater::reset, Deflater::end);
    private static final Pool<Inflater> INFLATERS = new Pool<>(() -> new Inflater(true), Inflater::reset, Inflater::end);

    private final SecretKeySpec sealing;
    private final List<SecretKeySpec> opening;
    private final SecureRandom random = new SecureRandom();

    public CursorCodec(String secret) {
        this(secret, List.of());
    }

    /** Seals with {@code secret}; opens cursors of {@code secret} and of every previous secret (during a rotation). */
    public CursorCodec(String secret, List<String> previousSecrets) {
        this.sealing = keyOf(secret);
        var keys = new ArrayList<SecretKeySpec>();
        keys.add(sealing);
        previousSecrets.forEach(previous -> keys.add(keyOf(previous)));
        this.opening = List.copyOf(keys);
    }

    /** An AES-256 key derived from the secret (HMAC-SHA256 of a fixed purpose), so any secret length works. */
    private static SecretKeySpec keyOf(String secret) {
        if (secret == null || secret.length() < MIN_SECRET_LENGTH) {
            throw new IllegalArgumentException("the cursor secret " + SECRET_TOO_SHORT);
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return new SecretKeySpec(mac.doFinal(KEY_PURPOSE), "AES");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public String encode(String binding, Map<String, AttributeValue> lastEvaluatedKey) {
        if (lastEvaluatedKey == null || lastEvaluatedKey.isEmpty()) {
            return null;
        }
        byte[] payload = serialize(lastEvaluatedKey);
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher cipher = cipher(Cipher.ENCRYPT_MODE, sealing, nonce, binding);
            byte[] cursor = Arrays.copyOf(nonce, NONCE_BYTES + cipher.getOutputSize(payload.length));
            cipher.doFinal(payload, 0, payload.length, cursor, NONCE_BYTES);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(cursor);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The ExclusiveStartKey a cursor stands for; null for a null cursor. */
    public Map<String, AttributeValue> decode(String binding, String cursor) {
        if (cursor == null) {
            return null;
        }
        try {
            if (cursor.length() > MAX_CURSOR_CHARS) {
                throw invalid();
            }
            byte[] raw = Base64.getUrlDecoder().decode(cursor);
            if (raw.length <= NONCE_BYTES + TAG_BITS / 8) {
                throw invalid();
            }
            return deserialize(open(binding, raw));
        } catch (IllegalArgumentException | IOException e) {
            throw invalid();
        }
    }

    /** The payload, opened with the first key whose tag verifies; none verifying means altered or foreign. */
    private byte[] open(String binding, byte[] raw) {
        byte[] nonce = Arrays.copyOf(raw, NONCE_BYTES);
        for (SecretKeySpec key : opening) {
            try {
                return cipher(Cipher.DECRYPT_MODE, key, nonce, binding).doFinal(raw, NONCE_BYTES, raw.length - NONCE_BYTES);
            } catch (AEADBadTagException e) {
                // not this key: try the previous ones
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }
        throw invalid();
    }

    private static Cipher cipher(int mode, SecretKeySpec key, byte[] nonce, String binding) throws GeneralSecurityException {
        Cipher cipher = CIPHERS.get();
        cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
        cipher.updateAAD(binding.getBytes(StandardCharsets.UTF_8));
        return cipher;
    }

    private static CairnException invalid() {
        return new CairnException(new CairnError.InvalidCursor(
                "the cursor is malformed, was altered, or belongs to another query"));
    }

    private static byte[] serialize(Map<String, AttributeValue> key) {
        try {
            var bytes = new ByteArrayOutputStream();
            var out = new DataOutputStream(bytes);
            var sorted = new TreeMap<>(key);
            out.writeByte(sorted.size());
            for (var entry : sorted.entrySet()) {
                if (entry.getValue().s() == null) {
                    throw new IllegalArgumentException("only string key attributes are supported: " + entry.getKey());
                }
                out.writeUTF(entry.getKey());
                out.writeUTF(entry.getValue().s());
            }
            byte[] raw = bytes.toByteArray();
            if (raw.length >= DEFLATE_FROM) {
                return deflate(raw);
            }
            byte[] marked = new byte[raw.length + 1];
            marked[0] = UNCOMPRESSED;
            System.arraycopy(raw, 0, marked, 1, raw.length);
            return marked;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Fan-out cursors hold one key per shard, mostly the same prefixes: deflating keeps them short for a URL. */
    private static byte[] deflate(byte[] raw) {
        Deflater deflater = DEFLATERS.take();
        try {
            deflater.setInput(raw);
            deflater.finish();
            var out = new ByteArrayOutputStream();
            byte[] buffer = new byte[1024];
            while (!deflater.finished()) {
                out.write(buffer, 0, deflater.deflate(buffer));
            }
            return out.toByteArray();
        } finally {
            DEFLATERS.give(deflater);
        }
    }

    private static byte[] inflate(byte[] compressed) throws IOException {
        Inflater inflater = INFLATERS.take();
        try {
            inflater.setInput(compressed);
            var out = new ByteArrayOutputStream();
            byte[] buffer = new byte[1024];
            while (!inflater.finished()) {
                int n = inflater.inflate(buffer);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new IOException("truncated");
                }
                out.write(buffer, 0, n);
                if (out.size() > MAX_CURSOR_CHARS * 8) {
                    throw new IOException("too large");
                }
            }
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new IOException(e);
        } finally {
            INFLATERS.give(inflater);
        }
    }

    private static Map<String, AttributeValue> deserialize(byte[] payload) throws IOException {
        var in = new DataInputStream(payload.length > 0 && payload[0] == UNCOMPRESSED
                ? new ByteArrayInputStream(payload, 1, payload.length - 1)
                : new ByteArrayInputStream(inflate(payload)));
        int count = in.readUnsignedByte();
        var key = new LinkedHashMap<String, AttributeValue>();
        for (int i = 0; i < count; i++) {
            key.put(in.readUTF(), AttributeValue.fromS(in.readUTF()));
        }
        if (in.available() != 0 || count == 0) {
            throw new IOException("trailing bytes");
        }
        return key;
    }

    /**
     * A few (de)compressors kept for reuse, reset before they are kept; past {@link #KEPT} they are released. A
     * bounded queue, not one per thread: a worker pool of many threads would otherwise hold many of them.
     */
    private static final class Pool<T> {
        private static final int KEPT = 16;
        private final java.util.concurrent.ArrayBlockingQueue<T> kept = new java.util.concurrent.ArrayBlockingQueue<>(KEPT);
        private final java.util.function.Supplier<T> make;
        private final java.util.function.Consumer<T> reset;
        private final java.util.function.Consumer<T> release;

        Pool(java.util.function.Supplier<T> make, java.util.function.Consumer<T> reset, java.util.function.Consumer<T> release) {
            this.make = make;
            this.reset = reset;
            this.release = release;
        }

        T take() {
            T item = kept.poll();
            return item == null ? make.get() : item;
        }

        void give(T item) {
            reset.accept(item);
            if (!kept.offer(item)) {
                release.accept(item);
            }
        }
    }
}
