package io.jolt.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code jolt bench} as performance.md runs it, on a small workload: the packaged jar starts its own
 * broker process, runs the entries through the service with exactly once, and prints the rate,
 * the crypto limit, the ratio on a line of its own, and where the CPU of the timed part went; then
 * the framework floor's rate over the same records and the floor ratio.
 * Figures are not asserted (the machine is shared); their presence and consistency are.
 */
class BenchSmokeIT {
    @Test
    void benchOnASmallWorkloadPrintsRateRatioCpuAccountingAndTheFloor() throws Exception {
        JarRun bench = JarRun.stdout("bench", "--entries", "3000", "--warm-up", "1500", "--threads", "2");
        String out = bench.printed();
        assertThat(bench.exitCode()).as(out).isZero();

        assertThat(out).containsPattern("jolt bench: 3,\\d{3} entries \\(100 identities x 3 devices\\), 2 stream thread\\(s\\), 4 partitions, exactly once");
        double rate = number(out, "end to end\\s+([\\d,]+) entries/s");
        double raw = number(out, "raw Ed25519 verify\\s+([\\d,]+) verifies/s");
        double ratio = number(out, "(?m)^ratio: (\\d+\\.\\d\\d)$");
        assertThat(rate).isPositive();
        assertThat(raw).isPositive();
        assertThat(ratio).isCloseTo(rate / raw, org.assertj.core.data.Offset.offset(0.006));
        // The local broker's CPU is counted, and so are the signature checks of the timed part.
        assertThat(number(out, "broker (\\d+\\.\\d\\d): ")).isPositive();
        assertThat(number(out, "Ed25519\\s+\\d+\\.\\d\\d cores \\(([\\d,]+) signature checks")).isPositive();
        assertThat(out).contains("hot-path-total=");
        // Which verifier ran, libsodium's raw rate beside BouncyCastle's, and the first minute beside the steady rate.
        assertThat(out).containsPattern("(?m)^  verifier\\s+native-first \\(");
        assertThat(number(out, "(?m)^\\s+([\\d,]+) verifies/s  \\(libsodium, same run")).isPositive();
        assertThat(number(out, "first minute\\s+([\\d,]+) records/s in the first 60 s after RUNNING")).isPositive();
        assertThat(out).containsPattern("per entry\\s+\\d+ µs of CPU: Ed25519 \\d+");
        // The floor: its rate, exactly one changelog and one output record per input record, and the ratio of the two rates.
        double floor = number(out, "framework floor\\s+[\\d,]+ records/s = ([\\d,]+) entries/s");
        assertThat(out).containsPattern("floor writes\\s+2\\.00 records, \\d+ bytes per input record  \\(output 1\\.00, \\d+ bytes, changelog 1\\.00, \\d+ bytes;");
        assertThat(number(out, "(?m)^floor ratio: (\\d+\\.\\d\\d) ")).isCloseTo(rate / floor, org.assertj.core.data.Offset.offset(0.006));
    }

    private static double number(String out, String regex) {
        Matcher m = Pattern.compile(regex).matcher(out);
        assertThat(m.find()).as(regex + " in:\n" + out).isTrue();
        return Double.parseDouble(m.group(1).replace(",", ""));
    }
}
