package io.jolt.stream.protocol.sync;

import io.jolt.stream.protocol.CompactedHistory;

/**
 * The answer needs entries this provider forgot (retention of superseded history, see
 * {@link CompactedHistory}): a complete response, or a page from below a device's floor. Not a
 * fallback: nothing the provider holds would be a correct answer. The archive has the history.
 */
public final class HistoryForgottenException extends RuntimeException {
    private final String deviceId;
    private final CompactedHistory.Floor floor;

    public HistoryForgottenException(String deviceId, CompactedHistory.Floor floor) {
        super("the history of device " + deviceId + " up to sequence " + Long.toUnsignedString(floor.sequence())
                + " was forgotten here (superseded history past its retention); ask from a cursor at or above it, or read the archive");
        this.deviceId = deviceId;
        this.floor = floor;
    }

    public String deviceId() {
        return deviceId;
    }

    public CompactedHistory.Floor floor() {
        return floor;
    }
}
