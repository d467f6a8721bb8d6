package io.jolt.stream.protocol.sync;

import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.CompactedHistory;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.Utf8;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The responder of PROTOCOL §8: given what a provider holds of an identity and a request, the
 * response. Rules apply in order: unknown identity, level refusal, sync version 1, cursor
 * validation, page. Pure: the cost of a page follows the page and the device count.
 */
public final class SyncResponder {
    public static final int KNOWN_OPERATION_LEVEL = 3;
    public static final int KNOWN_SYNC_LEVEL = 2;

    /** Page bounds (defaults 256 entries, 1 MiB). */
    public record Limits(int maxEntries, long maxBytes) {
        public static final Limits DEFAULT = new Limits(256, 1L << 20);

        public Limits {
            if (maxEntries < 1 || maxBytes < 1) {
                throw new IllegalArgumentException("a page holds at least one entry and one byte, not " + maxEntries + " entries, " + maxBytes + " bytes");
            }
        }
    }

    /** Why a sync-2 request got the complete response instead of a page. */
    public enum Fallback {
        NONE,
        DUPLICATE_CURSOR,
        UNKNOWN_DEVICE,
        SEQUENCE_NOT_ON_BRANCH,
        HASH_MISMATCH,
        FIRST_ENTRY_TOO_LARGE
    }

    public record Answer(SyncResponse response, Fallback fallback, boolean refused) {}

    private SyncResponder() {}

    /** @param state the provider's merged state of the identity, or null when it holds nothing */
    public static SyncResponse respond(MergedState state, SyncRequest request, Limits limits) {
        return answer(state, request, limits).response();
    }

    public static Answer answer(MergedState state, SyncRequest request, Limits limits) {
        return answer(state == null || state.authority().isEmpty() ? null : SyncHistory.of(state), request, limits);
    }

    /**
     * @param history the provider's verified history, or null for an identity without a valid authority chain
     * @throws HistoryForgottenException when the answer needs history this provider forgot
     */
    public static Answer answer(SyncHistory history, SyncRequest request, Limits limits) {
        int maxOperation = clamp(request.maxOperationVersion(), KNOWN_OPERATION_LEVEL);
        int maxSync = clamp(request.maxSyncVersion(), KNOWN_SYNC_LEVEL);
        if (history == null) {
            return new Answer(new SyncResponse(1, maxSync, List.of(), null, List.of(), List.of()), Fallback.NONE, false);
        }
        int required = history.requiredLevel();
        if (required > maxOperation) {
            // Fail closed: never strip entries to fit an older peer.
            return new Answer(new SyncResponse(required, maxSync, List.of(), null, List.of(), List.of()), Fallback.NONE, true);
        }
        List<SyncHistory.Branch> branches = history.branches();
        if (maxSync == 1) {
            return new Answer(complete(required, history, branches), Fallback.NONE, false);
        }
        Fallback invalid = validate(request.cursors(), history, branches);
        if (invalid != Fallback.NONE) {
            return new Answer(complete(required, history, branches), invalid, false);
        }
        Map<String, Cursor> cursors = new TreeMap<>(Utf8.ORDER);
        request.cursors().forEach(c -> cursors.put(c.deviceId(), c));
        return page(required, history, branches, cursors, limits);
    }

    private static int clamp(int version, int known) {
        return Math.max(1, Math.min(version, known));
    }

    /** The authority chain and every device's eligible branch from sequence 0 (no size bound). */
    private static SyncResponse complete(int required, SyncHistory history, List<SyncHistory.Branch> branches) {
        List<List<Entry>> logs = new ArrayList<>();
        for (SyncHistory.Branch b : branches) {
            history.floor(b.deviceId()).ifPresent(f -> {
                throw new HistoryForgottenException(b.deviceId(), f);
            });
            logs.add(history.entries(b.deviceId(), 0, (int) Math.min(Integer.MAX_VALUE, b.length())));
        }
        return new SyncResponse(required, 1, List.of(), null, history.chain(), logs);
    }

    private static Fallback validate(List<Cursor> cursors, SyncHistory history, List<SyncHistory.Branch> branches) {
        Set<String> seen = new HashSet<>();
        Map<String, SyncHistory.Branch> byDevice = new HashMap<>();
        branches.forEach(b -> byDevice.put(b.deviceId(), b));
        for (Cursor c : cursors) {
            if (!seen.add(c.deviceId())) {
                return Fallback.DUPLICATE_CURSOR;
            }
            SyncHistory.Branch branch = byDevice.get(c.deviceId());
            if (branch == null) {
                return Fallback.UNKNOWN_DEVICE;
            }
            // The eligible branch runs from sequence 0 without gaps.
            if (Long.compareUnsigned(c.deviceSequence(), branch.length()) >= 0) {
                return Fallback.SEQUENCE_NOT_ON_BRANCH;
            }
            Optional<CompactedHistory.Floor> floor = history.floor(c.deviceId());
            if (floor.isPresent() && Long.compareUnsigned(c.deviceSequence(), floor.get().sequence()) <= 0) {
                // At the floor the hash is still known; below it nothing is.
                if (c.deviceSequence() != floor.get().sequence()) {
                    throw new HistoryForgottenException(c.deviceId(), floor.get());
                }
                if (!floor.get().hash().equals(c.entryHash())) {
                    return Fallback.HASH_MISMATCH;
                }
            } else if (!history.entryAt(c.deviceId(), c.deviceSequence()).hash().equals(c.entryHash())) {
                return Fallback.HASH_MISMATCH;
            }
        }
        return Fallback.NONE;
    }

    private static Answer page(int required, SyncHistory history, List<SyncHistory.Branch> branches, Map<String, Cursor> cursors,
            Limits limits) {
        Wanted wanted = wanted(history, branches, cursors, limits);
        List<AuthorityRecord> chain = history.chain();
        long fixed = 35 + 1 + 2 + 2 + 8 + wanted.heads().stream().mapToLong(Cursor::encodedSize).sum() + 8
                + chain.stream().mapToLong(a -> 8L + a.bodyBytes().length + 64).sum() + 8;
        int best = fitting(fixed, wanted, cursors, limits);
        if (best == 0 && wanted.remaining() > 0) {
            return new Answer(complete(required, history, branches), Fallback.FIRST_ENTRY_TOO_LARGE, false);
        }
        List<Entry> page = wanted.pending().subList(0, best);
        Map<String, List<Entry>> logs = new LinkedHashMap<>();
        page.forEach(e -> logs.computeIfAbsent(e.deviceId(), d -> new ArrayList<>()).add(e));
        List<Cursor> continuation = best == wanted.remaining() ? null : continuation(page, cursors);
        return new Answer(new SyncResponse(required, 2, wanted.heads(), continuation, chain, new ArrayList<>(logs.values())), Fallback.NONE, false);
    }

    /** The branch heads, the entries after the cursors that could fit in a page, and how many entries remain in all. */
    private record Wanted(List<Cursor> heads, List<Entry> pending, long remaining) {}

    private static Wanted wanted(SyncHistory history, List<SyncHistory.Branch> branches, Map<String, Cursor> cursors, Limits limits) {
        List<Cursor> heads = new ArrayList<>();
        List<Entry> pending = new ArrayList<>();
        long remaining = 0;
        for (SyncHistory.Branch branch : branches) {
            heads.add(Cursor.of(branch.head()));
            Cursor cursor = cursors.get(branch.deviceId());
            long from = cursor == null ? 0 : cursor.deviceSequence() + 1;
            Optional<CompactedHistory.Floor> floor = history.floor(branch.deviceId());
            if (floor.isPresent() && Long.compareUnsigned(from, floor.get().sequence()) <= 0) {
                throw new HistoryForgottenException(branch.deviceId(), floor.get());
            }
            remaining += branch.length() - from;
            // Only what can fit in a page is read.
            int room = limits.maxEntries() - pending.size();
            if (room > 0 && from < branch.length()) {
                pending.addAll(history.entries(branch.deviceId(), from, room));
            }
        }
        return new Wanted(heads, pending, remaining);
    }

    /** How many of the pending entries fit in a page of at most the byte limit, with their continuation cursors. */
    private static int fitting(long fixedBytes, Wanted wanted, Map<String, Cursor> cursors, Limits limits) {
        List<Entry> pending = wanted.pending();
        int best = 0;
        long logBytes = 0;
        String lastDevice = null;
        for (int k = 1; k <= pending.size(); k++) {
            Entry e = pending.get(k - 1);
            if (!e.deviceId().equals(lastDevice)) {
                logBytes += 8;
                lastDevice = e.deviceId();
            }
            logBytes += 8L + e.bodyLength() + 64;
            long continuationBytes = k == wanted.remaining() ? 1 : 1 + 8 + continuation(pending.subList(0, k), cursors).stream()
                    .mapToLong(Cursor::encodedSize).sum();
            if (fixedBytes + continuationBytes + logBytes <= limits.maxBytes()) {
                best = k;
            }
        }
        return best;
    }

    /** For every device that progressed its last transferred cursor; for every other cursor of the request, that cursor. */
    private static List<Cursor> continuation(List<Entry> page, Map<String, Cursor> requestCursors) {
        Map<String, Cursor> out = new TreeMap<>(Utf8.ORDER);
        out.putAll(requestCursors);
        for (Entry e : page) {
            out.put(e.deviceId(), Cursor.of(e));
        }
        return new ArrayList<>(out.values());
    }
}
