package io.jolt.stream.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jolt.stream.processor.BoundedRocksDbMemory;
import io.jolt.stream.processor.ForgettingPolicy;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Configuration: the file, then the environment, then defaults. */
class JoltConfigTest {
    @Test
    void theEnvironmentOverridesTheFileAndWellKnownKeysNeedNoFile() {
        Properties file = new Properties();
        file.setProperty("bootstrap.servers", "file:9092");
        file.setProperty("jolt.http.port", "8080");
        JoltConfig config = JoltConfig.of(file, Map.of("JOLT_JOLT_HTTP_PORT", "9999", "JOLT_STATE_DIR", "/var/jolt"));
        assertThat(config.get("bootstrap.servers")).isEqualTo("file:9092");
        assertThat(config.get("jolt.http.port")).isEqualTo("9999");
        assertThat(config.get("state.dir")).isEqualTo("/var/jolt");
        assertThat(JoltConfig.of(file, Map.of("JOLT_BOOTSTRAP_SERVERS", "env:9092")).get("bootstrap.servers")).isEqualTo("env:9092");
    }

    @Test
    void defaultsAreExactlyOnceAndBoundedRocksDb() {
        Properties file = new Properties();
        file.setProperty("bootstrap.servers", "b:9092");
        Properties streams = JoltConfig.of(file, Map.of()).streamsProperties();
        assertThat(streams.getProperty("processing.guarantee")).isEqualTo("exactly_once_v2");
        assertThat(streams.getProperty("application.id")).isEqualTo("jolt-stream");
        assertThat(streams.getProperty("rocksdb.config.setter")).isEqualTo(BoundedRocksDbMemory.class.getName());
    }

    @Test
    void withoutBootstrapServersTheErrorSaysWhereToSetThem() {
        assertThatThrownBy(() -> JoltConfig.of(new Properties(), Map.of()).streamsProperties())
                .hasMessageContaining("JOLT_BOOTSTRAP_SERVERS");
    }

    @Test
    void theLiveSideKeepsTenThousandHeldEntriesAndAllSupersededHistoryByDefault() {
        assertThat(JoltConfig.of(new Properties(), Map.of()).forgetting()).isEqualTo(ForgettingPolicy.DEFAULT);
        assertThat(ForgettingPolicy.DEFAULT.supersededRetention()).isNull();
        ForgettingPolicy configured = JoltConfig.of(new Properties(),
                Map.of("JOLT_LIVE_HELD_MAX", "500", "JOLT_LIVE_SUPERSEDED_RETENTION_MS", "86400000")).forgetting();
        assertThat(configured.heldMax()).isEqualTo(500);
        assertThat(configured.supersededRetention()).isEqualTo(java.time.Duration.ofDays(1));
    }

    @Test
    void whatIsNotACountIsRefusedByName() {
        assertThatThrownBy(() -> JoltConfig.of(new Properties(), Map.of("JOLT_LIVE_HELD_MAX", "lots")).forgetting())
                .hasMessageContaining("jolt.live.held.max").hasMessageContaining("lots");
        assertThatThrownBy(() -> JoltConfig.of(new Properties(), Map.of("JOLT_LIVE_HELD_MAX", "-1")).forgetting())
                .hasMessageContaining("at least 0");
        assertThatThrownBy(() -> JoltConfig.of(new Properties(), Map.of("JOLT_LIVE_SWEEP_INTERVAL_MS", "0")).forgetting())
                .hasMessageContaining("jolt.live.sweep.interval.ms");
    }

    @Test
    void syncPagesAre256EntriesAndOneMebibyteUnlessConfigured() {
        assertThat(JoltConfig.of(new Properties(), Map.of()).syncLimits()).isEqualTo(io.jolt.stream.protocol.sync.SyncResponder.Limits.DEFAULT);
        assertThat(JoltConfig.of(new Properties(), Map.of("JOLT_SYNC_MAX_ENTRIES", "10", "JOLT_SYNC_MAX_BYTES", "65536")).syncLimits())
                .isEqualTo(new io.jolt.stream.protocol.sync.SyncResponder.Limits(10, 65536));
        assertThatThrownBy(() -> JoltConfig.of(new Properties(), Map.of("JOLT_SYNC_MAX_ENTRIES", "0")).syncLimits())
                .hasMessageContaining("jolt.sync.max.entries").hasMessageContaining("at least 1");
    }
}
