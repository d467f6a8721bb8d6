package io.jolt.stream.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A real Confluent-compatible registry: Apicurio Registry ({@code apicurio.version} of the pom, unpacked from Maven
 * Central by the build into target/apicurio), run as a separate process on 127.0.0.1 by the java
 * that runs the tests (2.6 runs on Java 17; 3.x would need 21+, which a bare machine may lack).
 * Its Confluent API lives under {@code /apis/ccompat/v7}.
 */
public final class ApicurioRegistry implements AutoCloseable {
    private final Process process;
    private final String url;

    private ApicurioRegistry(Process process, String url) {
        this.process = process;
        this.url = url;
    }

    public static ApicurioRegistry start() throws Exception {
        String version = System.getProperty("jolt.apicurio.version", "(unset: run through mvn verify)");
        Path jar = Path.of("target", "apicurio", "apicurio-registry-app-" + version + "-runner.jar").toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: the build unpacks io.apicurio:apicurio-registry-app:"
                    + version + " before integration tests");
        }
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        int port = freePort();
        int management = freePort();
        Path log = Path.of("target", "apicurio.log").toAbsolutePath();
        Process process = new ProcessBuilder(List.of(java.toString(), "-Xmx256m", "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.http.port=" + port, "-Dquarkus.management.host=127.0.0.1", "-Dquarkus.management.port=" + management,
                "-jar", jar.toString()))
                .directory(jar.getParent().toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        String base = "http://127.0.0.1:" + port + "/apis/ccompat/v7";
        HttpClient http = HttpClient.newHttpClient();
        try {
            Waiting.await("Apicurio Registry ready (see " + log + ")").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                    .ignoreExceptionsInstanceOf(IOException.class) // still starting
                    .until(() -> {
                        if (!process.isAlive()) {
                            throw new IllegalStateException("Apicurio Registry exited; see " + log);
                        }
                        return http.send(HttpRequest.newBuilder(URI.create(base + "/subjects")).GET().build(),
                                HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
                    });
        } catch (ConditionTimeoutException notReady) {
            process.destroyForcibly();
            throw notReady;
        }
        return new ApicurioRegistry(process, base);
    }

    /** The Confluent-compatible base URL. */
    public String url() {
        return url;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
