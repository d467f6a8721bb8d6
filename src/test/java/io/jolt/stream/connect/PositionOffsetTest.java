package io.jolt.stream.connect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.protocol.CompactedHistory;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.sync.Cursor;
import io.jolt.stream.protocol.sync.SyncPosition;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A position survives the worker's offsets topic (JSON) unchanged; ProviderClient types what a provider answers. */
class PositionOffsetTest {
    @Test
    void aPositionRoundTripsThroughJsonAsTheOffsetsTopicStoresIt() throws Exception {
        Hash h = Hash.blake3("x".getBytes(StandardCharsets.UTF_8));
        SyncPosition position = new SyncPosition(List.of(new Cursor("dev_b", 3, h), new Cursor("dev_a", -1L, h)), h,
                List.of(new Cursor("dev_a", 1, h)));
        assertThat(PositionOffset.of(position).values()).as("Connect offsets hold primitive values only")
                .allMatch(v -> v instanceof String || v instanceof Number || v instanceof Boolean);
        ObjectMapper json = new ObjectMapper();
        @SuppressWarnings("unchecked")
        Map<String, Object> stored = json.readValue(json.writeValueAsString(PositionOffset.of(position)), Map.class);
        assertThat(PositionOffset.read(stored)).isEqualTo(position);
        assertThat(PositionOffset.read(null)).isEqualTo(SyncPosition.START);
        assertThat(PositionOffset.read(PositionOffset.of(SyncPosition.START))).isEqualTo(SyncPosition.START);
    }

    @Test
    void aProvidersAnswersAreTyped() {
        Hash h = Hash.blake3(new byte[] {1});
        String forgotten = "{\"error\":{\"code\":\"history_forgotten\",\"message\":\"...\",\"details\":{\"device_id\":\"dev_a\","
                + "\"floor_sequence\":\"7\",\"floor_entry_hash\":\"" + h.hex() + "\"}}}";
        assertThat(ProviderClient.typed("http://a", 410, forgotten.getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(new ProviderClient.Answer.Forgotten("dev_a", new CompactedHistory.Floor(7, h)));
        assertThat(ProviderClient.typed("http://a", 503, "{\"error\":{\"code\":\"not_ready\"}}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOfSatisfying(ProviderClient.Answer.Failed.class, f -> assertThat(f.reason()).isEqualTo("http_503"));
        assertThat(ProviderClient.typed("http://a", 200, new byte[] {1, 2, 3}))
                .isInstanceOfSatisfying(ProviderClient.Answer.Failed.class, f -> assertThat(f.reason()).isEqualTo("unreadable"));
    }
}
