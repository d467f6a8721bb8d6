package io.jolt.stream.service;

import io.jolt.stream.api.EdgeQuotas;
import io.jolt.stream.api.HttpAccess;
import io.jolt.stream.api.HttpApi;
import io.jolt.stream.api.HttpTls;
import io.jolt.stream.api.ServiceReadiness;
import io.jolt.stream.archive.KafkaBolt;
import io.jolt.stream.processor.QueryFreshness;
import io.jolt.stream.protocol.sync.SyncResponder;
import io.jolt.stream.wire.RecordIngest;
import io.jolt.stream.wire.serde.SchemaRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.HostInfo;

/**
 * One instance of the service: the stream processor and its HTTP API. The API's address is
 * the instance's {@code application.server}, so instances can route queries to each other.
 */
public final class JoltNode implements AutoCloseable {
    public static final String HTTP_HOST = JoltConfig.HTTP_HOST;
    public static final String HTTP_PORT = JoltConfig.HTTP_PORT;

    private final JoltService<KafkaBolt> service;
    private final ServiceReadiness readiness;
    private final RecordIngest ingest;
    private final QueryFreshness freshness;
    private final HttpApi api;
    private final HostInfo self;

    private JoltNode(JoltService<KafkaBolt> service, ServiceReadiness readiness, RecordIngest ingest, QueryFreshness freshness, HttpApi api,
            HostInfo self) {
        this.service = service;
        this.readiness = readiness;
        this.ingest = ingest;
        this.freshness = freshness;
        this.api = api;
        this.self = self;
    }

    /** Starts processing and serving; {@code jolt.http.port} 0 picks a free port. */
    public static JoltNode start(JoltConfig config, SchemaRegistry registry) throws IOException {
        String host = config.httpHost();
        int port = config.httpPort();
        if (port == 0) {
            try (ServerSocket socket = new ServerSocket(0)) {
                port = socket.getLocalPort();
            }
        }
        HostInfo self = new HostInfo(host, port);
        // Read before anything starts, so that a wrong setting stops the start with its reason.
        HttpAccess access = HttpAccess.from(config::get);
        Optional<HttpTls> tls = HttpTls.from(config::get);
        SyncResponder.Limits pages = config.syncLimits();
        EdgeQuotas.Settings quotas = config.httpQuotas();
        JoltConfig withServer = config.get(StreamsConfig.APPLICATION_SERVER_CONFIG) == null
                ? config.with(StreamsConfig.APPLICATION_SERVER_CONFIG, host + ":" + port) : config;
        ServiceReadiness readiness = new ServiceReadiness();
        long startedAt = System.currentTimeMillis();
        JoltService<KafkaBolt> service = JoltService.start(withServer, registry, () -> new KafkaBolt(withServer.boltProducerProperties(), registry),
                readiness.restoreListener());
        // The cluster's security settings too: HTTP ingest reaches a secured cluster as the processor does.
        RecordIngest ingest = new RecordIngest(withServer.adminProperties(), registry);
        QueryFreshness.Group group = new QueryFreshness.Group(withServer.get(StreamsConfig.APPLICATION_ID_CONFIG), withServer.sessionTimeout(),
                startedAt);
        QueryFreshness freshness = QueryFreshness.start(service.streams(), group, withServer.adminProperties(), config.queryMaxStaleness());
        HttpApi api = HttpApi.start(self, service.streams(), readiness, service.signatures(), ingest, registry, access, tls, pages, quotas,
                freshness, config.forwardTimeout());
        service.bolt().bindTo(api.metrics());
        return new JoltNode(service, readiness, ingest, freshness, api, self);
    }

    public JoltNode awaitRunning(Duration timeout) throws InterruptedException {
        service.awaitRunning(timeout);
        return this;
    }

    /**
     * Waits until the instance is ready as {@code GET /health/ready} says: RUNNING with every
     * active task restored (or throws, naming why not, when Kafka Streams fails or the time is up).
     */
    public JoltNode awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        service.awaitRunning(timeout);
        List<String> reasons;
        while (!(reasons = readiness.notReadyBecause(service.streams().state())).isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not ready after " + timeout + ": " + String.join("; ", reasons));
            }
            Thread.sleep(50);
        }
        return this;
    }

    public JoltService<KafkaBolt> service() {
        return service;
    }

    public RecordIngest ingest() {
        return ingest;
    }

    /** The routes its HTTP API registered. */
    public List<String> routes() {
        return api.routes();
    }

    public String baseUrl() {
        return api.scheme() + "://" + self.host() + ":" + api.port();
    }

    /** The URL a Confluent client reads the schemas from, when this instance serves them (its registry is the embedded one). */
    public Optional<String> registryUrl() {
        return api.registryPath().map(path -> baseUrl() + path);
    }

    @Override
    public void close() {
        api.close();
        freshness.close();
        ingest.close();
        service.close();
    }
}
