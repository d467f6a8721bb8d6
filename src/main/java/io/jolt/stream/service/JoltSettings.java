package io.jolt.stream.service;

import io.jolt.stream.api.EdgeQuotas;
import io.jolt.stream.api.HttpAccess;
import io.jolt.stream.api.HttpRole;
import io.jolt.stream.api.HttpTls;
import io.jolt.stream.processor.BoundedRocksDbMemory;
import io.jolt.stream.processor.ForgettingPolicy;
import io.jolt.stream.protocol.sync.SyncResponder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.commons.text.similarity.LevenshteinDistance;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The service's own settings, every {@code jolt.*} key but the {@link JoltConfig#BOLT_PRODUCER_PREFIX}
 * ones: each with its type, default, valid values, importance and documentation in one
 * {@link ConfigDef}. A key of the {@code jolt.} namespace that is not defined here is refused
 * (naming the nearest defined one), and a value of the wrong type or out of range is refused by
 * the definition's validators. The key constants stay with the classes that read them
 * ({@link ForgettingPolicy}, {@link BoundedRocksDbMemory}, {@link HttpAccess}, {@link HttpTls},
 * {@link EdgeQuotas}, {@link JoltConfig}); the configuration reference of operations.md is
 * {@link #markdownTable()}.
 */
public final class JoltSettings extends AbstractConfig {
    /** The namespace of the service's own settings. */
    public static final String NAMESPACE = "jolt.";

    private static final String BOLT_PRODUCER_DOC = "Passed, without the prefix, to the bolt's producers (for example "
            + JoltConfig.BOLT_PRODUCER_PREFIX + "batch.size); their acks, idempotence, retries, linger, compression and timeouts stay the bolt's";

    private static final EdgeQuotas.Settings QUOTAS = EdgeQuotas.Settings.DEFAULT;

    public static final ConfigDef DEFINITION = new ConfigDef()
            .define(JoltConfig.HTTP_HOST, Type.STRING, "127.0.0.1", new ConfigDef.NonEmptyString(), Importance.HIGH,
                    "The HTTP API's address; also the host of application.server unless that is set")
            .define(JoltConfig.HTTP_PORT, Type.INT, 8080, Range.between(0, 65535), Importance.HIGH,
                    "The HTTP API's port; 0 picks a free one")
            .define(JoltConfig.QUERY_MAX_STALENESS_MS, Type.LONG, 45_000L, Range.atLeast(100), Importance.HIGH,
                    "How old an answer about an identity may be: an instance answers 200 only while it can show that its stores hold every "
                            + "record the brokers held that long ago, else 503 stale (cut off, paused, behind, or not holding the identity's "
                            + "partition). Default: the consumer's session timeout, after which the group moves a silent instance's partitions")
            .define(JoltConfig.HTTP_FORWARD_TIMEOUT_MS, Type.LONG, 5_000L, Range.atLeast(100), Importance.MEDIUM,
                    "How long an instance waits for the owner of an identity it forwards a request to (connecting and answering) "
                            + "before it answers 503 owner_unreachable")
            .define(JoltConfig.TOPIC_PARTITIONS, Type.INT, null, unsetOr(Range.atLeast(1)), Importance.HIGH,
                    "The partition count of every topic at once, keeping the inputs co-partitioned; unset: each topic's own in topology/topics.yaml (4)")
            .define(JoltConfig.TOPIC_REPLICATION, Type.SHORT, null, unsetOr(Range.atLeast(1)), Importance.HIGH,
                    "The replication factor of the topics the guard creates, every topic at once; unset: each topic's own in topology/topics.yaml (1)")
            .define(JoltConfig.ROCKSDB_CACHE_BYTES, Type.LONG, 512L << 20, Range.atLeast(1), Importance.MEDIUM,
                    "The one block cache of all stores in the process, memtables included (default 512 MiB)")
            .define(JoltConfig.ROCKSDB_WRITE_BUFFER_BYTES, Type.LONG, 256L << 20, Range.atLeast(1), Importance.MEDIUM,
                    "The memtables' share of that cache (default 256 MiB)")
            .define(JoltConfig.HELD_MAX, Type.LONG, ForgettingPolicy.DEFAULT.heldMax(), Range.atLeast(0), Importance.MEDIUM,
                    "Entries held while not eligible (unknown_device, pending) per identity; beyond it those farthest from a root are dropped to 90%")
            .define(JoltConfig.SUPERSEDED_RETENTION_MS, Type.LONG, -1L, Range.atLeast(-1), Importance.MEDIUM,
                    "Forget superseded singleton history written longer ago than this; -1 keeps it for ever")
            .define(JoltConfig.SWEEP_INTERVAL_MS, Type.LONG, ForgettingPolicy.DEFAULT.sweepInterval().toMillis(), Range.atLeast(1), Importance.LOW,
                    "How often that retention is swept")
            .define(JoltConfig.SYNC_MAX_ENTRIES, Type.INT, SyncResponder.Limits.DEFAULT.maxEntries(), Range.atLeast(1), Importance.LOW,
                    "Entries of a delta-sync page before a continuation")
            .define(JoltConfig.SYNC_MAX_BYTES, Type.LONG, SyncResponder.Limits.DEFAULT.maxBytes(), Range.atLeast(1), Importance.LOW,
                    "Bytes of a delta-sync page before a continuation")
            .define(HttpAccess.TOKEN, Type.PASSWORD, null, Importance.HIGH,
                    "A bearer token (sent as Authorization: Bearer TOKEN) let into every role (ingest, sync, read, analytics, metrics); "
                            + "with no credential configured at all, every route is open. Best from the environment: JOLT_HTTP_AUTH_TOKEN")
            .define(HttpAccess.BASIC, Type.PASSWORD, null, new UserPassword(), Importance.HIGH,
                    "user:password for basic auth let into every role. Best from the environment: JOLT_HTTP_AUTH_BASIC")
            .define(HttpRole.INGEST.accessSetting(), Type.STRING, null, unsetOr(ConfigDef.ValidString.in("open", "closed")), Importance.HIGH,
                    "Who may use the ingest role (POST /v1/records): open, or closed (credentials let into the role: its own or the shared ones). "
                            + "Unset: closed, or open when no credential is configured at all")
            .define(HttpRole.INGEST.tokenSetting(), Type.PASSWORD, null, Importance.MEDIUM,
                    "A bearer token let into the ingest role only. Best from the environment: JOLT_HTTP_AUTH_INGEST_TOKEN")
            .define(HttpRole.INGEST.basicSetting(), Type.PASSWORD, null, new UserPassword(), Importance.MEDIUM,
                    "user:password for basic auth let into the ingest role only. Best from the environment: JOLT_HTTP_AUTH_INGEST_BASIC")
            .define(HttpRole.SYNC.accessSetting(), Type.STRING, null, unsetOr(ConfigDef.ValidString.in("open", "closed", "pushes")), Importance.HIGH,
                    "Who may use the sync role (POST /jolt/device-writer/sync): open, closed (credentials let into the role), or pushes (only requests "
                            + "that push records need them). Unset: pushes, or open when no credential is configured at all")
            .define(HttpRole.SYNC.tokenSetting(), Type.PASSWORD, null, Importance.MEDIUM,
                    "A bearer token let into the sync role only. Best from the environment: JOLT_HTTP_AUTH_SYNC_TOKEN")
            .define(HttpRole.SYNC.basicSetting(), Type.PASSWORD, null, new UserPassword(), Importance.MEDIUM,
                    "user:password for basic auth let into the sync role only. Best from the environment: JOLT_HTTP_AUTH_SYNC_BASIC")
            .define(HttpRole.READ.accessSetting(), Type.STRING, null, unsetOr(ConfigDef.ValidString.in("open", "closed")), Importance.HIGH,
                    "Who may use the read role (GET /v1/identities/...): open, or closed (credentials let into the role: its own or the shared ones). "
                            + "Unset: open")
            .define(HttpRole.READ.tokenSetting(), Type.PASSWORD, null, Importance.MEDIUM,
                    "A bearer token let into the read role only. Best from the environment: JOLT_HTTP_AUTH_READ_TOKEN")
            .define(HttpRole.READ.basicSetting(), Type.PASSWORD, null, new UserPassword(), Importance.MEDIUM,
                    "user:password for basic auth let into the read role only. Best from the environment: JOLT_HTTP_AUTH_READ_BASIC")
            .define(HttpRole.ANALYTICS.accessSetting(), Type.STRING, null, unsetOr(ConfigDef.ValidString.in("open", "closed")), Importance.HIGH,
                    "Who may use the analytics role (GET /v1/analytics/*, /dashboard and its files): open, or closed (credentials let into the role: its own or the shared ones). "
                            + "Unset: open")
            .define(HttpRole.ANALYTICS.tokenSetting(), Type.PASSWORD, null, Importance.MEDIUM,
                    "A bearer token let into the analytics role only. Best from the environment: JOLT_HTTP_AUTH_ANALYTICS_TOKEN")
            .define(HttpRole.ANALYTICS.basicSetting(), Type.PASSWORD, null, new UserPassword(), Importance.MEDIUM,
                    "user:password for basic auth let into the analytics role only. Best from the environment: JOLT_HTTP_AUTH_ANALYTICS_BASIC")
            .define(HttpRole.METRICS.accessSetting(), Type.STRING, null, unsetOr(ConfigDef.ValidString.in("open", "closed")), Importance.HIGH,
                    "Who may use the metrics role (GET /metrics): open, or closed (credentials let into the role: its own or the shared ones). "
                            + "Unset: closed, or open when no credential is configured at all")
            .define(HttpRole.METRICS.tokenSetting(), Type.PASSWORD, null, Importance.MEDIUM,
                    "A bearer token let into the metrics role only. Best from the environment: JOLT_HTTP_AUTH_METRICS_TOKEN")
            .define(HttpRole.METRICS.basicSetting(), Type.PASSWORD, null, new UserPassword(), Importance.MEDIUM,
                    "user:password for basic auth let into the metrics role only. Best from the environment: JOLT_HTTP_AUTH_METRICS_BASIC")
            .define(EdgeQuotas.RECORDS_RATE, Type.LONG, QUOTAS.records().rate(), Range.atLeast(0), Importance.MEDIUM,
                    "Lines of POST /v1/records a client may send a second: a credential (a token, the user of a basic one), "
                            + "else an address. Beyond it: 429 quota_exceeded with Retry-After. 0: no quota")
            .define(EdgeQuotas.RECORDS_BURST, Type.LONG, QUOTAS.records().burst(), Range.atLeast(1), Importance.MEDIUM,
                    "Lines a client may send at once before that rate holds it back; a batch of more lines is refused whole, 413 batch_over_burst")
            .define(EdgeQuotas.SYNC_RATE, Type.LONG, QUOTAS.sync().rate(), Range.atLeast(0), Importance.MEDIUM,
                    "Sync requests (POST /jolt/device-writer/sync) a client may send a second, keyed as for records; 0: no quota")
            .define(EdgeQuotas.SYNC_BURST, Type.LONG, QUOTAS.sync().burst(), Range.atLeast(1), Importance.MEDIUM,
                    "Sync requests a client may send at once before that rate holds it back")
            .define(EdgeQuotas.SYNC_MAX_CONCURRENT, Type.INT, QUOTAS.maxConcurrentSyncs(), Range.atLeast(1), Importance.MEDIUM,
                    "Sync requests the instance serves at once, whoever sends them, so that syncing cannot take the threads and CPU ingest needs; "
                            + "beyond it: 429 too_many_concurrent_syncs with Retry-After: 1")
            .define(HttpTls.KEYSTORE, Type.STRING, null, Importance.HIGH,
                    "A key store: the API then serves HTTPS only (Jetty's TLS)")
            .define(HttpTls.KEYSTORE_PASSWORD, Type.PASSWORD, null, Importance.MEDIUM,
                    "The key store's password. Best from the environment: JOLT_HTTP_TLS_KEYSTORE_PASSWORD")
            .define(HttpTls.KEYSTORE_TYPE, Type.STRING, "PKCS12", new ConfigDef.NonEmptyString(), Importance.LOW,
                    "The key store's type")
            .define(HttpTls.TRUSTSTORE, Type.STRING, null, Importance.MEDIUM,
                    "What an instance trusts when it forwards a request to another; unset: the key store itself "
                            + "(every instance carrying the service's one certificate)")
            .define(HttpTls.TRUSTSTORE_PASSWORD, Type.PASSWORD, null, Importance.MEDIUM,
                    "The trust store's password; unset: the key store's when the trust store is the key store");

    JoltSettings(Map<String, String> settings) {
        super(DEFINITION, settings, false);
    }

    /** Whether a key is the service's to define (and so refused unless defined). */
    static boolean ours(String key) {
        return key.startsWith(NAMESPACE) && !key.startsWith(JoltConfig.BOLT_PRODUCER_PREFIX);
    }

    /** Refuses every key of our namespace that the definition does not know, naming the nearest known one. */
    static void refuseUnknown(Iterable<String> keys) {
        List<String> unknown = new ArrayList<>();
        for (String key : keys) {
            if (ours(key) && !DEFINITION.names().contains(key)) {
                unknown.add(key);
            }
        }
        if (!unknown.isEmpty()) {
            throw new ConfigException(String.join(" ", unknown.stream().sorted()
                    .map(k -> "unknown setting " + k + "; did you mean " + nearest(k) + "?").toList()));
        }
    }

    /** The defined setting nearest to a key, by edit distance (the first defined of equals). */
    static String nearest(String key) {
        List<String> candidates = new ArrayList<>(DEFINITION.names());
        String[] parts = key.split("\\.", 4);
        if (parts.length == 4) {
            // jolt.bolt.producr.batch.size: the producer's setting, under the right prefix
            candidates.add(JoltConfig.BOLT_PRODUCER_PREFIX + parts[3]);
        }
        LevenshteinDistance distance = LevenshteinDistance.getDefaultInstance();
        return candidates.stream().min(Comparator.comparingInt(c -> distance.apply(key, c))).orElseThrow();
    }

    /**
     * The configuration reference: a Markdown table of every setting (name, type, default, valid
     * values, importance, description), in the order defined, then the producer prefix. It stands
     * in src/site/markdown/operations.md between {@code <!-- config-reference:start -->} and
     * {@code <!-- config-reference:end -->}; {@code jolt config reference} prints it.
     */
    public static String markdownTable() {
        StringBuilder out = new StringBuilder()
                .append("| setting | type | default | valid values | importance | description |\n")
                .append("|---|---|---|---|---|---|\n");
        for (ConfigDef.ConfigKey key : DEFINITION.configKeys().values()) {
            row(out, code(key.name), lower(key.type.name()), key.defaultValue == null ? "unset" : code(ConfigDef.convertToString(key.defaultValue, key.type)),
                    key.validator == null ? "" : code(key.validator.toString()), lower(key.importance.name()), key.documentation);
        }
        row(out, code(JoltConfig.BOLT_PRODUCER_PREFIX + "*"), "prefix", "", "", lower(Importance.LOW.name()), BOLT_PRODUCER_DOC);
        return out.toString();
    }

    private static void row(StringBuilder out, String... cells) {
        out.append('|');
        Stream.of(cells).forEach(c -> out.append(' ').append(c.replace("|", "\\|")).append(" |"));
        out.append('\n');
    }

    private static String code(String s) {
        return "`" + s + "`";
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    /** A validator that also lets the setting be unset (null). */
    static ConfigDef.Validator unsetOr(ConfigDef.Validator set) {
        return ConfigDef.LambdaValidator.with((name, value) -> {
            if (value != null) {
                set.ensureValid(name, value);
            }
        }, () -> set + " or unset");
    }

    /** Unset, blank, or user:password. */
    static final class UserPassword implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            Password p = (Password) value;
            if (p != null && !p.value().isBlank() && !p.value().contains(":")) {
                throw new ConfigException(name, p, "must be user:password");
            }
        }

        @Override
        public String toString() {
            return "user:password";
        }
    }
}
