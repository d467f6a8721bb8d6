package io.jolt.stream.connect;

import io.jolt.stream.protocol.IdentityId;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The connector's settings, validated by Connect's {@link ConfigDef}: a bad URL or identity is
 * named in the error the worker's REST API returns ({@code PUT /connectors/.../config/validate}).
 *
 * <p>Identities are a list ({@code jolt.sync.identities}) and/or a file of one identity per line
 * ({@code jolt.sync.identities.file}; {@code #} starts a comment). Not a topic: the set followed is
 * configuration, reviewed like any other, and a file the connector watches (it asks the worker to
 * re-split the tasks when the file changes) covers thousands of identities without a second
 * pipeline whose lag would decide what is followed.
 */
final class SyncSourceConfig extends AbstractConfig {
    static final String PROVIDERS = "jolt.sync.providers";
    static final String IDENTITIES = "jolt.sync.identities";
    static final String IDENTITIES_FILE = "jolt.sync.identities.file";
    static final String POLL_INTERVAL_MS = "jolt.sync.poll.interval.ms";
    static final String MAX_PAGES = "jolt.sync.max.pages.per.identity";
    static final String MAX_RECORDS = "jolt.sync.max.records.per.poll";
    static final String BACKOFF_INITIAL_MS = "jolt.sync.backoff.initial.ms";
    static final String BACKOFF_MAX_MS = "jolt.sync.backoff.max.ms";
    static final String REQUEST_TIMEOUT_MS = "jolt.sync.request.timeout.ms";
    static final String AUTH_TOKEN = "jolt.sync.auth.token";
    static final String AUTH_BASIC = "jolt.sync.auth.basic";
    static final String LAG_POLLS = "jolt.sync.lag.polls";
    static final String FILE_CHECK_MS = "jolt.sync.identities.file.check.ms";
    /** Set by the connector in each task's configuration: the task's share, "provider identity" per line. */
    static final String TASK_PAIRS = "jolt.sync.task.pairs";

    static final ConfigDef DEFINITION = new ConfigDef()
            .define(PROVIDERS, ConfigDef.Type.LIST, ConfigDef.NO_DEFAULT_VALUE, new ProviderUrls(), ConfigDef.Importance.HIGH,
                    "Base URLs of the providers to pull from (http or https), e.g. https://provider-a.example:8080")
            .define(IDENTITIES, ConfigDef.Type.LIST, "", new Identities(), ConfigDef.Importance.HIGH,
                    "Identities to follow on every provider (jolt1...), comma-separated")
            .define(IDENTITIES_FILE, ConfigDef.Type.STRING, "", ConfigDef.Importance.HIGH,
                    "A file of identities to follow, one per line (# comments); watched, the tasks are re-split when it changes")
            .define(POLL_INTERVAL_MS, ConfigDef.Type.LONG, 10_000L, ConfigDef.Range.atLeast(10), ConfigDef.Importance.MEDIUM,
                    "How often each (provider, identity) is asked for what is new")
            .define(MAX_PAGES, ConfigDef.Type.INT, 16, ConfigDef.Range.atLeast(1), ConfigDef.Importance.LOW,
                    "Pages followed for one identity in one poll before the others get their turn (the rest follows next poll)")
            .define(MAX_RECORDS, ConfigDef.Type.INT, 10_000, ConfigDef.Range.atLeast(1), ConfigDef.Importance.LOW,
                    "Records returned by one poll (one transaction under exactly-once) before it returns")
            .define(BACKOFF_INITIAL_MS, ConfigDef.Type.LONG, 1_000L, ConfigDef.Range.atLeast(1), ConfigDef.Importance.LOW,
                    "First wait after a provider fails to answer; doubled at each further failure")
            .define(BACKOFF_MAX_MS, ConfigDef.Type.LONG, 300_000L, ConfigDef.Range.atLeast(1), ConfigDef.Importance.LOW,
                    "Longest wait between attempts at a failing provider")
            .define(REQUEST_TIMEOUT_MS, ConfigDef.Type.LONG, 30_000L, ConfigDef.Range.atLeast(1), ConfigDef.Importance.LOW,
                    "Timeout of one sync request")
            .define(AUTH_TOKEN, ConfigDef.Type.PASSWORD, null, ConfigDef.Importance.MEDIUM,
                    "Bearer token sent to the providers (Authorization: Bearer ...)")
            .define(AUTH_BASIC, ConfigDef.Type.PASSWORD, null, ConfigDef.Importance.MEDIUM,
                    "user:password sent to the providers with HTTP basic authentication")
            .define(LAG_POLLS, ConfigDef.Type.INT, 3, ConfigDef.Range.atLeast(1), ConfigDef.Importance.LOW,
                    "An identity not synced within this many poll intervals counts as lagging (metric identities-lagging)")
            .define(FILE_CHECK_MS, ConfigDef.Type.LONG, 10_000L, ConfigDef.Range.atLeast(100), ConfigDef.Importance.LOW,
                    "How often the identities file is checked for changes")
            .define(TASK_PAIRS, ConfigDef.Type.STRING, "", ConfigDef.Importance.LOW,
                    "Set by the connector for each task; not to be set by hand");

    static final String KEY_CONVERTER = "key.converter";
    static final String VALUE_CONVERTER = "value.converter";
    private static final String STRING_CONVERTER = "org.apache.kafka.connect.storage.StringConverter";
    private static final String BYTE_ARRAY_CONVERTER = "org.apache.kafka.connect.converters.ByteArrayConverter";

    /** A setting the whole configuration gets wrong, and how. */
    record Problem(String name, String message) {}

    SyncSourceConfig(Map<String, String> props) {
        super(DEFINITION, props);
        List<Problem> problems = problems(props);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems.get(0).name(), props.get(problems.get(0).name()), problems.get(0).message());
        }
    }

    /**
     * What only the whole configuration can tell: identities named somewhere, a readable identities
     * file of well-formed identities, and the converters that pass our bytes through unchanged (the
     * values are already the Avro wire format the service reads; any other converter would wrap them).
     */
    static List<Problem> problems(Map<String, String> props) {
        List<Problem> out = new ArrayList<>();
        String list = props.getOrDefault(IDENTITIES, "");
        String file = props.getOrDefault(IDENTITIES_FILE, "");
        if (list.isBlank() && file.isBlank() && props.getOrDefault(TASK_PAIRS, "").isBlank()) {
            out.add(new Problem(IDENTITIES, "name the identities to follow: " + IDENTITIES + " and/or " + IDENTITIES_FILE));
        }
        if (!file.isBlank()) {
            try {
                identitiesInFile(Path.of(file));
            } catch (ConfigException e) {
                out.add(new Problem(IDENTITIES_FILE, e.getMessage()));
            }
        }
        if (!STRING_CONVERTER.equals(props.get(KEY_CONVERTER))) {
            out.add(new Problem(KEY_CONVERTER, "set " + KEY_CONVERTER + "=" + STRING_CONVERTER + " (keys are identities)"));
        }
        if (!BYTE_ARRAY_CONVERTER.equals(props.get(VALUE_CONVERTER))) {
            out.add(new Problem(VALUE_CONVERTER, "set " + VALUE_CONVERTER + "=" + BYTE_ARRAY_CONVERTER
                    + " (the values are already the Avro wire format the service reads)"));
        }
        return out;
    }

    List<String> providers() {
        return getList(PROVIDERS).stream().map(u -> u.replaceAll("/+$", "")).distinct().toList();
    }

    Optional<Path> identitiesFile() {
        String file = getString(IDENTITIES_FILE);
        return file.isBlank() ? Optional.empty() : Optional.of(Path.of(file));
    }

    /** Every identity followed: the list, then the file's, each once. */
    Set<String> identities() {
        Set<String> all = new LinkedHashSet<>(getList(IDENTITIES));
        identitiesFile().ifPresent(f -> all.addAll(identitiesInFile(f)));
        return all;
    }

    Duration pollInterval() {
        return Duration.ofMillis(getLong(POLL_INTERVAL_MS));
    }

    Backoff backoff() {
        return new Backoff(Duration.ofMillis(getLong(BACKOFF_INITIAL_MS)), Duration.ofMillis(getLong(BACKOFF_MAX_MS)));
    }

    Optional<String> authorization() {
        Password token = getPassword(AUTH_TOKEN);
        if (token != null) {
            return Optional.of("Bearer " + token.value());
        }
        Password basic = getPassword(AUTH_BASIC);
        return basic == null ? Optional.empty()
                : Optional.of("Basic " + Base64.getEncoder().encodeToString(basic.value().getBytes(StandardCharsets.UTF_8)));
    }

    /** The identities of a file, validated line by line (the error names the file and the line). */
    static List<String> identitiesInFile(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new ConfigException(IDENTITIES_FILE, file.toString(), "cannot be read: " + e);
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).replaceFirst("#.*", "").strip();
            if (line.isEmpty()) {
                continue;
            }
            if (!IdentityId.isWellFormed(line)) {
                throw new ConfigException(IDENTITIES_FILE, file.toString(), "line " + (i + 1) + " is not an identity (jolt1 and 52 base32 characters): " + line);
            }
            out.add(line);
        }
        return out;
    }

    /** Each provider an absolute http(s) URL with a host. */
    static final class ProviderUrls implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            @SuppressWarnings("unchecked")
            List<String> urls = (List<String>) value;
            if (urls == null || urls.isEmpty()) {
                throw new ConfigException(name, value, "name at least one provider URL");
            }
            for (String url : urls) {
                URI uri;
                try {
                    uri = URI.create(url);
                } catch (IllegalArgumentException e) {
                    throw new ConfigException(name, url, "not a URL: " + e.getMessage());
                }
                if (uri.getScheme() == null || !uri.getScheme().matches("https?") || uri.getHost() == null) {
                    throw new ConfigException(name, url, "not an http or https URL with a host");
                }
            }
        }

        @Override
        public String toString() {
            return "http(s) URLs";
        }
    }

    /** Each identity well formed. */
    static final class Identities implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            @SuppressWarnings("unchecked")
            List<String> identities = (List<String>) value;
            for (String identity : identities) {
                if (!IdentityId.isWellFormed(identity)) {
                    throw new ConfigException(name, identity, "not an identity (jolt1 and 52 base32 characters)");
                }
            }
        }

        @Override
        public String toString() {
            return "identities (jolt1...)";
        }
    }
}
