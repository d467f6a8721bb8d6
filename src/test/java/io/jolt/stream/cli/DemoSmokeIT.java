package io.jolt.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The README's main command, end to end, as a user runs it: the packaged jar starts a real
 * broker process from deploy/, ingests a generated workload, prints a summary that matches what
 * was generated, and leaves no process behind.
 */
class DemoSmokeIT {
    @Test
    void demoWithFiftyIdentitiesExitsZeroWithMatchingCountsAndLeavesNothingRunning() throws Exception {
        Path home = Path.of("").toAbsolutePath();
        Path jar = home.resolve("target/jolt.jar");
        assertThat(jar).exists();
        Path summary = home.resolve("target/demo-smoke-summary.json");
        Files.deleteIfExists(summary);
        ProcessBuilder builder = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toString(), "demo", "--identities", "50", "--exit-after-summary", "--http-port", "0",
                "--summary-json", summary.toString()))
                .directory(home.toFile()).redirectErrorStream(true);
        builder.environment().put("JOLT_HOME", home.toString());
        Process demo = builder.start();
        byte[] output = demo.getInputStream().readAllBytes();
        assertThat(demo.waitFor(5, TimeUnit.MINUTES)).isTrue();
        String printed = new String(output, StandardCharsets.UTF_8);
        assertThat(demo.exitValue()).as(printed).isZero();
        assertThat(printed).contains("jolt demo: summary", "curl '", "first minute after RUNNING", "/dashboard\n", "/registry\n");
        assertThat(printed).as("Kafka's expected transaction retries stay in target/jolt.log")
                .doesNotContainPattern("Error: (CONCURRENT_TRANSACTIONS|OUT_OF_ORDER_SEQUENCE_NUMBER)")
                .as("a repartition topic asked for before the group's leader created it: expected, in target/jolt.log")
                .doesNotContainPattern("-repartition=UNKNOWN_TOPIC_OR_PARTITION");
        assertThat(home.resolve("target/jolt.log")).exists();

        JsonNode s = new ObjectMapper().readTree(summary.toFile());
        JsonNode generated = s.get("generated");
        assertThat(generated.get("identities").asLong()).isEqualTo(50);
        assertThat(s.get("ingested_records").asLong())
                .isEqualTo(generated.get("entries").asLong() + generated.get("authority_records").asLong());
        JsonNode rejected = s.get("rejected_final");
        for (String planted : List.of("bad_signature", "unknown_device")) {
            assertThat(rejected.path(planted).asLong()).as(planted).isEqualTo(generated.path(planted).asLong());
        }
        assertThat(s.get("rejected_events").path("invalid_entry").asLong()).isEqualTo(generated.path("invalid_entry").asLong());
        assertThat(s.get("sample_resolve_status").asInt()).isEqualTo(200);
        assertThat(s.get("state").get("singleton_paths").asLong()).isPositive();
        assertThat(s.get("verifier").asText()).isEqualTo("native-first");

        Path brokerDir = home.resolve("target/demo-kafka");
        assertThat(brokerDir.resolve("broker.pid")).doesNotExist();
        assertThat(ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").contains(brokerDir.toString())).count())
                .as("no broker process left behind").isZero();
        assertThat(demo.descendants().count()).isZero();
    }
}
