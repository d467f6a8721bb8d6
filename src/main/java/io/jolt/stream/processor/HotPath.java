package io.jolt.stream.processor;

import io.jolt.stream.processor.store.IdentityStore;
import io.jolt.stream.processor.store.IdentitySummary;
import io.jolt.stream.processor.store.Source;
import io.jolt.stream.protocol.DeviceAuthority;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Head;
import io.jolt.stream.protocol.Operation;
import io.jolt.stream.protocol.SingletonMerge;
import java.util.List;

/**
 * The incremental merge: the next entry of an active device, extending its eligible head with
 * nothing pending after it and no fork beside it, touches only its own path (or append key). Its
 * cost is bounded by the entry, not by the identity; the merge step is the core's
 * ({@link SingletonMerge#extend}).
 */
final class HotPath {
    private final IdentityStore store;
    private final IdentityOutputs outputs;
    private final ProcessorMetrics metrics;

    HotPath(IdentityStore store, IdentityOutputs outputs, ProcessorMetrics metrics) {
        this.store = store;
        this.outputs = outputs;
        this.metrics = metrics;
    }

    /**
     * Whether the verified entry, not stored yet, simply extends its active device's eligible
     * branch: it names the head, nothing of the device is stored at its sequence and nothing
     * waits after it.
     */
    boolean takes(String identity, IdentitySummary.Device device, Entry entry) {
        if (device.status() != DeviceAuthority.Status.ACTIVE) {
            return false;
        }
        Head head = device.head();
        if (head == null) {
            return entry.sequence() == 0 && !store.holdsAnyOf(identity, entry.deviceId());
        }
        return entry.sequence() == head.deviceSequence() + 1 && entry.sequence() != 0
                && head.entryHash().equals(entry.body().previousEntryHash())
                && !store.holdsAnyAt(identity, entry.deviceId(), entry.sequence())
                && !store.holdsAnyAt(identity, entry.deviceId(), entry.sequence() + 1);
    }

    /** Merges an entry {@link #takes} accepted (stored already, as archived on arrival) and archives it. */
    void apply(String identity, IdentitySummary summary, Entry entry, Source source) {
        metrics.hotPath.record();
        store.putSummary(identity, summary.advance(entry.deviceId(), Head.of(entry), entry.body().operationLevel()));
        Operation operation = entry.body().operation();
        if (operation.isSingletonCandidate()) {
            String path = operation.path();
            List<Entry> before = store.heads(identity, path);
            SingletonMerge.Extension after = SingletonMerge.extend(before, entry, h -> store.isObserved(identity, path, h));
            after.observedAbsent().forEach(h -> store.markObserved(identity, path, h));
            store.putHeads(identity, path, after.active());
            outputs.resolutionChanged(identity, path, SingletonMerge.resolve(path, before).orElse(null),
                    SingletonMerge.resolve(path, after.active()).orElse(null));
        } else {
            store.putAppend(identity, entry);
        }
        outputs.archive(identity, entry, source);
    }
}
