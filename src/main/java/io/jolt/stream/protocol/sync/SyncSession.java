package io.jolt.stream.protocol.sync;

import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Authority;
import io.jolt.stream.protocol.DeviceAuthority;
import io.jolt.stream.protocol.DeviceLog;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryInput;
import io.jolt.stream.protocol.EntryRules;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.IdentityAssembler;
import io.jolt.stream.protocol.MergedState;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The requester side of delta sync (PROTOCOL §8): it holds what it has verified of one
 * identity, asks for what follows its cursors, and re-verifies every page from scratch
 * (authority, chain continuity from the cursor, signatures, merge). A cursor matching is never a
 * reason to splice a delta in; a supplied log with one invalid entry is rejected whole.
 */
public final class SyncSession {
    private final String identity;
    private final Set<AuthorityRecord> authority = new LinkedHashSet<>();
    private final Set<Entry> entries = new LinkedHashSet<>();
    private List<Cursor> continuation;

    /** What one response did. */
    public sealed interface Outcome {
        /** The provider's history needs a level this requester does not support: nothing was applied. */
        record UnsupportedLevel(int requiredLevel) implements Outcome {}

        /** A page (or a complete response) was verified; {@code more} says whether to ask again. */
        record Applied(int acceptedEntries, List<RejectedLog> rejectedLogs, boolean complete, boolean more) implements Outcome {}
    }

    /** A supplied log rejected whole, and why. */
    public record RejectedLog(String deviceId, String reason) {}

    public SyncSession(String identity) {
        this.identity = identity;
    }

    /** Continues from records verified before (a later run is a delta). */
    public SyncSession(String identity, List<AuthorityRecord> heldAuthority, List<Entry> heldEntries) {
        this(identity);
        authority.addAll(heldAuthority);
        entries.addAll(heldEntries);
    }

    /** The next request: the continuation of the last page, else the heads of what is held. */
    public SyncRequest nextRequest() {
        List<Cursor> cursors = continuation != null ? continuation : heldHeads();
        return new SyncRequest(identity, SyncResponder.KNOWN_OPERATION_LEVEL, SyncResponder.KNOWN_SYNC_LEVEL, cursors, List.of(), List.of());
    }

    private List<Cursor> heldHeads() {
        List<Cursor> out = new ArrayList<>();
        for (DeviceLog log : merged().deviceLogs()) {
            log.head().ifPresent(h -> out.add(Cursor.of(h)));
        }
        return out;
    }

    public Outcome accept(SyncResponse response) {
        if (response.requiredOperationVersion() > SyncResponder.KNOWN_OPERATION_LEVEL) {
            return new Outcome.UnsupportedLevel(response.requiredOperationVersion());
        }
        List<AuthorityRecord> candidateAuthority = new ArrayList<>(authority);
        candidateAuthority.addAll(response.authority());
        Authority verified = Authority.verify(identity, candidateAuthority);
        List<RejectedLog> rejected = new ArrayList<>();
        List<Entry> accepted = new ArrayList<>();
        for (List<Entry> log : response.deviceLogs()) {
            Optional<String> problem = validate(log, verified);
            if (problem.isPresent()) {
                rejected.add(new RejectedLog(log.isEmpty() ? "" : log.get(0).deviceId(), problem.get()));
            } else {
                accepted.addAll(log);
            }
        }
        authority.addAll(response.authority());
        entries.addAll(accepted);
        boolean complete = response.syncVersion() == 1;
        continuation = complete || !rejected.isEmpty() ? null : response.continuation();
        return new Outcome.Applied(accepted.size(), rejected, complete, continuation != null);
    }

    /**
     * A supplied log stands or falls whole (RFC-0003 §7): one device, the requested identity,
     * every rule, every signature under the verified authority, and a continuous chain that
     * starts at sequence 0 or right after an entry this requester already holds.
     */
    private Optional<String> validate(List<Entry> log, Authority verified) {
        if (log.isEmpty()) {
            return Optional.of("empty supplied log");
        }
        String device = log.get(0).deviceId();
        Optional<DeviceAuthority> authorityOf = verified.device(device);
        if (authorityOf.isEmpty()) {
            return Optional.of("device " + device + " is not authorized on the verified authority chain");
        }
        Entry previous = null;
        for (Entry e : log) {
            if (!e.deviceId().equals(device)) {
                return Optional.of("a log mixes devices");
            }
            Optional<io.jolt.stream.protocol.Defect> defect = EntryRules.check(e.body(), identity);
            if (defect.isPresent()) {
                return Optional.of("entry " + e.hash() + ": " + defect.get().description());
            }
            if (!e.signatureVerifies(authorityOf.get().key())) {
                return Optional.of("entry " + e.hash() + ": bad signature");
            }
            if (previous == null) {
                if (e.sequence() != 0 && !holds(e.body().previousEntryHash(), e.sequence() - 1)) {
                    return Optional.of("the log does not continue anything held (sequence " + Long.toUnsignedString(e.sequence()) + ")");
                }
            } else if (e.sequence() != previous.sequence() + 1 || !previous.hash().equals(e.body().previousEntryHash())) {
                return Optional.of("the chain breaks at sequence " + Long.toUnsignedString(e.sequence()));
            }
            previous = e;
        }
        return Optional.empty();
    }

    private boolean holds(Hash hash, long sequence) {
        return entries.stream().anyMatch(e -> e.sequence() == sequence && e.hash().equals(hash));
    }

    /** The merged state of everything held, computed by the protocol core. */
    public MergedState merged() {
        List<EntryInput> inputs = entries.stream().map(e -> (EntryInput) new EntryInput.Signed(e)).toList();
        return IdentityAssembler.assemble(identity, List.copyOf(authority), inputs);
    }

    public List<AuthorityRecord> authority() {
        return List.copyOf(authority);
    }

    public List<Entry> entries() {
        return List.copyOf(entries);
    }
}
