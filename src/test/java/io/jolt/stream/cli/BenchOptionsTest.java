package io.jolt.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code jolt bench}'s options, parsed without running a bench: the framework floor is on unless {@code --no-floor}. */
class BenchOptionsTest {
    @Test
    void theFloorIsOnByDefaultAndNoFloorSkipsIt() {
        assertThat(parsed().floor).isTrue();
        assertThat(parsed("--floor").floor).as("said explicitly, not toggled off").isTrue();
        assertThat(parsed("--no-floor").floor).isFalse();
    }

    @Test
    void helpSaysWhatTheFloorRunsAndHowToSkipIt() {
        CommandRun run = CommandRun.of("bench", "--help");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out().replaceAll("\\s+", " ")).contains("--[no-]floor", "the framework floor over the same records",
                "one RocksDB put, one output record", "--no-floor skips it");
    }

    private static BenchCommand parsed(String... args) {
        BenchCommand bench = new BenchCommand();
        new CommandLine(bench).parseArgs(args);
        return bench;
    }
}
