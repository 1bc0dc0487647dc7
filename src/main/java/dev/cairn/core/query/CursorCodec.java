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
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Opaque pagination cursors: base64url of the LastEvaluatedKey (string key attributes), followed by an
 * HMAC-SHA256 tag over the key AND the query binding. A tampered cursor, or one replayed against another
 * query or partition, fails verification and is a 400, never a read of something else.
 */
public final class CursorCodec {

    private static final int TAG_BYTES = 16;
    private static final int MAX_CURSOR_CHARS = 8192;

    private final SecretKeySpec key;

    public CursorCodec(String secret) {
        if (secret == null || secret.length() < 16) {
            throw new IllegalArgumentException("the cursor secret must have at least 16 characters");
        }
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    public String encode(String binding, Map<String, AttributeValue> lastEvaluatedKey) {
        if (lastEvaluatedKey == null || lastEvaluatedKey.isEmpty()) {
            return null;
        }
        byte[] payload = serialize(lastEvaluatedKey);
        byte[] tag = tag(binding, payload);
        byte[] cursor = new byte[payload.length + TAG_BYTES];
        System.arraycopy(payload, 0, cursor, 0, payload.length);
        System.arraycopy(tag, 0, cursor, payload.length, TAG_BYTES);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(cursor);
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
            if (raw.length <= TAG_BYTES) {
                throw invalid();
            }
            byte[] payload = Arrays.copyOf(raw, raw.length - TAG_BYTES);
            byte[] tag = Arrays.copyOfRange(raw, raw.length - TAG_BYTES, raw.length);
            if (!MessageDigest.isEqual(tag, tag(binding, payload))) {
                throw invalid();
            }
            return deserialize(payload);
        } catch (IllegalArgumentException | IOException e) {
            throw invalid();
        }
    }

    private static CairnException invalid() {
        return new CairnException(new CairnError.InvalidCursor(
                "the cursor is malformed, was altered, or belongs to another query"));
    }

    private byte[] tag(String binding, byte[] payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            mac.update(binding.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) 0);
            return Arrays.copyOf(mac.doFinal(payload), TAG_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
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
            return deflate(bytes.toByteArray());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Fan-out cursors hold one key per shard, mostly the same prefixes: deflating keeps them short for a URL. */
    private static byte[] deflate(byte[] raw) {
        var deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
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
            deflater.end();
        }
    }

    private static byte[] inflate(byte[] compressed) throws IOException {
        var inflater = new Inflater(true);
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
            inflater.end();
        }
    }

    private static Map<String, AttributeValue> deserialize(byte[] payload) throws IOException {
        var in = new DataInputStream(new ByteArrayInputStream(inflate(payload)));
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
}
