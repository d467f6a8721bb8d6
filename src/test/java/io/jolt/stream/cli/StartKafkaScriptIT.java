package io.jolt.stream.cli;

import static io.jolt.stream.testing.Waiting.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code deploy/start-kafka.sh} decides whether a broker runs by whether it answers: a broker
 * killed with SIGKILL lingers here as a zombie that {@code kill -0} calls alive, and the script
 * used to print its address and start nothing.
 */
class StartKafkaScriptIT {
    final Path home = Path.of("").toAbsolutePath();
    final Path dir = home.resolve("target/start-kafka-script-it");

    @AfterEach
    void stop() throws Exception {
        run("deploy/stop-kafka.sh", "--dir", dir.toString(), "--wipe");
    }

    @Test
    void aBrokerKilledWithSigkillIsReplacedNotReused() throws Exception {
        int port = freePort();
        int controller = freePort();
        run("deploy/stop-kafka.sh", "--dir", dir.toString(), "--wipe");
        assertThat(run("deploy/start-kafka.sh", "--port", "" + port, "--controller-port", "" + controller, "--dir", dir.toString()))
                .isEqualTo("127.0.0.1:" + port);
        long first = pid();
        ProcessHandle.of(first).orElseThrow().destroyForcibly(); // SIGKILL
        await("the killed broker stops answering").atMost(Duration.ofSeconds(30)).until(() -> !answers(port));

        assertThat(run("deploy/start-kafka.sh", "--port", "" + port, "--controller-port", "" + controller, "--dir", dir.toString()))
                .isEqualTo("127.0.0.1:" + port);
        assertThat(pid()).as("a new broker, not the dead one's pid").isNotEqualTo(first);
        assertThat(answers(port)).isTrue();
    }

    private long pid() throws IOException {
        return Long.parseLong(Files.readString(dir.resolve("broker.pid")).strip());
    }

    private String run(String... command) throws Exception {
        Process p = new ProcessBuilder(List.of(command)).directory(home.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(3, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", command) + ": " + out).isZero();
        return out;
    }

    private static boolean answers(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
