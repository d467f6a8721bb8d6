package io.jolt.stream.protocol.sync;

import io.jolt.stream.protocol.Authority;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.CompactedHistory;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.SignatureCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The requester side of delta sync for a follower that keeps no entries, only a
 * {@link SyncPosition} (the Kafka Connect source task: what it verified goes to the input topics,
 * and its position is the source offset). Every page is verified from scratch: the authority chain
 * it carries, then each supplied log by {@link SuppliedLog}, continuing from the position's cursors.
 * A cursor matching is never a reason to splice a delta in.
 */
public final class CursorSession {
    private final String identity;
    private final SignatureCheck signatures;
    private SyncPosition position;

    /** What one response did. */
    public sealed interface Outcome {
        /** The provider's history needs a level this requester does not support: nothing applied, the position unchanged. */
        record UnsupportedLevel(int requiredLevel) implements Outcome {}

        /**
         * A page (or a complete response) verified: what to pass on, in order (the authority chain when its head is
         * new, then the entries of the accepted logs), the logs rejected whole, and whether to ask again.
         */
        record Applied(List<Passed> passed, List<SuppliedLog.Rejection> rejected, boolean complete, boolean more) implements Outcome {}
    }

    /**
     * A verified record to pass on, with the position a follower holds once it and everything before it are
     * passed on: a follower that stores {@code after} with the record resumes exactly there, whichever of a
     * page's records last made it.
     */
    public sealed interface Passed {
        SyncPosition after();

        record Authority(AuthorityRecord record, SyncPosition after) implements Passed {}

        record Entry(io.jolt.stream.protocol.Entry entry, SyncPosition after) implements Passed {}
    }

    public CursorSession(String identity, SyncPosition position, SignatureCheck signatures) {
        this.identity = identity;
        this.signatures = signatures;
        this.position = position;
    }

    public SyncPosition position() {
        return position;
    }

    /** Asks for what follows each device's cursor (or its forgotten floor). */
    public SyncRequest nextRequest() {
        return new SyncRequest(identity, SyncResponder.KNOWN_OPERATION_LEVEL, SyncResponder.KNOWN_SYNC_LEVEL, position.requestCursors(),
                List.of(), List.of());
    }

    /**
     * The provider forgot this device's history up to {@code floor} (410 {@code history_forgotten}): the
     * next request asks from the floor, so what lies above it still flows. What lay below is in the
     * provider's archive, not in its answers.
     */
    public void forgotten(String deviceId, CompactedHistory.Floor floor) {
        List<Cursor> floors = new ArrayList<>(position.floors().stream().filter(f -> !f.deviceId().equals(deviceId)).toList());
        floors.add(new Cursor(deviceId, floor.sequence(), floor.hash()));
        position = new SyncPosition(position.cursors(), position.authorityHead(), floors);
    }

    public Outcome accept(SyncResponse response) {
        if (response.requiredOperationVersion() > SyncResponder.KNOWN_OPERATION_LEVEL) {
            return new Outcome.UnsupportedLevel(response.requiredOperationVersion());
        }
        Authority verified = Authority.verify(identity, response.authority(), signatures);
        boolean complete = response.syncVersion() == 1;
        List<SuppliedLog.Rejection> rejected = new ArrayList<>();
        List<List<Entry>> accepted = new ArrayList<>();
        for (List<Entry> log : response.deviceLogs()) {
            SuppliedLog.check(identity, verified, log, position::holds, signatures).ifPresentOrElse(rejected::add, () -> accepted.add(log));
        }
        List<Passed> passed = new ArrayList<>();
        Map<String, Cursor> cursors = new TreeMap<>();
        // A complete response names every device with eligible entries: the others' cursors go. A rejected
        // log keeps its device where it was: asked again next time, never skipped.
        (complete ? rejected.stream().flatMap(r -> position.cursor(r.deviceId()).stream()) : position.cursors().stream())
                .forEach(c -> cursors.put(c.deviceId(), c));
        Hash head = passAuthority(verified.chain(), cursors, passed);
        for (List<Entry> log : accepted) {
            for (Entry e : log) {
                cursors.put(e.deviceId(), Cursor.of(e));
                passed.add(new Passed.Entry(e, new SyncPosition(List.copyOf(cursors.values()), head, position.floors())));
            }
        }
        position = new SyncPosition(List.copyOf(cursors.values()), head, position.floors());
        return new Outcome.Applied(passed, rejected, complete, !complete && response.continuation() != null && rejected.isEmpty());
    }

    /** The chain, when its head is not the one passed on before; only its last record carries the new head. */
    private Hash passAuthority(List<AuthorityRecord> chain, Map<String, Cursor> cursors, List<Passed> passed) {
        Hash before = position.authorityHead();
        if (chain.isEmpty() || chain.get(chain.size() - 1).hash().equals(before)) {
            return before;
        }
        for (int i = 0; i < chain.size(); i++) {
            Hash head = i == chain.size() - 1 ? chain.get(i).hash() : before;
            passed.add(new Passed.Authority(chain.get(i), new SyncPosition(List.copyOf(cursors.values()), head, position.floors())));
        }
        return chain.get(chain.size() - 1).hash();
    }
}
