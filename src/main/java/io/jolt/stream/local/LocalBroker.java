package io.jolt.stream.local;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real local Kafka broker run by {@code deploy/start-kafka.sh} (a separate process, from the
 * Maven Central jars) and stopped, with its data, by {@code deploy/stop-kafka.sh}.
 */
public final class LocalBroker implements AutoCloseable {
    private final Path home;
    private final Path dir;
    private final String bootstrap;

    private LocalBroker(Path home, Path dir, String bootstrap) {
        this.home = home;
        this.dir = dir;
        this.bootstrap = bootstrap;
    }

    /** The repository root: JOLT_HOME (set by ./jolt), else the working directory. */
    public static Path home() {
        String env = System.getenv("JOLT_HOME");
        Path home = env != null ? Path.of(env) : Path.of("").toAbsolutePath();
        if (!Files.isRegularFile(home.resolve("deploy/start-kafka.sh"))) {
            throw new IllegalStateException("deploy/start-kafka.sh not found under " + home + " (run through ./jolt, or pass --bootstrap)");
        }
        return home;
    }

    static LocalBroker start(String name) throws IOException, InterruptedException {
        Path home = home();
        Path dir = home.resolve("target").resolve(name + "-kafka");
        run(home, List.of(home.resolve("deploy/stop-kafka.sh").toString(), "--dir", dir.toString(), "--wipe"), null);
        int port = freePort();
        int controllerPort = freePort();
        String out = run(home, List.of(home.resolve("deploy/start-kafka.sh").toString(), "--port", String.valueOf(port),
                "--controller-port", String.valueOf(controllerPort), "--dir", dir.toString()), "starting a local Kafka broker");
        return new LocalBroker(home, dir, out.strip());
    }

    String bootstrapServers() {
        return bootstrap;
    }

    /** The broker's process, as deploy/start-kafka.sh recorded it. */
    Optional<ProcessHandle> process() {
        try {
            return ProcessHandle.of(Long.parseLong(Files.readString(dir.resolve("broker.pid")).strip()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    @Override
    public void close() {
        try {
            run(home, List.of(home.resolve("deploy/stop-kafka.sh").toString(), "--dir", dir.toString(), "--wipe"), null);
        } catch (IOException | InterruptedException e) {
            System.err.println("jolt: could not stop the local broker: " + e.getMessage() + " (deploy/stop-kafka.sh --dir " + dir + ")");
        }
    }

    private static String run(Path home, List<String> command, String what) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).directory(home.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new IOException((what == null ? String.join(" ", command) : what) + " failed (exit " + process.exitValue() + ")");
        }
        return out;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
