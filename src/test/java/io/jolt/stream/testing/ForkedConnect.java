package io.jolt.stream.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A real Kafka Connect 4.4.0 worker (distributed, exactly-once source support enabled) in a JVM of
 * its own, started by {@code deploy/start-connect.sh} as an operator starts it, with a plugin
 * directory on its {@code plugin.path}: the worker's Jetty 12 never meets the service's Jetty 11.
 * A test talks to its REST API, reads its plugin metrics over JMX, and can kill it with SIGKILL.
 */
public final class ForkedConnect implements AutoCloseable {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String bootstrap;
    private final Path dir;
    private final Path pluginPath;
    private final int port;
    private final int jmxPort;
    private String url;

    private ForkedConnect(String bootstrap, Path dir, Path pluginPath, int port, int jmxPort) {
        this.bootstrap = bootstrap;
        this.dir = dir;
        this.pluginPath = pluginPath;
        this.port = port;
        this.jmxPort = jmxPort;
    }

    public static ForkedConnect start(String bootstrap, Path dir, Path pluginPath) throws Exception {
        ForkedConnect worker = new ForkedConnect(bootstrap, dir, pluginPath, KafkaBroker.freePort(), KafkaBroker.freePort());
        worker.url = worker.launch();
        return worker;
    }

    private String launch() throws Exception {
        List<String> command = new ArrayList<>(List.of(script("start-connect.sh"), "--bootstrap", bootstrap, "--port", String.valueOf(port),
                "--dir", dir.toString(), "--plugin-path", pluginPath.toString()));
        for (String option : List.of("-Dcom.sun.management.jmxremote.port=" + jmxPort, "-Dcom.sun.management.jmxremote.rmi.port=" + jmxPort,
                "-Dcom.sun.management.jmxremote.authenticate=false", "-Dcom.sun.management.jmxremote.ssl=false",
                "-Dcom.sun.management.jmxremote.host=127.0.0.1", "-Djava.rmi.server.hostname=127.0.0.1")) {
            command.add("--jvm-option");
            command.add(option);
        }
        return run(command).strip();
    }

    /** The packaged plugin directory the build made (target/jolt-stream-*-connect-plugin). */
    public static Path packagedPlugin() throws IOException {
        try (var dirs = Files.list(Path.of("target").toAbsolutePath())) {
            return dirs.filter(p -> p.getFileName().toString().matches("jolt-stream-.*-connect-plugin") && Files.isDirectory(p)).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no target/jolt-stream-*-connect-plugin: run mvn package first"));
        }
    }

    public String url() {
        return url;
    }

    public Path log() {
        return dir.resolve("worker.log");
    }

    /** SIGKILL: no task stops, no offset flush, no transaction ends cleanly. */
    public void kill() throws Exception {
        ProcessHandle worker = ProcessHandle.of(Long.parseLong(Files.readString(dir.resolve("worker.pid")).strip())).orElseThrow();
        worker.destroyForcibly();
        worker.onExit().get(30, TimeUnit.SECONDS);
    }

    /** Starts the worker again on the same group and internal topics (after {@link #kill}). */
    public void restart() throws Exception {
        url = launch();
    }

    public JsonNode get(String path) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(url + path)).GET(), path);
    }

    public JsonNode put(String path, Object body) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(url + path)).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))), path);
    }

    private JsonNode send(HttpRequest.Builder request, String path) throws Exception {
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException(path + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body().isEmpty() ? JSON.nullNode() : JSON.readTree(response.body());
    }

    /** The sum of a plugin metric over the connector's tasks (KIP-877: kafka.connect:type=plugins,connector=..,task=..). */
    public long pluginMetric(String connector, String name, String reason) throws Exception {
        try (JMXConnector jmx = JMXConnectorFactory.connect(new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + jmxPort + "/jmxrmi"))) {
            MBeanServerConnection server = jmx.getMBeanServerConnection();
            Set<ObjectName> names = server.queryNames(new ObjectName("kafka.connect:type=plugins,connector=" + connector + ",*"), null);
            long sum = 0;
            for (ObjectName n : names) {
                if (n.getKeyProperty("task") == null || (reason == null) != (n.getKeyProperty("reason") == null)
                        || reason != null && !reason.equals(n.getKeyProperty("reason"))) {
                    continue;
                }
                for (var attribute : server.getMBeanInfo(n).getAttributes()) {
                    if (attribute.getName().equals(name)) {
                        sum += ((Number) server.getAttribute(n, name)).longValue();
                    }
                }
            }
            return sum;
        }
    }

    @Override
    public void close() throws Exception {
        run(List.of(script("stop-connect.sh"), "--dir", dir.toString()));
    }

    private static String script(String name) {
        return Path.of("deploy", name).toAbsolutePath().toString();
    }

    private static String run(List<String> command) throws Exception {
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed (exit " + process.exitValue() + ")");
        }
        return out;
    }
}
