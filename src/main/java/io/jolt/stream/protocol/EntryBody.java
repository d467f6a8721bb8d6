package io.jolt.stream.protocol;

import java.util.ArrayList;
import java.util.List;

/** The signed part of a device-writer log entry (PROTOCOL §4), as read: values may still break rules. */
public record EntryBody(
        String recordType,
        int version,
        String identity,
        String deviceId,
        long deviceSequence,
        Hash previousEntryHash,
        Operation operation,
        long createdAt,
        List<Hash> observedHeads) {

    public static final String RECORD_TYPE = "jolt.device_writer_log_entry";
    public static final int VERSION = 1;
    static final String DOMAIN = "jolt:device-writer-log-entry:v1";
    static final String HEADS_DOMAIN = "jolt:observed-singleton-heads:v1";

    public EntryBody {
        observedHeads = List.copyOf(observedHeads);
    }

    public byte[] canonicalBytes() {
        CanonicalWriter out = new CanonicalWriter(160 + observedHeads.size() * Hash.LENGTH)
                .literal(DOMAIN).u8(0)
                .string(recordType).uint16(version).string(identity).string(deviceId)
                .uint64(deviceSequence).optionalHash(previousEntryHash);
        operation.writeTo(out);
        out.uint64(createdAt);
        // Empty heads keep exactly the RFC-0003 v1 bytes.
        if (!observedHeads.isEmpty()) {
            out.u8(0).literal(HEADS_DOMAIN).u8(0).uint64(observedHeads.size());
            observedHeads.forEach(out::raw);
        }
        return out.toByteArray();
    }

    /** @throws DecodeException when the bytes are not exactly one canonical entry body */
    public static EntryBody decode(byte[] bytes) {
        CanonicalReader in = new CanonicalReader(bytes);
        in.literal(DOMAIN);
        in.literal("\0");
        String recordType = in.string();
        int version = in.uint16();
        String identity = in.string();
        String deviceId = in.string();
        long sequence = in.uint64();
        Hash previous = in.optionalHash();
        Operation operation;
        if (in.discriminator(1) == 0) {
            String path = in.string();
            String contentId = in.string();
            Operation.Mode mode = in.discriminator(1) == 0 ? Operation.Mode.SINGLETON : Operation.Mode.APPEND;
            operation = new Operation.SetPath(path, contentId, mode);
        } else {
            operation = new Operation.TombstonePath(in.string());
        }
        long createdAt = in.uint64();
        List<Hash> heads = new ArrayList<>();
        if (!in.atEnd()) {
            in.discriminator(0);
            in.literal(HEADS_DOMAIN);
            in.literal("\0");
            int count = in.count(Hash.LENGTH);
            if (count == 0) {
                // The extension exists only for non-empty heads; an empty one is not canonical.
                throw new DecodeException(DecodeException.Kind.UNEXPECTED_LITERAL, "empty observed-heads extension");
            }
            for (int i = 0; i < count; i++) {
                heads.add(in.hash());
            }
        }
        in.end();
        return new EntryBody(recordType, version, identity, deviceId, sequence, previous, operation, createdAt, heads);
    }

    /** Operation level (PROTOCOL §7): 3 with observed heads, else 2 for a Tombstone, else 1. */
    public int operationLevel() {
        if (!observedHeads.isEmpty()) {
            return 3;
        }
        return operation instanceof Operation.TombstonePath ? 2 : 1;
    }
}
