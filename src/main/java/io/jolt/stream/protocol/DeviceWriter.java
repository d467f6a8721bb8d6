package io.jolt.stream.protocol;

import java.util.List;

/**
 * Writes the next entries of one device. Its position (next sequence, previous hash) is the
 * device's own: it must come from the device's own durable state, never from a bundle or an
 * archive replay, or a log missing its tail would make the device re-sign a used sequence.
 */
public record DeviceWriter(String identity, String deviceId, long nextSequence, Hash previousEntryHash) {
    public static DeviceWriter genesis(String identity, String deviceId) {
        if (!DeviceId.isValid(deviceId)) {
            throw new IllegalArgumentException("not a valid device_id: " + deviceId);
        }
        return new DeviceWriter(identity, deviceId, 0, null);
    }

    /** The signed entry and the writer that follows it. */
    public record Written(Entry entry, DeviceWriter next) {}

    public Written write(SigningKey key, Operation operation, long createdAt, List<Hash> observedHeads) {
        List<Hash> heads = observedHeads.stream().distinct().sorted().toList();
        EntryBody body = new EntryBody(EntryBody.RECORD_TYPE, EntryBody.VERSION, identity, deviceId,
                nextSequence, previousEntryHash, operation, createdAt, heads);
        EntryRules.check(body, identity).ifPresent(d -> {
            throw new IllegalArgumentException(d.description());
        });
        byte[] bytes = body.canonicalBytes();
        Entry entry = Entry.of(body, key.sign(bytes));
        return new Written(entry, new DeviceWriter(identity, deviceId, nextSequence + 1, entry.hash()));
    }
}
