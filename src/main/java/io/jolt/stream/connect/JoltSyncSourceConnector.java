package io.jolt.stream.connect;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka Connect source connector that keeps pulling identities from other providers by delta
 * sync (RFC-0008 §10-11, PROTOCOL §8) into this provider's input topics. It splits the
 * (provider, identity) pairs over its tasks by rendezvous hashing ({@link PairAssignment}), watches
 * the identities file, and supports exactly-once source delivery (KIP-618): a task's records and
 * the cursors they advance commit in one transaction.
 */
public final class JoltSyncSourceConnector extends SourceConnector {
    static final String VERSION = versionOfJar();
    private static final Logger LOG = LoggerFactory.getLogger(JoltSyncSourceConnector.class);

    private Map<String, String> props;
    private SyncSourceConfig config;
    private volatile Set<FollowedPair> pairs;
    private ScheduledExecutorService fileWatch;

    @Override
    public void start(Map<String, String> props) {
        this.props = Map.copyOf(props);
        this.config = new SyncSourceConfig(props);
        this.pairs = pairs(config);
        LOG.info("jolt sync connector: {} identities on {} provider(s): {} pairs", config.identities().size(), config.providers().size(), pairs.size());
        config.identitiesFile().ifPresent(this::watch);
    }

    private static Set<FollowedPair> pairs(SyncSourceConfig config) {
        Set<FollowedPair> out = new TreeSet<>();
        for (String provider : config.providers()) {
            config.identities().forEach(i -> out.add(new FollowedPair(provider, i)));
        }
        return out;
    }

    /** Re-reads the identities file when it changes and asks the worker to re-split the tasks. */
    private void watch(Path file) {
        fileWatch = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "jolt-sync-identities-file");
            t.setDaemon(true);
            return t;
        });
        long every = config.getLong(SyncSourceConfig.FILE_CHECK_MS);
        fileWatch.scheduleWithFixedDelay(() -> {
            try {
                Set<FollowedPair> now = pairs(config);
                if (!now.equals(pairs)) {
                    LOG.info("jolt sync connector: {} changed: {} pairs (were {}), re-splitting the tasks", file, now.size(), pairs.size());
                    pairs = now;
                    context().requestTaskReconfiguration();
                }
            } catch (ConfigException e) {
                LOG.warn("jolt sync connector: {} is not usable now, still following the previous list: {}", file, e.getMessage());
            }
        }, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return JoltSyncSourceTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        int tasks = Math.max(1, Math.min(maxTasks, pairs.size()));
        List<Map<String, String>> out = new ArrayList<>();
        for (List<FollowedPair> share : PairAssignment.split(pairs, tasks)) {
            Map<String, String> task = new HashMap<>(props);
            task.put(SyncSourceConfig.TASK_PAIRS, share.stream().map(FollowedPair::line).collect(Collectors.joining("\n")));
            out.add(task);
        }
        return out;
    }

    @Override
    public void stop() {
        if (fileWatch != null) {
            fileWatch.shutdownNow();
        }
    }

    @Override
    public ConfigDef config() {
        return SyncSourceConfig.DEFINITION;
    }

    /** Each setting's own validator, then what only the whole configuration can tell (identities named, converters). */
    @Override
    public Config validate(Map<String, String> connectorConfigs) {
        Config checked = super.validate(connectorConfigs);
        for (SyncSourceConfig.Problem p : SyncSourceConfig.problems(connectorConfigs)) {
            ConfigValue value = checked.configValues().stream().filter(v -> v.name().equals(p.name())).findFirst().orElseGet(() -> {
                ConfigValue added = new ConfigValue(p.name(), connectorConfigs.get(p.name()), List.of(), new ArrayList<>());
                checked.configValues().add(added);
                return added;
            });
            value.addErrorMessage(p.message());
        }
        return checked;
    }

    @Override
    public ExactlyOnceSupport exactlyOnceSupport(Map<String, String> connectorConfig) {
        return ExactlyOnceSupport.SUPPORTED;
    }

    @Override
    public String version() {
        return VERSION;
    }

    private static String versionOfJar() {
        String v = JoltSyncSourceConnector.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
