package io.jolt.stream.protocol.sync;

import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.CompactedHistory;
import io.jolt.stream.protocol.DeviceLog;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.Utf8;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the responder reads of an identity's verified history. An implementation over stores
 * answers each question with a lookup or a short range scan, so a page costs what the page holds.
 */
public interface SyncHistory {
    /** A device with eligible entries: its branch runs from sequence 0 to {@code head}. */
    record Branch(String deviceId, Entry head) {
        public long length() {
            return head.sequence() + 1;
        }
    }

    int requiredLevel();

    /** The chosen authority chain, in chain order. */
    List<AuthorityRecord> chain();

    /** Devices with eligible entries, by device_id in UTF-8 byte order. */
    List<Branch> branches();

    /** The eligible entry of a device at a sequence (on its branch). */
    Entry entryAt(String deviceId, long sequence);

    /** At most {@code max} eligible entries of a device from {@code fromSequence}, in sequence order. */
    List<Entry> entries(String deviceId, long fromSequence, int max);

    /** Where this provider forgot the start of a device's branch; empty when it holds it from sequence 0. */
    default Optional<CompactedHistory.Floor> floor(String deviceId) {
        return Optional.empty();
    }

    /** The history of a merged state held in memory. */
    static SyncHistory of(MergedState state) {
        return new OfMergedState(state);
    }

    /** The history of a merged state: each device's eligible branch, from above its floor. */
    final class OfMergedState implements SyncHistory {
        private final MergedState state;
        private final Map<String, List<Entry>> eligible = new TreeMap<>(Utf8.ORDER);

        private OfMergedState(MergedState state) {
            this.state = state;
            for (DeviceLog log : state.deviceLogs()) {
                if (!log.eligible().isEmpty()) {
                    eligible.put(log.authority().deviceId(), log.eligible());
                }
            }
        }

        @Override
        public int requiredLevel() {
            return state.requiredOperationLevel();
        }

        @Override
        public List<AuthorityRecord> chain() {
            return state.authority().chain();
        }

        @Override
        public List<Branch> branches() {
            List<Branch> out = new ArrayList<>();
            eligible.forEach((device, branch) -> out.add(new Branch(device, branch.get(branch.size() - 1))));
            return out;
        }

        @Override
        public Optional<CompactedHistory.Floor> floor(String deviceId) {
            return state.compacted().floor(deviceId);
        }

        /** The branch list holds sequences from the first one above the floor. */
        private long start(String deviceId) {
            return floor(deviceId).map(f -> f.sequence() + 1).orElse(0L);
        }

        @Override
        public Entry entryAt(String deviceId, long sequence) {
            return eligible.get(deviceId).get((int) (sequence - start(deviceId)));
        }

        @Override
        public List<Entry> entries(String deviceId, long fromSequence, int max) {
            List<Entry> branch = eligible.get(deviceId);
            int from = (int) Math.min(fromSequence - start(deviceId), branch.size());
            return branch.subList(from, (int) Math.min(branch.size(), (long) from + max));
        }
    }
}
