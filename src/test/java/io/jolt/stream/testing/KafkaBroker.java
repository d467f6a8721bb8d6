package io.jolt.stream.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;

/**
 * One real Apache Kafka broker (KRaft, broker and controller in one process) on 127.0.0.1,
 * in this JVM, from the Maven Central artifacts, or a small cluster of them. Never a mock.
 */
public final class KafkaBroker implements AutoCloseable {
    private final KafkaRaftServer server;
    private final String bootstrap;
    private final Path dataDir;

    private final List<KafkaRaftServer> others;
    private final List<Properties> otherConfigs;

    private KafkaBroker(KafkaRaftServer server, List<KafkaRaftServer> others, List<Properties> otherConfigs, String bootstrap, Path dataDir) {
        this.server = server;
        this.others = others;
        this.otherConfigs = otherConfigs;
        this.bootstrap = bootstrap;
        this.dataDir = dataDir;
    }

    public static KafkaBroker start() throws Exception {
        return start(1);
    }

    /**
     * A cluster of {@code nodes} brokers: node 1 is broker and controller, the others brokers
     * only. With more than one, the group and transaction logs are replicated on every node, so
     * that {@link #stopNode} leaves the cluster working with fewer in-sync replicas.
     */
    public static KafkaBroker start(int nodes) throws Exception {
        int controllerPort = freePort();
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "kafka-broker-");
        String clusterId = Uuid.randomUuid().toString();
        List<Integer> ports = new ArrayList<>();
        List<KafkaRaftServer> servers = new ArrayList<>();
        List<Properties> configs = new ArrayList<>();
        for (int node = 1; node <= nodes; node++) {
            int port = freePort();
            ports.add(port);
            Properties p = nodeProperties(node, nodes, port, controllerPort, dir.resolve("node-" + node));
            Path config = dir.resolve("server-" + node + ".properties");
            try (var out = Files.newBufferedWriter(config)) {
                p.store(out, "jolt-stream test broker");
            }
            String[] format = node == 1
                    ? new String[] {"format", "--standalone", "-t", clusterId, "-c", config.toString()}
                    : new String[] {"format", "-t", clusterId, "-c", config.toString()};
            ByteArrayOutputStream formatLog = new ByteArrayOutputStream();
            if (StorageTool.execute(format, new PrintStream(formatLog, true, StandardCharsets.UTF_8)) != 0) {
                throw new IllegalStateException("kafka storage format failed: " + formatLog.toString(StandardCharsets.UTF_8));
            }
            KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(p), Time.SYSTEM);
            server.startup();
            servers.add(server);
            configs.add(p);
        }
        String bootstrap = "127.0.0.1:" + ports.get(0);
        KafkaBroker broker = new KafkaBroker(servers.get(0), new ArrayList<>(servers.subList(1, servers.size())),
                configs.subList(1, configs.size()), bootstrap, dir);
        broker.awaitReady(nodes);
        return broker;
    }

    static Properties nodeProperties(int node, int nodes, int port, int controllerPort, Path logs) {
        Properties p = new Properties();
        boolean controller = node == 1;
        p.setProperty("process.roles", controller ? "broker,controller" : "broker");
        p.setProperty("node.id", String.valueOf(node));
        p.setProperty("controller.quorum.bootstrap.servers", "127.0.0.1:" + controllerPort);
        p.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + port + (controller ? ",CONTROLLER://127.0.0.1:" + controllerPort : ""));
        p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port + (controller ? ",CONTROLLER://127.0.0.1:" + controllerPort : ""));
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("log.dirs", logs.toString());
        p.setProperty("offsets.topic.replication.factor", String.valueOf(nodes));
        p.setProperty("offsets.topic.num.partitions", "4");
        p.setProperty("transaction.state.log.replication.factor", String.valueOf(nodes));
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("transaction.state.log.num.partitions", "4");
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        p.setProperty("group.streams.initial.rebalance.delay.ms", "0");
        p.setProperty("log.cleaner.dedupe.buffer.size", "2097152");
        p.setProperty("num.partitions", "1");
        p.setProperty("auto.create.topics.enable", "false");
        return p;
    }

    /** Stops one of the broker-only nodes (2, 3, ...): its replicas leave the in-sync sets. */
    public void stopNode(int nodeId) {
        KafkaRaftServer node = others.get(nodeId - 2);
        node.shutdown();
        node.awaitShutdown();
    }

    /** Starts a stopped node again on its own log directory: its replicas catch up and rejoin. */
    public void restartNode(int nodeId) {
        KafkaRaftServer node = new KafkaRaftServer(new KafkaConfig(otherConfigs.get(nodeId - 2)), Time.SYSTEM);
        node.startup();
        others.set(nodeId - 2, node);
    }

    private void awaitReady(int nodes) throws Exception {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", bootstrap);
        try (Admin admin = Admin.create(p)) {
            Waiting.await(nodes + " brokers registered").atMost(Duration.ofSeconds(60))
                    .until(() -> admin.describeCluster().nodes().get(60, TimeUnit.SECONDS).size() >= nodes);
        }
    }

    public String bootstrapServers() {
        return bootstrap;
    }

    public Admin admin() {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", bootstrap);
        return Admin.create(p);
    }

    @Override
    public void close() {
        for (KafkaRaftServer other : others) {
            other.shutdown();
            other.awaitShutdown();
        }
        server.shutdown();
        server.awaitShutdown();
        try (var files = Files.walk(dataDir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // target/ is cleaned by the build anyway
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 0, java.net.InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }
}
