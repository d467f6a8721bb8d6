package io.jolt.stream.processor.store;

import io.jolt.stream.protocol.CanonicalReader;
import io.jolt.stream.protocol.CanonicalWriter;
import io.jolt.stream.protocol.Cutoff;
import io.jolt.stream.protocol.DeviceAuthority;
import io.jolt.stream.protocol.DeviceLog;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.Head;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.PublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the hot path needs to know of an identity without reading its history: each device's
 * key, status and eligible head, and the required operation level. Kept per identity in the
 * identities store; rewritten by every re-evaluation, advanced by the hot path.
 */
public record IdentitySummary(int requiredLevel, List<Device> devices) {
    public record Device(String deviceId, byte[] publicKey, DeviceAuthority.Status status, Cutoff cutoff, Head head) {}

    /** The summary of a merged state: what the hot path needs of it. */
    public static IdentitySummary of(MergedState state) {
        List<Device> devices = new ArrayList<>();
        for (DeviceLog log : state.deviceLogs()) {
            DeviceAuthority d = log.authority();
            devices.add(new Device(d.deviceId(), d.key().bytes(), d.status(), d.cutoff(), log.head().map(Head::of).orElse(null)));
        }
        return new IdentitySummary(state.requiredOperationLevel(), devices);
    }

    public Optional<Device> device(String deviceId) {
        return devices.stream().filter(d -> d.deviceId().equals(deviceId)).findFirst();
    }

    public IdentitySummary advance(String deviceId, Head head, int entryLevel) {
        List<Device> next = new ArrayList<>(devices.size());
        for (Device d : devices) {
            next.add(d.deviceId().equals(deviceId) ? new Device(d.deviceId(), d.publicKey(), d.status(), d.cutoff(), head) : d);
        }
        return new IdentitySummary(Math.max(requiredLevel, entryLevel), next);
    }

    byte[] encode() {
        CanonicalWriter out = new CanonicalWriter().uint16(requiredLevel).uint64(devices.size());
        for (Device d : devices) {
            out.string(d.deviceId()).raw(d.publicKey()).u8(d.status().ordinal());
            if (d.cutoff() == null) {
                out.u8(0);
            } else {
                out.u8(1).uint64(d.cutoff().deviceSequence()).raw(d.cutoff().entryHash());
            }
            if (d.head() == null) {
                out.u8(0);
            } else {
                out.u8(1).uint64(d.head().deviceSequence()).raw(d.head().entryHash());
            }
        }
        return out.toByteArray();
    }

    static IdentitySummary decode(byte[] bytes) {
        CanonicalReader in = new CanonicalReader(bytes);
        int level = in.uint16();
        int count = in.count(PublicKey.LENGTH);
        List<Device> devices = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String id = in.string();
            byte[] key = in.raw(PublicKey.LENGTH);
            DeviceAuthority.Status status = DeviceAuthority.Status.values()[in.discriminator(1)];
            Cutoff cutoff = in.presence() ? new Cutoff(in.uint64(), in.hash()) : null;
            Head head = null;
            if (in.presence()) {
                long sequence = in.uint64();
                Hash hash = in.hash();
                head = new Head(id, sequence, hash);
            }
            devices.add(new Device(id, key, status, cutoff, head));
        }
        in.end();
        return new IdentitySummary(level, devices);
    }
}
