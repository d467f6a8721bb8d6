package io.jolt.stream.bench;

import io.jolt.stream.local.CpuUse;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * What the framework floor measured ({@link FrameworkFloor}): its timed part, over the records of
 * the service's timed part, the CPU it used then, and what its whole run (warm-up and timed part,
 * {@code recordsIn} records) wrote. Printed beside the service's result as the floor ratio: the
 * service's entries/s over the floor's, that is the floor's seconds over the service's for the same
 * records (authority records and entries alike, each one record to both).
 */
public record FloorResult(long records, double seconds, CpuUse.Cores cores, List<TopicWrites.Written> writes, long recordsIn) {
    double recordsPerSecond() {
        return records / seconds;
    }

    /** Prints the floor's rows after {@code ours}, the service's result of the same run. */
    public void print(PrintWriter out, BenchResult ours) {
        double entriesPerSecond = ours.shape().entries() / seconds;
        out.printf("  framework floor     %,.0f records/s = %,.0f entries/s  (%,d records in %.1f s, %s to all committed:"
                + " each decoded, put once in RocksDB, sent once)%n", recordsPerSecond(), entriesPerSecond, records, seconds,
                ours.warmUp() != null ? "from the end of its warm-up" : "from its start");
        out.printf("                      cpu then: service %.2f cores (stream threads %.2f), broker %s: %.0f µs per record%n", cores.service(),
                cores.streamThreads(), cores.broker().map(b -> String.format("%.2f", b)).orElse("not counted"),
                cores.total() * cores.seconds() / records * 1e6);
        printWrites(out);
        out.printf("floor ratio: %.2f  (end to end %,.0f entries/s over the floor's %,.0f; target >= 0.5)%n", ours.rate() / entriesPerSecond,
                ours.rate(), entriesPerSecond);
        out.flush();
    }

    /** Per input record, by kind of topic (a changelog and an output: one record each if the floor is what it says). */
    private void printWrites(PrintWriter out) {
        StringBuilder byKind = new StringBuilder();
        long totalRecords = 0;
        long totalBytes = 0;
        for (TopicWrites.Kind kind : TopicWrites.Kind.values()) {
            // The floor reads the inputs and the service's topics lie idle: only the kinds it wrote are shown.
            List<TopicWrites.Written> of = writes.stream().filter(w -> w.kind() == kind && w.records() > 0).toList();
            if (kind != TopicWrites.Kind.INPUT && !of.isEmpty()) {
                long kindRecords = of.stream().mapToLong(TopicWrites.Written::records).sum();
                long kindBytes = of.stream().mapToLong(TopicWrites.Written::bytes).filter(n -> n >= 0).sum();
                byKind.append(byKind.isEmpty() ? "" : ", ").append(String.format("%s %.2f, %.0f bytes", kind.name().toLowerCase(Locale.ROOT),
                        (double) kindRecords / recordsIn, (double) kindBytes / recordsIn));
                totalRecords += kindRecords;
                totalBytes += kindBytes;
            }
        }
        out.printf("  floor writes        %.2f records, %.0f bytes per input record  (%s; whole floor run: %,d records in)%n",
                (double) totalRecords / recordsIn, (double) totalBytes / recordsIn, byKind, recordsIn);
    }
}
