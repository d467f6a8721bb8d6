package io.jolt.stream.bench;

import java.io.PrintWriter;
import java.util.List;

/**
 * What {@code jolt archive bench} measured: each way of asking, in the small archive and in the
 * large one, as the median of its repeats, and the ratio large/small (the target: at most 2 for
 * the ways that use the index).
 */
public record ArchiveBenchResult(String probe, int probeOperations, Archive small, Archive large, List<Row> rows) {
    static final double TARGET = 2.0;

    /** One archive: its operations, and how long the archive service took to index it. */
    public record Archive(long operations, double indexSeconds) {}

    /** One way of asking: milliseconds in each archive, and whether the index's target applies. */
    public record Row(String what, double smallMs, double largeMs, boolean indexed) {
        double ratio() {
            return largeMs / smallMs;
        }
    }

    public void print(PrintWriter out) {
        out.printf("archive bench: probe %s with %,d operations, spread through archives of %,d and %,d operations%n", probe, probeOperations,
                small.operations(), large.operations());
        out.printf("  index built by jolt archive serve: %,.0f ops/s (%.1f s) and %,.0f ops/s (%.1f s)%n", small.operations() / small.indexSeconds(),
                small.indexSeconds(), large.operations() / large.indexSeconds(), large.indexSeconds());
        out.printf("  %-56s %12s %12s %8s%n", "median ms", String.format("%,d ops", small.operations()), String.format("%,d ops", large.operations()),
                "ratio");
        for (Row row : rows) {
            String verdict = row.indexed() ? (row.ratio() <= TARGET ? "  (target <= 2: met)" : "  (target <= 2: MISSED)") : "  (no index)";
            out.printf("  %-56s %12.1f %12.1f %7.2fx%s%n", row.what(), row.smallMs(), row.largeMs(), row.ratio(), verdict);
        }
        out.flush();
    }

    public boolean targetMet() {
        return rows.stream().filter(Row::indexed).allMatch(r -> r.ratio() <= TARGET);
    }
}
