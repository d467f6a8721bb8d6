package io.jolt.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.service.JoltSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code jolt config reference}: the table of operations.md, printed; and a bad setting stops {@code jolt run} in one line. */
class ConfigCommandTest {
    @Test
    void theReferenceIsTheGeneratedTable() {
        // when
        CommandRun run = CommandRun.of("config", "reference");
        // expect
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo(JoltSettings.markdownTable());
    }

    @Test
    void aMisspeltSettingStopsTheRunNamingTheNearestOne() throws Exception {
        // given a file with a misspelt key
        Path file = Files.createTempFile("jolt-config", ".properties");
        try {
            Files.writeString(file, "bootstrap.servers=127.0.0.1:1\njolt.live.held.maxx=5\n");
            // when
            CommandRun run = CommandRun.of("run", "--config", file.toString());
            // expect one line naming the key meant, before anything connects
            assertThat(run.exitCode()).isEqualTo(1);
            assertThat(run.err()).isEqualTo("jolt run: unknown setting jolt.live.held.maxx; did you mean jolt.live.held.max?" + System.lineSeparator());
        } finally {
            Files.delete(file);
        }
    }
}
