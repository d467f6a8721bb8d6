package io.jolt.stream.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * in this JVM, from the Maven Central artifacts. Never a mock.
 */
public final class KafkaBroker implements AutoCloseable {
    private final KafkaRaftServer server;
    private final String bootstrap;
    private final Path dataDir;

    private KafkaBroker(KafkaRaftServer server, String bootstrap, Path dataDir) {
        this.server = server;
        this.bootstrap = bootstrap;
        this.dataDir = dataDir;
    }

    public static KafkaBroker start() throws Exception {
        int port = freePort();
        int controllerPort = freePort();
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "kafka-broker-");
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", "1");
        p.setProperty("controller.quorum.bootstrap.servers", "127.0.0.1:" + controllerPort);
        p.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("log.dirs", dir.resolve("logs").toString());
        p.setProperty("offsets.topic.replication.factor", "1");
        p.setProperty("offsets.topic.num.partitions", "4");
        p.setProperty("transaction.state.log.replication.factor", "1");
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("transaction.state.log.num.partitions", "4");
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        p.setProperty("group.streams.initial.rebalance.delay.ms", "0");
        p.setProperty("log.cleaner.dedupe.buffer.size", "2097152");
        p.setProperty("num.partitions", "1");
        p.setProperty("auto.create.topics.enable", "false");
        Path config = dir.resolve("server.properties");
        try (var out = Files.newBufferedWriter(config)) {
            p.store(out, "jolt-stream test broker");
        }
        ByteArrayOutputStream formatLog = new ByteArrayOutputStream();
        int formatted = StorageTool.execute(new String[] {"format", "--standalone", "-t", Uuid.randomUuid().toString(), "-c", config.toString()},
                new PrintStream(formatLog, true, StandardCharsets.UTF_8));
        if (formatted != 0) {
            throw new IllegalStateException("kafka storage format failed: " + formatLog.toString(StandardCharsets.UTF_8));
        }
        KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(p), Time.SYSTEM);
        server.startup();
        KafkaBroker broker = new KafkaBroker(server, "127.0.0.1:" + port, dir);
        broker.awaitReady();
        return broker;
    }

    private void awaitReady() throws Exception {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", bootstrap);
        try (Admin admin = Admin.create(p)) {
            admin.describeCluster().nodes().get(60, TimeUnit.SECONDS);
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
        server.shutdown();
        server.awaitShutdown();
        try (var files = Files.walk(dataDir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // target/ is cleaned by the build anyway
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 0, java.net.InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }
}
