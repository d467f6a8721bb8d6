package io.jolt.stream.bench;

import java.io.PrintWriter;
import java.util.List;
import java.util.function.ToDoubleFunction;

/** The soak's figures: a line per sample, and at the end each quantity's slope (least squares) after the warm-up. */
public final class SoakReport {
    private static final double MB = 1024 * 1024;

    private SoakReport() {}

    public static void header(PrintWriter out) {
        out.printf("%8s %10s %14s %10s %10s %12s %12s %12s%n", "minute", "heap live", "resident", "rocksdb", "pinned", "state disk", "lag",
                "processed");
        out.flush();
    }

    public static void line(PrintWriter out, SoakSample s) {
        out.printf("%8.2f %7.0f MB %11.0f MB %7.0f MB %7.0f MB %9.0f MB %,12d %,12d%n", s.minutes(), s.heapAfterGcBytes() / MB,
                s.residentBytes() / MB, s.rocksDbBytes() / MB, s.rocksDbPinnedBytes() / MB, s.stateBytes() / MB, s.lag(), s.processed());
        out.flush();
    }

    /** Slopes over the samples after {@code warmUpMinutes}, per minute. */
    public static void slopes(PrintWriter out, List<SoakSample> samples, double warmUpMinutes) {
        List<SoakSample> steady = samples.stream().filter(s -> s.minutes() >= warmUpMinutes).toList();
        if (steady.size() < 3) {
            out.printf("slope: too few samples after the first %.1f min%n", warmUpMinutes);
            return;
        }
        out.printf("slope after the first %.1f min (%d samples): heap live %+.2f MB/min, resident %+.2f MB/min, rocksdb %+.2f MB/min, "
                        + "state on disk %+.1f MB/min, lag %+,.0f records/min%n", warmUpMinutes, steady.size(), slope(steady, s -> s.heapAfterGcBytes() / MB),
                slope(steady, s -> s.residentBytes() / MB), slope(steady, s -> s.rocksDbBytes() / MB), slope(steady, s -> s.stateBytes() / MB),
                slope(steady, SoakSample::lag));
    }

    /** The least-squares slope of y over minutes. */
    static double slope(List<SoakSample> samples, ToDoubleFunction<SoakSample> y) {
        double n = samples.size();
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        for (SoakSample s : samples) {
            double x = s.minutes();
            double v = y.applyAsDouble(s);
            sx += x;
            sy += v;
            sxx += x * x;
            sxy += x * v;
        }
        double denominator = n * sxx - sx * sx;
        return denominator == 0 ? 0 : (n * sxy - sx * sy) / denominator;
    }
}
