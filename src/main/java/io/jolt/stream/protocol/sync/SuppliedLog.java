package io.jolt.stream.protocol.sync;

import io.jolt.stream.protocol.Authority;
import io.jolt.stream.protocol.Defect;
import io.jolt.stream.protocol.DeviceAuthority;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryRules;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.SignatureCheck;
import java.util.List;
import java.util.Optional;

/**
 * The requester's rule for one log a provider supplied (RFC-0003 §7, PROTOCOL §8): it stands or
 * falls whole. One device, the requested identity, every entry rule, every signature under the
 * verified authority, and a continuous chain that starts at sequence 0 or right after a point the
 * requester already holds. Both requesters ({@link SyncSession}, which holds entries, and
 * {@link CursorSession}, which holds only cursors) judge by this one rule.
 */
public final class SuppliedLog {
    /** Why a supplied log was rejected whole; each is a distinct outcome, counted apart. */
    public enum Reason {
        EMPTY_LOG, MIXED_DEVICES, UNAUTHORIZED_DEVICE, INVALID_ENTRY, BAD_SIGNATURE, DISCONTINUOUS, CHAIN_BREAK;

        /** The name metrics and logs use: {@code bad_signature}. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** A supplied log rejected whole: its device (empty for an empty log), the reason, and what exactly broke. */
    public record Rejection(String deviceId, Reason reason, String detail) {
        @Override
        public String toString() {
            return reason.label() + ": " + detail;
        }
    }

    /** Where the requester holds a point a supplied log may continue from (sequence, exact hash). */
    @FunctionalInterface
    public interface HeldPoints {
        boolean holds(String deviceId, long sequence, Hash hash);
    }

    private SuppliedLog() {}

    public static Optional<Rejection> check(String identity, Authority verified, List<Entry> log, HeldPoints held, SignatureCheck signatures) {
        if (log.isEmpty()) {
            return reject("", Reason.EMPTY_LOG, "empty supplied log");
        }
        String device = log.get(0).deviceId();
        Optional<DeviceAuthority> authorityOf = verified.device(device);
        if (authorityOf.isEmpty()) {
            return reject(device, Reason.UNAUTHORIZED_DEVICE, "device " + device + " is not authorized on the verified authority chain");
        }
        Entry previous = null;
        for (Entry e : log) {
            Optional<Rejection> problem = entryProblem(identity, device, authorityOf.get(), e, signatures);
            if (problem.isEmpty()) {
                problem = previous == null ? start(device, e, held) : link(device, previous, e);
            }
            if (problem.isPresent()) {
                return problem;
            }
            previous = e;
        }
        return Optional.empty();
    }

    private static Optional<Rejection> entryProblem(String identity, String device, DeviceAuthority authority, Entry e,
            SignatureCheck signatures) {
        if (!e.deviceId().equals(device)) {
            return reject(device, Reason.MIXED_DEVICES, "a log mixes devices (" + e.deviceId() + ")");
        }
        Optional<Defect> defect = EntryRules.check(e.body(), identity);
        if (defect.isPresent()) {
            return reject(device, Reason.INVALID_ENTRY, "entry " + e.hash() + ": " + defect.get().description());
        }
        if (!e.signatureVerifies(authority.key(), signatures)) {
            return reject(device, Reason.BAD_SIGNATURE, "entry " + e.hash() + ": bad signature");
        }
        return Optional.empty();
    }

    private static Optional<Rejection> start(String device, Entry first, HeldPoints held) {
        if (first.sequence() == 0 || held.holds(device, first.sequence() - 1, first.body().previousEntryHash())) {
            return Optional.empty();
        }
        return reject(device, Reason.DISCONTINUOUS, "the log does not continue anything held (sequence "
                + Long.toUnsignedString(first.sequence()) + ")");
    }

    private static Optional<Rejection> link(String device, Entry previous, Entry e) {
        if (e.sequence() == previous.sequence() + 1 && previous.hash().equals(e.body().previousEntryHash())) {
            return Optional.empty();
        }
        return reject(device, Reason.CHAIN_BREAK, "the chain breaks at sequence " + Long.toUnsignedString(e.sequence()));
    }

    private static Optional<Rejection> reject(String device, Reason reason, String detail) {
        return Optional.of(new Rejection(device, reason, detail));
    }
}
