package io.jolt.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.protocol.Vectors;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code jolt merge}: output, exit codes and warnings. */
class MergeCommandTest {
    static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS);

    @Test
    void mergesAFileToTheExpectedStateAndExitsZero() throws Exception {
        CommandRun run = CommandRun.of("merge", Vectors.bundle("appends").toString());
        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(JSON.readTree(run.out())).isEqualTo(JSON.readTree(Files.readAllBytes(Vectors.expected("appends"))));
    }

    @Test
    void readsStandardInputWithoutAFileAndKeepsUint64AboveTwoToTheSixtyThreeExact() throws Exception {
        CommandRun run = CommandRun.withStdin(Files.readAllBytes(Vectors.bundle("appends")), "merge");
        assertThat(run.exitCode()).isZero();
        BigInteger twoTo63 = BigInteger.ONE.shiftLeft(63);
        boolean sawHuge = false;
        for (JsonNode identity : JSON.readTree(run.out())) {
            for (JsonNode append : identity.get("appends")) {
                sawHuge |= append.get("created_at").bigIntegerValue().compareTo(twoTo63) > 0;
            }
        }
        assertThat(sawHuge).as("the appends vector holds created_at values above 2^63").isTrue();
        assertThat(run.out()).contains("18446744073709551615");
    }

    @Test
    void linesThatCannotBeTiedToAnIdentityAreReportedWithTheirNumberAndExitThree() throws Exception {
        String good = Files.readAllLines(Vectors.bundle("simple")).get(0);
        String bundle = good + "\n"
                + "not json\n"
                + "{\"record_type\":\"jolt.device_writer_log_entry\",\"identity\":7}\n"
                + "{\"record_type\":\"jolt.other\",\"identity\":\"x\"}\n"
                + "{\"identity\":\"a\",\"identity\":\"b\",\"record_type\":\"jolt.device_writer_log_entry\"}\n"
                + "[1,2]\n";
        byte[] bytes = (bundle + "\u00ff").getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        CommandRun run = CommandRun.withStdin(bytes, "merge");
        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(run.err()).contains("line 2:", "line 3: skipped: identity is not a string", "line 4: skipped: unknown record_type",
                "line 5: skipped: duplicate key", "line 6: skipped: not a JSON object", "line 7: skipped: malformed UTF-8");
        assertThat(JSON.readTree(run.out())).hasSize(1);
    }

    @Test
    void aMissingFileIsAUsageError(@TempDir Path dir) {
        CommandRun run = CommandRun.of("merge", dir.resolve("nope.jsonl").toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("cannot read");
    }

    @Test
    void anUnknownOptionIsAUsageError() {
        assertThat(CommandRun.of("merge", "--frobnicate").exitCode()).isEqualTo(2);
    }

    @Test
    void everyCommandHasHelp() {
        for (String[] command : new String[][] {{"merge"}, {"keygen"}, {"identity"}, {"identity", "new"}, {"authorize"}, {"revoke"}, {"write"}}) {
            String[] args = java.util.Arrays.copyOf(command, command.length + 1);
            args[command.length] = "--help";
            CommandRun run = CommandRun.of(args);
            assertThat(run.exitCode()).as(String.join(" ", command)).isZero();
            assertThat(run.out()).as(String.join(" ", command)).contains("Usage: jolt " + String.join(" ", command));
        }
    }
}
