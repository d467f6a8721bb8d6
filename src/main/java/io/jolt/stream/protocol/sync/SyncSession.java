package io.jolt.stream.protocol.sync;

import io.jolt.stream.protocol.Authority;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.DeviceLog;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryInput;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.IdentityAssembler;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.SignatureCheck;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The requester side of delta sync (PROTOCOL §8): it holds what it has verified of one
 * identity, asks for what follows its cursors, and re-verifies every page from scratch
 * (authority, chain continuity from the cursor, signatures, merge). A cursor matching is never a
 * reason to splice a delta in; a supplied log with one invalid entry is rejected whole
 * ({@link SuppliedLog}). {@code jolt sync} keeps every entry; the connector's {@link CursorSession}
 * keeps only cursors.
 */
public final class SyncSession {
    private final String identity;
    private final SignatureCheck signatures;
    private final Set<AuthorityRecord> authority = new LinkedHashSet<>();
    private final Set<Entry> entries = new LinkedHashSet<>();
    private List<Cursor> continuation;

    /** What one response did. */
    public sealed interface Outcome {
        /** The provider's history needs a level this requester does not support: nothing was applied. */
        record UnsupportedLevel(int requiredLevel) implements Outcome {}

        /** A page (or a complete response) was verified; {@code more} says whether to ask again. */
        record Applied(int acceptedEntries, List<SuppliedLog.Rejection> rejectedLogs, boolean complete, boolean more) implements Outcome {}
    }

    public SyncSession(String identity, SignatureCheck signatures) {
        this.identity = identity;
        this.signatures = signatures;
    }

    /** Continues from records verified before (a later run is a delta). */
    public SyncSession(String identity, List<AuthorityRecord> heldAuthority, List<Entry> heldEntries, SignatureCheck signatures) {
        this(identity, signatures);
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
        Authority verified = Authority.verify(identity, candidateAuthority, signatures);
        List<SuppliedLog.Rejection> rejected = new ArrayList<>();
        List<Entry> accepted = new ArrayList<>();
        for (List<Entry> log : response.deviceLogs()) {
            SuppliedLog.check(identity, verified, log, this::holds, signatures).ifPresentOrElse(rejected::add, () -> accepted.addAll(log));
        }
        authority.addAll(response.authority());
        entries.addAll(accepted);
        boolean complete = response.syncVersion() == 1;
        continuation = complete || !rejected.isEmpty() ? null : response.continuation();
        return new Outcome.Applied(accepted.size(), rejected, complete, continuation != null);
    }

    private boolean holds(String deviceId, long sequence, Hash hash) {
        return entries.stream().anyMatch(e -> e.deviceId().equals(deviceId) && e.sequence() == sequence && e.hash().equals(hash));
    }

    /** The merged state of everything held, computed by the protocol core. */
    public MergedState merged() {
        List<EntryInput> inputs = entries.stream().map(e -> (EntryInput) new EntryInput.Signed(e)).toList();
        return IdentityAssembler.assemble(identity, List.copyOf(authority), inputs, signatures);
    }

    public List<AuthorityRecord> authority() {
        return List.copyOf(authority);
    }

    public List<Entry> entries() {
        return List.copyOf(entries);
    }
}
