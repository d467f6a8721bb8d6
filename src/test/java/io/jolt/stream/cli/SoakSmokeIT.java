package io.jolt.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code jolt soak}, short: the packaged jar offers a fixed rate to its own broker and service for
 * half a minute, prints a sample line every few seconds and the slopes at the end, and sends
 * every record (none refused twice). Figures are not asserted; the 20-minute run's are in testing.md.
 */
class SoakSmokeIT {
    @Test
    void aShortSoakPrintsSamplesAndSlopes() throws Exception {
        JarRun soak = JarRun.stdout("soak", "--minutes", "0.5", "--rate", "500", "--sample-seconds", "3", "--warm-up-minutes", "0.1", "--threads", "1");
        String out = soak.printed();
        assertThat(soak.exitCode()).as(out).isZero();

        assertThat(out).contains("jolt soak: 500 records/s offered for 0.5 min");
        assertThat(Pattern.compile("(?m)^\\s+\\d+\\.\\d\\d\\s+\\d+ MB\\s+\\d+ MB\\s+\\d+ MB\\s+\\d+ MB\\s+\\d+ MB\\s+[\\d,]+\\s+[\\d,]+$").matcher(out).results().count())
                .as(out).isGreaterThanOrEqualTo(5);
        assertThat(out).containsPattern("slope after the first 0\\.1 min \\(\\d+ samples\\): heap live [+-]\\d+\\.\\d\\d MB/min, resident "
                + "[+-]\\d+\\.\\d\\d MB/min, rocksdb [+-]\\d+\\.\\d\\d MB/min, state on disk [+-]\\d+\\.\\d MB/min, lag [+-][\\d,]+ records/min");
        assertThat(out).containsPattern("sent [\\d,]+ \\(0 sent again after a refusal\\)");
    }
}
