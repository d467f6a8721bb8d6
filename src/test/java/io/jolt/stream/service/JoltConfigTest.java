package io.jolt.stream.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jolt.stream.processor.BoundedRocksDbMemory;
import io.jolt.stream.processor.ForgettingPolicy;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.config.ConfigException;
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
    void theSessionTimeoutIsTheMainConsumersOwnOrKafkasDefault() {
        Properties file = new Properties();
        file.setProperty("bootstrap.servers", "b:9092");
        assertThat(JoltConfig.of(file, Map.of()).sessionTimeout()).isEqualTo(java.time.Duration.ofSeconds(45));
        file.setProperty("session.timeout.ms", "10000");
        assertThat(JoltConfig.of(file, Map.of()).sessionTimeout()).isEqualTo(java.time.Duration.ofSeconds(10));
        file.setProperty("main.consumer.session.timeout.ms", "6000");
        assertThat(JoltConfig.of(file, Map.of()).sessionTimeout()).as("the main consumer's prefix wins").isEqualTo(java.time.Duration.ofSeconds(6));
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

    @Test
    void httpQuotasAreTheGenerousDefaultsUnlessConfigured() {
        assertThat(JoltConfig.of(new Properties(), Map.of()).httpQuotas()).isEqualTo(io.jolt.stream.api.EdgeQuotas.Settings.DEFAULT);
        assertThat(JoltConfig.of(new Properties(), Map.of("JOLT_HTTP_QUOTA_RECORDS_RATE", "50", "JOLT_HTTP_QUOTA_RECORDS_BURST", "100",
                "JOLT_HTTP_QUOTA_SYNC_RATE", "0", "JOLT_HTTP_QUOTA_SYNC_BURST", "3", "JOLT_HTTP_SYNC_MAX_CONCURRENT", "2")).httpQuotas())
                .isEqualTo(new io.jolt.stream.api.EdgeQuotas.Settings(new io.jolt.stream.api.Quota(50, 100), new io.jolt.stream.api.Quota(0, 3), 2));
        assertThatThrownBy(() -> JoltConfig.of(new Properties(), Map.of("JOLT_HTTP_QUOTA_RECORDS_BURST", "0")).httpQuotas())
                .hasMessageContaining("jolt.http.quota.records.burst").hasMessageContaining("at least 1");
        assertThatThrownBy(() -> JoltConfig.of(new Properties(), Map.of("JOLT_HTTP_SYNC_MAX_CONCURRENT", "0")).httpQuotas())
                .hasMessageContaining("jolt.http.sync.max.concurrent").hasMessageContaining("at least 1");
    }

    @Test
    void anUnknownJoltKeyIsRefusedNamingTheNearestKnownOne() {
        // given a misspelt key in the file
        Properties file = new Properties();
        file.setProperty("jolt.live.held.maxx", "500");
        // expect the start refused, naming it and the key meant
        assertThatThrownBy(() -> JoltConfig.of(file, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage("unknown setting jolt.live.held.maxx; did you mean jolt.live.held.max?");
        // and so for the HTTP keys, and a misspelt producer prefix
        file.clear();
        file.setProperty("jolt.http.tls.keystore.pasword", "x");
        assertThatThrownBy(() -> JoltConfig.of(file, Map.of())).hasMessageContaining("did you mean jolt.http.tls.keystore.password?");
        file.clear();
        file.setProperty("jolt.bolt.producr.batch.size", "1");
        assertThatThrownBy(() -> JoltConfig.of(file, Map.of())).hasMessageContaining("did you mean jolt.bolt.producer.batch.size?");
    }

    @Test
    void aKeyAddedLaterIsCheckedToo() {
        // given a valid configuration
        JoltConfig config = JoltConfig.of(new Properties(), Map.of());
        // expect with() to refuse an unknown jolt key and a bad value alike
        assertThatThrownBy(() -> config.with("jolt.sync.max.entrys", "5")).hasMessageContaining("did you mean jolt.sync.max.entries?");
        assertThatThrownBy(() -> config.with(JoltConfig.HTTP_PORT, "80a")).hasMessageContaining("jolt.http.port");
    }

    @Test
    void keysOutsideTheNamespaceAndTheBoltProducerPrefixPassThrough() {
        // given Kafka settings, one the service does not know, and a bolt producer setting
        Properties file = new Properties();
        file.setProperty("bootstrap.servers", "b:9092");
        file.setProperty("some.plugin.setting", "x");
        file.setProperty(JoltConfig.BOLT_PRODUCER_PREFIX + "batch.size", "262144");
        // when loaded
        JoltConfig config = JoltConfig.of(file, Map.of());
        // expect them all passed on untouched
        assertThat(config.streamsProperties().getProperty("some.plugin.setting")).isEqualTo("x");
        assertThat(config.boltProducerProperties().getProperty("batch.size")).isEqualTo("262144");
    }

    @Test
    void aValueOfTheWrongTypeOrOutOfRangeIsRefusedNamingKeyValueAndWhatIsAllowed() {
        // expect each refusal to name the key, the value and what is allowed
        assertThatThrownBy(() -> JoltConfig.of(new Properties(), Map.of("JOLT_TOPICS_PARTITIONS", "many")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value many for configuration jolt.topics.partitions: Not a number of type INT");
        assertThatThrownBy(() -> JoltConfig.of(new Properties(), Map.of("JOLT_TOPICS_PARTITIONS", "0")))
                .hasMessage("Invalid value 0 for configuration jolt.topics.partitions: Value must be at least 1");
        Properties file = new Properties();
        file.setProperty(JoltConfig.HTTP_PORT, "70000");
        assertThatThrownBy(() -> JoltConfig.of(file, Map.of()))
                .hasMessage("Invalid value 70000 for configuration jolt.http.port: Value must be no more than 65535");
        assertThatThrownBy(() -> JoltConfig.of(new Properties(), Map.of("JOLT_LIVE_SUPERSEDED_RETENTION_MS", "-2")))
                .hasMessageContaining("jolt.live.superseded.retention.ms").hasMessageContaining("-2").hasMessageContaining("at least -1");
        assertThatThrownBy(() -> JoltConfig.of(new Properties(), Map.of("JOLT_SYNC_MAX_ENTRIES", "3000000000")))
                .hasMessageContaining("jolt.sync.max.entries").hasMessageContaining("3000000000").hasMessageContaining("INT");
    }

    @Test
    void aSecretIsNotRepeatedInTheRefusal() {
        // given basic credentials without the colon, from the environment
        // expect the refusal to name the key but not the secret
        assertThatThrownBy(() -> JoltConfig.of(new Properties(), Map.of("JOLT_HTTP_AUTH_BASIC", "scraper-pa55")))
                .hasMessageContaining("jolt.http.auth.basic").hasMessageContaining("user:password").hasMessageNotContaining("pa55");
    }

    @Test
    void theEnvironmentStillWinsOverTheFileForJoltKeys() {
        // given a file that sets two jolt keys
        Properties file = new Properties();
        file.setProperty(JoltConfig.HTTP_PORT, "8080");
        file.setProperty(JoltConfig.SYNC_MAX_ENTRIES, "100");
        // when the environment overrides both (one by its long name, one well known)
        JoltConfig config = JoltConfig.of(file, Map.of("JOLT_JOLT_HTTP_PORT", "9999", "JOLT_SYNC_MAX_ENTRIES", "7"));
        // expect the environment's values, typed
        assertThat(config.httpPort()).isEqualTo(9999);
        assertThat(config.syncLimits().maxEntries()).isEqualTo(7);
        // and a bad value from the environment refused like one from the file
        assertThatThrownBy(() -> JoltConfig.of(file, Map.of("JOLT_JOLT_HTTP_PORT", "http")))
                .hasMessageContaining("jolt.http.port").hasMessageContaining("http");
    }

    @Test
    void theDefaultsAreAsBefore() {
        // given nothing set
        JoltConfig config = JoltConfig.of(new Properties(), Map.of());
        // expect the service's defaults, typed and as strings for Kafka Streams (which hands the RocksDB ones to BoundedRocksDbMemory)
        assertThat(config.httpHost()).isEqualTo("127.0.0.1");
        assertThat(config.httpPort()).isEqualTo(8080);
        assertThat(config.topicPartitions()).isNull();
        assertThat(config.topicReplication()).isNull();
        assertThat(config.get(BoundedRocksDbMemory.CACHE_BYTES)).isEqualTo(String.valueOf(512L << 20));
        assertThat(config.get(BoundedRocksDbMemory.WRITE_BUFFER_BYTES)).isEqualTo(String.valueOf(256L << 20));
        assertThat(config.get(JoltConfig.HELD_MAX)).isEqualTo("10000");
        assertThat(config.get(JoltConfig.SUPERSEDED_RETENTION_MS)).isEqualTo("-1");
        assertThat(config.get(JoltConfig.SWEEP_INTERVAL_MS)).isEqualTo("60000");
        assertThat(config.get(JoltConfig.SYNC_MAX_ENTRIES)).isEqualTo("256");
        assertThat(config.get(JoltConfig.SYNC_MAX_BYTES)).isEqualTo("1048576");
        assertThat(config.get("jolt.http.auth.token")).isNull();
        assertThat(config.get("commit.interval.ms")).isEqualTo("500");
        assertThat(config.get("max.task.idle.ms")).isEqualTo("-1");
        assertThat(config.get("producer.compression.type")).isEqualTo("lz4");
        assertThat(config.get("producer.batch.size")).isEqualTo("65536");
        assertThat(config.get("topic.compression.type")).isEqualTo("zstd");
        assertThat(config.get("statestore.cache.max.bytes")).isEqualTo(String.valueOf(64L << 20));
        // and a typed value read from the file
        Properties file = new Properties();
        file.setProperty(JoltConfig.TOPIC_PARTITIONS, " 48 ");
        file.setProperty(JoltConfig.TOPIC_REPLICATION, "3");
        assertThat(JoltConfig.of(file, Map.of()).topicPartitions()).isEqualTo(48);
        assertThat(JoltConfig.of(file, Map.of()).topicReplication()).isEqualTo((short) 3);
    }
}
