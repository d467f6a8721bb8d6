package io.jolt.stream.testing;

import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.service.JoltNode;
import java.io.IOException;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * {@code jolt run} in a JVM of its own, as an operator runs it, so that a test can kill it with
 * SIGKILL (no shutdown hook, no flush, no clean close) or stop it with SIGTERM (the clean close).
 * Its console goes to {@code target/<name>.log}, its full log to {@code target/<name>-full.log}.
 * On loopback by default; {@link #onHost} runs it on a host of a multi-host test instead.
 */
public final class ForkedService {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** Every process started, so that one a failed test left running can be ended before it touches the next test's topics. */
    private static final Set<Process> STARTED = ConcurrentHashMap.newKeySet();

    /** The HTTP port of a service on a host of its own: the host's address tells instances apart. */
    public static final int HOST_HTTP_PORT = 8080;
    private static final List<String> RUN = List.of("io.jolt.stream.cli.JoltCommand", "run");

    private final String name;
    private final String httpHost;
    private final int httpPort;
    private final Process process;

    private ForkedService(String name, String httpHost, int httpPort, Process process) {
        this.name = name;
        this.httpHost = httpHost;
        this.httpPort = httpPort;
        this.process = process;
    }

    /** The service's settings: what every test gives, plus its own ({@code jolt.*}, streams, bolt producer). */
    public record Settings(String bootstrap, String applicationId, Path stateDir, int partitions, Map<String, String> extra, List<String> jvm) {
        public Settings with(Map<String, String> more) {
            Map<String, String> all = new java.util.HashMap<>(extra);
            all.putAll(more);
            return new Settings(bootstrap, applicationId, stateDir, partitions, all, jvm);
        }

        public Settings withJvm(List<String> options) {
            return new Settings(bootstrap, applicationId, stateDir, partitions, extra, List.copyOf(options));
        }

        public Settings onStateDir(Path dir) {
            return new Settings(bootstrap, applicationId, dir, partitions, extra, jvm);
        }
    }

    public static Settings settings(String bootstrap, String applicationId, Path stateDir, int partitions) {
        return new Settings(bootstrap, applicationId, stateDir, partitions, Map.of(), List.of());
    }

    public static ForkedService start(String name, Settings settings) throws IOException {
        return start(name, settings, RUN, "127.0.0.1", KafkaBroker.freePort(), UnaryOperator.identity());
    }

    /**
     * {@code jolt run} inside the host's namespace, its HTTP API on the host's address, port
     * {@value #HOST_HTTP_PORT}: that is its {@code application.server} too, where its peers and
     * the client reach it.
     */
    public static ForkedService onHost(TestHosts hosts, TestHosts.Host host, String name, Settings settings) throws IOException {
        return start(name, settings, RUN, host.address(), HOST_HTTP_PORT, argv -> hosts.command(host, argv));
    }

    /**
     * Another entry point than {@code jolt run}, given {@code --config FILE} as {@code jolt run}
     * is: a test's variant of the service (it has no HTTP API unless it starts one).
     */
    public static ForkedService start(String name, Settings settings, Class<?> main) throws IOException {
        return start(name, settings, List.of(main.getName()), "127.0.0.1", KafkaBroker.freePort(), UnaryOperator.identity());
    }

    private static ForkedService start(String name, Settings settings, List<String> main, String host, int port,
            UnaryOperator<List<String>> launcher) throws IOException {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", settings.bootstrap());
        p.setProperty("application.id", settings.applicationId());
        p.setProperty("state.dir", settings.stateDir().toString());
        p.setProperty("num.stream.threads", "1");
        p.setProperty("auto.offset.reset", "earliest");
        p.setProperty(JoltConfig.TOPIC_PARTITIONS, String.valueOf(settings.partitions()));
        p.setProperty(JoltNode.HTTP_HOST, host);
        p.setProperty(JoltNode.HTTP_PORT, String.valueOf(port));
        settings.extra().forEach(p::setProperty);
        Path config = Files.createTempFile(Path.of("target").toAbsolutePath(), name, ".properties");
        try (Writer out = Files.newBufferedWriter(config)) {
            p.store(out, "ForkedService " + name);
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g"));
        command.addAll(settings.jvm());
        command.addAll(List.of("-cp", System.getProperty("java.class.path")));
        command.addAll(main);
        command.addAll(List.of("--config", config.toString()));
        Path log = Path.of("target", name + ".log").toAbsolutePath();
        ProcessBuilder builder = new ProcessBuilder(launcher.apply(command)).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().put("JOLT_LOG_FILE", log.resolveSibling(name + "-full.log").toString());
        Process process = builder.start();
        STARTED.add(process);
        return new ForkedService(name, host, port, process);
    }

    public String baseUrl() {
        return "http://" + httpHost + ":" + httpPort;
    }

    /** Waits until {@code /health} says RUNNING. */
    public ForkedService awaitRunning(Duration timeout) throws Exception {
        Waiting.await(name + " RUNNING (see target/" + name + ".log)").atMost(timeout).pollInterval(Duration.ofMillis(200)).until(() -> {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited (" + process.exitValue() + "); see target/" + name + ".log");
            }
            return status("/health") == 200;
        });
        return this;
    }

    /** The HTTP status of a GET, or -1 when nothing answers. */
    public int status(String path) {
        try {
            return get(path).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl() + path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    public HttpResponse<String> post(String path, byte[] body) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl() + path)).timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** SIGKILL, as a crash, an OOM kill or a lost machine would end it. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException(name + " did not die within 30 s of SIGKILL");
        }
    }

    /** SIGTERM: the shutdown hook closes the service cleanly (its stores, its producers, its group membership). */
    public void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(name + " did not stop within 90 s of SIGTERM; killed");
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL to every service process still running; returns how many there were. */
    public static int killLeftovers() throws InterruptedException {
        int killed = 0;
        for (Process p : STARTED) {
            if (p.isAlive()) {
                p.destroyForcibly();
                p.waitFor(30, TimeUnit.SECONDS);
                killed++;
            }
            STARTED.remove(p);
        }
        return killed;
    }

    public long pid() {
        return process.pid();
    }

    /** SIGSTOP: it answers nothing, not even its heartbeats, until {@link #resume}; as in a long GC pause or a frozen VM. */
    public void pause() throws IOException {
        TestHosts.pause(pid());
    }

    public void resume() throws IOException {
        TestHosts.resume(pid());
    }
}
