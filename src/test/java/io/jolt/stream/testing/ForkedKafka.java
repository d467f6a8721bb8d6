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
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.common.Uuid;

/**
 * Real Apache Kafka brokers (KRaft), each in a JVM of its own ({@code kafka.Kafka} from the test
 * classpath), so that a test can kill one with SIGKILL, as a crash or a lost machine would,
 * pause it with SIGSTOP, and start it again on its own log directory. On loopback
 * ({@link #start}) node 1 is broker and controller, the others brokers only; on hosts of their
 * own ({@link #onHosts}) every node is both, a quorum that outlives any one node. With three
 * nodes every topic's replicas must number 3 with {@code min.insync.replicas=2}.
 */
public final class ForkedKafka implements AutoCloseable {
    /** The ports of a node on a host of its own: the host's address tells the nodes apart. */
    public static final int HOST_BROKER_PORT = 9092;
    public static final int HOST_CONTROLLER_PORT = 9093;

    private final Path dir;
    private final List<Node> nodes;

    /** One broker: its properties file, its address, how its JVM is launched (on which host), and that JVM while it runs. */
    private static final class Node {
        final int id;
        final String address;
        final int port;
        final Path config;
        final UnaryOperator<List<String>> launcher;
        Process process;

        Node(int id, String address, int port, Path config, UnaryOperator<List<String>> launcher) {
            this.id = id;
            this.address = address;
            this.port = port;
            this.config = config;
            this.launcher = launcher;
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
            replicated(p, count);
            Path config = write(dir, id, p);
            format(id == 1, clusterId, config);
            int port = Integer.parseInt(p.getProperty("listeners").replaceAll("^PLAINTEXT://127.0.0.1:(\\d+).*$", "$1"));
            nodes.add(new Node(id, "127.0.0.1", port, config, UnaryOperator.identity()));
        }
        ForkedKafka cluster = new ForkedKafka(dir, nodes);
        cluster.launchAll();
        return cluster;
    }

    /**
     * One node on each host, each broker and controller, listening on its host's address
     * ({@value #HOST_BROKER_PORT}, controller {@value #HOST_CONTROLLER_PORT}), its JVM launched
     * inside the host's namespace. The voters are static ({@code controller.quorum.voters}), every
     * node formatted with the same cluster id and no {@code --standalone}: a node killed or cut
     * off leaves the others a majority. Returns once every node is registered as a broker.
     */
    public static ForkedKafka onHosts(TestHosts hosts, List<TestHosts.Host> on) throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "forked-kafka-hosts-");
        String clusterId = Uuid.randomUuid().toString();
        String voters = IntStream.rangeClosed(1, on.size()).mapToObj(id -> id + "@" + on.get(id - 1).address() + ":" + HOST_CONTROLLER_PORT)
                .collect(Collectors.joining(","));
        List<Node> nodes = new ArrayList<>();
        for (int id = 1; id <= on.size(); id++) {
            TestHosts.Host host = on.get(id - 1);
            Properties p = KafkaBroker.nodeProperties(id, on.size(), HOST_BROKER_PORT, HOST_CONTROLLER_PORT, dir.resolve("node-" + id));
            String listeners = "PLAINTEXT://" + host.address() + ":" + HOST_BROKER_PORT + ",CONTROLLER://" + host.address() + ":" + HOST_CONTROLLER_PORT;
            p.setProperty("process.roles", "broker,controller");
            p.remove("controller.quorum.bootstrap.servers");
            p.setProperty("controller.quorum.voters", voters);
            p.setProperty("listeners", listeners);
            p.setProperty("advertised.listeners", listeners);
            replicated(p, on.size());
            Path config = write(dir, id, p);
            format(false, clusterId, config);
            nodes.add(new Node(id, host.address(), HOST_BROKER_PORT, config, argv -> hosts.command(host, argv)));
        }
        ForkedKafka cluster = new ForkedKafka(dir, nodes);
        cluster.launchAll();
        cluster.awaitRegistered();
        return cluster;
    }

    /** With three nodes or more: three replicas of everything, two of them in sync for a write. */
    private static void replicated(Properties p, int count) {
        if (count >= 3) {
            p.setProperty("min.insync.replicas", "2");
            p.setProperty("transaction.state.log.min.isr", "2");
            p.setProperty("default.replication.factor", String.valueOf(count));
        }
    }

    private static Path write(Path dir, int id, Properties p) throws IOException {
        Path config = dir.resolve("server-" + id + ".properties");
        try (var out = Files.newBufferedWriter(config)) {
            p.store(out, "jolt-stream forked test broker");
        }
        return config;
    }

    private void launchAll() throws Exception {
        for (Node node : nodes) {
            launch(node);
        }
        for (Node node : nodes) {
            awaitAnswering(node);
        }
    }

    /** Until every node is registered as a broker: a topic with a replica on each can then be created. */
    private void awaitRegistered() throws Exception {
        try (Admin admin = admin()) {
            Waiting.await(nodes.size() + " brokers registered").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                    .until(() -> admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size() == nodes.size());
        }
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
        ProcessBuilder builder = new ProcessBuilder(node.launcher.apply(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), "kafka.Kafka", node.config.toString())))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        node.process = builder.start();
    }

    private void awaitAnswering(Node node) throws Exception {
        Waiting.await("broker " + node.id + " opened " + node.address + ":" + node.port).atMost(Duration.ofSeconds(90)).until(() -> {
            if (!node.process.isAlive()) {
                throw new IllegalStateException("broker " + node.id + " exited; see " + dir.resolve("node-" + node.id + ".log"));
            }
            return answers(node.address, node.port);
        });
    }

    private static boolean answers(String address, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(address, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Every node's address: clients find the cluster through whichever still answers. */
    public String bootstrapServers() {
        return nodes.stream().map(n -> n.address + ":" + n.port).collect(Collectors.joining(","));
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

    /** The pid of the node's JVM (its latest, after a restart). */
    public long pid(int id) {
        return nodes.get(id - 1).process.pid();
    }

    /** SIGSTOP: the node stops answering, its connections open, as in a long GC pause or a frozen VM. */
    public void pause(int id) throws IOException {
        TestHosts.pause(pid(id));
    }

    public void resume(int id) throws IOException {
        TestHosts.resume(pid(id));
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
