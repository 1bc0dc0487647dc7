package dev.cairn.core.key;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/** The write shard of an id: stable across JVMs and releases (CRC-32 of the UTF-8 id, modulo the shard count). */
public final class WriteShards {

    private WriteShards() {
    }

    public static int of(String id, int shards) {
        if (shards <= 1) {
            return 0;
        }
        var crc = new CRC32();
        crc.update(id.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % shards);
    }
}
