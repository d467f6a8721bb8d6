package io.jolt.stream.service;

import io.jolt.stream.processor.BoundedRocksDbMemory;
import io.jolt.stream.processor.ForgettingPolicy;
import io.jolt.stream.protocol.sync.SyncResponder;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The service's configuration: a properties file, then environment overrides
 * ({@code JOLT_BOOTSTRAP_SERVERS} overrides {@code bootstrap.servers}: upper case, dots and dashes
 * as underscores), then defaults. Every Kafka Streams, producer and consumer setting passes
 * through; the {@code jolt.*} keys are ours.
 */
public final class JoltConfig {
    public static final String TOPIC_PARTITIONS = "jolt.topics.partitions";
    public static final String TOPIC_REPLICATION = "jolt.topics.replication";
    public static final String ROCKSDB_CACHE_BYTES = BoundedRocksDbMemory.CACHE_BYTES;
    public static final String ROCKSDB_WRITE_BUFFER_BYTES = BoundedRocksDbMemory.WRITE_BUFFER_BYTES;
    public static final String HELD_MAX = ForgettingPolicy.HELD_MAX;
    public static final String SYNC_MAX_ENTRIES = "jolt.sync.max.entries";
    public static final String SYNC_MAX_BYTES = "jolt.sync.max.bytes";
    public static final String SUPERSEDED_RETENTION_MS = ForgettingPolicy.SUPERSEDED_RETENTION_MS;
    public static final String SWEEP_INTERVAL_MS = ForgettingPolicy.SWEEP_INTERVAL_MS;

    private final Properties properties;

    private JoltConfig(Properties properties) {
        this.properties = properties;
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
            Map.entry("JOLT_LIVE_SUPERSEDED_RETENTION_MS", SUPERSEDED_RETENTION_MS),
            Map.entry("JOLT_LIVE_SWEEP_INTERVAL_MS", SWEEP_INTERVAL_MS),
            // Secrets are best kept out of the properties file.
            Map.entry("JOLT_HTTP_AUTH_TOKEN", "jolt.http.auth.token"),
            Map.entry("JOLT_HTTP_AUTH_BASIC", "jolt.http.auth.basic"),
            Map.entry("JOLT_HTTP_TLS_KEYSTORE_PASSWORD", "jolt.http.tls.keystore.password"));

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
        // The merged state never depends on arrival order, so waiting to align the inputs by time buys nothing.
        p.putIfAbsent(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, "-1");
        p.putIfAbsent(ROCKSDB_CACHE_BYTES, String.valueOf(512L << 20));
        p.putIfAbsent(ROCKSDB_WRITE_BUFFER_BYTES, String.valueOf(256L << 20));
        p.putIfAbsent(HELD_MAX, String.valueOf(ForgettingPolicy.DEFAULT.heldMax()));
        p.putIfAbsent(SYNC_MAX_ENTRIES, String.valueOf(SyncResponder.Limits.DEFAULT.maxEntries()));
        p.putIfAbsent(SYNC_MAX_BYTES, String.valueOf(SyncResponder.Limits.DEFAULT.maxBytes()));
        p.putIfAbsent(SUPERSEDED_RETENTION_MS, "-1");
        p.putIfAbsent(SWEEP_INTERVAL_MS, String.valueOf(ForgettingPolicy.DEFAULT.sweepInterval().toMillis()));
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
        long retention = whole(SUPERSEDED_RETENTION_MS);
        return new ForgettingPolicy(whole(HELD_MAX), retention < 0 ? null : java.time.Duration.ofMillis(retention),
                java.time.Duration.ofMillis(whole(SWEEP_INTERVAL_MS)));
    }

    /** How large a page of a sync answer may be: at most this many entries and bytes, then a continuation. */
    public SyncResponder.Limits syncLimits() {
        long entries = whole(SYNC_MAX_ENTRIES);
        long bytes = whole(SYNC_MAX_BYTES);
        if (entries < 1 || entries > Integer.MAX_VALUE || bytes < 1) {
            throw new IllegalArgumentException(SYNC_MAX_ENTRIES + " and " + SYNC_MAX_BYTES + " must be at least 1 (an entry count up to "
                    + Integer.MAX_VALUE + "), not " + entries + " and " + bytes);
        }
        return new SyncResponder.Limits((int) entries, bytes);
    }

    private long whole(String key) {
        String v = properties.getProperty(key);
        try {
            return Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a whole number, not \"" + v + "\"");
        }
    }

    public Integer topicPartitions() {
        String v = properties.getProperty(TOPIC_PARTITIONS);
        return v == null ? null : Integer.valueOf(v);
    }

    public Short topicReplication() {
        String v = properties.getProperty(TOPIC_REPLICATION);
        return v == null ? null : Short.valueOf(v);
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
