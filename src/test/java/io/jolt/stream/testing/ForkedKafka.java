package io.jolt.stream.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.common.Uuid;

/**
 * Real Apache Kafka brokers (KRaft), each in a JVM of its own ({@code kafka.Kafka} from the test
 * classpath), so that a test can kill one with SIGKILL, as a crash or a lost machine would, and
 * start it again on its own log directory. Node 1 is broker and controller, the others brokers
 * only; with three nodes every topic's replicas must number 3 with {@code min.insync.replicas=2}.
 */
public final class ForkedKafka implements AutoCloseable {
    private final Path dir;
    private final List<Node> nodes;

    /** One broker: its properties file, its port, and its JVM while it runs. */
    private static final class Node {
        final int id;
        final int port;
        final Path config;
        Process process;

        Node(int id, int port, Path config) {
            this.id = id;
            this.port = port;
            this.config = config;
        }
    }

    private ForkedKafka(Path dir, List<Node> nodes) {
        this.dir = dir;
        this.nodes = nodes;
    }

    public static ForkedKafka start(int count) throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "forked-kafka-");
        int controllerPort = KafkaBroker.freePort();
        String clusterId = Uuid.randomUuid().toString();
        List<Node> nodes = new ArrayList<>();
        for (int id = 1; id <= count; id++) {
            Properties p = KafkaBroker.nodeProperties(id, count, KafkaBroker.freePort(), controllerPort, dir.resolve("node-" + id));
            if (count >= 3) {
                p.setProperty("min.insync.replicas", "2");
                p.setProperty("transaction.state.log.min.isr", "2");
                p.setProperty("default.replication.factor", String.valueOf(count));
            }
            Path config = dir.resolve("server-" + id + ".properties");
            try (var out = Files.newBufferedWriter(config)) {
                p.store(out, "jolt-stream forked test broker");
            }
            format(id == 1, clusterId, config);
            int port = Integer.parseInt(p.getProperty("listeners").replaceAll("^PLAINTEXT://127.0.0.1:(\\d+).*$", "$1"));
            nodes.add(new Node(id, port, config));
        }
        ForkedKafka cluster = new ForkedKafka(dir, nodes);
        for (Node node : nodes) {
            cluster.launch(node);
        }
        for (Node node : nodes) {
            cluster.awaitAnswering(node);
        }
        return cluster;
    }

    private static void format(boolean controller, String clusterId, Path config) {
        String[] args = controller
                ? new String[] {"format", "--standalone", "-t", clusterId, "-c", config.toString()}
                : new String[] {"format", "-t", clusterId, "-c", config.toString()};
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        if (StorageTool.execute(args, new PrintStream(log, true, StandardCharsets.UTF_8)) != 0) {
            throw new IllegalStateException("kafka storage format failed: " + log.toString(StandardCharsets.UTF_8));
        }
    }

    private void launch(Node node) throws IOException {
        Path log = dir.resolve("node-" + node.id + ".log");
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), "kafka.Kafka", node.config.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        node.process = builder.start();
    }

    private void awaitAnswering(Node node) throws Exception {
        Waiting.await("broker " + node.id + " opened port " + node.port).atMost(Duration.ofSeconds(90)).until(() -> {
            if (!node.process.isAlive()) {
                throw new IllegalStateException("broker " + node.id + " exited; see " + dir.resolve("node-" + node.id + ".log"));
            }
            return answers(node.port);
        });
    }

    private static boolean answers(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Every node's address: clients find the cluster through whichever still answers. */
    public String bootstrapServers() {
        return nodes.stream().map(n -> "127.0.0.1:" + n.port).collect(Collectors.joining(","));
    }

    /**
     * SIGKILL: no clean shutdown, no flush of its logs beyond what the OS has. With other brokers
     * left, returns once the controller has moved every partition's leadership off the dead one
     * (after its session times out), as a client that waits for the cluster to heal would:
     * producing into the election has left a fresh idempotent producer retrying
     * OUT_OF_ORDER_SEQUENCE_NUMBER until its batches expired (seen here, 120 s), a client matter.
     */
    public void kill(int id) throws Exception {
        Node node = nodes.get(id - 1);
        node.process.destroyForcibly();
        if (!node.process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("broker " + id + " did not die within 30 s of SIGKILL");
        }
        if (nodes.size() > 1) {
            awaitNoLeadership(id);
        }
    }

    private void awaitNoLeadership(int id) throws Exception {
        try (Admin admin = admin()) {
            Waiting.await("no partition led by the dead broker " + id).atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250)).until(() -> {
                Set<String> topics = admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get(30, TimeUnit.SECONDS);
                return admin.describeTopics(topics).allTopicNames().get(30, TimeUnit.SECONDS).values().stream()
                        .flatMap(t -> t.partitions().stream())
                        .noneMatch(p -> p.leader() != null ? p.leader().id() == id : p.replicas().stream().anyMatch(r -> r.id() != id));
            });
        }
    }

    /** Starts a killed node again on its own log directory. */
    public void restart(int id) throws Exception {
        Node node = nodes.get(id - 1);
        if (node.process.isAlive()) {
            throw new IllegalStateException("broker " + id + " is running");
        }
        launch(node);
        awaitAnswering(node);
    }

    public Admin admin() {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", bootstrapServers());
        return Admin.create(p);
    }

    @Override
    public void close() throws InterruptedException {
        for (Node node : nodes) {
            if (node.process != null) {
                node.process.destroyForcibly();
                node.process.waitFor(30, TimeUnit.SECONDS);
            }
        }
        try (var files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // target/ is cleaned by the build anyway
        }
    }
}
