package io.jolt.stream.cli;

import java.io.PrintWriter;
import java.util.Map;

/**
 * What one {@code jolt bench} run measured, and how it is printed: the end-to-end rate beside
 * the raw verify rate of the same run, and where the timed part's CPU went.
 *
 * @param checksTimed signature and key checks the service computed in the timed part (not remembered ones)
 */
record BenchResult(Shape shape, WarmUp warmUp, long records, double seconds, double rawBefore, double rawAfter, CpuUse.Cores cores,
        long checksTimed, Map<String, Double> counters) {
    /** What ran: entries, identities, devices, stream threads, partitions. */
    record Shape(int entries, int identities, int devices, int streamThreads, int partitions) {}

    /** The untimed first part (null when the run is timed from a cold start). */
    record WarmUp(int entries, double seconds) {}

    double rate() {
        return shape.entries() / seconds;
    }

    /** The average of the raw rates before and after: the machine's speed drifts within a run. */
    double rawRate() {
        return (rawBefore + rawAfter) / 2;
    }

    void print(PrintWriter out) {
        out.printf("%njolt bench: %,d entries (%,d identities x %d devices), %d stream thread(s), %d partitions, exactly once%n",
                shape.entries(), shape.identities(), shape.devices(), shape.streamThreads(), shape.partitions());
        if (warmUp != null) {
            out.printf("  warm-up             %,d entries of other identities in %.1f s from service start (not timed)%n",
                    warmUp.entries(), warmUp.seconds());
        }
        out.printf("  end to end          %,.0f entries/s  (%,d records in %.1f s, %s to all committed)%n",
                rate(), records, seconds, warmUp != null ? "from the end of the warm-up" : "from service start");
        out.printf("  raw Ed25519 verify  %,.0f verifies/s with %d thread(s)  (BouncyCastle, same run: %,.0f before, %,.0f after)%n",
                rawRate(), shape.streamThreads(), rawBefore, rawAfter);
        out.printf("ratio: %.2f%n", rate() / rawRate());
        printCpu(out);
        StringBuilder work = new StringBuilder();
        counters.forEach((k, v) -> {
            if (v > 0) {
                work.append(String.format("%s=%,.0f ", k, v));
            }
        });
        out.printf("  processor           %s%n", work.toString().strip());
        out.flush();
    }

    private void printCpu(PrintWriter out) {
        // Each raw verify costs threads/rawRate seconds of one core: what the service's checks cost too, at best.
        double verifySeconds = shape.streamThreads() / rawRate();
        double signatureCores = checksTimed * verifySeconds / cores.seconds();
        out.printf("  cpu, timed part     service %.2f cores (stream threads %.2f, JIT %.2f), broker %s: %.2f of the machine's %d cores%n",
                cores.service(), cores.streamThreads(), cores.jit(),
                cores.broker().map(b -> String.format("%.2f", b)).orElse("not local, not counted"),
                cores.total(), Runtime.getRuntime().availableProcessors());
        out.printf("  Ed25519             %.2f cores (%,d signature and key checks x %.0f µs, the raw loop's cost): %.0f%% of the CPU used%n",
                signatureCores, checksTimed, verifySeconds * 1e6, 100 * signatureCores / cores.total());
    }
}
