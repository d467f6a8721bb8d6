package io.jolt.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code jolt archive bench} as performance.md runs it, on a small workload: the packaged jar starts
 * its own broker, archives a workload, writes it as it is and ten times larger, indexes both with
 * an archive service (whose answers it checks against a replay first) and prints the table.
 * Figures are not asserted (the machine is shared); every row, and an exit code that says
 * whether a target was missed, are.
 */
class ArchiveBenchSmokeIT {
    private static final List<String> ROWS = List.of("archive service: history", "archive service: state as of an offset",
            "archive service: state as of a time", "jolt replay --archive-service: history", "jolt replay --archive-service: state --until-time",
            "jolt replay (the key's partition): history", "jolt replay (the key's partition): state --until-time",
            "full scan (every partition, the old replay): history");

    @Test
    void archiveBenchOnASmallWorkloadPrintsEveryQuestionsMediansAndRatio() throws Exception {
        JarRun bench = JarRun.stdout("archive", "bench", "--entries", "2000", "--scale", "10", "--repeat", "3");
        String out = bench.printed();

        Matcher probe = Pattern.compile("probe (jolt1\\S+) with (\\d+) operations, spread through archives of ([\\d,]+) and ([\\d,]+) operations")
                .matcher(out);
        assertThat(probe.find()).as(out).isTrue();
        assertThat(number(probe.group(4))).isEqualTo(10 * number(probe.group(3)));
        for (String row : ROWS) {
            Matcher m = Pattern.compile(Pattern.quote(row) + "\\s+([\\d,.]+)\\s+([\\d,.]+)\\s+(\\d+\\.\\d\\d)x").matcher(out);
            assertThat(m.find()).as(row + " in:\n" + out).isTrue();
            assertThat(number(m.group(1))).as(row).isPositive();
            assertThat(number(m.group(3))).as(row).isBetween(lowestRatio(m), highestRatio(m));
        }
        // Exit code 1 means a target was missed, and then the table says which; anything else is a failure.
        assertThat(bench.exitCode()).as(out).isEqualTo(out.contains("MISSED") ? 1 : 0);
    }

    /*
     * The ratio is of the unrounded medians, which the table shows to 0.1 ms (each up to 0.05 ms
     * off), and is itself shown to 0.01 (up to 0.005 off): it must lie within what those allow.
     */
    private static double lowestRatio(Matcher row) {
        return (number(row.group(2)) - 0.05) / (number(row.group(1)) + 0.05) - 0.005;
    }

    private static double highestRatio(Matcher row) {
        return (number(row.group(2)) + 0.05) / (number(row.group(1)) - 0.05) + 0.005;
    }

    private static double number(String s) {
        return Double.parseDouble(s.replace(",", ""));
    }
}
