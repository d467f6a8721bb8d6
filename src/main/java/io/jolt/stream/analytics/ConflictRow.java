package io.jolt.stream.analytics;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.jolt.stream.avro.ConflictEvent;
import io.jolt.stream.avro.ConflictHead;
import io.jolt.stream.avro.Hash32;
import io.jolt.stream.protocol.Hex;
import io.jolt.stream.protocol.JoltPath;
import java.time.Instant;
import java.util.List;

/**
 * One conflict event as a flat row, for files an analyst opens as they are (DuckDB, pandas, a
 * spreadsheet): the event's time and kind, the identity, the path and its first segment, whether
 * it is clock sensitive, the winner, the losers (lists), the equivocation or authority-fork evidence, and where
 * the event is in {@code jolt.conflicts.v2}. Sequences and clocks are uint64, written unsigned.
 */
@JsonPropertyOrder({"event_time", "kind", "identity", "path", "prefix", "clock_sensitive", "winner_device_id", "winner_device_sequence",
    "winner_entry_hash", "winner_state", "winner_content_id", "winner_created_at", "loser_count", "loser_device_ids", "loser_entry_hashes",
    "loser_created_at", "device_id", "device_sequence", "entry_hashes", "authority_sequence", "partition", "offset"})
public record ConflictRow(String event_time, String kind, String identity, String path, String prefix, boolean clock_sensitive,
                          String winner_device_id, String winner_device_sequence, String winner_entry_hash, String winner_state,
                          String winner_content_id, String winner_created_at, int loser_count, List<String> loser_device_ids,
                          List<String> loser_entry_hashes, List<String> loser_created_at, String device_id, String device_sequence,
                          List<String> entry_hashes, String authority_sequence, int partition, long offset) {

    /** @param timestamp the record's timestamp, which version-1 events (without event_time) are read by */
    public static ConflictRow of(ConflictEvent e, long timestamp, int partition, long offset) {
        long time = e.getEventTime() == null || e.getEventTime().toEpochMilli() == 0 ? timestamp : e.getEventTime().toEpochMilli();
        ConflictHead w = e.getWinnerHead();
        List<ConflictHead> losers = e.getLoserHeads();
        return new ConflictRow(Instant.ofEpochMilli(time).toString(), e.getKind().name().toLowerCase(java.util.Locale.ROOT), e.getIdentity(),
                e.getPath(), e.getPath() == null ? null : JoltPath.firstSegment(e.getPath()), e.getClockSensitive(),
                w == null ? null : w.getDeviceId(), w == null ? null : w.getDeviceSequence().toPlainString(),
                w == null ? null : hex(w.getEntryHash()), w == null ? null : w.getState().name().toLowerCase(java.util.Locale.ROOT),
                w == null ? null : w.getContentId(), w == null ? null : w.getCreatedAt().toPlainString(),
                e.getLosers().size(), losers.stream().map(ConflictHead::getDeviceId).toList(),
                losers.stream().map(h -> hex(h.getEntryHash())).toList(), losers.stream().map(h -> h.getCreatedAt().toPlainString()).toList(),
                e.getDeviceId(), e.getDeviceSequence() == null ? null : e.getDeviceSequence().toPlainString(),
                e.getEntryHashes().stream().map(ConflictRow::hex).toList(),
                e.getAuthoritySequence() == null ? null : e.getAuthoritySequence().toPlainString(), partition, offset);
    }

    private static String hex(Hash32 hash) {
        return Hex.encode(hash.bytes());
    }
}
