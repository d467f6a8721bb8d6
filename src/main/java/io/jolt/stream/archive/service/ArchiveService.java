package io.jolt.stream.archive.service;

import io.jolt.stream.http.StreamsMetrics;
import io.jolt.stream.http.StreamsReadiness;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.SchemaRegistry;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.HostInfo;

/**
 * {@code jolt archive serve}: a read-only service over the bolt. Its own Kafka Streams
 * application indexes {@code jolt.archive.v2} (exactly once, so a restart resumes from its
 * committed offsets and indexes nothing twice) and its HTTP API answers an identity's history,
 * as-of state and export by reading only that identity's operations. It writes no topic but its
 * index's changelogs; the live service neither knows nor needs it.
 */
public final class ArchiveService implements AutoCloseable {
    /**
     * Where and as what the service runs: {@code topic} is the archive (jolt.archive.v2, or a
     * mirror of it under another name); {@code port} 0 picks a free one; {@code client} holds
     * settings every Kafka client of the service gets (security.protocol, sasl.*, ssl.*, ...);
     * {@code readyMaxLag} is how many records the index may be behind the archive, on the
     * partitions an instance indexes, for that instance to be ready.
     */
    public record Settings(String bootstrap, String topic, String applicationId, Path stateDir, String host, int port, Properties client,
            long readyMaxLag) {
        public static final String DEFAULT_APPLICATION_ID = "jolt-archive";
        /** Kafka Streams' own bound for calling a replica caught up (acceptable.recovery.lag): a few commits of a busy archive. */
        public static final long DEFAULT_READY_MAX_LAG = 10_000;

        /** jolt.archive.v2 on {@code bootstrap}, no client settings, the default lag bound. */
        public Settings(String bootstrap, String applicationId, Path stateDir, String host, int port) {
            this(bootstrap, Topics.ARCHIVE, applicationId, stateDir, host, port, new Properties(), DEFAULT_READY_MAX_LAG);
        }

        public Settings {
            if (readyMaxLag < 0) {
                throw new IllegalArgumentException("the lag bound of readiness is 0 records or more: " + readyMaxLag);
            }
        }

        /** The client settings with the bootstrap servers. */
        Properties clientProperties() {
            Properties p = new Properties();
            p.putAll(client);
            p.setProperty("bootstrap.servers", bootstrap);
            return p;
        }
    }

    private final KafkaStreams streams;
    private final ArchiveFetcher fetcher;
    private final ArchiveProgress progress;
    private final ArchiveHttp http;
    private final IndexCounts counts;
    private final HostInfo self;

    private ArchiveService(KafkaStreams streams, ArchiveFetcher fetcher, ArchiveProgress progress, ArchiveHttp http, IndexCounts counts,
            HostInfo self) {
        this.streams = streams;
        this.fetcher = fetcher;
        this.progress = progress;
        this.http = http;
        this.counts = counts;
        this.self = self;
    }

    /** Starts indexing and serving; the archive topic must exist (the live service creates it). */
    public static ArchiveService start(Settings settings, SchemaRegistry registry) throws IOException {
        HostInfo self = new HostInfo(settings.host(), settings.port() == 0 ? freePort() : settings.port());
        IndexCounts counts = new IndexCounts();
        KafkaStreams streams = new KafkaStreams(ArchiveIndexTopology.build(settings.topic(), registry, counts), streamsProperties(settings, self));
        ArchiveFetcher fetcher = new ArchiveFetcher(settings.topic(), settings.clientProperties(), registry);
        ArchiveProgress progress = new ArchiveProgress(Admin.create(settings.clientProperties()), settings.topic(), settings.applicationId(), streams, counts);
        // Registered before the start: Kafka Streams takes no restore listener later.
        StreamsReadiness restores = new StreamsReadiness();
        streams.setGlobalStateRestoreListener(restores);
        ArchiveReadiness readiness = new ArchiveReadiness(streams, restores, progress, settings.topic(), settings.readyMaxLag());
        PrometheusMeterRegistry metrics = metrics(streams, counts, fetcher);
        restores.bindTo(metrics);
        ArchiveHttp http = new ArchiveHttp(streams, new ArchiveQueries(ArchiveIndex.of(streams), fetcher), progress, readiness, metrics, self);
        streams.start();
        http.start();
        return new ArchiveService(streams, fetcher, progress, http, counts, self);
    }

    private static Properties streamsProperties(Settings settings, HostInfo self) {
        Properties p = settings.clientProperties();
        p.setProperty(StreamsConfig.APPLICATION_ID_CONFIG, settings.applicationId());
        p.setProperty(StreamsConfig.STATE_DIR_CONFIG, settings.stateDir().toString());
        p.setProperty(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.setProperty(StreamsConfig.APPLICATION_SERVER_CONFIG, self.host() + ":" + self.port());
        p.setProperty(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "500");
        // A new archive service indexes the archive from its first record: the archive is the whole history.
        p.setProperty(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        return p;
    }

    private static PrometheusMeterRegistry metrics(KafkaStreams streams, IndexCounts counts, ArchiveFetcher fetcher) {
        PrometheusMeterRegistry metrics = StreamsMetrics.of(streams);
        FunctionCounter.builder("jolt.archive.indexed", counts, IndexCounts::indexed)
                .description("archived operations indexed by this run").register(metrics);
        FunctionCounter.builder("jolt.archive.unreadable", counts, IndexCounts::unreadable)
                .description("archive records the index could not read (each named in the log)").register(metrics);
        FunctionCounter.builder("jolt.archive.records.fetched", fetcher, ArchiveFetcher::recordsRead)
                .description("archive records read from the broker to answer queries").register(metrics);
        return metrics;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    public String baseUrl() {
        return "http://" + self.host() + ":" + http.port();
    }

    /** The routes its HTTP API registered. */
    List<String> routes() {
        return http.routes();
    }

    public IndexCounts counts() {
        return counts;
    }

    /** Waits until the index is RUNNING (or throws when it fails or the time is up). */
    public ArchiveService awaitRunning(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (streams.state() != KafkaStreams.State.RUNNING) {
            if (streams.state() == KafkaStreams.State.ERROR || streams.state() == KafkaStreams.State.NOT_RUNNING) {
                throw new IllegalStateException("the archive index is " + streams.state());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the archive index is not RUNNING after " + timeout + " (state " + streams.state() + ")");
            }
            Thread.sleep(50);
        }
        return this;
    }

    /** Waits until every archived operation up to now is indexed (the index's committed offsets reach the archive's end). */
    public ArchiveService awaitCaughtUp(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!progress.status().get("caught_up").asBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the archive index has not caught up after " + timeout + ": " + progress.status());
            }
            Thread.sleep(100);
        }
        return this;
    }

    @Override
    public void close() {
        http.close();
        streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(30)));
        fetcher.close();
        progress.close();
    }
}
