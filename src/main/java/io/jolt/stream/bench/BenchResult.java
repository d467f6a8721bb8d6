package io.jolt.stream.bench;

import io.jolt.stream.local.CpuUse;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * What one {@code jolt bench} run measured, and how it is printed: the end-to-end rate beside
 * the raw verify rates of the same run (BouncyCastle's is the ratio's denominator: the crypto
 * limit of the rule's definition), the first minute beside the steady rate, and where the timed
 * part's CPU went.
 */
public record BenchResult(Shape shape, Verifier verifier, WarmUp warmUp, Timed timed, RawRates bouncyCastle, RawRates libsodium, Writes writes) {
    /** What ran: entries, identities, devices, stream threads, partitions. */
    public record Shape(int entries, int identities, int devices, int streamThreads, int partitions) {}

    /** The process's signature verifier and why it was chosen. */
    public record Verifier(String name, String reason) {}

    /** The untimed first part (null when the run is timed from a cold start). */
    public record WarmUp(int entries, double seconds) {}

    /**
     * The timed part: its records and seconds, the records per second in the first 60 s after the
     * service was RUNNING, what the service computed (signature and key checks, not remembered
     * ones), the processor's counters and the CPU it used.
     */
    public record Timed(long records, double seconds, double firstMinuteRecordsPerSecond, CpuUse.Cores firstMinuteCores, long signatureChecks,
            long keyChecks, Map<String, Double> counters, CpuUse.Cores cores) {}

    /** A raw verify loop's rate before the service ran and after it stopped (the machine's speed drifts within a run). */
    public record RawRates(double before, double after) {
        double mean() {
            return (before + after) / 2;
        }
    }

    /** What the whole run (warm-up and timed part) wrote to each topic, for {@code entries} entries in. */
    public record Writes(List<TopicWrites.Written> topics, long entries) {
        void print(PrintWriter out) {
            out.printf("  written per entry   records   bytes   (whole run: %,d entries in; read back read_committed, but repartitions*"
                    + " by offsets; bytes as the logs grew)%n", entries);
            for (TopicWrites.Kind kind : TopicWrites.Kind.values()) {
                List<TopicWrites.Written> of = topics.stream().filter(w -> w.kind() == kind).toList();
                if (!of.isEmpty()) {
                    out.printf("    %-15s %7.2f %7.0f   %s%n", kind == TopicWrites.Kind.INPUT ? "input (not counted)" : kind.name().toLowerCase(Locale.ROOT),
                            perEntry(of, TopicWrites.Written::records), perEntry(of, TopicWrites.Written::bytes), detail(of));
                }
            }
            List<TopicWrites.Written> written = topics.stream().filter(w -> w.kind() != TopicWrites.Kind.INPUT).toList();
            out.printf("    %-15s %7.2f %7.0f%n", "total", perEntry(written, TopicWrites.Written::records), perEntry(written, TopicWrites.Written::bytes));
        }

        private double perEntry(List<TopicWrites.Written> of, ToLongFunction<TopicWrites.Written> what) {
            return (double) of.stream().mapToLong(what).filter(n -> n >= 0).sum() / entries;
        }

        private String detail(List<TopicWrites.Written> of) {
            StringBuilder s = new StringBuilder();
            for (TopicWrites.Written w : of) {
                s.append(s.isEmpty() ? "" : ", ").append(w.label()).append(w.purged() ? "*" : "")
                        .append(String.format(" %.2f", (double) w.records() / entries))
                        .append(w.purged() ? "" : String.format(" (%.0f B)", (double) w.bytes() / entries));
            }
            return s.toString();
        }
    }

    double rate() {
        return shape.entries() / timed.seconds();
    }

    public void print(PrintWriter out) {
        out.printf("%njolt bench: %,d entries (%,d identities x %d devices), %d stream thread(s), %d partitions, exactly once%n",
                shape.entries(), shape.identities(), shape.devices(), shape.streamThreads(), shape.partitions());
        out.printf("  verifier            %s (%s)%n", verifier.name(), verifier.reason());
        if (warmUp != null) {
            out.printf("  warm-up             %,d entries of other identities in %.1f s from service start (not timed)%n",
                    warmUp.entries(), warmUp.seconds());
        }
        out.printf("  end to end          %,.0f entries/s  (%,d records in %.1f s, %s to all committed)%n",
                rate(), timed.records(), timed.seconds(), warmUp != null ? "from the end of the warm-up" : "from service start");
        double steadyRecords = timed.records() / timed.seconds();
        out.printf("  first minute        %,.0f records/s in the first 60 s after RUNNING, %.2f of the timed part's %,.0f records/s%n",
                timed.firstMinuteRecordsPerSecond(), timed.firstMinuteRecordsPerSecond() / steadyRecords, steadyRecords);
        if (timed.firstMinuteCores() != null) {
            CpuUse.Cores c = timed.firstMinuteCores();
            out.printf("                      cpu then: service %.2f cores (stream threads %.2f, JIT %.2f), broker %s%n", c.service(),
                    c.streamThreads(), c.jit(), c.broker().map(b -> String.format("%.2f", b)).orElse("not counted"));
        }
        out.printf("  raw Ed25519 verify  %,.0f verifies/s with %d thread(s)  (BouncyCastle, same run: %,.0f before, %,.0f after)%n",
                bouncyCastle.mean(), shape.streamThreads(), bouncyCastle.before(), bouncyCastle.after());
        if (libsodium != null) {
            out.printf("                      %,.0f verifies/s  (libsodium, same run: %,.0f before, %,.0f after): %.2fx BouncyCastle%n",
                    libsodium.mean(), libsodium.before(), libsodium.after(), libsodium.mean() / bouncyCastle.mean());
        }
        out.printf("ratio: %.2f%n", rate() / bouncyCastle.mean());
        printCpu(out);
        StringBuilder work = new StringBuilder();
        timed.counters().forEach((k, v) -> {
            if (v > 0) {
                work.append(String.format("%s=%,.0f ", k, v));
            }
        });
        out.printf("  processor           %s%n", work.toString().strip());
        writes.print(out);
        out.flush();
    }

    private void printCpu(PrintWriter out) {
        CpuUse.Cores cores = timed.cores();
        // A raw verify costs threads/rate seconds of one core: what the service's checks cost too, at best. Key checks are
        // BouncyCastle's always; signature checks cost the verifier's raw price (libsodium's for native-first).
        double bcSeconds = shape.streamThreads() / bouncyCastle.mean();
        double signatureSeconds = libsodium != null ? shape.streamThreads() / libsodium.mean() : bcSeconds;
        double signatureCores = (timed.signatureChecks() * signatureSeconds + timed.keyChecks() * bcSeconds) / cores.seconds();
        out.printf("  cpu, timed part     service %.2f cores (stream threads %.2f, JIT %.2f), broker %s: %.2f of the machine's %d cores%n",
                cores.service(), cores.streamThreads(), cores.jit(),
                cores.broker().map(b -> String.format("%.2f", b)).orElse("not local, not counted"),
                cores.total(), Runtime.getRuntime().availableProcessors());
        out.printf("  Ed25519             %.2f cores (%,d signature checks x %.0f µs, %,d key checks x %.0f µs, the raw loops' costs):"
                + " %.0f%% of the CPU used%n", signatureCores, timed.signatureChecks(), signatureSeconds * 1e6, timed.keyChecks(),
                bcSeconds * 1e6, 100 * signatureCores / cores.total());
        double cpuPerEntry = cores.total() * cores.seconds() / shape.entries() * 1e6;
        double ed25519PerEntry = signatureCores * cores.seconds() / shape.entries() * 1e6;
        out.printf("  per entry           %.0f µs of CPU: Ed25519 %.0f, stream threads otherwise %.0f, service's other threads %.0f, broker %s%n",
                cpuPerEntry, ed25519PerEntry, cores.streamThreads() * cores.seconds() / shape.entries() * 1e6 - ed25519PerEntry,
                (cores.service() - cores.streamThreads()) * cores.seconds() / shape.entries() * 1e6,
                cores.broker().map(b -> String.format("%.0f", b * cores.seconds() / shape.entries() * 1e6)).orElse("not counted"));
    }
}
