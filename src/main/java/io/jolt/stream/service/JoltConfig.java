package io.jolt.stream.service;

import io.jolt.stream.api.EdgeQuotas;
import io.jolt.stream.api.HttpAccess;
import io.jolt.stream.api.HttpRole;
import io.jolt.stream.api.HttpTls;
import io.jolt.stream.api.Quota;
import io.jolt.stream.processor.BoundedRocksDbMemory;
import io.jolt.stream.processor.ForgettingPolicy;
import io.jolt.stream.protocol.sync.SyncResponder;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The service's configuration: a properties file, then environment overrides
 * ({@code JOLT_BOOTSTRAP_SERVERS} overrides {@code bootstrap.servers}: upper case, dots and dashes
 * as underscores), then defaults. Every Kafka Streams, producer and consumer setting passes
 * through; the {@code jolt.*} keys are ours, defined (type, default, valid values, documentation)
 * in {@link JoltSettings#DEFINITION}: an unknown one, or a value of the wrong type or out of
 * range, is refused with a {@link org.apache.kafka.common.config.ConfigException} naming it.
 */
public final class JoltConfig {
    public static final String HTTP_HOST = "jolt.http.host";
    public static final String HTTP_PORT = "jolt.http.port";
    public static final String TOPIC_PARTITIONS = "jolt.topics.partitions";
    public static final String TOPIC_REPLICATION = "jolt.topics.replication";
    public static final String ROCKSDB_CACHE_BYTES = BoundedRocksDbMemory.CACHE_BYTES;
    public static final String ROCKSDB_WRITE_BUFFER_BYTES = BoundedRocksDbMemory.WRITE_BUFFER_BYTES;
    public static final String HELD_MAX = ForgettingPolicy.HELD_MAX;
    public static final String SYNC_MAX_ENTRIES = "jolt.sync.max.entries";
    public static final String SYNC_MAX_BYTES = "jolt.sync.max.bytes";
    public static final String SUPERSEDED_RETENTION_MS = ForgettingPolicy.SUPERSEDED_RETENTION_MS;
    public static final String SWEEP_INTERVAL_MS = ForgettingPolicy.SWEEP_INTERVAL_MS;
    public static final String QUERY_MAX_STALENESS_MS = "jolt.query.max.staleness.ms";
    public static final String HTTP_FORWARD_TIMEOUT_MS = "jolt.http.forward.timeout.ms";

    private final Properties properties;
    /** The jolt.* settings, typed and validated. */
    private final JoltSettings settings;

    private JoltConfig(Properties properties) {
        this.properties = properties;
        this.settings = settings(properties);
    }

    private static JoltSettings settings(Properties properties) {
        JoltSettings.refuseUnknown(properties.stringPropertyNames());
        Map<String, String> ours = new HashMap<>();
        properties.stringPropertyNames().stream().filter(JoltSettings::ours).forEach(k -> ours.put(k, properties.getProperty(k)));
        return new JoltSettings(ours);
    }

    public static JoltConfig load(Path file, Map<String, String> environment) throws IOException {
        Properties p = new Properties();
        if (file != null) {
            try (Reader in = Files.newBufferedReader(file)) {
                p.load(in);
            }
        }
        return of(p, environment);
    }

    /** Keys an environment variable may set even when the file does not mention them. */
    private static final Map<String, String> WELL_KNOWN = Map.ofEntries(
            Map.entry("JOLT_BOOTSTRAP_SERVERS", StreamsConfig.BOOTSTRAP_SERVERS_CONFIG),
            Map.entry("JOLT_APPLICATION_ID", StreamsConfig.APPLICATION_ID_CONFIG),
            Map.entry("JOLT_STATE_DIR", StreamsConfig.STATE_DIR_CONFIG),
            Map.entry("JOLT_NUM_STREAM_THREADS", StreamsConfig.NUM_STREAM_THREADS_CONFIG),
            Map.entry("JOLT_APPLICATION_SERVER", StreamsConfig.APPLICATION_SERVER_CONFIG),
            Map.entry("JOLT_COMMIT_INTERVAL_MS", StreamsConfig.COMMIT_INTERVAL_MS_CONFIG),
            Map.entry("JOLT_TOPICS_PARTITIONS", TOPIC_PARTITIONS),
            Map.entry("JOLT_TOPICS_REPLICATION", TOPIC_REPLICATION),
            Map.entry("JOLT_LIVE_HELD_MAX", HELD_MAX),
            Map.entry("JOLT_SYNC_MAX_ENTRIES", SYNC_MAX_ENTRIES),
            Map.entry("JOLT_SYNC_MAX_BYTES", SYNC_MAX_BYTES),
            Map.entry("JOLT_HTTP_QUOTA_RECORDS_RATE", EdgeQuotas.RECORDS_RATE),
            Map.entry("JOLT_HTTP_QUOTA_RECORDS_BURST", EdgeQuotas.RECORDS_BURST),
            Map.entry("JOLT_HTTP_QUOTA_SYNC_RATE", EdgeQuotas.SYNC_RATE),
            Map.entry("JOLT_HTTP_QUOTA_SYNC_BURST", EdgeQuotas.SYNC_BURST),
            Map.entry("JOLT_HTTP_SYNC_MAX_CONCURRENT", EdgeQuotas.SYNC_MAX_CONCURRENT),
            Map.entry("JOLT_LIVE_SUPERSEDED_RETENTION_MS", SUPERSEDED_RETENTION_MS),
            Map.entry("JOLT_LIVE_SWEEP_INTERVAL_MS", SWEEP_INTERVAL_MS),
            Map.entry("JOLT_QUERY_MAX_STALENESS_MS", QUERY_MAX_STALENESS_MS),
            Map.entry("JOLT_HTTP_FORWARD_TIMEOUT_MS", HTTP_FORWARD_TIMEOUT_MS),
            // Secrets are best kept out of the properties file.
            Map.entry("JOLT_HTTP_AUTH_TOKEN", HttpAccess.TOKEN),
            Map.entry("JOLT_HTTP_AUTH_BASIC", HttpAccess.BASIC),
            Map.entry("JOLT_HTTP_AUTH_INGEST_TOKEN", HttpRole.INGEST.tokenSetting()),
            Map.entry("JOLT_HTTP_AUTH_INGEST_BASIC", HttpRole.INGEST.basicSetting()),
            Map.entry("JOLT_HTTP_AUTH_SYNC_TOKEN", HttpRole.SYNC.tokenSetting()),
            Map.entry("JOLT_HTTP_AUTH_SYNC_BASIC", HttpRole.SYNC.basicSetting()),
            Map.entry("JOLT_HTTP_AUTH_READ_TOKEN", HttpRole.READ.tokenSetting()),
            Map.entry("JOLT_HTTP_AUTH_READ_BASIC", HttpRole.READ.basicSetting()),
            Map.entry("JOLT_HTTP_AUTH_ANALYTICS_TOKEN", HttpRole.ANALYTICS.tokenSetting()),
            Map.entry("JOLT_HTTP_AUTH_ANALYTICS_BASIC", HttpRole.ANALYTICS.basicSetting()),
            Map.entry("JOLT_HTTP_AUTH_METRICS_TOKEN", HttpRole.METRICS.tokenSetting()),
            Map.entry("JOLT_HTTP_AUTH_METRICS_BASIC", HttpRole.METRICS.basicSetting()),
            Map.entry("JOLT_HTTP_TLS_KEYSTORE_PASSWORD", HttpTls.KEYSTORE_PASSWORD));

    public static JoltConfig of(Properties given, Map<String, String> environment) {
        Properties p = new Properties();
        p.putAll(given);
        // JOLT_<KEY> (upper case, dots and dashes as underscores) overrides any key of the file...
        for (String key : p.stringPropertyNames()) {
            String override = environment.get(envName(key));
            if (override != null) {
                p.setProperty(key, override);
            }
        }
        // ...and the well-known keys may come from the environment alone.
        WELL_KNOWN.forEach((env, key) -> {
            if (environment.containsKey(env)) {
                p.setProperty(key, environment.get(env));
            }
        });
        p.putIfAbsent(StreamsConfig.APPLICATION_ID_CONFIG, "jolt-stream");
        p.putIfAbsent(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.putIfAbsent(StreamsConfig.NUM_STREAM_THREADS_CONFIG, String.valueOf(Runtime.getRuntime().availableProcessors()));
        p.putIfAbsent(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDbMemory.class.getName());
        // Exactly-once commits are transactions: fewer, larger ones carry more records per second.
        p.putIfAbsent(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "500");
        // Changelogs and outputs as the inputs and the archive are written: LZ4 in batches large enough to compress well
        // (a changelog record repeats most of its key's bytes). Measured by `jolt bench`'s written-per-entry table.
        p.putIfAbsent(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), "lz4");
        p.putIfAbsent(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), "65536");
        p.putIfAbsent(StreamsConfig.topicPrefix(TopicConfig.COMPRESSION_TYPE_CONFIG), "zstd");
        // The record cache folds a store's rewrites of one key within a commit into one changelog record; Streams' 10 MiB,
        // shared by every store of a thread, evicts (and so writes) the analytics fold's sums long before the commit.
        p.putIfAbsent(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, String.valueOf(64L << 20));
        // The merged state never depends on arrival order, so waiting to align the inputs by time buys nothing.
        p.putIfAbsent(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, "-1");
        // The jolt.* defaults, as the definition gives them (BoundedRocksDbMemory reads its two from the Streams configuration).
        JoltSettings.DEFINITION.configKeys().values().stream().filter(k -> k.defaultValue != null)
                .forEach(k -> p.putIfAbsent(k.name, ConfigDef.convertToString(k.defaultValue, k.type)));
        return new JoltConfig(p);
    }

    static String envName(String key) {
        return "JOLT_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    public String get(String key) {
        return properties.getProperty(key);
    }

    public JoltConfig with(String key, String value) {
        Properties p = new Properties();
        p.putAll(properties);
        p.setProperty(key, value);
        return new JoltConfig(p);
    }

    /** What the live side may forget: the held bound and the retention of superseded history. */
    public ForgettingPolicy forgetting() {
        long retention = settings.getLong(SUPERSEDED_RETENTION_MS);
        return new ForgettingPolicy(settings.getLong(HELD_MAX), retention < 0 ? null : Duration.ofMillis(retention),
                Duration.ofMillis(settings.getLong(SWEEP_INTERVAL_MS)));
    }

    /** How large a page of a sync answer may be: at most this many entries and bytes, then a continuation. */
    public SyncResponder.Limits syncLimits() {
        return new SyncResponder.Limits(settings.getInt(SYNC_MAX_ENTRIES), settings.getLong(SYNC_MAX_BYTES));
    }

    /** What each client may send the HTTP API, and how many sync requests the instance serves at once. */
    public EdgeQuotas.Settings httpQuotas() {
        return new EdgeQuotas.Settings(new Quota(settings.getLong(EdgeQuotas.RECORDS_RATE), settings.getLong(EdgeQuotas.RECORDS_BURST)),
                new Quota(settings.getLong(EdgeQuotas.SYNC_RATE), settings.getLong(EdgeQuotas.SYNC_BURST)), settings.getInt(EdgeQuotas.SYNC_MAX_CONCURRENT));
    }

    /** The partition count of every topic, or null: each topic's own. */
    public Integer topicPartitions() {
        return settings.getInt(TOPIC_PARTITIONS);
    }

    /** The replication factor of every topic the guard creates, or null: each topic's own. */
    public Short topicReplication() {
        return settings.getShort(TOPIC_REPLICATION);
    }

    /** How old a query's answer may be: older ones are refused with 503 stale ({@link io.jolt.stream.processor.QueryFreshness}). */
    public Duration queryMaxStaleness() {
        return Duration.ofMillis(settings.getLong(QUERY_MAX_STALENESS_MS));
    }

    /** How long an instance waits for another it forwards a request to before it answers 503 owner_unreachable. */
    public Duration forwardTimeout() {
        return Duration.ofMillis(settings.getLong(HTTP_FORWARD_TIMEOUT_MS));
    }

    /** The main consumer's session timeout: how long the group waits for a silent instance before it moves its partitions. */
    public Duration sessionTimeout() {
        Map<String, Object> consumer = new StreamsConfig(streamsProperties()).getMainConsumerConfigs(get(StreamsConfig.APPLICATION_ID_CONFIG), "jolt", 0);
        Object configured = consumer.get(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG);
        if (configured == null) {
            configured = ConsumerConfig.configDef().defaultValues().get(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG);
        }
        return Duration.ofMillis(Long.parseLong(configured.toString()));
    }

    /** The HTTP API's address. */
    public String httpHost() {
        return settings.getString(HTTP_HOST);
    }

    /** The HTTP API's port; 0: a free one. */
    public int httpPort() {
        return settings.getInt(HTTP_PORT);
    }

    /** Everything for Kafka Streams and its clients (our jolt.* keys are passed too; Streams ignores them). */
    public Properties streamsProperties() {
        Properties p = new Properties();
        properties.stringPropertyNames().forEach(k -> p.setProperty(k, properties.getProperty(k)));
        if (p.getProperty(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG) == null) {
            throw new IllegalArgumentException("bootstrap.servers is not set (in the config file or JOLT_BOOTSTRAP_SERVERS)");
        }
        return p;
    }

    /** Settings for the bolt's own producers: the admin ones, plus every {@code jolt.bolt.producer.*} key without its prefix. */
    public Properties boltProducerProperties() {
        Properties p = adminProperties();
        properties.stringPropertyNames().stream().filter(k -> k.startsWith(BOLT_PRODUCER_PREFIX))
                .forEach(k -> p.setProperty(k.substring(BOLT_PRODUCER_PREFIX.length()), properties.getProperty(k)));
        return p;
    }

    /** Prefix of settings passed to the bolt's producers (for example {@code jolt.bolt.producer.interceptor.classes}). */
    public static final String BOLT_PRODUCER_PREFIX = "jolt.bolt.producer.";

    public Properties adminProperties() {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", streamsProperties().getProperty(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG));
        properties.stringPropertyNames().stream().filter(k -> k.startsWith("security.") || k.startsWith("sasl.") || k.startsWith("ssl."))
                .forEach(k -> p.setProperty(k, properties.getProperty(k)));
        return p;
    }
}
